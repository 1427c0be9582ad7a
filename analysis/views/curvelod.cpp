#include "views/curvelod.h"

#include <algorithm>
#include <cmath>

namespace rl::charts {

int pixelColumn(double x, double xMin, double xMax, int pixels)
{
    const double c = std::floor((x - xMin) / (xMax - xMin) * pixels);
    return static_cast<int>(std::clamp(c, 0.0, double(std::max(1, pixels) - 1)));
}

std::vector<PlotPoint> decimateToPixels(std::span<const PlotPoint> points, double xMin, double xMax, int pixels,
                                        std::size_t standsFor)
{
    pixels = std::max(1, pixels);
    if (std::max(points.size(), standsFor) <= pointsDrawnWhole(pixels) || !(xMax > xMin))
        return {points.begin(), points.end()};
    auto column = [&](double x) { return pixelColumn(x, xMin, xMax, pixels); };
    std::vector<PlotPoint> out;
    out.reserve(pointsDrawnWhole(pixels));
    std::size_t i = 0;
    while (i < points.size()) {
        const int col = column(points[i].x);
        const std::size_t first = i;
        std::size_t lo = i, hi = i;
        for (++i; i < points.size() && column(points[i].x) == col; ++i) {
            if (points[i].y < points[lo].y)
                lo = i;
            if (points[i].y > points[hi].y)
                hi = i;
        }
        const std::size_t last = i - 1;
        // In their order along the curve, each once: the line enters at the first, reaches both
        // extremes and leaves at the last.
        std::size_t keep[4] = {first, std::min(lo, hi), std::max(lo, hi), last};
        std::size_t prev = points.size();
        for (std::size_t k : keep) {
            if (k == prev)
                continue;
            out.push_back(points[k]);
            prev = k;
        }
    }
    return out;
}

std::vector<BandPoint> aggregateBand(const std::vector<std::vector<PlotPoint>>& curves)
{
    std::vector<PlotPoint> all;
    std::size_t n = 0;
    for (const auto& c : curves)
        n += c.size();
    all.reserve(n);
    for (const auto& c : curves)
        all.insert(all.end(), c.begin(), c.end());
    std::sort(all.begin(), all.end(), [](const PlotPoint& a, const PlotPoint& b) { return a.x < b.x; });
    std::vector<BandPoint> out;
    std::vector<double> ys;
    for (std::size_t i = 0; i < all.size();) {
        const double x = all[i].x;
        ys.clear();
        for (; i < all.size() && all[i].x == x; ++i)
            ys.push_back(all[i].y);
        std::sort(ys.begin(), ys.end());
        const std::size_t m = ys.size();
        const double median = m % 2 ? ys[m / 2] : (ys[m / 2 - 1] + ys[m / 2]) / 2;
        out.push_back({x, ys.front(), median, ys.back(), static_cast<int>(m)});
    }
    return out;
}
} // namespace rl::charts
