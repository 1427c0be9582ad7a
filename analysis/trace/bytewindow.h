#pragma once
// A sliding window over a decompressed input stream with simdjson's padding behind the data, so
// complete JSON values in it can be parsed in place or copied out. Internal to the trace reader.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <istream>
#include <string>
#include <vector>

#include <simdjson.h>

#include "trace/kinetoreader.h"

namespace rl::trace {

// The decompressed input as a sliding window of bytes with simdjson padding behind it.
class ByteWindow
{
public:
    ByteWindow(std::istream& in, std::size_t chunk) : m_in(in), m_chunk(chunk) { m_buf.resize(chunk + simdjson::SIMDJSON_PADDING); }

    const char* data() const { return m_buf.data(); }
    std::size_t size() const { return m_end; }
    std::int64_t offsetOf(std::size_t i) const { return m_base + static_cast<std::int64_t>(i); }
    bool eof() const { return m_eof; }

    // Drops the bytes before keepFrom (indices shift down by keepFrom: callers subtract it) and
    // reads more; returns false when nothing more could be read.
    bool refill(std::size_t keepFrom)
    {
        const std::size_t keep = m_end - keepFrom;
        std::memmove(m_buf.data(), m_buf.data() + keepFrom, keep);
        m_base += static_cast<std::int64_t>(keepFrom);
        m_end = keep;
        if (m_eof)
            return false;
        if (m_buf.size() - simdjson::SIMDJSON_PADDING - m_end < m_chunk / 2) // one huge value: grow
            m_buf.resize((m_buf.size() - simdjson::SIMDJSON_PADDING) * 2 + simdjson::SIMDJSON_PADDING);
        // Read in slices so a read error (corrupt gzip) is reported near where it happened.
        const std::size_t room = std::min<std::size_t>(m_buf.size() - simdjson::SIMDJSON_PADDING - m_end, 1 << 20);
        try {
            m_in.read(m_buf.data() + m_end, static_cast<std::streamsize>(room));
        } catch (const std::exception& e) {
            throw TraceError(offsetOf(m_end), std::string("cannot decompress or read: ") + e.what());
        }
        const auto got = static_cast<std::size_t>(m_in.gcount());
        if (m_in.bad())
            throw TraceError(offsetOf(m_end), "read error");
        if (got == 0) {
            m_eof = true;
            return false;
        }
        m_end += got;
        return true;
    }

private:
    std::istream& m_in;
    std::size_t m_chunk;
    std::vector<char> m_buf;
    std::size_t m_end = 0;
    std::int64_t m_base = 0;
    bool m_eof = false;
};

} // namespace rl::trace
