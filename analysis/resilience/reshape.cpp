#include "resilience/reshape.h"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "model/modelcounts.h"

namespace rl::resilience {
namespace {
struct Interval
{
    double lo = 0, hi = 1;
    double overlap(const Interval& o) const { return std::max(0.0, std::min(hi, o.hi) - std::max(lo, o.lo)); }
};

// The slice of one state one rank holds (needs), in fractions of the whole model's axes.
struct Box
{
    Interval layers, tensor, experts, dpSlice;
    int layerFrom = 0, layerTo = 0; // for the human text
};

struct Layout
{
    model::ParallelConfig p;
    int layers = 1;
    Interval stage(int s) const
    {
        const int from = layers * s / p.pp, to = layers * (s + 1) / p.pp;
        return {double(from) / layers, double(to) / layers};
    }
    int edpIndex(int d) const { return d / p.ep; }
    int epIndex(int d) const { return d % p.ep; }
};

std::string layerText(const Layout& l, int s)
{
    const int from = l.layers * s / l.p.pp, to = l.layers * (s + 1) / l.p.pp - 1;
    return "layers " + std::to_string(from) + "-" + std::to_string(to);
}

struct StateInfo
{
    const char* name;
    double bytesPerParam;
    int minZero; // ZeRO stage from which it is split over DP
};
} // namespace

std::string toString(const RankCoord& r)
{
    return "tp" + std::to_string(r.tp) + ".pp" + std::to_string(r.pp) + ".dp" + std::to_string(r.dp);
}

ReshapePlan planReshape(const model::ModelConfig& c, const model::ParallelConfig& from, const model::ParallelConfig& to,
                        const ReshapeInputs& in)
{
    for (const auto* p : {&from, &to})
        if (const auto why = model::checkParallel(c, *p); !why.empty())
            throw std::invalid_argument(std::string(p == &from ? "--from" : "--to") + ": " + why);
    if (from.cp != 1 || to.cp != 1)
        throw std::invalid_argument("context parallelism is not covered by the reshape plan (cp=1 only)");
    const auto counts = model::countParams(c);
    const double partBytes[2] = {counts.denseTotal(), counts.experts}; // parameters per part
    const char* partName[2] = {"dense", "experts"};
    std::vector<StateInfo> states;
    if (in.contents.weights)
        states.push_back({"weights", double(from.weightBytes), 3});
    if (in.contents.gradients)
        states.push_back({"gradients", double(from.weightBytes), 2});
    if (in.contents.optimizer)
        states.push_back({"optimizer", 12.0, 1});
    const Layout oldL{from, std::max(1, c.layers)}, newL{to, std::max(1, c.layers)};

    // How a state of one part is laid out on disk by the old layout: split over (expert-)DP when the
    // ZeRO stage shards it or writes are spread; else whole in the DP-rank-0 file.
    auto savedSplit = [&](const StateInfo& st) { return from.zeroStage >= st.minZero || in.contents.spreadReplicated; };
    auto neededSplit = [&](const StateInfo& st) { return to.zeroStage >= st.minZero; };

    ReshapePlan plan;
    std::set<std::string> oldWriters;
    for (int s = 0; s < to.pp; ++s)
        for (int d = 0; d < to.dp; ++d)
            for (int t = 0; t < to.tp; ++t) {
                RankReads rr;
                rr.to = {t, s, d};
                std::set<std::string> files;
                for (const auto& st : states)
                    for (int part = 0; part < 2; ++part) {
                        if (partBytes[part] <= 0)
                            continue;
                        const bool experts = part == 1;
                        // The new rank's box.
                        Box need;
                        need.layers = newL.stage(s);
                        need.tensor = {double(t) / to.tp, double(t + 1) / to.tp};
                        const int nEp = experts ? to.ep : 1, nDp = experts ? to.expertDataParallel() : to.dp;
                        const int epI = experts ? newL.epIndex(d) : 0, dpI = experts ? newL.edpIndex(d) : d;
                        need.experts = {double(epI) / nEp, double(epI + 1) / nEp};
                        need.dpSlice = neededSplit(st) ? Interval{double(dpI) / nDp, double(dpI + 1) / nDp} : Interval{};
                        // Every old file of this state and part.
                        const int oEp = experts ? from.ep : 1, oDp = experts ? from.expertDataParallel() : from.dp;
                        for (int os = 0; os < from.pp; ++os)
                            for (int od = 0; od < from.dp; ++od)
                                for (int ot = 0; ot < from.tp; ++ot) {
                                    const int oEpI = experts ? oldL.epIndex(od) : 0;
                                    const int oDpI = experts ? oldL.edpIndex(od) : od;
                                    const bool split = savedSplit(st);
                                    if (!split && oDpI != 0)
                                        continue; // replicas did not write this state
                                    Box have;
                                    have.layers = oldL.stage(os);
                                    have.tensor = {double(ot) / from.tp, double(ot + 1) / from.tp};
                                    have.experts = {double(oEpI) / oEp, double(oEpI + 1) / oEp};
                                    have.dpSlice = split ? Interval{double(oDpI) / oDp, double(oDpI + 1) / oDp} : Interval{};
                                    const RankCoord oc{ot, os, od};
                                    oldWriters.insert(toString(oc));
                                    const double frac = need.layers.overlap(have.layers) * need.tensor.overlap(have.tensor) *
                                                        need.experts.overlap(have.experts) *
                                                        need.dpSlice.overlap(have.dpSlice);
                                    if (frac <= 1e-12)
                                        continue;
                                    ShardRead r;
                                    r.from = oc;
                                    r.state = st.name;
                                    r.part = partName[part];
                                    r.bytes = frac * partBytes[part] * st.bytesPerParam;
                                    r.what = layerText(oldL, os) + ", tensor slice " + std::to_string(ot) + "/" +
                                             std::to_string(from.tp) +
                                             (experts ? ", experts " + std::to_string(oEpI) + "/" + std::to_string(oEp) : "") +
                                             (split ? ", DP slice " + std::to_string(oDpI) + "/" + std::to_string(oDp) : "");
                                    rr.bytes += r.bytes;
                                    files.insert(toString(oc));
                                    rr.reads.push_back(std::move(r));
                                }
                    }
                rr.files = static_cast<int>(files.size());
                plan.totalReadBytes += rr.bytes;
                plan.maxRankBytes = std::max(plan.maxRankBytes, rr.bytes);
                plan.ranks.push_back(std::move(rr));
            }
    double perParam = 0;
    for (const auto& st : states)
        perParam += st.bytesPerParam;
    plan.uniqueBytes = perParam * counts.total();
    plan.oldFiles = static_cast<int>(oldWriters.size());
    plan.meanRankBytes = plan.ranks.empty() ? 0 : plan.totalReadBytes / double(plan.ranks.size());
    const double readAgg = in.storage.readAggregateGBs, readRank = in.storage.readPerRankGBs;
    plan.storageReadS = transferSeconds(plan.maxRankBytes, plan.totalReadBytes, readAgg, readRank);
    if (in.networkGBs > 0) {
        // Each unique byte read once, spread evenly over the new ranks, then each rank receives
        // what it needs (at most its whole need) over its link.
        const double readOnce = transferSeconds(plan.uniqueBytes / std::max<std::size_t>(1, plan.ranks.size()),
                                                plan.uniqueBytes, readAgg, readRank);
        plan.readOnceScatterS = readOnce + plan.maxRankBytes / (in.networkGBs * 1e9);
    }
    return plan;
}
} // namespace rl::resilience
