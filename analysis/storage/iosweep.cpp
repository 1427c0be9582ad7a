#include "storage/iosweep.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "units/units.h"

namespace rl::storage {

std::string canonicalAccess(const std::string& name)
{
    if (name == "fpp" || name == storage_access::FilePerProcess)
        return storage_access::FilePerProcess;
    if (name == "shared" || name == "ssf" || name == storage_access::SharedFile)
        return storage_access::SharedFile;
    throw std::invalid_argument("unknown access \"" + name + "\" (fpp, shared)");
}

std::vector<IoCase> planIoSweep(const IoSweepConfig& config, int worldSize)
{
    if (worldSize < 1)
        throw std::invalid_argument("no ranks");
    if (config.repeats < 1)
        throw std::invalid_argument("--repeats must be at least 1");
    std::vector<int> ranks = config.ranks;
    if (ranks.empty()) {
        for (int n = 1; n < worldSize; n *= 2)
            ranks.push_back(n);
        ranks.push_back(worldSize);
    }
    for (int n : ranks)
        if (n < 1 || n > worldSize)
            throw std::invalid_argument("--ranks " + std::to_string(n) + " is outside 1.." + std::to_string(worldSize) +
                                        " (the ranks the launcher started)");
    if (config.fileBytes.empty() || config.blockBytes.empty() || config.access.empty())
        throw std::invalid_argument("empty size, block or access list");
    std::vector<IoCase> plan;
    for (const auto& a : config.access)
        for (int n : ranks)
            for (auto file : config.fileBytes)
                for (auto block : config.blockBytes) {
                    if (file < 1 || block < 1)
                        throw std::invalid_argument("sizes must be positive");
                    if (block > file)
                        continue;
                    IoCase c{canonicalAccess(a), n, file, block};
                    if (auto why = checkRange(rangeOf(c, "x", n - 1, config.fsync, config.direct)); !why.empty())
                        throw std::invalid_argument(why);
                    plan.push_back(c);
                }
    if (plan.empty())
        throw std::invalid_argument("every block size is larger than every file size");
    return plan;
}

std::int64_t peakScratchBytes(const std::vector<IoCase>& plan)
{
    std::int64_t peak = 0;
    for (const auto& c : plan)
        peak = std::max(peak, c.fileBytes * c.nranks);
    return peak;
}

std::string scratchPath(const std::string& dir, const std::string& tag, const std::string& access, int rank)
{
    std::string base = dir.empty() ? std::string(".") : dir;
    if (base.back() != '/')
        base += '/';
    return base + "ridgeline-io." + tag + "." +
           (access == storage_access::SharedFile ? std::string("shared") : std::to_string(rank));
}

IoRange rangeOf(const IoCase& c, const std::string& path, int rank, bool fsync, bool direct)
{
    IoRange r;
    r.path = path;
    r.bytes = c.fileBytes;
    r.blockBytes = c.blockBytes;
    r.fsync = fsync;
    r.direct = direct;
    const bool shared = c.access == storage_access::SharedFile;
    r.offset = shared ? c.fileBytes * rank : 0;
    r.truncate = !shared;
    return r;
}

StoragePoint summarize(const IoCase& c, const std::string& op, bool fsync, bool direct,
                       const std::vector<IoTiming>& ranks)
{
    StoragePoint p;
    p.op = op;
    p.access = c.access;
    p.nranks = static_cast<int>(ranks.size());
    p.fileBytes = c.fileBytes;
    p.blockBytes = c.blockBytes;
    p.fsync = fsync && op == "write";
    p.direct = direct;
    if (ranks.empty())
        return p;
    double bytes = 0, firstSum = 0;
    p.minRankGBs = 1e300;
    for (std::size_t r = 0; r < ranks.size(); ++r) {
        const auto& t = ranks[r];
        bytes += double(t.bytesDone);
        const double gbs = t.totalS > 0 ? double(t.bytesDone) / t.totalS / 1e9 : 0;
        p.rankGBs.push_back(gbs);
        p.minRankGBs = std::min(p.minRankGBs, gbs);
        p.maxRankGBs = std::max(p.maxRankGBs, gbs);
        if (t.totalS > p.timeS) {
            p.timeS = t.totalS;
            p.slowestRank = static_cast<int>(r);
        }
        p.firstByteUs = std::max(p.firstByteUs, t.firstByteS * 1e6);
        firstSum += t.firstByteS * 1e6;
    }
    p.meanRankGBs = std::accumulate(p.rankGBs.begin(), p.rankGBs.end(), 0.0) / double(ranks.size());
    p.firstByteMeanUs = firstSum / double(ranks.size());
    p.aggregateGBs = p.timeS > 0 ? bytes / p.timeS / 1e9 : 0;
    return p;
}

StoragePoint medianRun(std::vector<StoragePoint> runs)
{
    if (runs.empty())
        throw std::invalid_argument("no runs");
    const int n = static_cast<int>(runs.size());
    std::sort(runs.begin(), runs.end(),
              [](const StoragePoint& a, const StoragePoint& b) { return a.aggregateGBs < b.aggregateGBs; });
    StoragePoint p = runs[std::size_t(n - 1) / 2];
    p.repeats = n;
    return p;
}
} // namespace rl::storage
