#pragma once
// The conversion the chart and panel files all need: std::string to QString for display.
#include <QString>

#include <string>

namespace rl {
inline QString qs(const std::string& s) { return QString::fromStdString(s); }
} // namespace rl
