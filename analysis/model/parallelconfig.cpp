#include "model/parallelconfig.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "model/modelcounts.h"
#include "units/units.h"

namespace rl::model {

std::string recipeSummary(const ParallelConfig& p)
{
    std::string s = "seq " + std::to_string(p.seqLen) + ", micro-batch " + std::to_string(p.microBatch) + " x " +
                    std::to_string(p.effectiveMicroBatches()) + ", ZeRO " + std::to_string(p.zeroStage) +
                    ", recompute " + toString(p.recompute) + ", " + p.dtype;
    if (p.sequenceParallel)
        s += ", sequence parallel";
    if (!p.flashAttention)
        s += ", no flash attention";
    if (p.overlap >= 0)
        s += ", " + units::formatPercent(p.overlap) + " of communication hidden";
    else {
        if (p.dpOverlap >= 0)
            s += ", DP overlap " + units::formatPercent(p.dpOverlap);
        if (p.tpOverlap > 0)
            s += ", TP overlap " + units::formatPercent(p.tpOverlap);
    }
    if (p.epOverlap)
        s += ", EP overlap";
    if (p.flexDispatch)
        s += ", flex dispatch";
    if (p.firstStageLayers > 0)
        s += ", first stage " + std::to_string(p.firstStageLayers) + " layers";
    if (p.lastStageLayers > 0)
        s += ", last stage " + std::to_string(p.lastStageLayers) + " layers";
    if (p.dropout)
        s += ", dropout";
    if (!p.gradDtype.empty())
        s += ", " + p.gradDtype + " gradients";
    // The default stack goes unsaid, so the summaries of Megatron layouts read as before.
    if (p.framework != Framework::MegatronCore)
        s += std::string(", ") + displayName(p.framework);
    return s;
}

void parseParallelSpec(const std::string& spec, ParallelConfig& into)
{
    std::stringstream ss(spec);
    std::string item;
    while (std::getline(ss, item, ',')) {
        if (item.empty())
            continue;
        const auto eq = item.find('=');
        if (eq == std::string::npos)
            throw std::invalid_argument("parallel spec item '" + item + "' is not key=value");
        const std::string key = item.substr(0, eq);
        const auto v = units::parseInt(item.substr(eq + 1));
        if (!v || *v <= 0 || *v > 1'000'000)
            throw std::invalid_argument("parallel spec item '" + item + "' needs a positive integer");
        const int n = int(*v);
        if (key == "dp") into.dp = n;
        else if (key == "tp") into.tp = n;
        else if (key == "pp") into.pp = n;
        else if (key == "ep") into.ep = n;
        else if (key == "cp") into.cp = n;
        else if (key == "etp") into.etp = n;
        else if (key == "vpp") into.vpp = n;
        else throw std::invalid_argument("unknown parallel degree '" + key + "' (dp, tp, pp, ep, cp, etp, vpp)");
    }
}

double firstStageLayers(const ModelConfig& c, const ParallelConfig& p)
{
    if (p.pp <= 1)
        return c.layers;
    if (p.firstStageLayers > 0)
        return p.firstStageLayers;
    return p.lastStageLayers > 0 ? double(c.layers - p.lastStageLayers) / (p.pp - 1) : double(c.layers) / p.pp;
}

double lastStageLayers(const ModelConfig& c, const ParallelConfig& p)
{
    if (p.pp <= 1)
        return c.layers;
    if (p.lastStageLayers > 0)
        return p.lastStageLayers;
    return p.firstStageLayers > 0 ? double(c.layers - p.firstStageLayers) / (p.pp - 1) : double(c.layers) / p.pp;
}

double stageLayers(const ModelConfig& c, const ParallelConfig& p)
{
    if (p.pp <= 1)
        return c.layers;
    const int fixed = (p.firstStageLayers > 0) + (p.lastStageLayers > 0);
    if (fixed > 0) {
        const int rest = c.layers - p.firstStageLayers - p.lastStageLayers;
        const double middle = p.pp > fixed ? std::ceil(double(rest) / (p.pp - fixed)) : 0;
        return std::max({double(p.firstStageLayers), double(p.lastStageLayers), middle});
    }
    // Uneven without an explicit split: the slowest stage holds ceil(layers/pp) (whole layers per
    // virtual stage when interleaved).
    const int chunks = p.pp * std::max(1, p.vpp);
    return std::ceil(double(c.layers) / chunks) * std::max(1, p.vpp);
}

std::string checkParallel(const ModelConfig& c, const ParallelConfig& p)
{
    auto str = [](int v) { return std::to_string(v); };
    const int etp = p.expertTensorParallel();
    const int stageRanks = p.tp * p.cp * p.dp;
    if (stageRanks % (p.ep * etp) != 0)
        return p.tp * p.cp == 1 && etp == 1
                   ? "ep=" + str(p.ep) + " does not divide dp=" + str(p.dp)
                   : "ep=" + str(p.ep) + " x etp=" + str(etp) + " does not divide tp x cp x dp = " + str(stageRanks) +
                         (p.etp == 0 && etp > 1 && stageRanks % p.ep == 0
                              ? " (etp defaults to tp=" + str(p.tp) + "; etp=1 folds the experts over the tensor ranks too)"
                              : "");
    if (c.isMoe() && c.moe.experts % p.ep != 0)
        return "ep=" + str(p.ep) + " does not divide the " + str(c.moe.experts) + " experts";
    if (!c.isMoe() && p.ep > 1)
        return "ep=" + str(p.ep) + " on a dense model";
    if (c.isMoe() && c.moe.expertWidth % etp != 0)
        return "etp=" + str(etp) + " does not divide the expert width " + str(c.moe.expertWidth);
    if (p.vpp < 1 || (p.vpp > 1 && p.pp == 1))
        return "vpp=" + str(p.vpp) + " needs pp > 1";
    if (c.layers < p.pp * p.vpp)
        return "pp=" + str(p.pp) + " x vpp=" + str(p.vpp) + " stages exceed the " + str(c.layers) + " layers";
    if (p.firstStageLayers < 0 || p.lastStageLayers < 0)
        return "stage layer counts must be positive";
    if (p.firstStageLayers > 0 || p.lastStageLayers > 0) {
        const int fixed = (p.firstStageLayers > 0) + (p.lastStageLayers > 0);
        const int rest = c.layers - p.firstStageLayers - p.lastStageLayers;
        if (p.pp <= fixed ? rest != 0 : (rest < p.pp - fixed || rest % (p.pp - fixed) != 0))
            return "first/last stage layers leave " + str(rest) + " layers that do not split evenly over the other " +
                   str(p.pp - fixed) + " stages";
    }
    if (p.seqLen % p.cp != 0)
        return "cp=" + str(p.cp) + " does not divide the sequence length " + str(p.seqLen);
    if (p.zeroStage < 0 || p.zeroStage > 3)
        return "ZeRO stage must be 0..3";
    if (p.overlap > 1 || p.dpOverlap > 1 || p.tpOverlap < 0 || p.tpOverlap > 1)
        return "overlap must be within 0..1";
    return {};
}

ParallelConfig parallelLayout(const ModelConfig& c, const std::string& spec, ParallelConfig base)
{
    parseParallelSpec(spec, base);
    if (auto why = checkParallel(c, base); !why.empty())
        throw std::invalid_argument("parallel layout: " + why);
    return base;
}

ParallelConfig parallelLayoutOf(const ModelConfig& c, const std::string& spec, const ParallelConfig& base,
                                const std::string& field)
{
    // The spec's syntax first, so each kind of mistake gets its own way out.
    try {
        ParallelConfig syntax;
        parseParallelSpec(spec, syntax);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(field + " " + spec + ": " + e.what() + "; e.g. " + field +
                                    " dp=8,tp=8,pp=2 (the degrees' product is the GPU count)");
    }
    try {
        return parallelLayout(c, spec, base);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(field + " " + spec + ": " + e.what() + "; change the degree or option it names");
    }
}
} // namespace rl::model
