#pragma once
// How the store packs numbers and strings into a blob (a block of collective points, a session's
// outline): numbers fixed-width as they lie in memory, strings as a u32 length and their bytes.
// The file is read where it was written and elsewhere: every machine Ridgeline builds for (x86-64,
// aarch64, ppc64le) stores numbers little-endian, so they are copied as they are.
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace rl::store {
static_assert(std::endian::native == std::endian::little, "the store's blobs are little-endian");

template <typename T> void putPacked(std::string& out, T v)
{
    char bytes[sizeof(T)];
    std::memcpy(bytes, &v, sizeof(T));
    out.append(bytes, sizeof(T));
}

inline void putPackedString(std::string& out, std::string_view s)
{
    putPacked(out, static_cast<std::uint32_t>(s.size()));
    out.append(s);
}

// Reads what putPacked and putPackedString wrote, each read checked against the end: one that
// would run past it (damaged bytes) returns false and moves nothing.
class PackedReader
{
public:
    explicit PackedReader(std::string_view bytes) : m_bytes(bytes) {}
    bool atEnd() const { return m_at == m_bytes.size(); }
    std::size_t offset() const { return m_at; }
    void seek(std::size_t at) { m_at = at; } // back to an offset() read before
    bool take(void* out, std::size_t n)
    {
        if (n > m_bytes.size() - m_at)
            return false;
        std::memcpy(out, m_bytes.data() + m_at, n);
        m_at += n;
        return true;
    }
    bool takeString(std::string_view& out)
    {
        std::uint32_t n = 0;
        if (!take(&n, sizeof n) || n > m_bytes.size() - m_at)
            return false;
        out = m_bytes.substr(m_at, n);
        m_at += n;
        return true;
    }
    bool skip(std::size_t n)
    {
        if (n > m_bytes.size() - m_at)
            return false;
        m_at += n;
        return true;
    }

private:
    std::string_view m_bytes;
    std::size_t m_at = 0;
};
} // namespace rl::store
