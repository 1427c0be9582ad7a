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
    // NCCL/RCCL buffers of the communicators this rank uses (model/commbuffers.h).
    double communication = 0;
    double total() const { return weights + gradients + optimizer + activations + working + communication; }
};

// The parts of TrainingMemory in one order, named for output ("weights", ..., "communication").
inline constexpr int kMemoryParts = 6;
const char* memoryPartName(int part);
double memoryPart(const TrainingMemory& m, int part);
// "weights 2.1 GiB, gradients 4.2 GiB, ..., communication 0.6 GiB": every part, those at zero left out.
std::string memoryPartsText(const TrainingMemory& m);

// Bytes per parameter: weightBytes for weights, gradientBytes (model/framework.h: fp32 main grads
// under Megatron-Core's bf16 default) for gradients, 12 for the fp32 master copy, momentum and
// variance; ZeRO stage 1 shards the optimizer over DP, 2 adds gradients, 3 adds weights.
// Expert parameters shard over EP and their ZeRO group is dp/ep.
TrainingMemory trainingMemory(const ModelConfig& c, const ParamCounts& params, const ParallelConfig& p);

// Korthikanti et al. 2022, per layer, for one micro-batch of b sequences of length s (bytes):
// no parallelism sbh(34 + 5as/h); TP t without SP sbh(10 + 24/t + 5as/(ht)); with SP
// sbh/t·(34 + 5as/h); selective recompute drops the 5as/h term; full recompute keeps 2sbh (/t
// with SP); flash attention drops the 5as/h term. Their 34 is taken apart and each term held at the
// layer's own width: K and V at kvHeads (GQA, MQA), Q and the attention output at heads x head_dim,
// the MLP's intermediates at its width (SwiGLU's three, the routed and shared experts' for MoE), the
// two 1-byte dropout masks only with dropout, and 2 B per norm input.
double activationBytesPerLayer(const ModelConfig& c, const ParallelConfig& p, bool moeLayer);

// KV cache bytes per token across all layers; sliding-window layers hold at most `window` tokens
// (pass the context length so they can be capped).
double kvCacheBytes(const ModelConfig& c, double contextTokens, int elemBytes = 2);

// The framework's share of a device, kept free by every fit (the communicators' buffers are a part
// of TrainingMemory instead, since they grow with the layout):
// - what the process holds outside PyTorch's caching allocator: the CUDA/HIP context, cuBLAS and
//   cuDNN workspaces. 0.75 GiB measured on an H200 and an H100 (PyTorch 2.11, CUDA 13), the same at
//   every micro-batch and sequence length (tests/data/probe/{h200,h100}/step-memory-*.jsonl,
//   `outside_allocator`); stated for every device.
// - the allocator's slack over what the tensors need: it reserved 2.5-3.4 % more than their peak over
//   those steps. A stated 5 %: that loop repeats one shape, where pipeline schedules and MoE routing
//   vary them and fragment more.
inline constexpr double kFrameworkContextBytes = 0.75 * 1073741824.0;
inline constexpr double kAllocatorSlack = 0.05;

// What the model's parts may use of `capacityBytes`: (capacity - context) / (1 + slack); 0 when unknown.
double usableMemory(double capacityBytes);
// The share of `capacityBytes` kept free, 1 - usable / capacity (5.7 % of 80 GiB, 5.1 % of 192).
double memoryHeadroom(double capacityBytes);

// The one fit rule: `neededBytes` within usableMemory(capacity); an unknown capacity (<= 0) fits.
bool fitsMemory(double neededBytes, double capacityBytes);

// Empty when it fits, otherwise "does not fit: 206.2 GiB needed, 182.1 GiB usable of 192 GiB
// (9.9 GiB kept for the framework)", in GiB as devices report their HBM (units/memory.h).
std::string memoryFitProblem(double neededBytes, double capacityBytes);

// "768 MiB context, 5 % allocator slack": the reserve's basis, for a tooltip or a note.
std::string frameworkReserveBasis();
} // namespace rl::model
