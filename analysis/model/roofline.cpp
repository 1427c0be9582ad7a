#include "model/roofline.h"

#include <algorithm>

namespace rl {

void Roofline::addCompute(std::string dtype, double gflops) { m_compute.push_back({std::move(dtype), gflops}); }
void Roofline::addBandwidth(std::string level, double gbs) { m_bandwidth.push_back({std::move(level), gbs}); }

const ComputeCeiling* Roofline::compute(const std::string& dtype) const
{
    for (const auto& c : m_compute)
        if (c.dtype == dtype && c.gflops > 0)
            return &c;
    return nullptr;
}

const BandwidthCeiling* Roofline::bandwidth(const std::string& level) const
{
    for (const auto& b : m_bandwidth)
        if (b.level == level && b.gbs > 0)
            return &b;
    return nullptr;
}

std::optional<double> Roofline::attainable(double intensity, const std::string& dtype, const std::string& level) const
{
    const auto* c = compute(dtype);
    const auto* b = bandwidth(level);
    if (!c || !b || intensity < 0)
        return std::nullopt;
    return std::min(c->gflops, b->gbs * intensity);
}

std::optional<double> Roofline::ridgePoint(const std::string& dtype, const std::string& level) const
{
    const auto* c = compute(dtype);
    const auto* b = bandwidth(level);
    if (!c || !b)
        return std::nullopt;
    return c->gflops / b->gbs;
}

std::optional<RooflinePoint> Roofline::intersection(const std::string& dtype, const std::string& level) const
{
    const auto ridge = ridgePoint(dtype, level);
    if (!ridge)
        return std::nullopt;
    return RooflinePoint{*ridge, compute(dtype)->gflops};
}

std::optional<double> Roofline::attainableAllLevels(double intensity, const std::string& dtype) const
{
    const auto* c = compute(dtype);
    if (!c || intensity < 0)
        return std::nullopt;
    double v = c->gflops;
    for (const auto& b : m_bandwidth)
        if (b.gbs > 0)
            v = std::min(v, b.gbs * intensity);
    return v;
}

Roofline Roofline::fromProfile(const HardwareProfile& hw)
{
    Roofline r;
    for (const auto& [dtype, peak] : hw.peakTflops)
        r.addCompute(dtype, peak.value * 1e3);
    for (const auto& level : hw.memoryLevels)
        r.addBandwidth(level.name, level.bandwidthGBs);
    if (hw.memoryLevels.empty() && hw.hbmBandwidthGBs.value > 0)
        r.addBandwidth("HBM", hw.hbmBandwidthGBs.value);
    return r;
}
} // namespace rl
