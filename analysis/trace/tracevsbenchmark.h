#pragma once
// Collectives found in a trace placed on the user's measured bandwidth curve: for each call shape
// (op, ranks, bytes) the busbw a benchmark session reached at that size, and how much of it the
// training job achieved. NCCL/RCCL kernel times include waiting for late peers, so the best call
// is compared as well as the mean.
#include <cstdint>
#include <vector>

#include "records/collectivepoint.h"
#include "records/tracerecords.h"

namespace rl::trace {

// The benchmark's busbw for `op` at `bytes`, interpolated log-log between the measured sizes
// around it (out-of-place points; the mean where a size was measured several times, e.g. per
// dtype). NaN when the op was not measured or `bytes` lies outside the measured sizes.
double benchmarkBusbwAt(const std::vector<CollectivePoint>& benchmark, const std::string& op, std::int64_t bytes);

struct CollectiveVsBenchmark
{
    TraceCollective call;
    double benchmarkBusbwGBs = 0; // NaN when the benchmark has no such op or size
    double meanEfficiency() const { return call.busbwGBs / benchmarkBusbwGBs; }
    double bestEfficiency() const { return call.bestBusbwGBs / benchmarkBusbwGBs; }
};

// One row per trace collective, in the trace's order. The benchmark should be of the same rank
// count: a mismatch is the caller's to report (nranks is in both records).
std::vector<CollectiveVsBenchmark> compareWithBenchmark(const std::vector<TraceCollective>& calls,
                                                        const std::vector<CollectivePoint>& benchmark);
} // namespace rl::trace
