#pragma once
// Measured GEMM efficiency (achieved / peak FLOP/s) as a function of (M, N, K), interpolated from
// measured points: inverse-distance weighting in log2(M), log2(N), log2(K), because efficiency
// follows the shape's scale, not its absolute size. A point measured at the exact shape wins.
#include <optional>
#include <vector>

namespace rl::model {

class GemmEfficiencySource
{
public:
    virtual ~GemmEfficiencySource() = default;
    virtual std::optional<double> efficiency(double m, double n, double k) const = 0;
};

class MeasuredGemmEfficiency : public GemmEfficiencySource
{
public:
    struct Point
    {
        double m, n, k, efficiency;
    };
    void addPoint(double m, double n, double k, double efficiency);
    bool empty() const { return m_points.empty(); }
    std::optional<double> efficiency(double m, double n, double k) const override;

private:
    struct LogPoint
    {
        double lm, ln, lk, eff;
    };
    std::vector<LogPoint> m_points;
};
} // namespace rl::model
