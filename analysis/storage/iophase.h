#pragma once
// The per-rank half of `ridgeline-bench io`: write or read one byte range of one file in fixed-size
// blocks with POSIX pwrite/pread, timed from before open() to after close() (fsync included when
// asked). MPI-free: the runner adds the barriers and the reduction over ranks (iosweep.h).
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace rl::storage {

struct IoRange
{
    std::string path;
    std::int64_t offset = 0;      // first byte of this rank's range (shared file), 0 for its own file
    std::int64_t bytes = 0;
    std::int64_t blockBytes = 1 << 20;
    bool fsync = false;           // write: fsync() before close(), inside the timed span
    bool direct = false;          // O_DIRECT: offset, size and block must be multiples of 4 KiB
    bool truncate = true;         // write: O_CREAT|O_TRUNC (own file); false: the shared file exists
};

struct IoTiming
{
    double firstByteS = 0;        // from before open() to the first call's return
    double totalS = 0;            // from before open() to after close()
    std::int64_t bytesDone = 0;
    int error = 0;                // errno of the first failure, 0 when none
    std::string message;          // "write /d/f: No space left on device after 3 MiB of 16 MiB"
    bool cancelled = false;       // cancel() returned true between two blocks
};

using CancelFn = std::function<bool()>;

// Empty when the range can be done as asked, else why not (alignment under O_DIRECT, sizes).
std::string checkRange(const IoRange& r);
IoTiming writeRange(const IoRange& r, const CancelFn& cancel = {});
IoTiming readRange(const IoRange& r, const CancelFn& cancel = {});
// Makes a later read come from the device, not the page cache: fdatasync, then POSIX_FADV_DONTNEED
// over the range (clean pages only, hence the sync). Untimed. Returns errno (0 = done).
int dropCachedRange(const std::string& path, std::int64_t offset, std::int64_t bytes);

// The benchmark's own files, removed by removeAll() and at destruction: on success, on error and
// when a signal cancelled the run between two blocks.
class ScratchFiles
{
public:
    ScratchFiles() = default;
    ~ScratchFiles() { removeAll(); }
    ScratchFiles(const ScratchFiles&) = delete;
    ScratchFiles& operator=(const ScratchFiles&) = delete;
    void add(const std::string& path);
    void remove(const std::string& path); // unlinks now; a missing file is fine
    int removeAll();                      // how many existed
private:
    std::vector<std::string> m_paths;
};
} // namespace rl::storage
