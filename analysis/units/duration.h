#pragma once
// Durations people plan in (checkpoint intervals, MTBF, restart times), next to units.h's
// microsecond formatTime: "45.0 s", "12.5 min", "3.25 h"; "n/a" when not finite. Defined in
// units.cpp with the other formatters.
#include <string>

namespace rl::units {
std::string formatDuration(double seconds);
} // namespace rl::units
