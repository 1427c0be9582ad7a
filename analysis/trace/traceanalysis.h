#pragma once
// What Ridgeline derives from one rank's trace: per-step breakdown, kernel table, collectives;
// and across ranks or against benchmarks: stragglers, roofline points, bandwidth-curve ratios.
#include <optional>
#include <string>
#include <vector>

#include "records/collectivepoint.h"
#include "records/tracerecords.h"
#include "trace/kernelclassifier.h"
#include "trace/tracedata.h"

namespace rl::trace {

struct TraceAnalysis
{
    std::vector<StepBreakdown> steps;
    std::vector<KernelStat> kernels;          // every kernel name, by total time descending
    std::vector<TraceCollective> collectives; // grouped by (op, dtype, nranks, bytes)
    std::vector<TimelineEvent> timeline;      // stepTimeline()
    std::vector<std::string> notes;           // facts worth telling the user (no steps, no args, ...)
};

// Class of each interned name (memcpy/memset activity is always Memcpy).
std::vector<KernelClass> classifyNames(const TraceData& data, const KernelClassifier& classifier);

TraceAnalysis analyzeTrace(const TraceData& data, const KernelClassifier& classifier = {});
std::vector<StepBreakdown> stepBreakdown(const TraceData& data, const std::vector<KernelClass>& classOfName);
std::vector<KernelStat> kernelStats(const TraceData& data, const std::vector<KernelClass>& classOfName);
std::vector<TraceCollective> traceCollectives(const TraceData& data, std::vector<std::string>* notes = nullptr);

// The GPU activity (kernels, memcpy, memset; not annotations) of one representative step of the
// rank, for the per-stream timeline: of the steps with GPU activity, the one of median duration
// (a warm-up or a checkpoint step is not typical), or the whole trace when no step has any. Events overlapping the step are
// kept with times relative to its start, the first maxEvents by start time (the store stays
// small for huge steps; *truncated tells).
// breakdown: stepBreakdown() of the same data, which says which steps had GPU activity.
std::vector<TimelineEvent> stepTimeline(const TraceData& data, const std::vector<KernelClass>& classOfName,
                                        const std::vector<StepBreakdown>& breakdown, std::size_t maxEvents = 20000,
                                        bool* truncated = nullptr);

// Where one step's wall time went, as shares that do not overlap and add up to the step time
// (stepUs): the stored class times are kernel time summed over streams, and communication
// overlapped by compute is counted in both, so stacking them stands taller than the step.
//   compute busy (union of compute kernels) = gemm + attention + other + commUnderCompute,
//     where the three classes split (compute busy - overlap) in proportion to their kernel time
//     and commUnderCompute is the compute time that hid communication (overlapUs);
//   gpu busy - compute busy = exposedComm + memcpyAlone (copies under no compute or communication);
//   step - gpu busy = idle.
struct StepShares
{
    double gemmUs = 0;
    double attentionUs = 0;
    double otherUs = 0;
    double commUnderComputeUs = 0;
    double memcpyAloneUs = 0;
    double exposedCommUs = 0;
    double idleUs = 0;
    double totalUs() const
    {
        return gemmUs + attentionUs + otherUs + commUnderComputeUs + memcpyAloneUs + exposedCommUs + idleUs;
    }
};
StepShares stepShares(const StepBreakdown& b);

// The n kernels of one rank with the most total time.
std::vector<KernelStat> topKernels(const std::vector<KernelStat>& all, int rank, std::size_t n);

// Step-time spread across ranks for each step that more than one rank recorded.
struct StragglerStep
{
    std::int64_t step = 0;
    int ranks = 0;
    double minUs = 0;
    double maxUs = 0;
    double medianUs = 0;
    double spreadUs = 0;      // max - min
    double spreadFraction = 0; // spread / median
    int slowestRank = 0;
};
std::vector<StragglerStep> stragglers(const std::vector<StepBreakdown>& steps);

struct RooflinePoint
{
    int rank = 0;
    std::string name;
    KernelClass kernelClass = KernelClass::Other;
    double intensity = 0;   // FLOP per byte
    double flopsPerSec = 0; // achieved
};
// Kernels whose trace recorded kernel_flop and kernel_num_gb.
std::vector<RooflinePoint> rooflinePoints(const std::vector<KernelStat>& kernels);

// A trace collective placed on the user's measured curve: the benchmark busbw at the same op and
// size (log-log interpolation between the two nearest measured sizes, preferring points with the
// same rank count) and trace busbw / benchmark busbw.
struct CurveComparison
{
    double benchmarkBusbwGBs = 0;
    double ratio = 0;          // trace / benchmark (uses the trace's mean-time busbw)
    bool sameRankCount = false;
    bool outsideRange = false; // size beyond the measured sizes: nearest end used
};
std::optional<CurveComparison> compareToBenchmark(const TraceCollective& c, const std::vector<CollectivePoint>& points);
} // namespace rl::trace
