#pragma once
// What a PyTorch probe `step` session shows: its timed steps and the step summary, which the store
// keeps in the session's params ("timed_steps", "step_summary"; records/keptrecords.h), and the
// trace session its profiler trace was imported as ("trace_session", when the run imported it).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "records/session.h"

namespace rl::charts {

struct TimedStep
{
    int step = 0;
    double timeMs = 0;
    double tokensPerS = 0; // 0: not given
    double tflops = 0;     // model FLOPs per step over its time; 0: not given
};

// The kept step records in file order; one without a positive time is left out.
std::vector<TimedStep> timedSteps(const Session& session);
// The step summary in a few lines: steps and median (min-max) time, tokens per step and per
// second, parameters and model FLOPs per step with the rate, the GPU memory at the peak (the probe's
// memory_bytes, when it measured them), the profiler's traced steps and ops.
// Empty without a summary.
std::string describeStepSummary(const Session& session);
// The trace session the run imported the step's profiler trace as; nullopt when none is named.
std::optional<std::int64_t> stepTraceSession(const Session& session);
} // namespace rl::charts
