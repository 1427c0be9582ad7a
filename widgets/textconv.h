#pragma once
// The conversions the chart and panel files all need: std::string to QString for display, and a
// double as the text of a CSV cell.
#include <QString>

#include <string>

namespace rl {
inline QString qs(const std::string& s) { return QString::fromStdString(s); }

namespace charts {
std::string csvNumber(double v); // 10 significant digits, shortest form ("0.25", "1.5e+09")
} // namespace charts
} // namespace rl
