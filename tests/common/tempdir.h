#pragma once
// The temporary folder of every test (unit, CLI, integration, Slurm, widget): a fresh private
// folder under /tmp (mkdtemp), removed with everything in it when the TempDir goes, so each test
// starts empty and leaves nothing behind. tests/CMakeLists.txt puts tests/common on every test's
// include path. Qt tests (QT_CORE_LIB defined, as for anything linking Qt6::Core) also get the path
// as a QString; the analysis-only tests do not see Qt here.
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>

#ifdef QT_CORE_LIB
#include <QString>
#endif

namespace rl::test {

struct TempDir
{
    std::filesystem::path path;

    // prefix names the folder (/tmp/<prefix>-XXXXXX) so a stray one says whose it is.
    explicit TempDir(const std::string& prefix = "ridgeline-test")
    {
        std::string tmpl = "/tmp/" + prefix + "-XXXXXX";
        if (!mkdtemp(tmpl.data()))
            throw std::runtime_error("mkdtemp " + tmpl + ": " + std::strerror(errno));
        path = tmpl;
    }
    ~TempDir()
    {
        std::error_code ec; // a destructor does not throw; what cannot go stays in /tmp
        std::filesystem::remove_all(path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

#ifdef QT_CORE_LIB
    QString qpath() const { return QString::fromStdString(path.string()); }
    // As QTemporaryDir::filePath: name inside the folder.
    QString filePath(const QString& name) const { return qpath() + u'/' + name; }
#endif
};
} // namespace rl::test
