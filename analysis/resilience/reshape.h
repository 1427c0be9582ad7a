#pragma once
// Checkpoint reshaping: a checkpoint saved under one layout (TP, PP, DP, EP, ZeRO stage) loaded
// under another. Each saved file is a box in the model's coordinates — layers (PP stages hold
// contiguous layer ranges), tensor fraction (TP slices), expert range (EP) and, for states split
// over DP, a fraction of every tensor (per-tensor DP sharding as in FSDP2 and Megatron dist-ckpt).
// A new rank needs the box of its own state; what it reads from each old file is the overlap,
// scaled by that state's bytes. Layers are taken as equal in size (embedding and LM head spread).
#include <string>
#include <vector>

#include "model/modelconfig.h"
#include "model/parallelconfig.h"
#include "resilience/checkpointsize.h"

namespace rl::resilience {

struct RankCoord
{
    int tp = 0, pp = 0, dp = 0;
    friend bool operator==(const RankCoord&, const RankCoord&) = default;
};
std::string toString(const RankCoord& r); // "tp0.pp1.dp3"

struct ShardRead
{
    RankCoord from;       // the old rank that wrote the file
    std::string state;    // "weights", "optimizer", "gradients"
    std::string part;     // "dense" or "experts"
    double bytes = 0;
    std::string what;     // "layers 0-15, tensor 1/2 of 1/1, DP slice 0/2"
};

struct RankReads
{
    RankCoord to;
    std::vector<ShardRead> reads;
    double bytes = 0;
    int files = 0;        // distinct old ranks read from
};

struct ReshapePlan
{
    std::vector<RankReads> ranks;   // every new rank, in (pp, dp, tp) order
    double totalReadBytes = 0;      // summed over new ranks (replicas read the same bytes again)
    double uniqueBytes = 0;         // the checkpoint itself
    double maxRankBytes = 0, meanRankBytes = 0;
    int oldFiles = 0;               // old ranks that wrote something
    double storageReadS = 0;        // every new rank reads what it needs from storage
    double readOnceScatterS = 0;    // the unique bytes read once, then sent to the ranks over the network (0: no network figure)
};

struct ReshapeInputs
{
    CheckpointContents contents;
    StorageRates storage;          // read rates used
    double networkGBs = 0;         // per-rank network bandwidth for read-once-and-scatter; 0: not evaluated
};

// Throws std::invalid_argument when either layout does not fit the model.
ReshapePlan planReshape(const model::ModelConfig& c, const model::ParallelConfig& from, const model::ParallelConfig& to,
                        const ReshapeInputs& in);
} // namespace rl::resilience
