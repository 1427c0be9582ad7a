#pragma once
// What `ridgeline-bench io` measures and how the ranks' timings become one StoragePoint. Pure
// functions (the MPI loop lives in app/bench/iocommand.cpp) so planning and the reduction over
// ranks are unit-tested without MPI.
#include <cstdint>
#include <string>
#include <vector>

#include "records/storagepoint.h"
#include "storage/iophase.h"

namespace rl::storage {

struct IoSweepConfig
{
    std::vector<std::int64_t> fileBytes{64ll << 20, 256ll << 20}; // per rank
    std::vector<std::int64_t> blockBytes{1 << 20, 16 << 20};
    std::vector<std::string> access{storage_access::FilePerProcess}; // and/or SharedFile
    std::vector<int> ranks;       // active rank counts; empty: powers of two up to the world, and the world
    bool fsync = false;
    bool direct = false;
    bool dropCache = true;        // fdatasync + FADV_DONTNEED before each read
    int repeats = 1;              // per case; the median run by aggregate bandwidth is reported
};

// One write-then-read measurement: `nranks` ranks (0..nranks-1) each with `fileBytes`.
struct IoCase
{
    std::string access;
    int nranks = 1;
    std::int64_t fileBytes = 0;
    std::int64_t blockBytes = 0;
};

// Every case in run order (access, ranks, file size, block size); blocks larger than the file are
// left out. Throws std::invalid_argument naming the bad value (rank count above the world, sizes
// not 4 KiB multiples under O_DIRECT, ...).
std::vector<IoCase> planIoSweep(const IoSweepConfig& config, int worldSize);
// "fpp", "file-per-process", "shared", "shared-file" -> the stored names; throws on others.
std::string canonicalAccess(const std::string& name);
// The largest number of bytes on the file system at once (files are removed after each case).
std::int64_t peakScratchBytes(const std::vector<IoCase>& plan);
// dir/ridgeline-io.<tag>.<rank>, or dir/ridgeline-io.<tag>.shared for the shared file.
std::string scratchPath(const std::string& dir, const std::string& tag, const std::string& access, int rank);
// The range rank `rank` writes and reads in this case.
IoRange rangeOf(const IoCase& c, const std::string& path, int rank, bool fsync, bool direct);

// Reduces the active ranks' timings (rank order) of one phase: aggregate = all bytes / slowest
// time; per-rank bandwidth = own bytes / own time.
StoragePoint summarize(const IoCase& c, const std::string& op, bool fsync, bool direct,
                       const std::vector<IoTiming>& ranks);
// The run with the median aggregate bandwidth (lower median for an even count), repeats set.
StoragePoint medianRun(std::vector<StoragePoint> runs);
} // namespace rl::storage
