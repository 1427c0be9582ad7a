#include "units/memory.h"

#include <cmath>
#include <cstdio>

namespace rl::units {

std::string formatMemory(double bytes)
{
    constexpr double kMiB = 1024.0 * 1024.0, kGiB = kMiB * 1024.0;
    char buf[64];
    const double gib = bytes / kGiB;
    if (std::fabs(gib) < 1)
        std::snprintf(buf, sizeof buf, "%.0f MiB", bytes / kMiB);
    else if (std::fabs(gib - std::round(gib)) < 0.05) // "192 GiB", not "192.0 GiB"
        std::snprintf(buf, sizeof buf, "%.0f GiB", gib);
    else
        std::snprintf(buf, sizeof buf, "%.1f GiB", gib); // one decimal: an H100's 79.6 GiB, not "80 GiB"
    return buf;
}

} // namespace rl::units
