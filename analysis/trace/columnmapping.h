#pragma once
// Which column of a generic training-metrics table (CSV / JSON lines) holds which quantity. Its own
// header so ImportOptions can carry a user's mapping without pulling in the log parsers.
#include <string>

namespace rl::trace {

// Empty name = the table has no such column. stepTimeScale converts the column to milliseconds.
struct ColumnMapping
{
    std::string step, loss, stepTime, tokensPerSec, tflops, mfu, wallTime, learningRate, gradNorm;
    double stepTimeScale = 1.0; // 1000 when the column is in seconds
    bool mfuPercent = false;    // values like 39.5 instead of 0.395
};
} // namespace rl::trace
