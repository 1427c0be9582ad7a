#include "records/importresult.h"

#include <algorithm>

namespace rl {
SourceLocation locationOfByte(const std::string& text, std::size_t byte)
{
    byte = std::min(byte, text.size());
    const auto lines = std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(byte), '\n');
    return {lines + 1, static_cast<std::int64_t>(byte)};
}

std::string describeLocation(const std::string& path, const SourceLocation& where)
{
    if (where.line > 0)
        return path + ":" + std::to_string(where.line);
    if (where.byteOffset > 0)
        return path + ": byte " + std::to_string(where.byteOffset);
    return path;
}
} // namespace rl
