#pragma once
// A folder that this test process (and the programs it starts) sees read-only, as a workspace on
// a read-only mount or in a folder its user cannot write. The tests run as root here, and root
// ignores permission bits, so chmod cannot make one; a read-only mount stops root too. The mount
// lives in a private mount namespace (unshare), so nothing outside the test sees it and it goes
// away with the process. Needs CAP_SYS_ADMIN: where that is missing, the test is skipped with why.
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <sched.h>
#include <sys/mount.h>

namespace rl::test {

class ReadOnlyMount
{
public:
    explicit ReadOnlyMount(const std::filesystem::path& folder) : m_folder(folder.string())
    {
        // Private first: a bind mount made in a namespace that still shares / with the host
        // would propagate to it.
        if (::unshare(CLONE_NEWNS) != 0)
            m_error = std::string("unshare(CLONE_NEWNS): ") + std::strerror(errno);
        else if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
            m_error = std::string("mount --make-rprivate /: ") + std::strerror(errno);
        else if (::mount(m_folder.c_str(), m_folder.c_str(), nullptr, MS_BIND, nullptr) != 0)
            m_error = std::string("mount --bind: ") + std::strerror(errno);
        else if (::mount(nullptr, m_folder.c_str(), nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY, nullptr) != 0)
            m_error = std::string("mount -o remount,bind,ro: ") + std::strerror(errno);
        else
            m_mounted = true;
    }
    ~ReadOnlyMount()
    {
        if (m_mounted)
            ::umount2(m_folder.c_str(), MNT_DETACH);
    }
    ReadOnlyMount(const ReadOnlyMount&) = delete;
    ReadOnlyMount& operator=(const ReadOnlyMount&) = delete;

    // Empty when the folder is read-only now; else why it could not be made so (for GTEST_SKIP).
    const std::string& error() const { return m_error; }

private:
    std::string m_folder;
    std::string m_error;
    bool m_mounted = false;
};
} // namespace rl::test
