#include "model/sizingrules.h"
#include "units/units.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace rl::model {

const char* toString(RuleSeverity s)
{
    switch (s) {
    case RuleSeverity::Pass: return "ok";
    case RuleSeverity::Info: return "info";
    case RuleSeverity::Warning: return "warning";
    }
    return "ok";
}

std::string nearestMultiples(long long value, long long multiple)
{
    if (multiple <= 0)
        return std::to_string(value);
    const long long down = value / multiple * multiple;
    if (down == value)
        return std::to_string(value);
    const long long up = down + multiple;
    return down > 0 ? std::to_string(down) + " or " + std::to_string(up) : std::to_string(up);
}

namespace {
void multipleRule(std::vector<RuleFinding>& out, const char* rule, const char* what, long long value, long long multiple,
                  const std::string& why)
{
    RuleFinding f{rule, RuleSeverity::Pass, std::string(what) + " = " + std::to_string(value), {}};
    if (value % multiple != 0) {
        f.severity = RuleSeverity::Warning;
        f.message += " is not a multiple of " + std::to_string(multiple) + ": " + why;
        f.proposal = nearestMultiples(value, multiple);
    } else {
        f.message += " is a multiple of " + std::to_string(multiple);
    }
    out.push_back(std::move(f));
}

double widthEfficiency(int width, int dModel, long long tokens, bool gated, const RuleOptions& o,
                       const GemmEfficiencySource* measured, bool& wasMeasured)
{
    const double n = (gated ? 2.0 : 1.0) * width / o.tp;
    if (measured) {
        const auto up = measured->efficiency(double(tokens), n, dModel);
        const auto down = measured->efficiency(double(tokens), dModel, double(width) / o.tp);
        if (up && down) {
            wasMeasured = true;
            return (*up * (gated ? 2 : 1) + *down) / (gated ? 3 : 2); // FLOP-weighted
        }
    }
    const auto up = waveQuantization(tokens, (long long)std::llround(n), o.computeUnits, o.tile);
    const auto down = waveQuantization(tokens, dModel, o.computeUnits, o.tile);
    return (up.efficiency() * (gated ? 2 : 1) + down.efficiency()) / (gated ? 3 : 2);
}
} // namespace

std::vector<RuleFinding> checkSizingRules(const ModelConfig& c, const RuleOptions& o)
{
    std::vector<RuleFinding> out;
    const int tp = std::max(1, o.tp);
    {
        RuleFinding f{"head_dim", RuleSeverity::Pass, "head_dim = " + std::to_string(c.headDim), {}};
        if (c.headDim % 64 != 0) {
            f.severity = RuleSeverity::Warning;
            f.message += " is not a multiple of 64: attention kernels tile the head dimension by 64 and pad the rest";
            f.proposal = nearestMultiples(c.headDim, 64) + " (prefer 128)";
        } else if (c.headDim % 128 != 0) {
            f.severity = RuleSeverity::Info;
            f.message += " is a multiple of 64 but not of 128, the width flash-attention kernels are tuned for";
            f.proposal = nearestMultiples(c.headDim, 128);
        } else {
            f.message += " is a multiple of 128";
        }
        out.push_back(std::move(f));
    }
    const std::string tileWhy = "GEMM tiles and TP shards of 64·TP keep every GPU's slice tile-aligned";
    multipleRule(out, "d_model", "d_model", c.dModel, 64LL * tp, tileWhy);
    if (c.mlpWidth > 0 && (!c.isMoe() || c.moe.firstKDense > 0 || c.moe.everyN > 1))
        multipleRule(out, "mlp_width", "MLP width", c.mlpWidth, 64LL * tp, tileWhy);
    if (c.isMoe())
        multipleRule(out, "expert_width", "expert width", c.moe.expertWidth, 64LL * tp, tileWhy);
    multipleRule(out, "vocab", "vocab", c.vocab, 64LL * tp,
                 "pad the embedding so the LM-head GEMM's N splits into whole tiles on every TP rank");
    const long long tokens = (long long)o.microBatch * o.seqLen;
    multipleRule(out, "tokens_tile", "micro-batch x sequence", tokens, o.tile.tm,
                 "the token dimension is every GEMM's M; a partial last tile wastes work");
    {
        RuleFinding f{"heads_tp", RuleSeverity::Pass, std::to_string(c.heads) + " heads over TP " + std::to_string(tp), {}};
        if (c.heads % tp != 0) {
            f.severity = RuleSeverity::Warning;
            f.message += ": heads must divide evenly over TP ranks";
            f.proposal = "heads " + nearestMultiples(c.heads, tp) + ", or a TP that divides " + std::to_string(c.heads);
        }
        out.push_back(std::move(f));
    }
    if (c.attention != AttentionType::Mla && c.kvHeads < c.heads) { // CCA attends GQA-shaped
        RuleFinding f{"kv_heads_tp", RuleSeverity::Pass,
                      std::to_string(c.kvHeads) + " KV heads over TP " + std::to_string(tp), {}};
        if (c.kvHeads % tp != 0 && tp % c.kvHeads != 0) {
            f.severity = RuleSeverity::Warning;
            f.message += ": neither divides the other, so KV heads cannot be split or replicated evenly";
            f.proposal = "KV heads " + nearestMultiples(c.kvHeads, tp);
        } else if (c.kvHeads % tp != 0) {
            f.severity = RuleSeverity::Info;
            f.message += ": each KV head is replicated on " + std::to_string(tp / c.kvHeads) + " ranks";
        }
        out.push_back(std::move(f));
    }
    // Wave quantisation of the layer's largest GEMMs (M = tokens).
    struct Shape
    {
        const char* name;
        long long n;
    };
    std::vector<Shape> shapes{{"qkv_proj", (long long)(c.heads + 2 * c.kvHeads) * c.headDim / tp},
                              {"attn_out", c.dModel}};
    if (c.mlpWidth > 0 && (!c.isMoe() || c.moe.firstKDense > 0 || c.moe.everyN > 1))
        shapes.push_back({"mlp_up", (long long)(c.mlp == MlpType::SwiGlu ? 2 : 1) * c.mlpWidth / tp});
    if (o.computeUnits <= 0)
        shapes.clear(); // no device: no waves to fill
    for (const auto& s : shapes) {
        const auto w = waveQuantization(tokens, s.n, o.computeUnits, o.tile);
        RuleFinding f{"wave_quantization", RuleSeverity::Pass, {}, {}};
        char buf[256];
        std::snprintf(buf, sizeof buf, "%s %lld x %lld: %lld tiles of %dx%d in %lld waves on %d CUs, efficiency %s",
                      s.name, tokens, s.n, (long long)w.tiles, o.tile.tm, o.tile.tn, (long long)w.waves,
                      o.computeUnits, units::formatPercent(w.efficiency()).c_str());
        f.message = buf;
        if (w.efficiency() < o.minWaveEfficiency) {
            f.severity = RuleSeverity::Warning;
            f.message += ", predicted loss " + units::formatPercent(w.loss());
            f.proposal = "change micro-batch x sequence or the width so tiles fill whole waves (multiples of "
                         + std::to_string(o.computeUnits) + " tiles)";
        }
        out.push_back(std::move(f));
    }
    if (c.isMoe()) {
        const double perExpert = double(tokens) * o.ep * c.moe.topK / c.moe.experts;
        char buf[200];
        std::snprintf(buf, sizeof buf, "%.0f tokens per expert per micro-batch (tokens x EP x top-k / experts)",
                      perExpert);
        RuleFinding f{"expert_tokens", RuleSeverity::Pass, buf, {}};
        if (perExpert < o.minExpertTokens) {
            f.severity = RuleSeverity::Warning;
            f.message += ", below " + std::to_string(o.minExpertTokens) + ": expert GEMMs turn memory-bound";
            const double needed = std::ceil(o.minExpertTokens * double(c.moe.experts) / (double(o.seqLen) * o.ep * c.moe.topK));
            f.proposal = "micro-batch >= " + std::to_string((long long)needed) + ", or fewer/larger experts, or more EP";
        }
        out.push_back(std::move(f));
    }
    return out;
}

std::vector<WidthCandidate> findFastWidths(int target, int dModel, long long tokens, bool gated, const RuleOptions& o,
                                           const GemmEfficiencySource* measured, int range)
{
    std::vector<WidthCandidate> out;
    const int step = 64 * std::max(1, o.tp);
    const int lo = std::max(step, (target - range) / step * step);
    for (int w = lo; w <= target + range; w += step) {
        WidthCandidate cand{w, 0, false};
        cand.efficiency = widthEfficiency(w, dModel, tokens, gated, o, measured, cand.measured);
        out.push_back(cand);
    }
    std::stable_sort(out.begin(), out.end(), [target](const WidthCandidate& a, const WidthCandidate& b) {
        if (std::abs(a.efficiency - b.efficiency) > 1e-9)
            return a.efficiency > b.efficiency;
        return std::abs(a.width - target) < std::abs(b.width - target);
    });
    return out;
}

std::vector<WidthCandidate> findFastWidthsFor(const ModelConfig& c, bool expert, int target, const RuleOptions& o,
                                              const GemmEfficiencySource* measured, int range)
{
    expert = expert && c.isMoe();
    if (target <= 0)
        target = expert ? c.moe.expertWidth : c.mlpWidth > 0 ? c.mlpWidth : c.dModel * 8 / 3;
    if (target <= 0 || c.dModel <= 0)
        return {};
    long long tokens = static_cast<long long>(o.microBatch) * o.seqLen;
    if (expert)
        tokens = std::max(1LL, tokens * c.moe.topK / std::max(1, c.moe.experts));
    return findFastWidths(target, c.dModel, tokens, c.mlp == MlpType::SwiGlu, o, measured, range);
}
} // namespace rl::model
