#pragma once
// Roofline geometry. Compute ceilings in GFLOP/s per dtype, bandwidth ceilings in GB/s per memory
// level, arithmetic intensity in FLOP/byte (GFLOP/s / GB/s = FLOP/B):
//   attainable(I) = min(peak, bw x I), ridge point = peak / bw.
#include <optional>
#include <string>
#include <vector>

#include "model/hardwareprofile.h"

namespace rl {

struct ComputeCeiling
{
    std::string dtype; // "fp64", "bf16", ... or "float64" for measured CPUs
    double gflops = 0;
};

struct BandwidthCeiling
{
    std::string level; // "HBM3", "L2", "DRAM", ...
    double gbs = 0;
};

struct RooflinePoint
{
    double intensity = 0; // FLOP/B
    double gflops = 0;
};

class Roofline
{
public:
    void addCompute(std::string dtype, double gflops);
    void addBandwidth(std::string level, double gbs);
    const std::vector<ComputeCeiling>& computeCeilings() const { return m_compute; }
    const std::vector<BandwidthCeiling>& bandwidthCeilings() const { return m_bandwidth; }

    // nullopt when the named ceiling is absent.
    std::optional<double> attainable(double intensity, const std::string& dtype, const std::string& level) const;
    std::optional<double> ridgePoint(const std::string& dtype, const std::string& level) const;
    // The corner where the level's slope meets the dtype's roof: (ridge, peak).
    std::optional<RooflinePoint> intersection(const std::string& dtype, const std::string& level) const;
    // Attainable at I under every ceiling at once: min over the dtype roof and all levels' slopes.
    std::optional<double> attainableAllLevels(double intensity, const std::string& dtype) const;

    // Compute ceilings from peakTflops (x1000), bandwidth ceilings from memoryLevels, or the HBM
    // figure when the profile lists no levels.
    static Roofline fromProfile(const HardwareProfile& hw);

private:
    const ComputeCeiling* compute(const std::string& dtype) const;
    const BandwidthCeiling* bandwidth(const std::string& level) const;

    std::vector<ComputeCeiling> m_compute;
    std::vector<BandwidthCeiling> m_bandwidth;
};
} // namespace rl
