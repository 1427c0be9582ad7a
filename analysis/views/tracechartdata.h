#pragma once
// What the trace and training-log charts show, computed without Qt so tests and the CLI can check
// the numbers the charts draw: per-step breakdown bars (one rank or the mean over ranks), class
// totals per rank, top kernels, and a training-log metric per step with its events.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "records/session.h"
#include "records/tracerecords.h"
#include "records/trainlogrecords.h"

namespace rl::store {
class Workspace;
}

namespace rl::charts {

// One trace or training-log session with the records its charts need.
struct TraceChartData
{
    Session session;
    std::vector<StepBreakdown> steps;   // trace: ordered by rank, then step
    std::vector<KernelStat> kernels;    // trace: every rank, by total time descending
    std::vector<TraceCollective> collectives; // trace: collective calls by shape, per rank
    std::vector<TimelineEvent> timeline; // trace: one representative step per rank, by rank and start
    std::vector<TrainStep> trainSteps;  // training log: in log order
    std::vector<TrainEvent> trainEvents;
    // Training log summary (trace/trainloganalysis.h), from the session's params when stored there.
    double goodput = kNoValue;          // 0..1
    int restarts = 0;
    int stalls = 0;

    bool isTrace() const { return session.kind == kind::Trace; }
    bool isTrainingLog() const { return session.kind == kind::TrainingLog; }
};

// Reads the sessions in the given order with their trace or training-log records. Throws
// std::runtime_error naming the id when a session does not exist.
std::vector<TraceChartData> loadTraceCharts(store::Workspace& workspace, const std::vector<std::int64_t>& ids);

// ---- Step breakdown ------------------------------------------------------------------------

// The stacked segments of a step bar, bottom to top: shares of the step's wall time that do not
// overlap, so a bar is as tall as the step (trace::stepShares states the rule). Compute classes
// split the compute time in proportion to their kernel time; HiddenComm is compute time during
// which communication ran too (drawn hatched, on top of the compute it belongs to); Memcpy is
// copy time under no kernel; exposed communication and idle are the rest.
enum class StepSegment { Gemm, Attention, Other, HiddenComm, Memcpy, ExposedComm, Idle, Count };
const char* segmentName(StepSegment s); // "GEMM", ..., "Exposed communication", "Idle"
const char* segmentKey(StepSegment s);  // "gemm_ms", ... for CSV columns

inline constexpr int kAllRanksMean = -1;

// The step-breakdown segment a kernel class is drawn as (communication as exposed communication),
// so the timeline and the bars share their colours.
StepSegment segmentOfClass(KernelClass c);

struct StepBar
{
    std::int64_t step = -1;            // -1 = the whole trace (no step annotations)
    double segmentsMs[static_cast<int>(StepSegment::Count)] = {};
    double stepMs = 0;                 // the chosen rank's step time, or the mean over ranks
    double minStepMs = 0;              // fastest and slowest rank in this step (straggler spread)
    double maxStepMs = 0;
    int ranks = 0;                     // ranks that recorded this step
    double segment(StepSegment s) const { return segmentsMs[static_cast<int>(s)]; }
};

std::vector<int> ranksOf(const std::vector<StepBreakdown>& steps); // sorted, unique
// Segment values of one breakdown record, in ms; they add up to its step time.
void segmentsOf(const StepBreakdown& b, double (&outMs)[static_cast<int>(StepSegment::Count)]);
// One bar per step number, sorted by step: the given rank's numbers, or (kAllRanksMean) the mean
// over the ranks that recorded the step. min/max step times are always over all ranks.
std::vector<StepBar> stepBars(const std::vector<StepBreakdown>& steps, int rank = kAllRanksMean);

struct RankTotals
{
    int rank = 0;
    double segmentsMs[static_cast<int>(StepSegment::Count)] = {};
    double stepMs = 0; // summed step time
    int steps = 0;
    double segment(StepSegment s) const { return segmentsMs[static_cast<int>(s)]; }
};
// Segments summed over steps, one entry per rank (or only the given rank), sorted by rank.
std::vector<RankTotals> rankTotals(const std::vector<StepBreakdown>& steps, int rank = kAllRanksMean);

// Per-step bars (stepBars) or per-rank totals (rankTotals).
enum class StepChartMode { PerStep, Totals };
// The rows of the step-breakdown chart: one per step (segments in ms, step time, slowest and
// fastest rank) or one per rank (segments summed over steps).
std::string stepBreakdownCsv(const TraceChartData& data, StepChartMode mode, int rank = kAllRanksMean);

// ---- Timeline ------------------------------------------------------------------------------

// The rank a timeline shows (the asked one when it has events, else the first with any).
int timelineRank(const TraceChartData& data, int asked);
// The timeline events of one rank, in stored order (by start).
std::vector<const TimelineEvent*> timelineEvents(const TraceChartData& data, int rank);
// One row per event of the timeline of timelineRank(data, rank): stream, class, start, duration.
std::string timelineCsv(const TraceChartData& data, int rank = kAllRanksMean);

// ---- Kernels -------------------------------------------------------------------------------

struct KernelRow
{
    std::string name;
    KernelClass kernelClass = KernelClass::Other;
    std::int64_t count = 0;
    double totalMs = 0;
    double meanUs = 0;
    double sharePercent = 0; // of the total kernel time of the rank(s) shown
};
// The top kernels of one rank, or summed by name over all ranks (kAllRanksMean); limit 0 = all.
std::vector<KernelRow> kernelRows(const std::vector<KernelStat>& kernels, int rank = kAllRanksMean,
                                  std::size_t limit = 0);

// ---- Training log --------------------------------------------------------------------------

enum class TrainMetric { Loss, StepTime, Throughput, Tflops, Mfu };
enum class TrainXAxis { Step, WallTime };

const char* toString(TrainMetric m); // "loss", "steptime", "throughput", "tflops", "mfu"
std::optional<TrainMetric> trainMetricFromString(const std::string& name);
std::string trainMetricTitle(TrainMetric m); // axis title with unit: "Step time (ms)", "MFU (%)"
// NaN when the log has none; MFU in %. A step without an MFU of its own but with TFLOP/s per GPU
// (Megatron prints only those) has an MFU over mfuPeakTflops when one is given (mfuPeakOf).
double trainMetricValue(const TrainStep& s, TrainMetric m, double mfuPeakTflops = kNoValue);

// The peak a log's TFLOP/s per GPU are divided by for an MFU the log does not print: the bf16
// peak of the hardware profile matching the device the run names (model::measuredRunOf: the
// file name, "16xH100"), as predicted vs measured does. tflops NaN and basis empty when the run
// names no device that has a profile, or when every step states its own MFU.
struct MfuPeak
{
    double tflops = kNoValue;
    std::string axisTitle; // "MFU (% of NVIDIA H100 SXM5 80GB bf16 peak, 989 TFLOP/s)"
    std::string basis;     // "the log's TFLOP/s per GPU over the ...'s bf16 peak, 989 TFLOP/s (datasheet; ...)"
};
MfuPeak mfuPeakOf(const TraceChartData& data);

struct TrainPoint
{
    double x = 0;
    double y = 0;
    std::int64_t step = 0;
};

struct TrainSegment
{
    int segment = 0;                 // 0 = first run, +1 per restart
    std::vector<TrainPoint> points;  // finite values only, in log order
};

// The wall-time axis unit picked for the span of the log: seconds, minutes or hours.
struct WallUnit
{
    double seconds = 1;
    const char* name = "s";
};
WallUnit wallUnitFor(const std::vector<TrainStep>& steps);

double trainX(const TrainStep& s, TrainXAxis axis, WallUnit unit);
// One line per run segment, so a restart that resumes from an earlier step does not zigzag.
std::vector<TrainSegment> trainSegments(const std::vector<TrainStep>& steps, TrainMetric m, TrainXAxis axis,
                                        double mfuPeakTflops = kNoValue);
// Where an event sits on the x axis (NaN when the axis is wall time and the event has none).
double eventX(const TrainEvent& e, TrainXAxis axis, WallUnit unit);
// The metric per logged step (empty cell where the log has none), then after a blank line the
// events the chart marks.
std::string trainLogCsv(const TraceChartData& data, TrainMetric metric);
} // namespace rl::charts
