#include "io/userpaths.h"

#include <cstdlib>
#include <filesystem>

namespace rl::io {
std::string userDataDir()
{
    namespace fs = std::filesystem;
    if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg)
        return (fs::path(xdg) / "ridgeline").string();
    const char* home = std::getenv("HOME");
    return (fs::path(home ? home : ".") / ".local" / "share" / "ridgeline").string();
}
} // namespace rl::io
