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

// Every choice of the mapping in one line: the same file imported with another mapping is another
// import (fileimport.cpp keys it with the file's hash), not a duplicate of the first.
inline std::string mappingKey(const ColumnMapping& m)
{
    std::string key;
    for (const std::string* column : {&m.step, &m.loss, &m.stepTime, &m.tokensPerSec, &m.tflops, &m.mfu,
                                      &m.wallTime, &m.learningRate, &m.gradNorm})
        key += *column + '\x1f'; // unit separator: cannot appear in a header name we split on
    return key + std::to_string(m.stepTimeScale) + (m.mfuPercent ? " mfu%" : " mfu");
}
} // namespace rl::trace
