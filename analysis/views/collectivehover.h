#pragma once
// What hovering a collective chart says, Qt-free: a measured point, a fit at a size, a scaling
// point, a ratio point. widgets/chartcontent picks the item under the pointer and shows this text.
#include <string>

#include "views/chartdata.h"

namespace rl::charts {
// "64 MiB (67108864 B)": the unit for reading, the byte count for matching a log line.
std::string bytesWithCount(double bytes);
std::string describeCurvePoint(const CollectivePoint& p, const std::string& sessionTitle);
std::string describeFitAt(const FitCurve& fit, double bytes);
std::string describeScalingPoint(const ScalingLine& line, const ScalingPoint& p, BandwidthMetric metric);
std::string describeRatioPoint(const RatioCurve& curve, const RatioPoint& p);
} // namespace rl::charts
