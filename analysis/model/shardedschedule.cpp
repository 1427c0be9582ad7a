#include "model/shardedschedule.h"

#include <algorithm>

namespace rl::model {

ShardedExposure shardedExposure(int units, double microBatches, const ShardedUnitTimes& t, bool lastUnitKept)
{
    ShardedExposure e;
    if (units <= 0 || microBatches <= 0)
        return e;
    auto over = [](double comm, double window) { return std::max(0.0, comm - window); };
    const double L = units;
    // Forward: the first gather alone, then units 1..L-1 each hide the next unit's gather.
    const double fwd = t.gather + (L - 1) * over(t.gather, t.forward);
    // Backward, last unit first: its gather alone (none when it was kept); under unit L the gather
    // of L-1; under the middle units a gather and the reduce-scatter of the unit after; under unit
    // 1 only the reduce-scatter of unit 2; then unit 1's own reduce-scatter alone.
    double bwd = (lastUnitKept ? 0.0 : t.gather) + t.reduceScatter;
    if (units == 1) {
        // Gather, backward, reduce-scatter: nothing to overlap with.
    } else {
        bwd += over(t.gather, t.backward) + over(t.reduceScatter, t.backward);
        bwd += (L - 2) * over(t.gather + t.reduceScatter, t.backward);
    }
    e.forward = fwd * microBatches;
    e.backward = bwd * microBatches;
    return e;
}
} // namespace rl::model
