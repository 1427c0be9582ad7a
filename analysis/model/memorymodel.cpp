#include "model/memorymodel.h"

#include "units/units.h"

#include <algorithm>

namespace rl::model {

TrainingMemory trainingMemory(const ModelConfig& c, const ParamCounts& params, const ParallelConfig& p)
{
    TrainingMemory m;
    const double dense = params.denseTotal() / (double(p.tp) * p.pp);
    const double expert = params.experts / (double(p.tp) * p.pp * p.ep);
    const double dp = p.dp, edp = p.expertDataParallel();
    m.params = dense + expert;
    const double wb = p.weightBytes;
    auto shard = [&](double bytesPerParam, bool sharded) {
        return sharded ? bytesPerParam * (dense / dp + expert / edp) : bytesPerParam * (dense + expert);
    };
    m.optimizer = shard(12, p.zeroStage >= 1);
    m.gradients = shard(wb, p.zeroStage >= 2);
    m.weights = shard(wb, p.zeroStage >= 3);
    // 1F1B: the first stage holds pp micro-batches of its layers/pp layers, i.e. all layers' worth.
    const int moeLayers = c.moeLayerCount();
    m.activations = activationBytesPerLayer(c, p, false) * (c.layers - moeLayers)
                    + activationBytesPerLayer(c, p, true) * moeLayers;
    return m;
}

double activationBytesPerLayer(const ModelConfig& c, const ParallelConfig& p, bool moeLayer)
{
    const double s = double(p.seqLen) / p.cp, b = p.microBatch, h = c.dModel, a = c.heads, t = p.tp;
    const double sbh = s * b * h;
    if (p.recompute == Recompute::Full)
        return 2 * sbh / (p.sequenceParallel ? t : 1);
    const double gated = c.mlp == MlpType::SwiGlu ? 1.5 : 1.0;
    const double width = moeLayer ? double(c.moe.topK) * c.moe.expertWidth + double(c.moe.sharedExperts) * c.sharedWidth()
                                  : double(c.mlpWidth);
    const double mlpExtra = 16 * gated * width / (4 * h) - 16; // 0 for the paper's 4h GELU MLP
    const bool keepScores = !p.flashAttention && p.recompute == Recompute::None;
    const double scores = keepScores ? 5 * a * s / h : 0;
    if (p.sequenceParallel || t == 1)
        return sbh / t * (34 + mlpExtra + scores);
    return sbh * (10 + (24 + mlpExtra) / t + scores / t);
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
std::string memoryFitProblem(double neededBytes, double capacityBytes)
{
    if (capacityBytes <= 0 || neededBytes <= capacityBytes)
        return {};
    return "does not fit: " + units::formatMemoryGB(neededBytes) + " needed of " + units::formatMemoryGB(capacityBytes);
}
} // namespace rl::model
