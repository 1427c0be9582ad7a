#include "records/importresult.h"

namespace rl {
std::string describeLocation(const std::string& path, const SourceLocation& where)
{
    if (where.line > 0)
        return path + ":" + std::to_string(where.line);
    if (where.byteOffset > 0)
        return path + ": byte " + std::to_string(where.byteOffset);
    return path;
}
} // namespace rl
