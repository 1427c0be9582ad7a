#include "model/attentionkernel.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace rl::model {
namespace {
double interpolate(const std::vector<std::pair<double, double>>& curve, double seq)
{
    if (curve.empty())
        return 0;
    if (seq <= curve.front().first)
        return curve.front().second;
    if (seq >= curve.back().first)
        return curve.back().second;
    const auto hi = std::lower_bound(curve.begin(), curve.end(), seq,
                                     [](const auto& point, double s) { return point.first < s; });
    const auto lo = hi - 1;
    const double t = std::log2(seq / lo->first) / std::log2(hi->first / lo->first);
    return lo->second + t * (hi->second - lo->second);
}
} // namespace

double attentionKernelFlops(const AttentionKernelRates& k, double seq, bool causal, bool backward)
{
    const double forward = interpolate(k.forward, seq);
    const double causalShare = causal && !k.forwardCausal.empty() && forward > 0
                                   ? interpolate(k.forwardCausal, seq) / forward
                                   : 1.0;
    return (backward ? interpolate(k.backward, seq) : forward) * causalShare * 1e12;
}

const AttentionKernel& findAttentionKernel(const HardwareProfile& hw, const std::string& name)
{
    auto it = hw.attentionKernels.find(name);
    if (it != hw.attentionKernels.end())
        return it->second;
    std::string known;
    for (const auto& [n, k] : hw.attentionKernels)
        known += (known.empty() ? "" : ", ") + n;
    throw std::runtime_error("hardware profile '" + hw.id + "' has no measured rates for attention kernel '" + name +
                             "'" + (known.empty() ? std::string(" (it has none: leave --attention out to time attention by GEMM shape)")
                                                  : " (it has: " + known + ")"));
}

namespace {
std::string kernelSummary(const AttentionKernelRates& k)
{
    return k.name + ", measured at head dim " + std::to_string(k.headDim);
}

// "64", "64 and 128", "64, 128 and 256".
std::string headDims(const AttentionKernel& k)
{
    std::string out;
    for (std::size_t i = 0; i < k.size(); ++i)
        out += (i == 0 ? "" : i + 1 == k.size() ? " and " : ", ") + std::to_string(k[i].headDim);
    return out;
}

// The sources, each once (the head dims of one paper share it).
std::string sourcesOf(const AttentionKernel& k)
{
    std::vector<std::string> seen;
    for (const auto& r : k)
        if (std::find(seen.begin(), seen.end(), r.source) == seen.end())
            seen.push_back(r.source);
    std::string out;
    for (const auto& s : seen)
        out += (out.empty() ? "" : "; ") + s;
    return out;
}
} // namespace

std::string describeAttentionKernel(const AttentionKernelRates& k)
{
    return kernelSummary(k) + " (" + k.source + ")";
}

std::string describeAttentionKernel(const AttentionKernel& k)
{
    if (k.size() == 1)
        return describeAttentionKernel(k.front());
    return k.front().name + ", measured at head dims " + headDims(k) + " (" + sourcesOf(k) + ")";
}

const AttentionKernelRates* attentionKernelFor(const DeviceRates& r, const ModelConfig& c, const ParallelConfig& p)
{
    if (!r.attentionKernel || !p.flashAttention || c.qkHeadDim() != c.vHeadDim())
        return nullptr;
    for (const auto& k : *r.attentionKernel)
        if (k.headDim == c.qkHeadDim())
            return &k;
    return nullptr;
}

std::string attentionBasis(const DeviceRates& r, const ModelConfig& c, const ParallelConfig& p)
{
    if (!p.flashAttention)
        return "unfused (scores kept in memory), matmuls as GEMMs by shape";
    if (const auto* k = attentionKernelFor(r, c, p))
        return describeAttentionKernel(*k);
    if (const auto* k = r.attentionKernel.get(); k && !k->empty())
        return "fused, timed as GEMMs by shape: " + k->front().name + " was measured at head dim" +
               (k->size() > 1 ? "s " : " ") + headDims(*k) + ", this model's is " + std::to_string(c.qkHeadDim()) +
               (c.vHeadDim() != c.qkHeadDim() ? " (QK) / " + std::to_string(c.vHeadDim()) + " (V)" : std::string());
    return "fused, timed as GEMMs by shape (no kernel named)";
}

std::string attentionSummary(const DeviceRates& r, const ModelConfig& c, const ParallelConfig& p)
{
    if (const auto* k = attentionKernelFor(r, c, p))
        return kernelSummary(*k);
    return attentionBasis(r, c, p);
}
} // namespace rl::model
