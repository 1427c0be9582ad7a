#include <cstdio>
#include <set>

#include "plan/plansearch.h"

namespace rl::plan {

std::string toCsv(const PlanResult& r)
{
    std::string out = "rank,tie_with_best,pareto,gap_to_best,step_s,tokens_per_s,mfu,memory_per_gpu_bytes,memory_capacity_bytes,"
                      "tp,cp,pp,stages,vpp,dp,etp,ep,micro_batch,micro_batches,recompute,sp,dtype,attention,zero,dp_overlap,"
                      "ep_overlap,dispatcher,tp_overlap,compute_s,bubble_s,exposed_dp_s,exposed_tp_s,exposed_ep_s,"
                      "exposed_pp_cp_s,optimizer_s\n";
    std::set<std::string> pareto;
    for (const auto& row : r.pareto)
        pareto.insert(toSpec(row.layout));
    auto line = [&](const PlanRow& row) {
        const auto& l = row.layout;
        const auto& p = row.parallel;
        const auto& s = row.step;
        char b[1024];
        std::snprintf(b, sizeof b,
                      "%s,%d,%d,%.6g,%.9g,%.9g,%.6g,%.9g,%.9g,%d,%d,%d,%s,%d,%d,%s,%d,%d,%d,%s,%d,%s,%s,%d,%d,%d,%s,%d,"
                      "%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n",
                      row.rank > 0 ? std::to_string(row.rank).c_str() : "", row.tieWithBest ? 1 : 0,
                      pareto.count(toSpec(l)) ? 1 : 0, row.gapToBest, s.stepSeconds, s.tokensPerSecond, s.mfu,
                      s.memory.total(), s.memoryCapacity, l.tp, l.cp, l.pp, toString(l.stages).c_str(), l.vpp, p.dp,
                      l.etp == 0 ? "tp" : std::to_string(l.etp).c_str(), l.ep, l.microBatch, p.effectiveMicroBatches(), model::toString(l.recompute),
                      l.sp ? 1 : 0, l.dtype.c_str(), l.attention.empty() ? "shape" : l.attention.c_str(), l.zero,
                      l.dpOverlap ? 1 : 0, l.epOverlap ? 1 : 0, l.flexDispatch ? "flex" : "alltoall", l.tpOverlap ? 1 : 0,
                      s.computeSeconds, s.bubbleSeconds, s.exposedDpSeconds, s.exposedTpSeconds, s.exposedEpSeconds,
                      s.exposedOtherSeconds, s.optimizerSeconds + s.gradAccumulationSeconds);
        out += b;
    };
    std::set<std::string> written;
    for (const auto& row : r.top) {
        line(row);
        written.insert(toSpec(row.layout));
    }
    for (const auto& row : r.pareto)
        if (!written.count(toSpec(row.layout)))
            line(row);
    return out;
}
} // namespace rl::plan
