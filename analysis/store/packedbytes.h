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
} // namespace rl::store
