#pragma once
// Follows a file another process appends to (a Slurm job's output file) and hands over each
// complete line once: a line written in pieces is handed over when its newline arrives. The file
// may not exist yet (a pending job); a file that shrinks or is replaced is read again from its start.
#include <cstdint>
#include <functional>
#include <string>

namespace rl::slurm {

class FileTail
{
public:
    using LineFn = std::function<void(const std::string& line)>;
    explicit FileTail(std::string path);
    ~FileTail();
    FileTail(const FileTail&) = delete;
    FileTail& operator=(const FileTail&) = delete;
    // Reads what was appended since the last call; calls onLine for every line completed by it
    // (without its "\n" or "\r\n"). Returns the number of lines handed over.
    std::size_t poll(const LineFn& onLine);
    // After the writer has finished: poll(), then the last line when the file does not end in a
    // newline.
    std::size_t finish(const LineFn& onLine);
    const std::string& path() const { return path_; }
    std::uint64_t offset() const { return offset_; }

private:
    std::string path_;
    std::uint64_t offset_ = 0;
    int fd_ = -1; // held open, so a replaced file is told apart by its inode
    std::string partial_;
};
} // namespace rl::slurm
