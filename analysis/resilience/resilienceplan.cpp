#include "resilience/resilienceplan.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace rl::resilience {
namespace {
struct AtSize
{
    CheckpointSize size;
    CheckpointTimes times;
    double cost = 0, restart = 0, mtbf = 0, interval = 0, goodput = 0;
};

AtSize evaluate(const model::ModelConfig& c, const model::ParallelConfig& p, const ResilienceInputs& in)
{
    AtSize a;
    a.size = checkpointSize(c, p, in.contents);
    a.times = checkpointTimes(a.size, in.storage, in.snapshotGBs);
    a.cost = in.async ? a.times.asyncBlockingS : a.times.syncSaveS;
    a.restart = in.relaunchS + a.times.loadS;
    const int nodes = std::max(1, (p.worldSize() + in.gpusPerNode - 1) / in.gpusPerNode);
    a.mtbf = jobMtbf(in.nodeMtbfHours * 3600.0, nodes);
    a.interval = dalyInterval(a.cost, a.mtbf);
    if (in.async) // the next snapshot waits for the previous drain
        a.interval = std::max(a.interval, a.times.minAsyncIntervalS - a.cost);
    a.goodput = expectedGoodput(a.interval, a.cost, a.restart, a.mtbf);
    return a;
}
} // namespace

ResiliencePlan planResilience(const model::ModelConfig& c, const model::ParallelConfig& p, const ResilienceInputs& in)
{
    if (const auto why = model::checkParallel(c, p); !why.empty())
        throw std::invalid_argument("parallel layout: " + why);
    if (in.nodeMtbfHours <= 0)
        throw std::invalid_argument("no node MTBF");
    if (in.gpusPerNode < 1)
        throw std::invalid_argument("GPUs per node must be positive");
    ResiliencePlan plan;
    const AtSize a = evaluate(c, p, in);
    plan.size = a.size;
    plan.times = a.times;
    plan.nodes = std::max(1, (p.worldSize() + in.gpusPerNode - 1) / in.gpusPerNode);
    plan.jobMtbfS = a.mtbf;
    plan.checkpointCostS = a.cost;
    plan.restartS = a.restart;
    plan.youngS = youngInterval(a.cost, a.mtbf);
    plan.dalyS = dalyInterval(a.cost, a.mtbf);
    plan.intervalS = a.interval;
    plan.goodput = a.goodput;
    if (in.async && a.interval > plan.dalyS)
        plan.notes.push_back("async: the interval is raised from Daly's optimum to the drain time of a snapshot");
    if (a.cost >= 2 * a.mtbf)
        plan.notes.push_back("the checkpoint takes longer than twice the job MTBF: the job rarely makes progress");
    const double lo = std::max(1.0, plan.intervalS / 30), hi = std::max(lo * 2, plan.intervalS * 30);
    plan.vsInterval = goodputVsInterval(a.cost, a.restart, a.mtbf, lo, hi, 61);
    // Goodput vs nodes: the same model and TP x PP (x CP), data parallelism grows with the nodes.
    const int modelParallel = p.tp * p.pp * p.cp;
    for (int nodes = 1; nodes <= 1 << 14; nodes *= 2) {
        const int gpus = nodes * in.gpusPerNode;
        if (gpus % modelParallel)
            continue;
        model::ParallelConfig q = p;
        q.dp = gpus / modelParallel;
        if (!model::checkParallel(c, q).empty())
            continue;
        plan.vsNodes.push_back({double(nodes), evaluate(c, q, in).goodput});
    }
    return plan;
}
} // namespace rl::resilience
