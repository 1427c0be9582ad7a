#include "model/runcalibration.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "units/units.h"

namespace rl::model {
namespace {
bool known(double v) { return !std::isnan(v); }

// Compute the optimizer and unfused gradient accumulation included: a trace's compute is every
// kernel the GPU ran.
double computeClass(const StepEstimate& e)
{
    return e.computeSeconds + e.optimizerSeconds + e.gradAccumulationSeconds;
}

std::string factor(const char* what, double k, double measured, double predicted)
{
    char b[160];
    std::snprintf(b, sizeof b, "%s x%.2f (measured %s, predicted %s)", what, k,
                  units::formatTime(measured * 1e6).c_str(), units::formatTime(predicted * 1e6).c_str());
    return b;
}
} // namespace

RunRates fitRunRates(const StepEstimate& p, const MeasuredStep& m, const std::string& basis, const DeviceRates& rates)
{
    if (!known(m.stepSeconds) || m.stepSeconds <= 0)
        throw std::invalid_argument(basis + ": the measurement has no step time to calibrate from");
    RunRates r;
    r.basis = basis;
    r.predictedRunSeconds = p.stepSeconds;
    r.measuredRunSeconds = m.stepSeconds;
    const double compute = computeClass(p);
    r.fromTrace = known(m.computeSeconds) && known(m.exposedCommSeconds) && known(m.idleSeconds) && compute > 0;
    if (r.fromTrace) {
        r.compute = m.computeSeconds / compute;
        r.moved.push_back(factor("compute", r.compute, m.computeSeconds, compute));
        if (p.exposedCommSeconds > 1e-12) {
            r.exposedComm = m.exposedCommSeconds / p.exposedCommSeconds;
            r.moved.push_back(factor("exposed communication", r.exposedComm, m.exposedCommSeconds, p.exposedCommSeconds));
        } else if (m.exposedCommSeconds > 0) {
            r.addedComm = m.exposedCommSeconds;
            r.moved.push_back("exposed communication +" + units::formatTime(r.addedComm * 1e6) +
                              " per step (the model hides all of it)");
        }
        if (p.bubbleSeconds > 1e-12) {
            r.bubble = m.idleSeconds / p.bubbleSeconds;
            r.moved.push_back(factor("bubble and idle", r.bubble, m.idleSeconds, p.bubbleSeconds));
        } else if (m.idleSeconds > 0) {
            r.addedIdle = m.idleSeconds;
            r.moved.push_back("idle +" + units::formatTime(r.addedIdle * 1e6) + " per step (no pipeline bubble to scale)");
        }
    } else {
        // The step time alone: put the difference on compute and the bubble (stage compute), the
        // exposed communication as modelled; when that alone exceeds the measurement, scale all.
        const double scalable = compute + p.bubbleSeconds;
        const double k = scalable > 0 ? (m.stepSeconds - p.exposedCommSeconds) / scalable : 0;
        if (k > 0) {
            r.compute = r.bubble = k;
            r.moved.push_back(factor("compute and bubble", k, m.stepSeconds - p.exposedCommSeconds, scalable) +
                              "; exposed communication as modelled");
        } else {
            r.compute = r.bubble = r.exposedComm = m.stepSeconds / p.stepSeconds;
            r.moved.push_back(factor("every class", r.compute, m.stepSeconds, p.stepSeconds));
        }
    }
    r.residual = applyRunRates(p, r, rates).stepSeconds / m.stepSeconds - 1;
    return r;
}

StepEstimate applyRunRates(const StepEstimate& e, const RunRates& k, const DeviceRates& r)
{
    if (k.identity() || e.stepSeconds <= 0)
        return e;
    StepEstimate c = e;
    // The hardware FLOPs of the step on one GPU, and the least time they take at the ceiling.
    const double hardwareFlops = e.hfu * r.peakFlops * e.stepSeconds;
    const double floorSeconds = r.maxAchievableFlops > 0 ? hardwareFlops / r.maxAchievableFlops : 0;
    double f = k.compute;
    if (e.computeSeconds > 0 && f * e.computeSeconds < floorSeconds)
        f = floorSeconds / e.computeSeconds;
    c.computeSeconds *= f;
    c.gemmSeconds *= f;
    c.elementwiseSeconds *= f;
    c.recomputeSeconds *= f;
    c.optimizerSeconds *= f;
    c.gradAccumulationSeconds *= f;
    // A trace measured the bubble; otherwise it is stage compute and follows compute, floor included.
    c.bubbleSeconds = e.bubbleSeconds * (k.fromTrace ? k.bubble : f) + k.addedIdle;
    c.exposedDpSeconds *= k.exposedComm;
    c.exposedTpSeconds *= k.exposedComm;
    c.exposedEpSeconds *= k.exposedComm;
    c.exposedOtherSeconds = c.exposedOtherSeconds * k.exposedComm + k.addedComm;
    c.exposedCommSeconds = c.exposedDpSeconds + c.exposedTpSeconds + c.exposedEpSeconds + c.exposedOtherSeconds;
    c.stepSeconds = c.computeSeconds + c.bubbleSeconds + c.exposedCommSeconds + c.optimizerSeconds +
                    c.gradAccumulationSeconds;
    const double speed = e.stepSeconds / c.stepSeconds;
    c.tokensPerSecond *= speed;
    c.modelTflopsPerGpu *= speed;
    c.mfu *= speed;
    c.mfuMaxAchievable *= speed;
    c.hfu *= speed;
    return c;
}
} // namespace rl::model
