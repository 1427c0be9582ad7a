#include "model/gemmlist.h"

#include <algorithm>
#include <cmath>

namespace rl::model {

const char* toString(GemmPass p)
{
    switch (p) {
    case GemmPass::Forward: return "fwd";
    case GemmPass::Dgrad: return "dgrad";
    case GemmPass::Wgrad: return "wgrad";
    }
    return "fwd";
}

namespace {
// Appends g and, with backward, its input gradient (M x K = dC[M,N]·B^T) and its weight gradient
// (K x N = A^T·dC). For attention-score GEMMs both operands are activations: both are dgrads.
void addWithBackward(GemmSet& out, Gemm g, bool withBackward, bool batched = false)
{
    out.add(g);
    if (!withBackward)
        return;
    out.add({g.name, g.m, g.k, g.n, g.count, GemmPass::Dgrad, g.batch, g.bf16Only});
    out.add({g.name, g.k, g.n, g.m, g.count, batched ? GemmPass::Dgrad : GemmPass::Wgrad, g.batch, g.bf16Only});
}
} // namespace

void layerGemms(const ModelConfig& c, const ParallelConfig& p, LayerKind kind, bool bwd, GemmSet& out)
{
    const double tp = p.tp, d = c.dModel, h = c.heads;
    const double T = double(p.microBatch) * p.seqLen / p.cp;
    if (c.attention == AttentionType::Mla) {
        const auto& m = c.mla;
        const double qk = m.qkNopeHeadDim + m.qkRopeHeadDim;
        if (m.qLoraRank > 0) {
            addWithBackward(out, {"q_a_proj", T, double(m.qLoraRank), d}, bwd);
            addWithBackward(out, {"q_b_proj", T, h * qk / tp, double(m.qLoraRank)}, bwd);
        } else {
            addWithBackward(out, {"q_proj", T, h * qk / tp, d}, bwd);
        }
        addWithBackward(out, {"kv_a_proj", T, double(m.kvLoraRank + m.qkRopeHeadDim), d}, bwd);
        addWithBackward(out, {"kv_b_proj", T, h * (m.qkNopeHeadDim + m.vHeadDim) / tp, double(m.kvLoraRank)}, bwd);
        addWithBackward(out, {"attn_out", T, d, h * m.vHeadDim / tp}, bwd);
    } else {
        // CCA's down-projections are GQA-shaped (its two value projections, of the current and the
        // delayed token, together make the V columns).
        addWithBackward(out, {"qkv_proj", T, (h + 2.0 * c.kvHeads) * c.headDim / tp, d}, bwd);
        if (c.attention == AttentionType::Cca) {
            // The grouped convolution over the packed q/k latents as a batched GEMM per head: each
            // token's output channels of one head from that head's channels at convKernel1
            // positions. Heads split over TP like the projections.
            const double groups = (h + c.kvHeads) / tp, hd = c.headDim;
            addWithBackward(out, {"cca_conv", T, hd, hd * c.cca.convKernel1, groups, GemmPass::Forward, groups}, bwd);
        }
        addWithBackward(out, {"attn_out", T, d, h * c.headDim / tp}, bwd);
    }
    // Scores as batched GEMMs per (sequence, head); causal masking skips about half the tiles,
    // which the count carries so FLOPs match forwardFlopsPerToken.
    const int window = kind.sliding ? c.slidingWindow : 0;
    const double keys = window > 0 ? std::min(window, p.seqLen) : p.seqLen;
    const double frac = meanContext(p.seqLen, window, true) / keys;
    const double batches = p.microBatch * (h / tp) * frac;
    const double q = double(p.seqLen) / p.cp;
    const double heads = p.microBatch * (h / tp);
    addWithBackward(out, {"attn_qk", q, keys, double(c.qkHeadDim()), batches, GemmPass::Forward, heads, true}, bwd, true);
    addWithBackward(out, {"attn_av", q, double(c.vHeadDim()), keys, batches, GemmPass::Forward, heads, true}, bwd, true);

    const double gated = c.mlp == MlpType::SwiGlu ? 2 : 1;
    if (!kind.moe) {
        addWithBackward(out, {gated > 1 ? "mlp_gate_up" : "mlp_up", T, gated * c.mlpWidth / tp, d}, bwd);
        addWithBackward(out, {"mlp_down", T, d, c.mlpWidth / tp}, bwd);
        return;
    }
    const double E = c.moe.experts;
    const double logits = E + c.moe.skipExperts; // a skip expert is a logit with no weights behind it
    if (c.moe.routerHidden > 0) {
        // ZAYA1's MLP router: down-projection, two hidden layers, logits (replicated over TP).
        const double r = c.moe.routerHidden;
        addWithBackward(out, {"router", T, r, d, 1, GemmPass::Forward, 1, true}, bwd);
        addWithBackward(out, {"router_mlp", T, r, r, 2, GemmPass::Forward, 1, true}, bwd);
        addWithBackward(out, {"router_logits", T, logits, r, 1, GemmPass::Forward, 1, true}, bwd);
    } else {
        addWithBackward(out, {"router", T, logits, d, 1, GemmPass::Forward, 1, true}, bwd);
    }
    // Tokens of the whole EP group reach this GPU's E/ep experts: M = T·ep·k/E per expert.
    // With expert-tensor parallelism (Megatron-Core folding) the expert weights split over etp
    // ranks instead of tp: each rank brings its T/tp sequence-parallel tokens, gathered over the
    // etp group, so an expert rank sees T·etp/tp tokens per EP peer (T when etp = tp).
    const double etp = p.expertTensorParallel();
    const double perExpert = T * p.ep * c.moe.topK / E * (etp / tp);
    const double local = E / p.ep;
    addWithBackward(out, {"expert_gate_up", perExpert, gated * c.moe.expertWidth / etp, d, local, GemmPass::Forward, local},
                    bwd);
    addWithBackward(out, {"expert_down", perExpert, d, c.moe.expertWidth / etp, local, GemmPass::Forward, local}, bwd);
    if (c.moe.sharedExperts > 0) {
        const double sw = double(c.moe.sharedExperts) * c.sharedWidth();
        addWithBackward(out, {"shared_gate_up", T, gated * sw / tp, d}, bwd);
        addWithBackward(out, {"shared_down", T, d, sw / tp}, bwd);
    }
}

void outputLayerGemms(const ModelConfig& c, const ParallelConfig& p, bool bwd, GemmSet& out)
{
    const double T = double(p.microBatch) * p.seqLen / p.cp;
    addWithBackward(out, {"lm_head", T, double(c.vocab) / p.tp, double(c.dModel), 1, GemmPass::Forward, 1, true}, bwd);
}

std::vector<Gemm> stepGemms(const ModelConfig& c, const ParallelConfig& p)
{
    int counts[2][2] = {{0, 0}, {0, 0}}; // [moe][sliding]
    for (int i = 0; i < c.layers; ++i)
        ++counts[c.isMoeLayer(i)][c.isSlidingLayer(i)];
    std::vector<Gemm> all;
    const double mb = p.effectiveMicroBatches();
    auto merge = [&all](const GemmSet& set, double times) {
        for (const auto& g : set) {
            auto it = std::find_if(all.begin(), all.end(), [&g](const Gemm& x) {
                return std::string_view(x.name) == g.name && x.pass == g.pass && x.m == g.m && x.n == g.n && x.k == g.k;
            });
            if (it != all.end())
                it->count += g.count * times;
            else {
                all.push_back(g);
                all.back().count *= times;
            }
        }
    };
    for (int moe = 0; moe < 2; ++moe)
        for (int sl = 0; sl < 2; ++sl)
            if (counts[moe][sl] > 0) {
                GemmSet set;
                layerGemms(c, p, {moe == 1, sl == 1}, true, set);
                merge(set, mb * counts[moe][sl] / p.pp);
            }
    GemmSet out;
    outputLayerGemms(c, p, true, out);
    merge(out, mb);
    return all;
}

const char* toString(GemmEfficiencyOrigin o)
{
    switch (o) {
    case GemmEfficiencyOrigin::Measured: return "measured GEMM session";
    case GemmEfficiencyOrigin::Flat: return "flat default";
    case GemmEfficiencyOrigin::Shape: return "by shape (roofline, tile/wave quantisation, small K, max-achievable cap)";
    }
    return "";
}

GemmEfficiencyOrigin efficiencyOrigin(const GemmTiming& t)
{
    return t.measured ? GemmEfficiencyOrigin::Measured
                      : t.defaultEfficiency > 0 ? GemmEfficiencyOrigin::Flat : GemmEfficiencyOrigin::Shape;
}

double gemmEfficiency(const Gemm& g, const DeviceRates& r, const GemmTiming& t)
{
    if (t.measured)
        if (auto e = t.measured->efficiency(g.m, g.n, g.k))
            return *e;
    if (t.defaultEfficiency > 0)
        return t.defaultEfficiency;
    const double peak = r.peakFor(g.bf16Only);
    return gemmShapeEfficiency(g.m, g.n, g.k, g.batch, r.computeUnits, peak > 0 ? r.ceilingFlops(g.bf16Only) / peak : 1)
        .efficiency();
}

double gemmSeconds(const Gemm& g, const DeviceRates& r, const GemmTiming& t)
{
    if (g.m <= 0 || g.n <= 0 || g.k <= 0 || g.count <= 0)
        return 0;
    const double peak = r.peakFor(g.bf16Only);
    const double rate = std::min(peak * gemmEfficiency(g, r, t), r.ceilingFlops(g.bf16Only));
    const double one = 2 * g.m * g.n * g.k;
    const double compute = one / rate;
    const double elem = g.bf16Only ? std::max(2, t.elemBytes) : t.elemBytes;
    const double memory = elem * (g.m * g.k + g.k * g.n + g.m * g.n) / r.hbmBytesPerSec;
    return std::max(compute, memory) * g.count;
}

double totalSeconds(const GemmSet& set, const DeviceRates& r, const GemmTiming& t)
{
    double s = 0;
    for (const auto& g : set)
        s += gemmSeconds(g, r, t);
    return s;
}
} // namespace rl::model
