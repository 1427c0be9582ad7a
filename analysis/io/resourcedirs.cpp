#include "io/resourcedirs.h"

namespace rl::io {
namespace fs = std::filesystem;

std::vector<fs::path> resourceDirCandidates()
{
    std::vector<fs::path> out;
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (!ec)
        out.push_back((self.parent_path() / ".." / "share" / "ridgeline").lexically_normal());
    out.emplace_back(RIDGELINE_INSTALL_RESOURCE_DIR);
    out.emplace_back(RIDGELINE_SOURCE_RESOURCE_DIR);
    return out;
}

fs::path findResourceDir(const std::string& subdir)
{
    std::error_code ec;
    for (const auto& dir : resourceDirCandidates())
        if (fs::is_directory(dir / subdir, ec))
            return dir / subdir;
    return fs::path(RIDGELINE_SOURCE_RESOURCE_DIR) / subdir;
}
} // namespace rl::io
