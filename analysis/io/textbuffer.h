#pragma once
// Row-by-row text output for exports of millions of points: fields are formatted into one
// reused buffer (std::to_chars, no locale, no per-field strings) and handed to the stream in
// 256 KiB blocks. A JSON line per point through nlohmann::json, or a CSV row as a vector of
// strings, costs several allocations per field; this costs none once the buffer has grown.
#include <charconv>
#include <cmath>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

namespace rl::io {

class TextBuffer
{
public:
    explicit TextBuffer(std::ostream& out) : m_out(out) { m_buf.reserve(kBlock + 4096); }
    TextBuffer(const TextBuffer&) = delete;
    TextBuffer& operator=(const TextBuffer&) = delete;

    TextBuffer& text(std::string_view s)
    {
        m_buf.append(s);
        return *this;
    }
    TextBuffer& ch(char c)
    {
        m_buf.push_back(c);
        return *this;
    }
    TextBuffer& integer(std::int64_t v)
    {
        char tmp[24];
        const auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
        m_buf.append(tmp, r.ptr);
        return *this;
    }
    // Shortest form that reads back to the same double ("0.25", "1.5e+09"); the caller decides
    // what a non-finite value becomes (JSON has no inf or nan).
    TextBuffer& real(double v)
    {
        char tmp[32];
        const auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
        m_buf.append(tmp, r.ptr);
        return *this;
    }
    // Ends a row: hands a full block to the stream.
    void endRow()
    {
        if (m_buf.size() >= kBlock)
            flush();
    }
    // Explicit, never in a destructor: a write error must reach the caller, who checks the stream.
    void flush()
    {
        m_out.write(m_buf.data(), static_cast<std::streamsize>(m_buf.size()));
        m_buf.clear();
    }

private:
    static constexpr std::size_t kBlock = 256 * 1024;
    std::ostream& m_out;
    std::string m_buf;
};
} // namespace rl::io
