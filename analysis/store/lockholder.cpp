#include "store/lockholder.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <exception>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <vector>

namespace rl::store {
namespace {
// SQLite's unix VFS lock layout (os_unix.c, wal.c): fixed by the file format, so every version
// and every other program using the file agrees on it.
constexpr std::int64_t kPendingByte = 0x40000000;
constexpr std::int64_t kReservedByte = kPendingByte + 1;
constexpr std::int64_t kSharedFirst = kPendingByte + 2;
constexpr std::int64_t kSharedLast = kSharedFirst + 509;
constexpr std::int64_t kWalWriteLock = 120; // in -shm: WALINDEX_LOCK_OFFSET + WAL_WRITE_LOCK

struct Lock
{
    std::int64_t pid = 0;
    std::uint64_t inode = 0;
    std::int64_t first = 0, last = 0;
};

// /proc/locks, not fcntl(F_GETLK): asking through a descriptor of our own would mean closing it
// afterwards, and closing any descriptor of a file drops every POSIX lock this process holds on
// it, the locks of our own SQLite connections included. Lines read
// "7: POSIX  ADVISORY  WRITE 1234 fe:00:247066 1073741825 1073741825" (END may be "EOF"); blocked
// requests ("7: -> POSIX ...") are no one's lock.
std::vector<Lock> posixLocks()
{
    std::vector<Lock> locks;
    std::ifstream in("/proc/locks");
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream f(line);
        std::string id, kind, advisory, access, device, last;
        Lock l;
        if (!(f >> id >> kind) || kind != "POSIX" || !(f >> advisory >> access >> l.pid >> device >> l.first >> last))
            continue;
        try {
            l.inode = std::stoull(device.substr(device.rfind(':') + 1));
            l.last = last == "EOF" ? INT64_MAX : std::stoll(last);
            locks.push_back(l);
        } catch (const std::exception&) { // a line of another format: not ours to read
        }
    }
    return locks;
}

// Matched by inode alone: the device in /proc/locks is the superblock's, which an overlay file
// system reports differently from stat(); a lock at SQLite's offsets on another file with the
// same inode number is not a worry.
std::optional<std::int64_t> owner(const std::vector<Lock>& locks, const std::string& file, std::int64_t first,
                                  std::int64_t last, bool* ownProcess)
{
    struct stat st = {};
    if (::stat(file.c_str(), &st) != 0)
        return std::nullopt;
    for (const auto& l : locks) {
        if (l.inode != st.st_ino || l.last < first || l.first > last)
            continue;
        if (l.pid == ::getpid()) {
            *ownProcess = true;
            continue;
        }
        return l.pid;
    }
    return std::nullopt;
}

std::string commandLineOf(std::int64_t pid)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/cmdline", std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    while (!text.empty() && text.back() == '\0')
        text.pop_back();
    for (char& c : text)
        if (c == '\0')
            c = ' ';
    constexpr std::size_t kMax = 160;
    if (text.size() > kMax)
        text = text.substr(0, kMax) + "...";
    return text;
}
} // namespace

std::string describeLockHolder(const std::string& databasePath)
{
    const auto locks = posixLocks();
    bool ownProcess = false;
    // The writer first (RESERVED, WAL's write lock), then one in the middle of a commit (PENDING),
    // then any reader: the first is whom a waiting writer waits for, the second a waiting reader.
    auto pid = owner(locks, databasePath, kReservedByte, kReservedByte, &ownProcess);
    if (!pid)
        pid = owner(locks, databasePath + "-shm", kWalWriteLock, kWalWriteLock, &ownProcess);
    if (!pid)
        pid = owner(locks, databasePath, kPendingByte, kPendingByte, &ownProcess);
    if (!pid)
        pid = owner(locks, databasePath, kSharedFirst, kSharedLast, &ownProcess);
    if (!pid)
        return ownProcess ? "another connection in this process" : "another process";
    const std::string command = commandLineOf(*pid);
    return "process " + std::to_string(*pid) + (command.empty() ? "" : " (" + command + ")");
}
} // namespace rl::store
