#include "model/modelcounts.h"

#include <algorithm>

namespace rl::model {
namespace {
// CCA's grouped convolution over the sequence: one group per q/k head, head_dim -> head_dim
// channels over convKernel1 positions.
double ccaConvGroupedParams(const ModelConfig& c)
{
    return double(c.ccaChannels()) * c.headDim * c.cca.convKernel1;
}

// Matmul weights of one layer's attention (biases and norms excluded).
double attentionMatmulParams(const ModelConfig& c)
{
    const double d = c.dModel, h = c.heads;
    if (c.attention == AttentionType::Mla) {
        const auto& m = c.mla;
        const double qk = m.qkNopeHeadDim + m.qkRopeHeadDim;
        const double q = m.qLoraRank > 0 ? d * m.qLoraRank + double(m.qLoraRank) * h * qk : d * h * qk;
        const double kvA = d * (m.kvLoraRank + m.qkRopeHeadDim);
        const double kvB = double(m.kvLoraRank) * h * (m.qkNopeHeadDim + m.vHeadDim);
        const double o = h * m.vHeadDim * d;
        return q + kvA + kvB + o;
    }
    const double hd = c.headDim;
    const double gqa = d * (h + 2.0 * c.kvHeads) * hd + h * hd * d;
    if (c.attention == AttentionType::Cca)
        return gqa + ccaConvGroupedParams(c); // a matmul per head: its weights count as FLOPs
    return gqa;
}

double attentionExtraParams(const ModelConfig& c) // biases, and CCA's elementwise weights
{
    double b = (c.qkvBias || c.linearBias) && c.attention == AttentionType::Standard
                    ? (c.heads + 2.0 * c.kvHeads) * c.headDim : 0.0;
    if (c.linearBias)
        b += c.dModel; // output projection
    if (c.attention == AttentionType::Cca) {
        // Depthwise kernel and the two convolutions' biases per q/k channel, one temperature per KV
        // head: per-channel scalars like norm weights, so parameters without FLOPs.
        const double ch = c.ccaChannels();
        b += ch * c.cca.convKernel0 + 2 * ch + c.kvHeads;
    }
    return b;
}

double layerNormParams(const ModelConfig& c)
{
    double n = double(c.normsPerLayer) * c.dModel * (c.normBias ? 2 : 1);
    if (c.qkNorm)
        n += c.qkNormFullWidth ? double(c.heads + c.kvHeads) * c.headDim : 2.0 * c.headDim;
    if (c.attention == AttentionType::Mla)
        n += c.mla.qLoraRank + c.mla.kvLoraRank;
    if (c.residualScaling)
        n += 8.0 * c.dModel; // two merges a layer, a scale and a bias on each of the two streams
    return n;
}

double mlpMatrices(const ModelConfig& c) { return c.mlp == MlpType::SwiGlu ? 3.0 : 2.0; }

struct MoeLayerParams
{
    double experts, activeExperts, shared, router;
};

// Router matmul weights (the FLOPs side): linear d -> logits, or ZAYA1's MLP router d -> r -> r -> r
// -> logits. Skip experts take a logit each and no weights.
double routerMatmulParams(const ModelConfig& c)
{
    const double d = c.dModel, r = c.moe.routerHidden, logits = c.moe.experts + c.moe.skipExperts;
    return r > 0 ? d * r + 2 * r * r + r * logits : d * logits;
}

MoeLayerParams moeLayer(const ModelConfig& c)
{
    const double m = mlpMatrices(c), d = c.dModel;
    const double one = m * d * c.moe.expertWidth;
    // ZAYA1's router also has biases on its first three projections, an RMSNorm and a depth-averaging
    // scale over r (the first MoE layer has no scale: r parameters over-counted there).
    const double r = c.moe.routerHidden;
    const double routerExtra = (c.moe.routerBias ? c.moe.experts : 0) + (r > 0 ? 5 * r : 0);
    return {one * c.moe.experts, one * c.moe.topK, m * d * c.sharedWidth() * c.moe.sharedExperts,
            routerMatmulParams(c) + routerExtra};
}
} // namespace

double ParamCounts::matmulActive() const
{
    return attention + mlp + activeExperts + router + (output > 0 ? output : embedding);
}

ParamCounts countParams(const ModelConfig& c)
{
    ParamCounts p;
    const double d = c.dModel;
    p.embedding = double(c.vocab) * d + double(c.positionEmbeddings) * d;
    p.output = c.tiedEmbeddings ? 0.0 : double(c.vocab) * d;
    const double attn = attentionMatmulParams(c) + attentionExtraParams(c);
    const int moeLayers = c.moeLayerCount();
    const int denseLayers = c.layers - moeLayers;
    p.attention = attn * c.layers;
    p.norms = layerNormParams(c) * c.layers + d * (c.normBias ? 2 : 1);
    if (c.residualScaling)
        p.norms += 2 * d; // the final merge's 4d, less the 2d the first block lacks (no residual stream yet)
    p.mlp = (mlpMatrices(c) * d * c.mlpWidth + (c.linearBias ? (mlpMatrices(c) - 1) * c.mlpWidth + d : 0.0)) * denseLayers;
    if (moeLayers > 0) {
        const auto m = moeLayer(c);
        p.experts = m.experts * moeLayers;
        p.activeExperts = m.activeExperts * moeLayers;
        p.mlp += m.shared * moeLayers;
        p.router = m.router * moeLayers;
    }
    if (c.mtpLayers > 0) {
        // DeepSeek-V3 MTP module: enorm, hnorm, eh_proj (2d -> d), one MoE decoder layer and the
        // shared head's norm; embedding and head are shared with the main model.
        const auto m = moeLayer(c);
        const double layer = attn + layerNormParams(c) + (c.isMoe() ? m.experts + m.shared + m.router
                                                                      : mlpMatrices(c) * d * c.mlpWidth);
        p.mtp = c.mtpLayers * (3 * d + 2 * d * d + layer);
    }
    return p;
}

double meanContext(int seqLen, int window, bool causal)
{
    const double s = seqLen;
    if (!causal)
        return window > 0 ? std::min<double>(window, s) : s;
    if (window <= 0 || window >= seqLen)
        return (s + 1) / 2;
    const double w = window; // positions 1..w see i keys, the rest see w
    return (w * (w + 1) / 2 + (s - w) * w) / s;
}

FlopCounts forwardFlopsPerToken(const ModelConfig& c, const FlopOptions& opt)
{
    FlopCounts f;
    const double d = c.dModel;
    f.attentionProj = 2 * attentionMatmulParams(c) * c.layers;
    const int sliding = c.slidingLayerCount();
    const double perKey = 2.0 * c.heads * (c.qkHeadDim() + c.vHeadDim());
    f.attentionScores = perKey * (sliding * meanContext(opt.seqLen, c.slidingWindow, opt.causal)
                                  + (c.layers - sliding) * meanContext(opt.seqLen, 0, opt.causal));
    const int moeLayers = c.moeLayerCount();
    f.mlp = 2 * mlpMatrices(c) * d * c.mlpWidth * (c.layers - moeLayers);
    if (moeLayers > 0) {
        const auto m = moeLayer(c);
        f.mlp += 2 * (m.activeExperts + m.shared) * moeLayers;
        f.router = 2 * routerMatmulParams(c) * moeLayers;
    }
    f.output = 2 * d * c.vocab;
    return f;
}

const char* toString(Recompute r)
{
    switch (r) {
    case Recompute::None: return "none";
    case Recompute::Selective: return "selective";
    case Recompute::Full: return "full";
    }
    return "none";
}

Recompute recomputeFromString(std::string_view name)
{
    return name == "full" ? Recompute::Full : name == "selective" ? Recompute::Selective : Recompute::None;
}

TrainingFlops trainingFlopsPerToken(const FlopCounts& fwd, Recompute recompute)
{
    TrainingFlops t;
    t.model = 3 * fwd.forward();
    t.hardware = t.model;
    if (recompute == Recompute::Full)
        t.hardware += fwd.layers();
    else if (recompute == Recompute::Selective)
        t.hardware += fwd.attentionScores;
    return t;
}
} // namespace rl::model
