#include "views/collectivehover.h"

#include <cstdio>

#include "units/units.h"

namespace rl::charts {

std::string bytesWithCount(double bytes)
{
    return units::formatBytes(bytes) + " (" + std::to_string(static_cast<long long>(bytes)) + " B)";
}

std::string describeCurvePoint(const CollectivePoint& p, const std::string& sessionTitle)
{
    return "session: " + sessionTitle + "\nop: " + p.op + (p.inPlace ? " (in-place)" : "") +
           (p.group.empty() ? std::string() : "\ngroup: " + p.group) +
           "\nsize: " + bytesWithCount(static_cast<double>(p.bytes)) + "\ntime: " + units::formatTime(p.timeUs) +
           "\nalgbw: " + units::formatBandwidth(p.algbwGBs) + "\nbusbw: " + units::formatBandwidth(p.busbwGBs) +
           "\nranks: " + std::to_string(p.nranks) + ", " + p.dtype;
}

std::string describeFitAt(const FitCurve& f, double bytes)
{
    return f.name + "\nsize: " + units::formatBytes(bytes) + "\nmodel time: " + units::formatTime(f.fit.timeUs(bytes)) +
           "\nfitted on " + std::to_string(f.fit.points) + " points, " +
           units::formatBytes(static_cast<double>(f.fit.minBytes)) + " – " +
           units::formatBytes(static_cast<double>(f.fit.maxBytes)) + ", rms error " +
           units::formatPercent(f.fit.rmsRelError);
}

std::string describeScalingPoint(const ScalingLine& l, const ScalingPoint& p, BandwidthMetric metric)
{
    return "op: " + l.op + "\nsession: " + p.sessionTitle + "\nranks: " + std::to_string(p.nranks) +
           "\nsize: " + bytesWithCount(static_cast<double>(p.bytes)) +
           (metric == BandwidthMetric::BusBw ? "\nbusbw: " : "\nalgbw: ") + units::formatBandwidth(p.value);
}

std::string describeRatioPoint(const RatioCurve& c, const RatioPoint& p)
{
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%.3f", p.ratio);
    return "op: " + c.op + (c.inPlace ? " (in-place)" : "") + "\nsize: " + bytesWithCount(static_cast<double>(p.bytes)) +
           "\nA: " + units::formatBandwidth(p.a) + "\nB: " + units::formatBandwidth(p.b) + "\nB / A: " + ratio + " ×";
}
} // namespace rl::charts
