#include "plan/layout.h"

#include <stdexcept>

#include "plan/layoutrules.h"

namespace rl::plan {
namespace {
const char* onOff(bool v) { return v ? "on" : "off"; }

LayoutSpace singleton(const Layout& l)
{
    LayoutSpace s;
    s.tp = {l.tp};
    s.cp = {l.cp};
    s.pp = {l.pp};
    s.stages = {l.stages};
    s.vpp = {l.vpp};
    s.etp = {l.etp};
    s.ep = {l.ep};
    s.microBatch = {l.microBatch};
    s.recompute = {l.recompute};
    s.sp = {l.sp};
    s.dtype = {l.dtype};
    s.attention = {l.attention};
    s.zero = {l.zero};
    s.dpOverlap = {l.dpOverlap};
    s.epOverlap = {l.epOverlap};
    s.flexDispatch = {l.flexDispatch};
    s.tpOverlap = {l.tpOverlap};
    return s;
}
} // namespace

std::string toSpec(const Layout& l)
{
    return "tp=" + std::to_string(l.tp) + ",cp=" + std::to_string(l.cp) + ",pp=" + std::to_string(l.pp) +
           ",stages=" + toString(l.stages) + ",vpp=" + std::to_string(l.vpp) + ",etp=" + (l.etp == 0 ? std::string("tp") : std::to_string(l.etp)) +
           ",ep=" + std::to_string(l.ep) + ",micro-batch=" + std::to_string(l.microBatch) +
           ",recompute=" + model::toString(l.recompute) + ",sp=" + onOff(l.sp) + ",dtype=" + l.dtype +
           ",attention=" + (l.attention.empty() ? std::string("shape") : l.attention) + ",zero=" + std::to_string(l.zero) +
           ",dp-overlap=" + onOff(l.dpOverlap) + ",ep-overlap=" + onOff(l.epOverlap) +
           ",dispatcher=" + (l.flexDispatch ? "flex" : "alltoall") + ",tp-overlap=" + onOff(l.tpOverlap);
}

Layout parseLayout(const std::string& spec, const Layout& defaults)
{
    // The same parser as --fix, over a space of one value per dimension.
    auto s = singleton(defaults);
    applyFix(s, spec);
    for (int d = 0; d < kDimCount; ++d)
        if (s.size(Dim(d)) != 1)
            throw std::invalid_argument("a layout takes one value of " + std::string(dimName(Dim(d))) + ", not '|' alternatives");
    Layout l;
    l.tp = s.tp[0];
    l.cp = s.cp[0];
    l.pp = s.pp[0];
    l.stages = s.stages[0];
    l.vpp = s.vpp[0];
    l.etp = s.etp[0];
    l.ep = s.ep[0];
    l.microBatch = s.microBatch[0];
    l.recompute = s.recompute[0];
    l.sp = s.sp[0] != 0;
    l.dtype = s.dtype[0];
    l.attention = s.attention[0];
    l.zero = s.zero[0];
    l.dpOverlap = s.dpOverlap[0] != 0;
    l.epOverlap = s.epOverlap[0] != 0;
    l.flexDispatch = s.flexDispatch[0] != 0;
    l.tpOverlap = s.tpOverlap[0] != 0;
    return l;
}

Layout fromParallel(const model::ParallelConfig& p)
{
    Layout l;
    l.tp = p.tp;
    l.cp = p.cp;
    l.pp = p.pp;
    l.vpp = p.vpp;
    l.ep = p.ep;
    l.etp = p.etp == p.tp ? 0 : p.etp;
    if (p.firstStageLayers > 0 || p.lastStageLayers > 0)
        l.stages = {StageSplit::Custom, p.firstStageLayers, p.lastStageLayers};
    l.microBatch = p.microBatch;
    l.zero = p.zeroStage;
    l.recompute = p.recompute;
    l.sp = p.sequenceParallel;
    // Overlap fractions as the switches the search has: DP hidden unless none of it is, TP or EP on
    // when any of it is.
    l.dpOverlap = p.dpOverlapFraction() != 0;
    l.tpOverlap = p.tpOverlapFraction() > 0;
    l.epOverlap = p.epOverlap;
    l.flexDispatch = p.flexDispatch;
    l.dtype = p.dtype;
    return l;
}

model::ParallelConfig toParallel(const Layout& l, const model::ModelConfig& c, const Cluster& cl,
                                 const model::ParallelConfig& recipe)
{
    model::ParallelConfig p = recipe;
    p.tp = l.tp;
    p.cp = l.cp;
    p.pp = l.pp;
    p.dp = l.dp(cl);
    p.vpp = l.vpp;
    p.ep = l.ep;
    p.etp = l.etp;
    int first = 0, last = 0;
    LayoutRules::stageLayers(c.layers, l.pp, l.stages, first, last);
    p.firstStageLayers = first;
    p.lastStageLayers = last;
    p.microBatch = l.microBatch;
    p.microBatches = cl.globalBatch / std::max(1, l.microBatch * p.dp);
    p.seqLen = cl.seqLen;
    p.recompute = l.recompute;
    p.sequenceParallel = l.sp;
    p.dtype = l.dtype;
    p.zeroStage = l.zero;
    p.overlap = -1;
    p.dpOverlap = l.dpOverlap ? -1 : 0;
    p.epOverlap = l.epOverlap;
    p.flexDispatch = l.flexDispatch;
    p.tpOverlap = l.tpOverlap ? double(l.tp - 1) / l.tp : 0;
    return p;
}

std::string degreesText(const Layout& l, int dp)
{
    std::string s = "tp" + std::to_string(l.tp) + " pp" + std::to_string(l.pp) + " dp" + std::to_string(dp);
    if (l.cp > 1)
        s += " cp" + std::to_string(l.cp);
    if (l.vpp > 1)
        s += " vpp" + std::to_string(l.vpp);
    if (l.ep > 1)
        s += " ep" + std::to_string(l.ep);
    if (l.etp != 0)
        s += " etp" + std::to_string(l.etp);
    if (l.stages.split != StageSplit::Even)
        s += " stages " + toString(l.stages);
    return s;
}

std::string switchesText(const Layout& l)
{
    std::string s;
    auto add = [&](bool on, const char* what) {
        if (on)
            s += std::string(s.empty() ? "" : ", ") + what;
    };
    add(l.dpOverlap, "DP overlap");
    add(l.tpOverlap, "TP overlap");
    add(l.epOverlap, "EP overlap");
    add(l.flexDispatch, "flex dispatch");
    return s.empty() ? "-" : s;
}

} // namespace rl::plan
