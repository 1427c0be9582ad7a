#include "model/gemmefficiencysource.h"

#include <algorithm>
#include <cmath>

namespace rl::model {

void MeasuredGemmEfficiency::addPoint(double m, double n, double k, double efficiency)
{
    if (m <= 0 || n <= 0 || k <= 0 || !(efficiency > 0))
        return;
    m_points.push_back({std::log2(m), std::log2(n), std::log2(k), std::min(efficiency, 1.0)});
}

std::optional<double> MeasuredGemmEfficiency::efficiency(double m, double n, double k) const
{
    if (m_points.empty() || m <= 0 || n <= 0 || k <= 0)
        return std::nullopt;
    const double lm = std::log2(m), ln = std::log2(n), lk = std::log2(k);
    double wsum = 0, esum = 0;
    for (const auto& p : m_points) {
        const double d2 = (p.lm - lm) * (p.lm - lm) + (p.ln - ln) * (p.ln - ln) + (p.lk - lk) * (p.lk - lk);
        if (d2 < 1e-12)
            return p.eff;
        const double w = 1.0 / (d2 * d2); // power 4 in distance: near points dominate
        wsum += w;
        esum += w * p.eff;
    }
    return esum / wsum;
}
} // namespace rl::model
