#pragma once
// Ticks on round values (1, 2 or 5 x 10^k) for linear value axes: QValueAxis's fixed tick count
// divides the range evenly and labels 0, 133, 267, 400. One label format for log axes.
#include <QString>

class QValueAxis;

namespace rl::charts {
// The smallest 1, 2 or 5 x 10^k that is >= raw, and at least minimum (1 for step counts).
double niceStep(double raw, double minimum = 0);
// Widens [min, max] to whole steps of about a sixth of it and puts a tick on every step; the
// label format shows as many decimals as the step needs.
void setNiceRange(QValueAxis* axis, double min, double max);
// Keeps the axis range and puts ticks on round values, about `ticks` of them, also after a zoom.
void keepRoundTicks(QValueAxis* axis, int ticks = 7, double minimum = 0);
// The printf format of a log axis from lo to hi: one style for every tick, never "1e+06" next to
// "100000" (QLogValueAxis with "%g").
QString logTickFormat(double lo, double hi);
} // namespace rl::charts
