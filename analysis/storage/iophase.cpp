#include "storage/iophase.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <unistd.h>

#include "units/units.h"

namespace rl::storage {
namespace {
constexpr std::int64_t kDirectAlign = 4096;
using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

struct FreeDeleter
{
    void operator()(void* p) const { std::free(p); }
};
using Buffer = std::unique_ptr<std::byte, FreeDeleter>;

// Page-aligned (O_DIRECT needs it) and filled with a non-repeating pattern, so compressing or
// deduplicating storage cannot turn the write into a no-op.
Buffer makeBuffer(std::int64_t bytes, bool fill)
{
    const std::size_t size = static_cast<std::size_t>((bytes + kDirectAlign - 1) / kDirectAlign * kDirectAlign);
    void* p = std::aligned_alloc(kDirectAlign, size);
    if (!p)
        throw std::bad_alloc();
    if (fill) {
        auto* words = static_cast<std::uint64_t*>(p);
        std::uint64_t x = 0x9E3779B97F4A7C15ull ^ reinterpret_cast<std::uintptr_t>(p);
        for (std::size_t i = 0; i < size / sizeof(std::uint64_t); ++i) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17; // xorshift64
            words[i] = x;
        }
    }
    return Buffer(static_cast<std::byte*>(p));
}

IoTiming fail(IoTiming t, int err, const char* what, const IoRange& r)
{
    t.error = err ? err : EIO;
    t.message = std::string(what) + " " + r.path + ": " + std::strerror(t.error);
    if (std::string_view(what) != "open")
        t.message += " after " + units::formatBytes(double(t.bytesDone)) + " of " + units::formatBytes(double(r.bytes));
    if (err == EINVAL && r.direct)
        t.message += " (O_DIRECT is not supported here, or sizes are not 4 KiB multiples)";
    return t;
}

template <typename Call>
IoTiming runRange(const IoRange& r, bool writing, const CancelFn& cancel, Call&& call)
{
    IoTiming t;
    if (auto why = checkRange(r); !why.empty()) {
        t.error = EINVAL;
        t.message = why;
        return t;
    }
    const Buffer buffer = makeBuffer(std::min(r.blockBytes, std::max<std::int64_t>(r.bytes, 1)), writing);
    int flags = writing ? O_WRONLY | O_CREAT | (r.truncate ? O_TRUNC : 0) : O_RDONLY;
    if (r.direct)
        flags |= O_DIRECT;
    const auto t0 = Clock::now();
    const int fd = ::open(r.path.c_str(), flags | O_CLOEXEC, 0644);
    if (fd < 0)
        return fail(t, errno, "open", r);
    // The range is streamed front to back, as a checkpoint shard is: say so, and Linux doubles the
    // read-ahead window (fio does the same by default, fadvise_hint=1; without it buffered reads
    // from a cold cache measured ~14 % slower than fio's here). Only a hint: failure changes nothing.
    if (!r.direct)
        ::posix_fadvise(fd, r.offset, r.bytes, POSIX_FADV_SEQUENTIAL);
    bool first = true;
    while (t.bytesDone < r.bytes) {
        if (cancel && cancel()) {
            t.cancelled = true;
            break;
        }
        const std::int64_t want = std::min(r.blockBytes, r.bytes - t.bytesDone);
        std::int64_t done = 0;
        while (done < want) { // short transfers are legal: finish the block
            const ssize_t n = call(fd, buffer.get() + done, static_cast<std::size_t>(want - done),
                                   static_cast<off_t>(r.offset + t.bytesDone + done));
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                const int err = n < 0 ? errno : (writing ? ENOSPC : ENODATA);
                t.bytesDone += done;
                ::close(fd);
                return fail(t, err, writing ? "write" : "read", r);
            }
            done += n;
        }
        t.bytesDone += done;
        if (first) {
            t.firstByteS = since(t0);
            first = false;
        }
    }
    if (writing && r.fsync && !t.cancelled && ::fsync(fd) != 0) {
        const int err = errno;
        ::close(fd);
        return fail(t, err, "fsync", r);
    }
    // close() reports delayed write errors (NFS, full disks with delayed allocation).
    if (::close(fd) != 0 && writing && !t.cancelled)
        return fail(t, errno, "close", r);
    t.totalS = since(t0);
    return t;
}
} // namespace

std::string checkRange(const IoRange& r)
{
    if (r.path.empty())
        return "no file path";
    if (r.bytes < 1 || r.blockBytes < 1 || r.offset < 0)
        return "file size and block size must be positive";
    if (r.direct && (r.blockBytes % kDirectAlign || r.bytes % kDirectAlign || r.offset % kDirectAlign))
        return "O_DIRECT needs the file size (" + std::to_string(r.bytes) + " B) and block size (" +
               std::to_string(r.blockBytes) + " B) to be multiples of 4 KiB";
    return {};
}

IoTiming writeRange(const IoRange& r, const CancelFn& cancel)
{
    return runRange(r, true, cancel, [](int fd, const std::byte* p, std::size_t n, off_t at) {
        return ::pwrite(fd, p, n, at);
    });
}

IoTiming readRange(const IoRange& r, const CancelFn& cancel)
{
    return runRange(r, false, cancel, [](int fd, std::byte* p, std::size_t n, off_t at) {
        return ::pread(fd, p, n, at);
    });
}

int dropCachedRange(const std::string& path, std::int64_t offset, std::int64_t bytes)
{
    const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return errno;
    int err = ::fdatasync(fd) == 0 ? 0 : errno;
    if (!err)
        err = ::posix_fadvise(fd, offset, bytes, POSIX_FADV_DONTNEED);
    ::close(fd);
    return err;
}

void ScratchFiles::add(const std::string& path)
{
    if (std::find(m_paths.begin(), m_paths.end(), path) == m_paths.end())
        m_paths.push_back(path);
}

void ScratchFiles::remove(const std::string& path)
{
    ::unlink(path.c_str());
    m_paths.erase(std::remove(m_paths.begin(), m_paths.end(), path), m_paths.end());
}

int ScratchFiles::removeAll()
{
    int removed = 0;
    for (const auto& p : m_paths)
        removed += ::unlink(p.c_str()) == 0;
    m_paths.clear();
    return removed;
}
} // namespace rl::storage
