#include "resilience/checkpointsize.h"

#include <algorithm>
#include <stdexcept>

#include "model/memorymodel.h"
#include "model/modelcounts.h"

namespace rl::resilience {

CheckpointSize checkpointSize(const model::ModelConfig& c, const model::ParallelConfig& p,
                              const CheckpointContents& contents)
{
    const auto counts = model::countParams(c);
    const auto held = model::trainingMemory(c, counts, p);
    CheckpointSize s;
    s.heldWeights = held.weights;
    s.heldGradients = held.gradients;
    s.heldOptimizer = held.optimizer;
    s.ranks = p.worldSize();
    // One model-parallel shard (TP x PP, EP for experts), before any DP sharding: the unit that DP
    // replicates, as the memory model splits it.
    const double dense = counts.denseTotal() / (double(p.tp) * p.pp);
    const double expert = counts.experts / (double(p.tp) * p.pp * p.ep);
    const double dp = p.dp, edp = p.expertDataParallel();
    struct State
    {
        bool saved;
        double bytesPerParam;
        bool zeroSharded;
        const char* name;
    };
    const State states[] = {{contents.weights, double(p.weightBytes), p.zeroStage >= 3, "weights"},
                            {contents.gradients, double(p.weightBytes), p.zeroStage >= 2, "gradients"},
                            {contents.optimizer, 12.0, p.zeroStage >= 1, "optimizer"}};
    double rank0 = 0, other = 0, perParamSaved = 0;
    std::vector<std::string> sharded, replicated;
    for (const auto& st : states) {
        if (!st.saved)
            continue;
        perParamSaved += st.bytesPerParam;
        const double evenShare = st.bytesPerParam * (dense / dp + expert / edp);
        if (st.zeroSharded || contents.spreadReplicated) {
            rank0 += evenShare;
            other += evenShare;
            (st.zeroSharded ? sharded : replicated).push_back(st.name);
        } else {
            rank0 += st.bytesPerParam * (dense + expert); // DP rank 0 (expert-DP rank 0) writes the whole shard
            replicated.push_back(st.name);
        }
        s.loadRankBytes += st.zeroSharded ? evenShare : st.bytesPerParam * (dense + expert);
    }
    s.totalBytes = perParamSaved * counts.total();
    s.maxRankBytes = std::max(rank0, other);
    s.meanRankBytes = s.ranks > 0 ? s.totalBytes / s.ranks : 0;
    // Every DP rank writes when anything is split evenly; else DP rank 0 of each shard (and the
    // first expert-DP replica of each expert shard: DP ranks 0..ep-1).
    s.writers = other > 0 ? p.tp * p.pp * p.dp : p.tp * p.pp * (expert > 0 ? p.ep : 1);
    s.loadTotalBytes = s.loadRankBytes * s.ranks;
    auto join = [](const std::vector<std::string>& v) {
        std::string out;
        for (const auto& x : v)
            out += (out.empty() ? "" : ", ") + x;
        return out;
    };
    if (!sharded.empty())
        s.sharding = join(sharded) + " sharded over DP (ZeRO-" + std::to_string(p.zeroStage) + ")";
    if (!replicated.empty())
        s.sharding += (s.sharding.empty() ? "" : "; ") + join(replicated) +
                      (contents.spreadReplicated ? " replicated, writes spread over the DP replicas"
                                                 : " replicated, written by DP rank 0");
    return s;
}

StorageRates ratesFromPoints(const std::vector<StoragePoint>& points, const std::string& source)
{
    StorageRates r;
    r.source = source;
    for (const char* op : {"write", "read"}) {
        std::int64_t largest = 0;
        for (const auto& p : points)
            if (p.op == op)
                largest = std::max(largest, p.fileBytes);
        const StoragePoint* best = nullptr;
        for (const auto& p : points)
            if (p.op == op && p.fileBytes == largest && (!best || p.aggregateGBs > best->aggregateGBs))
                best = &p;
        if (!best)
            throw std::runtime_error(std::string("the storage session has no ") + op + " points");
        const double perRank = best->meanRankGBs > 0 ? best->meanRankGBs : best->aggregateGBs / std::max(1, best->nranks);
        (std::string_view(op) == "write" ? r.writeAggregateGBs : r.readAggregateGBs) = best->aggregateGBs;
        (std::string_view(op) == "write" ? r.writePerRankGBs : r.readPerRankGBs) = perRank;
    }
    return r;
}

double transferSeconds(double maxRankBytes, double totalBytes, double aggregateGBs, double perRankGBs)
{
    double t = 0;
    if (aggregateGBs > 0)
        t = std::max(t, totalBytes / (aggregateGBs * 1e9));
    if (perRankGBs > 0)
        t = std::max(t, maxRankBytes / (perRankGBs * 1e9));
    return t;
}

CheckpointTimes checkpointTimes(const CheckpointSize& size, const StorageRates& rates, double snapshotGBs)
{
    if (rates.writeAggregateGBs <= 0 && rates.writePerRankGBs <= 0)
        throw std::invalid_argument("no write bandwidth");
    CheckpointTimes t;
    t.syncSaveS = transferSeconds(size.maxRankBytes, size.totalBytes, rates.writeAggregateGBs, rates.writePerRankGBs);
    // The snapshot copies what this GPU saves; a D2H copy runs on every GPU at once.
    t.hostBytesPerRank = size.maxRankBytes;
    t.asyncBlockingS = snapshotGBs > 0 ? size.maxRankBytes / (snapshotGBs * 1e9) : 0;
    t.asyncDrainS = t.syncSaveS;
    t.minAsyncIntervalS = t.asyncBlockingS + t.asyncDrainS;
    const double readAgg = rates.readAggregateGBs > 0 ? rates.readAggregateGBs : rates.writeAggregateGBs;
    const double readRank = rates.readPerRankGBs > 0 ? rates.readPerRankGBs : rates.writePerRankGBs;
    t.loadS = transferSeconds(size.loadRankBytes, size.loadTotalBytes, readAgg, readRank);
    return t;
}
} // namespace rl::resilience
