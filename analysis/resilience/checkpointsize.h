#pragma once
// What a training checkpoint holds per rank and in total, and how long saving and loading take on a
// given storage. Sizes come from the memory model (model/memorymodel.h): the bytes each GPU holds
// of weights, gradients and optimizer states under ZeRO 0-3 with TP/PP/EP sharding.
#include <cstdint>
#include <string>
#include <vector>

#include "model/modelconfig.h"
#include "model/parallelconfig.h"
#include "records/storagepoint.h"

namespace rl::resilience {

// What is saved. Megatron-LM and DeepSpeed save bf16 weights and the fp32 optimizer state (master
// weights, Adam m and v: 12 B/param); gradients only when asked (they are rebuilt by the next step).
struct CheckpointContents
{
    bool weights = true;
    bool optimizer = true;
    bool gradients = false;
    // A state replicated over DP (not sharded by the ZeRO stage) is written by DP rank 0 of each
    // model-parallel shard (Megatron's classic format) or spread evenly over the DP replicas
    // (torch.distributed.checkpoint's de-duplication, Megatron dist-ckpt "fully parallel" save).
    bool spreadReplicated = false;
};

struct CheckpointSize
{
    // Bytes one GPU holds of each state (the memory model's figures).
    double heldWeights = 0, heldGradients = 0, heldOptimizer = 0;
    double maxRankBytes = 0;     // the busiest writer
    double meanRankBytes = 0;    // total / ranks
    int writers = 0;             // ranks that write anything
    double totalBytes = 0;       // the checkpoint on storage: every saved byte once
    double loadRankBytes = 0;    // what each rank reads back on restart (every replica reads its state)
    double loadTotalBytes = 0;   // summed over ranks
    int ranks = 0;
    std::string sharding;        // human: "optimizer sharded over DP (ZeRO-1), weights by DP rank 0"
};

CheckpointSize checkpointSize(const model::ModelConfig& c, const model::ParallelConfig& p,
                              const CheckpointContents& contents = {});

// Storage bandwidths for the plan, GB/s (1e9 B/s). Per-rank 0 means "no per-rank limit".
struct StorageRates
{
    double writeAggregateGBs = 0;
    double readAggregateGBs = 0;
    double writePerRankGBs = 0;
    double readPerRankGBs = 0;
    std::string source;          // "typed", "session 7 (ridgeline-bench, 4 ranks, 256 MiB files)"
};
// From a storage session's points: aggregate = the best aggregate of its write (read) points at
// the largest file size measured; per rank = the mean per-rank bandwidth of that point. Throws
// std::runtime_error when there are no write or no read points.
StorageRates ratesFromPoints(const std::vector<StoragePoint>& points, const std::string& source);

// Time for `ranks` ranks moving these bytes at once: the slowest of the busiest rank at its
// per-rank rate and the whole volume at the aggregate rate.
double transferSeconds(double maxRankBytes, double totalBytes, double aggregateGBs, double perRankGBs);

struct CheckpointTimes
{
    double syncSaveS = 0;        // training stops until the files are written
    double asyncBlockingS = 0;   // training stops for the device-to-host snapshot only
    double asyncDrainS = 0;      // host memory to storage, in the background (= the sync write)
    double minAsyncIntervalS = 0; // a new snapshot must wait until the last one drained
    double hostBytesPerRank = 0; // pinned host memory the snapshot needs per GPU
    double loadS = 0;            // every rank reads its state back on restart
};
// snapshotGBs: device-to-host copy rate per GPU (PCIe Gen5 x16 ~ 50 GB/s peak, ~25 usable).
CheckpointTimes checkpointTimes(const CheckpointSize& size, const StorageRates& rates, double snapshotGBs);
} // namespace rl::resilience
