#include "slurm/filetail.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rl::slurm {

FileTail::FileTail(std::string path) : path_(std::move(path)) {}

FileTail::~FileTail()
{
    if (fd_ >= 0)
        ::close(fd_);
}

std::size_t FileTail::poll(const LineFn& onLine)
{
    struct stat named{}, held{};
    if (::stat(path_.c_str(), &named) != 0)
        return 0; // not there yet (or removed: what was read stays read)
    if (fd_ >= 0 && (::fstat(fd_, &held) != 0 || held.st_ino != named.st_ino || held.st_dev != named.st_dev)) {
        ::close(fd_); // replaced by a new file: read that one from its start
        fd_ = -1;
        offset_ = 0;
        partial_.clear();
    }
    if (fd_ < 0) {
        fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd_ < 0)
            return 0;
    }
    struct stat st{};
    if (::fstat(fd_, &st) != 0)
        return 0;
    if (static_cast<std::uint64_t>(st.st_size) < offset_) { // truncated: start over
        offset_ = 0;
        partial_.clear();
    }
    std::size_t lines = 0;
    char buf[65536];
    for (;;) {
        const ssize_t r = ::pread(fd_, buf, sizeof buf, static_cast<off_t>(offset_));
        if (r <= 0)
            break;
        offset_ += static_cast<std::uint64_t>(r);
        std::size_t start = 0;
        for (std::size_t i = 0; i < static_cast<std::size_t>(r); ++i) {
            if (buf[i] != '\n')
                continue;
            partial_.append(buf + start, i - start);
            if (!partial_.empty() && partial_.back() == '\r')
                partial_.pop_back();
            if (onLine)
                onLine(partial_);
            partial_.clear();
            ++lines;
            start = i + 1;
        }
        partial_.append(buf + start, static_cast<std::size_t>(r) - start);
    }
    return lines;
}

std::size_t FileTail::finish(const LineFn& onLine)
{
    std::size_t lines = poll(onLine);
    if (!partial_.empty()) {
        if (onLine)
            onLine(partial_);
        partial_.clear();
        ++lines;
    }
    return lines;
}
} // namespace rl::slurm
