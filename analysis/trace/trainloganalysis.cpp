#include "trace/trainloganalysis.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace rl::trace {
namespace {
bool has(double v) { return !std::isnan(v); }

std::string fmt(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}
} // namespace

TrainLogSummary analyzeTrainLog(std::vector<TrainStep>& steps, std::vector<TrainEvent>& events,
                                const TrainLogOptions& options)
{
    TrainLogSummary sum;
    events.clear();
    if (steps.empty())
        return sum;

    // Segments (a restart makes the step counter go back) and iterations each line covers.
    std::vector<bool> firstOfSegment(steps.size(), false);
    int segment = 0;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        if (i > 0 && steps[i].step <= steps[i - 1].step) {
            ++segment;
            ++sum.restarts;
            events.push_back({TrainEventKind::Restart, steps[i].step, steps[i].wallTimeS, 0,
                              "restart: step counter went back from " + std::to_string(steps[i - 1].step) + " to " +
                                  std::to_string(steps[i].step),
                              steps[i].line});
        }
        firstOfSegment[i] = i == 0 || segment != steps[i - 1].segment;
        steps[i].segment = segment;
    }
    for (std::size_t i = 0; i < steps.size(); ++i) {
        std::int64_t covered = 1;
        if (!firstOfSegment[i])
            covered = steps[i].step - steps[i - 1].step;
        else if (i + 1 < steps.size() && steps[i + 1].segment == steps[i].segment)
            covered = std::min(steps[i + 1].step - steps[i].step, std::max<std::int64_t>(steps[i].step, 1));
        steps[i].iterationsCovered = std::max<std::int64_t>(covered, 1);
    }

    // Logs without a step time (torchtitan prints tokens/s) get it from consecutive timestamps.
    for (std::size_t i = 0; i < steps.size(); ++i) {
        if (has(steps[i].stepTimeMs))
            continue;
        const bool prev = i > 0 && !firstOfSegment[i] && has(steps[i].wallTimeS) && has(steps[i - 1].wallTimeS);
        const bool next = i + 1 < steps.size() && steps[i + 1].segment == steps[i].segment &&
                          has(steps[i].wallTimeS) && has(steps[i + 1].wallTimeS);
        if (prev)
            steps[i].stepTimeMs = (steps[i].wallTimeS - steps[i - 1].wallTimeS) * 1e3 / double(steps[i].iterationsCovered);
        else if (next)
            steps[i].stepTimeMs =
                (steps[i + 1].wallTimeS - steps[i].wallTimeS) * 1e3 / double(steps[i + 1].iterationsCovered);
    }

    std::vector<double> times;
    for (const auto& s : steps)
        if (has(s.stepTimeMs))
            times.push_back(s.stepTimeMs);
    if (!times.empty()) {
        std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
        sum.medianStepMs = times[times.size() / 2];
    }
    auto stepMs = [&](const TrainStep& s) {
        return has(s.stepTimeMs) ? s.stepTimeMs : (has(sum.medianStepMs) ? sum.medianStepMs : 0.0);
    };

    // Wall clock: timestamps when every line has one, else step times added up.
    sum.wallFromTimestamps = std::all_of(steps.begin(), steps.end(), [](const TrainStep& s) { return has(s.wallTimeS); });
    if (sum.wallFromTimestamps) {
        const double t0 = steps.front().wallTimeS;
        for (auto& s : steps)
            s.wallTimeS -= t0;
        sum.wallS = steps.back().wallTimeS + stepMs(steps.front()) * double(steps.front().iterationsCovered) / 1e3;
    } else {
        double t = 0;
        for (auto& s : steps) {
            t += stepMs(s) * double(s.iterationsCovered) / 1e3;
            s.wallTimeS = t;
        }
        sum.wallS = t;
    }

    // Work redone after a restart that resumed from an earlier checkpoint.
    std::int64_t minResume = std::numeric_limits<std::int64_t>::max();
    for (std::size_t k = steps.size(); k-- > 0;) {
        auto& s = steps[k];
        if (s.step > minResume) {
            s.redone = true;
            sum.redoneIterations += std::min(s.iterationsCovered, s.step - minResume);
        }
        if (firstOfSegment[k] && k > 0)
            minResume = std::min(minResume, s.step - s.iterationsCovered);
    }
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const auto& s = steps[i];
        const double ms = stepMs(s);
        if (sum.wallFromTimestamps && i > 0) {
            const double expected = ms * double(s.iterationsCovered) / 1e3;
            const double unexplained = (s.wallTimeS - steps[i - 1].wallTimeS) - expected;
            if (unexplained > std::max(options.minGapS, options.gapFactor * expected)) {
                ++sum.gaps;
                events.push_back({TrainEventKind::TimeGap, s.step, s.wallTimeS, unexplained,
                                  "no progress for " + fmt(unexplained) + " s before step " + std::to_string(s.step),
                                  s.line});
            }
        }
        if (has(s.stepTimeMs) && has(sum.medianStepMs) && s.stepTimeMs > options.stallFactor * sum.medianStepMs) {
            ++sum.stalls;
            const double lost = (s.stepTimeMs - sum.medianStepMs) * double(s.iterationsCovered) / 1e3;
            events.push_back({TrainEventKind::Stall, s.step, s.wallTimeS, lost,
                              "stall: " + fmt(s.stepTimeMs) + " ms per step vs median " + fmt(sum.medianStepMs) +
                                  " ms",
                              s.line});
        }
        if (s.skippedIterations > 0) {
            sum.skippedIterations += s.skippedIterations;
            events.push_back({TrainEventKind::Skipped, s.step, s.wallTimeS, double(s.skippedIterations) * ms / 1e3,
                              std::to_string(s.skippedIterations) + " skipped iteration(s)", s.line});
        }
        if (s.nanIterations > 0)
            events.push_back({TrainEventKind::NanLoss, s.step, s.wallTimeS, double(s.nanIterations) * ms / 1e3,
                              std::to_string(s.nanIterations) + " iteration(s) with NaN loss", s.line});
        if (!s.redone) {
            const std::int64_t kept = std::max<std::int64_t>(0, s.iterationsCovered - s.skippedIterations - s.nanIterations);
            sum.productiveS += double(kept) * ms / 1e3;
        }
    }
    // Lost work of each restart: iterations of the previous segment beyond the resume point.
    for (std::size_t k = 1; k < steps.size(); ++k) {
        if (!firstOfSegment[k])
            continue;
        const std::int64_t resume = steps[k].step - steps[k].iterationsCovered;
        double lost = 0;
        for (std::size_t j = 0; j < k; ++j)
            if (steps[j].segment == steps[k].segment - 1 && steps[j].step > resume)
                lost += double(std::min(steps[j].iterationsCovered, steps[j].step - resume)) * stepMs(steps[j]) / 1e3;
        for (auto& e : events)
            if (e.kind == TrainEventKind::Restart && e.line == steps[k].line) {
                e.lostS = lost;
                e.wallTimeS = steps[k].wallTimeS;
            }
    }
    std::stable_sort(events.begin(), events.end(), [](const TrainEvent& a, const TrainEvent& b) { return a.line < b.line; });
    sum.goodput = sum.wallS > 0 ? std::min(1.0, sum.productiveS / sum.wallS) : 0;
    return sum;
}
} // namespace rl::trace
