#include "views/stepsessiondata.h"

#include <cmath>
#include <sstream>

#include "units/memory.h"
#include "units/units.h"
#include "views/keptfield.h"

namespace rl::charts {
namespace {
std::string fixed(double v, int decimals)
{
    std::ostringstream s;
    s.setf(std::ios::fixed);
    s.precision(decimals);
    s << v;
    return s.str();
}
} // namespace

std::vector<TimedStep> timedSteps(const Session& session)
{
    std::vector<TimedStep> out;
    const auto it = session.params.find("timed_steps");
    if (it == session.params.end() || !it->is_array())
        return out;
    for (const auto& r : *it) {
        TimedStep s;
        s.step = keptField<int>(r, "step", int(out.size()));
        s.timeMs = keptField<double>(r, "time_ms", 0.0);
        s.tokensPerS = keptField<double>(r, "tokens_per_s", 0.0);
        s.tflops = keptField<double>(r, "tflops", 0.0);
        if (s.timeMs > 0)
            out.push_back(s);
    }
    return out;
}

std::string describeStepSummary(const Session& session)
{
    const auto it = session.params.find("step_summary");
    if (it == session.params.end() || !it->is_object())
        return {};
    const auto& s = *it;
    std::string text;
    const auto line = [&text](const std::string& l) { text += (text.empty() ? "" : "\n") + l; };
    const int steps = keptField<int>(s, "steps", 0);
    const double median = keptField<double>(s, "median_ms", 0.0);
    if (median > 0) {
        std::string l = std::to_string(steps) + " timed steps, median " + fixed(median, 2) + " ms";
        const double lo = keptField<double>(s, "min_ms", 0.0), hi = keptField<double>(s, "max_ms", 0.0);
        if (lo > 0 && hi > 0)
            l += " (" + fixed(lo, 2) + " to " + fixed(hi, 2) + " ms)";
        line(l);
    }
    const double tokens = keptField<double>(s, "tokens_per_step", 0.0);
    const double tokensPerS = keptField<double>(s, "tokens_per_s", 0.0);
    if (tokens > 0 || tokensPerS > 0)
        line(fixed(tokens, 0) + " tokens per step, " + fixed(tokensPerS, 0) + " tokens/s");
    const double params = keptField<double>(s, "parameters", 0.0);
    const double flop = keptField<double>(s, "model_flops_per_step", 0.0);
    const double tflops = keptField<double>(s, "tflops", 0.0);
    if (flop > 0 || tflops > 0) {
        std::string l = params > 0 ? units::formatCount(params) + " parameters, " : std::string();
        l += units::formatFlop(flop) + " per step (model FLOPs): " + units::formatFlops(tflops * 1e12);
        line(l);
    }
    // The probe's memory counters over the timed steps (GPU only): what the tensors needed at the
    // peak, what the allocator took for them, what stays between steps and what lies outside it.
    if (const auto m = s.find("memory_bytes"); m != s.end() && m->is_object()) {
        const double peak = keptField<double>(*m, "peak_allocated", 0.0), reserved = keptField<double>(*m, "peak_reserved", 0.0);
        if (peak > 0)
            line("memory: peak " + units::formatMemory(peak) + " allocated, " + units::formatMemory(reserved) +
                 " reserved by the allocator, " + units::formatMemory(keptField<double>(*m, "between_steps", 0.0)) +
                 " between steps, " + units::formatMemory(keptField<double>(*m, "outside_allocator", 0.0)) +
                 " outside the allocator (context, libraries)");
    }
    const std::string profiler = keptField<std::string>(s, "profiler", {});
    if (!profiler.empty())
        line("profiler: " + profiler + ", " + std::to_string(keptField<int>(s, "trace_steps", 0)) + " traced steps, "
             + std::to_string(keptField<int>(s, "trace_ops", 0)) + " ops");
    return text;
}

std::optional<std::int64_t> stepTraceSession(const Session& session)
{
    const auto id = keptField<std::int64_t>(session.params, "trace_session", 0);
    return id > 0 ? std::optional(id) : std::nullopt;
}
} // namespace rl::charts
