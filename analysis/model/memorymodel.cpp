#include "model/memorymodel.h"

#include "model/commbuffers.h"

#include <cstdio>

#include "units/units.h"
#include "units/memory.h"

#include <algorithm>

namespace rl::model {

TrainingMemory trainingMemory(const ModelConfig& c, const ParamCounts& params, const ParallelConfig& p)
{
    TrainingMemory m;
    // The busiest stage's share of the layers (uneven pipelines put more on some stages).
    const double share = c.layers > 0 ? std::max(stageLayers(c, p), firstStageLayers(c, p)) / c.layers : 1.0 / p.pp;
    const double dense = params.denseTotal() * share / p.tp;
    const double expert = params.experts * share / (double(p.expertTensorParallel()) * p.ep);
    const double dp = double(p.dp) * p.cp, edp = p.expertDataParallel(); // Megatron shards over DP x CP
    m.params = dense + expert;
    const double wb = p.weightBytes;
    auto shard = [&](double bytesPerParam, bool sharded) {
        return sharded ? bytesPerParam * (dense / dp + expert / edp) : bytesPerParam * (dense + expert);
    };
    m.optimizer = shard(12, p.zeroStage >= 1);
    m.gradients = shard(gradientBytes(p.framework, p.dtype, p.zeroStage, p.gradDtype, p.weightBytes), p.zeroStage >= 2);
    m.weights = shard(wb, p.zeroStage >= 3);
    // 1F1B: the first stage holds min(pp, m) micro-batches of its layers; interleaving adds
    // (pp-1)/(pp·vpp) of a stage (Narayanan et al. 2021, §2.2.2; Korthikanti et al. 2022, §4.2.3).
    // A layer's activations averaged over the model's dense and MoE layers.
    const int moeLayers = c.moeLayerCount();
    auto averageLayer = [&](const ParallelConfig& q) {
        return c.layers > 0 ? (activationBytesPerLayer(c, q, false) * (c.layers - moeLayers) +
                               activationBytesPerLayer(c, q, true) * moeLayers) / c.layers
                            : 0.0;
    };
    const double perLayer = averageLayer(p);
    const double inFlight = std::min<double>(p.pp, p.effectiveMicroBatches());
    const double interleave = p.vpp > 1 ? 1 + double(p.pp - 1) / (double(p.pp) * p.vpp) : 1;
    m.activations = perLayer * firstStageLayers(c, p) * inFlight * interleave;
    // Full recompute stores each layer's input only; its backward first re-runs the forward, so one
    // layer's activations as stored without recompute are alive at the peak (Chen et al. 2016,
    // "Training Deep Nets with Sublinear Memory Cost", §3; Korthikanti et al. 2022, §5).
    if (p.recompute == Recompute::Full) {
        ParallelConfig kept = p;
        kept.recompute = Recompute::None;
        m.working += averageLayer(kept);
    }
    // ZeRO-3 gathers a layer's parameters before use and frees them after: the layer computing and
    // the one prefetched are whole ("the next all-gather's output tensor must be allocated while the
    // current one is still in use", PyTorch FSDP notes, Prefetch Nuances), and a layer's gradients
    // are whole until reduce-scattered.
    // The unit is the framework's (a layer for FSDP; a weight matrix for DeepSpeed, which gathers and
    // frees each sub-module's parameters). A framework that reduces in fp32 (torchtitan) casts the
    // unit's gradients first: an fp32 copy.
    if (p.zeroStage >= 3) {
        const auto sharding = shardingTraits(p.framework);
        const double units = std::max(1.0, share * c.layers) * sharding.callsPerLayer;
        m.working += (3 * wb + (sharding.reduceBytes > wb ? sharding.reduceBytes : 0)) * (dense + expert) / units;
    }
    m.communication = communicationBuffers(c, p).bytes;
    return m;
}

const char* memoryPartName(int part)
{
    static const char* names[kMemoryParts] = {"weights", "gradients", "optimizer", "activations", "working",
                                                   "communication"};
    return part >= 0 && part < kMemoryParts ? names[part] : "?";
}

double memoryPart(const TrainingMemory& m, int part)
{
    const double parts[kMemoryParts] = {m.weights, m.gradients, m.optimizer, m.activations, m.working,
                                        m.communication};
    return part >= 0 && part < kMemoryParts ? parts[part] : 0.0;
}

std::string memoryPartsText(const TrainingMemory& m)
{
    std::string s;
    for (int i = 0; i < kMemoryParts; ++i)
        if (memoryPart(m, i) > 0)
            s += (s.empty() ? "" : ", ") + std::string(memoryPartName(i)) + " " + units::formatMemory(memoryPart(m, i));
    return s;
}

double activationBytesPerLayer(const ModelConfig& c, const ParallelConfig& p, bool moeLayer)
{
    const double s = double(p.seqLen) / p.cp, b = p.microBatch, h = c.dModel, a = c.heads, t = p.tp;
    const double sbh = s * b * h;
    if (p.recompute == Recompute::Full)
        return 2 * sbh / (p.sequenceParallel ? t : 1);
    // Korthikanti et al.'s terms, in bytes per token per residual channel (x sbh), each at the width
    // the layer really has: their 34 is a 4h GELU MLP under multi-head attention with dropout.
    // The four GEMM inputs a layer keeps for its weight gradients (QKV, output projection, fc1, fc2)
    // are kept in FP8 by an FP8 run, 1 byte: Transformer Engine saves the quantized input, column-wise
    // data only (module/layernorm_linear.py "Input with column-wise usage is needed for wgrad GEMM":
    // ln_out.update_usage(rowwise_usage=False); module/linear.py "Discard row-wise data since it is
    // not needed in backward pass"; with SP's gather, row-wise only), never the 16-bit copy. Q, K, V
    // (attention runs in 16 bits), fc1's output (the activation's backward) and the norms' inputs stay 2.
    const double gemmInput = p.dtype == "fp8" ? 1 : 2;
    // Kept whole on every TP rank (split only with SP): each norm's input (2), the QKV and MLP inputs
    // (2 each), and with dropout the 1-byte masks after attention and after the MLP.
    const double dropoutMasks = p.dropout ? 2 : 0;
    const double replicated = 2.0 * c.normsPerLayer + gemmInput + gemmInput + dropoutMasks;
    // Split over TP: Q and K for the scores, V for the values and the output projection's input, each
    // at its own width (GQA and MQA keep kvHeads of K and V; their 4 + 2 + 2 assume heads x dModel/heads).
    const double q = double(c.heads) * c.qkHeadDim(), k = double(c.kvHeads) * c.qkHeadDim();
    const double v = double(c.kvHeads) * c.vHeadDim(), o = double(c.heads) * c.vHeadDim();
    const double attention = (2 * (q + k + v) + gemmInput * o) / h;
    // The MLP's intermediates: fc1's output and the activation's, fc2's input (16 for a 4h GELU MLP);
    // SwiGLU's gate and up outputs and their product (6 x width / h); MoE layers at the routed and
    // shared widths.
    const double gated = c.mlp == MlpType::SwiGlu ? 1.5 : 1.0;
    const double width = moeLayer ? double(c.moe.topK) * c.moe.expertWidth + double(c.moe.sharedExperts) * c.sharedWidth()
                                  : double(c.mlpWidth);
    const double mlp = (4 * gated - 2 + gemmInput) * width / h;
    const bool keepScores = !p.flashAttention && p.recompute == Recompute::None;
    const double scores = keepScores ? 5 * a * s / h : 0;
    const double split = attention + mlp + scores;
    if (p.sequenceParallel || t == 1)
        return sbh / t * (replicated + split);
    return sbh * (replicated + split / t);
}

double kvCacheBytes(const ModelConfig& c, double contextTokens, int elemBytes)
{
    const double perTokenLayer = c.attention == AttentionType::Mla
                                     ? double(c.mla.kvLoraRank + c.mla.qkRopeHeadDim) * elemBytes
                                     : 2.0 * c.kvHeads * c.headDim * elemBytes;
    const int sliding = c.slidingLayerCount();
    const double slidingTokens = std::min<double>(contextTokens, c.slidingWindow > 0 ? c.slidingWindow : contextTokens);
    return perTokenLayer * ((c.layers - sliding) * contextTokens + sliding * slidingTokens);
}
double usableMemory(double capacityBytes)
{
    return capacityBytes > 0 ? std::max(0.0, capacityBytes - kFrameworkContextBytes) / (1 + kAllocatorSlack) : 0.0;
}

double memoryHeadroom(double capacityBytes)
{
    return capacityBytes > 0 ? 1 - usableMemory(capacityBytes) / capacityBytes : 0.0;
}

bool fitsMemory(double neededBytes, double capacityBytes)
{
    return capacityBytes <= 0 || neededBytes <= usableMemory(capacityBytes);
}

std::string memoryFitProblem(double neededBytes, double capacityBytes)
{
    if (fitsMemory(neededBytes, capacityBytes))
        return {};
    const double usable = usableMemory(capacityBytes);
    return "does not fit: " + units::formatMemory(neededBytes) + " needed, " + units::formatMemory(usable) + " usable of " +
           units::formatMemory(capacityBytes) + " (" + units::formatMemory(capacityBytes - usable) +
           " kept for the framework)";
}

std::string frameworkReserveBasis()
{
    return units::formatMemory(kFrameworkContextBytes) + " context, " + units::formatPercent(kAllocatorSlack, 0) +
           " allocator slack";
}
} // namespace rl::model
