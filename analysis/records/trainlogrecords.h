#pragma once
// Per-step series and events of a training log session ("trainlog" kind).
#include <cmath>
#include <limits>
#include <cstdint>
#include <string>

namespace rl {

inline constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();

// Values the log does not print stay NaN.
struct TrainStep
{
    std::int64_t step = 0;
    double loss = kNoValue;
    double stepTimeMs = kNoValue;
    double tokensPerSec = kNoValue;  // per GPU when the tool reports it that way (torchtitan tps)
    double tflopsPerGpu = kNoValue;
    double mfu = kNoValue;           // 0..1
    double wallTimeS = kNoValue;     // seconds since the first step of the log
    double learningRate = kNoValue;
    double gradNorm = kNoValue;
    std::int64_t skippedIterations = 0; // in the interval this line covers (loss-scale overflow, NaN)
    std::int64_t nanIterations = 0;
    // Set by the analysis (trace/trainloganalysis.h):
    std::int64_t iterationsCovered = 1; // logs print every N iterations; times are per iteration
    int segment = 0;                 // 0 for the first run, +1 after each restart
    bool redone = false;             // a later restart resumed from an earlier step: work lost
    std::int64_t line = 0;
};

enum class TrainEventKind { Restart, TimeGap, Stall, Skipped, NanLoss };
const char* toString(TrainEventKind k); // "restart", "gap", "stall", "skipped", "nan"

struct TrainEvent
{
    TrainEventKind kind = TrainEventKind::Restart;
    std::int64_t step = 0;
    double wallTimeS = kNoValue;
    double lostS = 0;                // wall time lost to it (gap length, stall excess, redone steps)
    std::string message;
    std::int64_t line = 0;
};
} // namespace rl
