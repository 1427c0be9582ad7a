#pragma once
#include <string>

// Memory per GPU for training (mixed-precision Adam under ZeRO 0-3, activations after Korthikanti
// et al. 2022) and the KV cache for inference (GQA and MLA aware).
#include "model/modelcounts.h"
#include "model/parallelconfig.h"

namespace rl::model {

struct TrainingMemory
{
    double params = 0; // parameters held by this GPU before ZeRO-3 sharding
    double weights = 0, gradients = 0, optimizer = 0, activations = 0; // bytes
    // Working buffers alive at the peak beside the stored state: ZeRO-3's gathered units (the one
    // computing and the one prefetched: a layer, or a weight matrix under DeepSpeed) and one unit's
    // unsharded gradients before their reduce-scatter; with full recompute, the activations of the
    // layer being recomputed.
    double working = 0;
    double total() const { return weights + gradients + optimizer + activations + working; }
};

// The parts of TrainingMemory in one order, named for output ("weights", ..., "working").
inline constexpr int kMemoryParts = 5;
const char* memoryPartName(int part);
double memoryPart(const TrainingMemory& m, int part);

// Bytes per parameter: weightBytes for weights and gradients, 12 for the fp32 master copy,
// momentum and variance; ZeRO stage 1 shards the optimizer over DP, 2 adds gradients, 3 adds weights.
// Expert parameters shard over EP and their ZeRO group is dp/ep.
TrainingMemory trainingMemory(const ModelConfig& c, const ParamCounts& params, const ParallelConfig& p);

// Korthikanti et al. 2022, per layer, for one micro-batch of b sequences of length s (bytes):
// no parallelism sbh(34 + 5as/h); TP t without SP sbh(10 + 24/t + 5as/(ht)); with SP
// sbh/t·(34 + 5as/h); selective recompute drops the 5as/h term; full recompute keeps 2sbh (/t
// with SP). The MLP share (19 of 34) scales with the active MLP width for SwiGLU and MoE layers;
// flash attention drops the 5as/h term.
double activationBytesPerLayer(const ModelConfig& c, const ParallelConfig& p, bool moeLayer);

// KV cache bytes per token across all layers; sliding-window layers hold at most `window` tokens
// (pass the context length so they can be capped).
double kvCacheBytes(const ModelConfig& c, double contextTokens, int elemBytes = 2);

// Memory kept free for the framework: CUDA/HIP context, NCCL/RCCL buffers, allocator
// fragmentation (PyTorch's caching allocator typically leaves 5-10 % unusable).
inline constexpr double kMemoryHeadroom = 0.10;

// The one fit rule: `neededBytes` within capacity x (1 - headroom); an unknown capacity (<= 0) fits.
bool fitsMemory(double neededBytes, double capacityBytes, double headroom = kMemoryHeadroom);

// Empty when it fits, otherwise "does not fit: 206.2 GiB needed, 172.8 GiB usable of 192 GiB
// (10 % kept free)", in GiB as devices report their HBM (units/memory.h).
std::string memoryFitProblem(double neededBytes, double capacityBytes, double headroom = kMemoryHeadroom);
} // namespace rl::model
