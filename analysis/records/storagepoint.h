#pragma once
// One storage measurement: every active rank wrote (or read back) its range once, started together
// after a barrier. Produced by `ridgeline-bench io` and by the fio and IOR importers ("storage"
// session kind); the resilience planner reads its bandwidths.
#include <cstdint>
#include <string>
#include <vector>

namespace rl {

namespace storage_access {
inline constexpr const char* FilePerProcess = "file-per-process";
inline constexpr const char* SharedFile = "shared-file";
} // namespace storage_access

struct StoragePoint
{
    std::string op;                 // "write" or "read"
    std::string access = storage_access::FilePerProcess;
    int nranks = 1;                 // ranks (or fio jobs) doing I/O at once
    std::int64_t fileBytes = 0;     // per rank: its own file, or its range of the shared file
    std::int64_t blockBytes = 0;    // bytes per read/write call
    bool fsync = false;             // writes: fsync before close, inside the timed span
    bool direct = false;            // O_DIRECT
    double aggregateGBs = 0;        // all ranks' bytes / the slowest rank's time, GB/s (1e9 B/s)
    double meanRankGBs = 0;         // per-rank bandwidth (own bytes / own time): mean, min, max
    double minRankGBs = 0;
    double maxRankGBs = 0;
    int slowestRank = -1;           // -1 when the tool does not say
    double timeS = 0;               // the slowest rank's open-to-close time
    double firstByteUs = 0;         // time to first byte: open + first call, worst rank (0: unknown)
    double firstByteMeanUs = 0;     // the same, mean over ranks
    int repeats = 1;                // runs behind this point (the median run by aggregate is kept)
    std::vector<double> rankGBs = {}; // per rank in rank order; empty when not reported

    friend bool operator==(const StoragePoint&, const StoragePoint&) = default;
};
} // namespace rl
