#include "model/predictedvsmeasured.h"

#include "fits/median.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <stdexcept>

#include "units/units.h"

namespace rl::model {
namespace {
// Over the figures a source gave (NaN: not given); kNoValue when none.
double median(std::vector<double> v)
{
    v.erase(std::remove_if(v.begin(), v.end(), [](double x) { return std::isnan(x); }), v.end());
    return fits::median(std::move(v), kNoValue);
}
} // namespace

MeasuredStep measuredFromTrace(const std::vector<StepBreakdown>& steps)
{
    if (steps.empty())
        throw std::invalid_argument("the trace has no steps");
    std::map<std::int64_t, const StepBreakdown*> slowest;
    int ranks = 0;
    for (const auto& s : steps) {
        auto& cur = slowest[s.step];
        if (!cur || s.stepUs > cur->stepUs)
            cur = &s;
        ranks = std::max(ranks, s.rank + 1);
    }
    std::vector<double> step, compute, comm, idle, gemm, other;
    for (const auto& [n, s] : slowest) {
        step.push_back(s->stepUs / 1e6);
        compute.push_back(s->computeBusyUs / 1e6);
        comm.push_back(s->exposedCommUs / 1e6);
        idle.push_back(s->idleUs / 1e6);
        gemm.push_back((s->gemmUs + s->attentionUs) / 1e6);
        other.push_back((s->otherUs + s->memcpyUs) / 1e6);
    }
    MeasuredStep m;
    m.source = "trace: median over " + std::to_string(slowest.size()) + " step(s) of the slowest of " +
               std::to_string(ranks) + " rank(s)";
    m.stepSeconds = median(step);
    m.computeSeconds = median(compute);
    m.exposedCommSeconds = median(comm);
    m.idleSeconds = median(idle);
    m.gemmAttentionSeconds = median(gemm);
    m.otherKernelSeconds = median(other);
    return m;
}

MeasuredStep measuredFromTrainLog(const std::vector<TrainStep>& steps)
{
    std::vector<double> time, mfu, tflops;
    for (const auto& s : steps) {
        if (s.redone)
            continue;
        time.push_back(s.stepTimeMs / 1e3);
        mfu.push_back(s.mfu);
        tflops.push_back(s.tflopsPerGpu);
    }
    MeasuredStep m;
    m.stepSeconds = median(time);
    if (std::isnan(m.stepSeconds))
        throw std::invalid_argument("the training log has no timed steps");
    m.mfu = median(mfu);
    m.tflopsPerGpu = median(tflops);
    m.source = "training log: median over " + std::to_string(time.size()) + " logged step(s)";
    return m;
}

MeasuredStep measuredFromSession(const Session& s, const std::vector<StepBreakdown>& traceSteps,
                                 const std::vector<TrainStep>& logSteps)
{
    if (s.kind == kind::Trace)
        return measuredFromTrace(traceSteps);
    if (s.kind == kind::TrainingLog)
        return measuredFromTrainLog(logSteps);
    throw std::invalid_argument("session " + std::to_string(s.id) + " is of kind " + s.kind +
                                "; predicted vs measured needs a trace or a training log");
}

PredictionComparison comparePrediction(const SizingReport& predicted, const MeasuredStep& measured)
{
    const auto& s = predicted.step;
    // The model's step = compute + exposed communication + pipeline bubble + optimizer (+ unfused
    // gradient accumulation). The optimizer's kernels keep the GPU busy, so a trace counts them as
    // compute; what the GPU shows as idle is the bubble plus whatever the model does not know about
    // (data loading, host gaps).
    const double predictedCompute = s.computeSeconds + s.optimizerSeconds + s.gradAccumulationSeconds;
    const double predictedIdle = std::max(0.0, s.stepSeconds - predictedCompute - s.exposedCommSeconds);
    // Same model, same tokens: when the source has no MFU, the measured step time gives it.
    double mfu = measured.mfu, tflops = measured.tflopsPerGpu;
    // A log that prints TFLOP/s per GPU (Megatron) states the MFU too, over the device's peak: a
    // ratio of step times would instead carry every difference in the modelled FLOPs into it.
    if (std::isnan(mfu) && !std::isnan(tflops) && s.mfu > 0 && s.modelTflopsPerGpu > 0)
        mfu = tflops / (s.modelTflopsPerGpu / s.mfu);
    if (measured.stepSeconds > 0 && s.stepSeconds > 0) {
        if (std::isnan(mfu))
            mfu = s.mfu * s.stepSeconds / measured.stepSeconds;
        if (std::isnan(tflops))
            tflops = s.modelTflopsPerGpu * s.stepSeconds / measured.stepSeconds;
    }
    PredictionComparison c;
    // Nothing runs above its peak: such an MFU comes from FLOPs the run did not do (a recommender
    // trace sized as a Llama, another micro-batch), and must not read as a measurement.
    if (std::isfinite(mfu) && mfu > 1) {
        const double peak = s.mfu > 0 ? s.modelTflopsPerGpu / s.mfu : 0;
        std::string what = "the measured MFU would be " + units::formatPercent(mfu);
        if (peak > 0 && std::isfinite(tflops))
            what += " (" + units::formatFlops(tflops * 1e12) + " per GPU on a device of " +
                    units::formatFlops(peak * 1e12) + " peak)";
        c.problems.push_back(what + ": above what the device can do, so the run is not the assumed model, batch and "
                                    "layout; MFU and TFLOP/s are not shown. Give the model and layout that ran.");
        mfu = tflops = kNoValue;
    }
    c.rows = {{"step time", "s", s.stepSeconds, measured.stepSeconds},
              {"compute", "s", predictedCompute, measured.computeSeconds},
              {"exposed communication", "s", s.exposedCommSeconds, measured.exposedCommSeconds},
              {"idle and bubble", "s", predictedIdle, measured.idleSeconds},
              {"MFU", "", s.mfu, mfu},
              {"TFLOP/s per GPU", "TFLOP/s", s.modelTflopsPerGpu, tflops}};
    const bool byClass = !std::isnan(measured.gemmAttentionSeconds) && !std::isnan(measured.otherKernelSeconds);
    if (byClass) {
        c.rows.push_back({kComputeGemmRow, "s", s.gemmSeconds, measured.gemmAttentionSeconds});
        c.rows.push_back({kComputeOtherRow, "s", predictedCompute - s.gemmSeconds, measured.otherKernelSeconds});
    }
    std::vector<const ComparisonRow*> parts;
    for (const auto& r : c.rows)
        if (r.unit == "s" && r.quantity != "step time" && !std::isnan(r.measured) && !(byClass && r.quantity == "compute"))
            parts.push_back(&r);
    std::sort(parts.begin(), parts.end(),
              [](const ComparisonRow* a, const ComparisonRow* b) { return std::abs(a->gap()) > std::abs(b->gap()); });
    for (const auto* r : parts) {
        char ratio[32] = "";
        if (r->predicted > 0)
            std::snprintf(ratio, sizeof ratio, ", %.2fx", r->measured / r->predicted);
        c.largestGaps.push_back(r->quantity + ": measured " + units::formatTime(r->measured * 1e6) + ", predicted " +
                                units::formatTime(r->predicted * 1e6) + " (" + (r->gap() >= 0 ? "+" : "-") +
                                units::formatTime(std::abs(r->gap()) * 1e6) + ratio + ")");
    }
    return c;
}
} // namespace rl::model
