#include "io/atomicfile.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace rl::io {
void writeFileAtomically(const std::string& path, const std::function<void(std::ostream&)>& write)
{
    const std::string tmp = path + ".part";
    try {
        {
            std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
            if (!f)
                throw std::runtime_error(tmp + ": cannot write: " + std::strerror(errno));
            write(f);
            if (!f.flush())
                throw std::runtime_error(tmp + ": write failed: " + std::strerror(errno));
        }
        std::filesystem::rename(tmp, path);
    } catch (const std::filesystem::filesystem_error& e) {
        std::error_code ignored;
        std::filesystem::remove(tmp, ignored);
        throw std::runtime_error(path + ": " + e.code().message());
    } catch (...) {
        std::error_code ignored;
        std::filesystem::remove(tmp, ignored);
        throw;
    }
}

void requireOutputFolder(const std::string& path, const std::string& option)
{
    const auto folder = std::filesystem::path(path).parent_path();
    std::error_code ec;
    if (folder.empty() || std::filesystem::is_directory(folder, ec))
        return;
    throw std::runtime_error("cannot write " + path + ": the folder " + folder.string() +
                             " does not exist; create it (mkdir -p " + folder.string() + ") or give " + option +
                             " a path in an existing folder");
}

void writeFileAtomically(const std::string& path, const std::string& text)
{
    writeFileAtomically(path, [&text](std::ostream& out) { out << text; });
}
} // namespace rl::io
