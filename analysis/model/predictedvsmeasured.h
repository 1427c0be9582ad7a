#pragma once
// Predicted versus measured: the sizing model's step for a configuration next to what a profiled
// trace or a training log of that configuration shows, with the largest gaps named. A trace gives
// the breakdown (compute, exposed communication, idle); a log gives step time and MFU.
#include <string>
#include <vector>

#include "model/sizingreport.h"
#include "records/session.h"
#include "records/tracerecords.h"
#include "records/trainlogrecords.h"

namespace rl::model {

// NaN where the source does not tell.
struct MeasuredStep
{
    std::string source; // what was measured and how it was reduced, for the report
    double stepSeconds = kNoValue;
    double computeSeconds = kNoValue;     // GPU compute busy (interval union)
    double exposedCommSeconds = kNoValue; // communication not hidden behind compute
    double idleSeconds = kNoValue;        // step time with nothing on the GPU
    // A trace's kernel classes (sums of kernel time): GEMM and attention kernels, and the rest
    // (element-wise, norms, optimizer, copies). The model splits its compute the same way.
    double gemmAttentionSeconds = kNoValue;
    double otherKernelSeconds = kNoValue;
    double mfu = kNoValue;                // 0..1
    double tflopsPerGpu = kNoValue;
};

// A step is as slow as its slowest rank: per step, the rank with the longest step; then the median
// over steps (the first step, usually a warm-up, counts like any other). Throws
// std::invalid_argument without steps.
MeasuredStep measuredFromTrace(const std::vector<StepBreakdown>& steps);
// Median over the logged steps of step time, MFU and TFLOP/s per GPU; steps redone after a restart
// are left out. Throws std::invalid_argument without timed steps.
MeasuredStep measuredFromTrainLog(const std::vector<TrainStep>& steps);
// By the session's kind: a trace from its step breakdowns, a training log from its steps (the
// other list is ignored). Throws std::invalid_argument for any other kind ("... needs a trace or
// a training log") or, as above, without steps.
MeasuredStep measuredFromSession(const Session& s, const std::vector<StepBreakdown>& traceSteps,
                                 const std::vector<TrainStep>& logSteps);

inline constexpr const char* kComputeGemmRow = "compute: GEMM and attention";
inline constexpr const char* kComputeOtherRow = "compute: element-wise, optimizer and other kernels";

struct ComparisonRow
{
    // "step time", "compute", "exposed communication", "idle and bubble", "MFU", "TFLOP/s per GPU", and
    // from a trace the two parts of compute by kernel class: "compute: GEMM and attention",
    // "compute: element-wise, optimizer and other kernels"
    std::string quantity;
    std::string unit;     // "s" or "" (fractions)
    double predicted = 0;
    double measured = kNoValue;
    double gap() const { return measured - predicted; } // measured above prediction: positive
};

struct PredictionComparison
{
    std::vector<ComparisonRow> rows;
    // The time components (not the step total) ordered by |gap|, largest first, as sentences:
    // "compute: measured 412 ms, predicted 301 ms (+111 ms, 1.37x)". With a trace's kernel classes,
    // compute is given by its two parts, which say where its gap is.
    std::vector<std::string> largestGaps;
    // What makes a measured figure no result: an MFU above 100 % (TFLOP/s above the device's peak)
    // means the assumed model, batch or layout is not what ran; those rows are then left empty.
    std::vector<std::string> problems;
};

// The model's compute counts what runs on the GPU: the micro-batches' kernels, the optimizer step and
// unfused gradient accumulation; its idle is the pipeline bubble.
// When the measurement has no MFU or TFLOP/s (a trace), they follow from the model's FLOPs and the
// measured step time: measured MFU = predicted MFU x predicted step / measured step. A measured
// TFLOP/s without an MFU gives the MFU over the device's peak. A measured MFU above 1 is never
// shown: the MFU and TFLOP/s rows are left empty and `problems` says why.
PredictionComparison comparePrediction(const SizingReport& predicted, const MeasuredStep& measured);
} // namespace rl::model
