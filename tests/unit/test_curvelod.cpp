// Level of detail of the size charts (issue 26 item 11) on data shaped like a real sweep: a noisy
// bandwidth curve of 200,000 points decimated to the plot's pixels keeps, in every pixel column,
// the first, last, lowest and highest point; 324 --split group curves become one band whose edges
// are the slowest and fastest group and whose middle is the median group.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>

#include "views/curvelod.h"

using namespace rl::charts;

namespace {
// log2(bytes) from 3 (8 B) to 34 (16 GiB), sizes repeated as a long sweep repeats them, busbw
// rising to a plateau with 3 % noise and a few outliers (a slow call).
std::vector<PlotPoint> longSweep(std::size_t n)
{
    std::mt19937_64 rng(11);
    std::normal_distribution<double> noise(1.0, 0.03);
    std::vector<PlotPoint> pts;
    pts.reserve(n);
    const int sizes = 4096;
    for (std::size_t i = 0; i < n; ++i) {
        const double x = 3.0 + 31.0 * double(i * sizes / n) / (sizes - 1);
        const double bytes = std::exp2(x);
        double y = bytes / (20e-6 * 1e9 + bytes / 180.0) * noise(rng);
        if (i % 9973 == 0)
            y *= 0.2;
        pts.push_back({x, y});
    }
    return pts;
}

struct Column
{
    double min = INFINITY, max = -INFINITY;
    std::size_t count = 0;
};

std::map<int, Column> columns(const std::vector<PlotPoint>& pts, double xMin, double xMax, int pixels)
{
    std::map<int, Column> out;
    for (const auto& p : pts) {
        auto& col = out[pixelColumn(p.x, xMin, xMax, pixels)];
        col.min = std::min(col.min, p.y);
        col.max = std::max(col.max, p.y);
        ++col.count;
    }
    return out;
}
} // namespace

TEST(CurveLod, DecimatedCurveKeepsEveryPixelColumnsExtremesAndEnds)
{
    const auto full = longSweep(200'000);
    const int pixels = 900;
    const double xMin = full.front().x, xMax = full.back().x;
    const auto thin = decimateToPixels(full, xMin, xMax, pixels);

    EXPECT_LE(thin.size(), 4u * pixels);
    EXPECT_LT(thin.size(), full.size() / 20);
    EXPECT_EQ(thin.front(), full.front());
    EXPECT_EQ(thin.back(), full.back());
    // A subsequence of the curve, in its order: the polyline only loses points, never invents them.
    auto at = full.begin();
    for (const auto& p : thin) {
        at = std::find(at, full.end(), p);
        ASSERT_NE(at, full.end()) << "a point the curve does not have, or out of order";
    }
    const auto want = columns(full, xMin, xMax, pixels);
    const auto got = columns(thin, xMin, xMax, pixels);
    ASSERT_EQ(got.size(), want.size()) << "every column the curve touches is drawn";
    for (const auto& [c, w] : want) {
        EXPECT_EQ(got.at(c).min, w.min) << "column " << c;
        EXPECT_EQ(got.at(c).max, w.max) << "column " << c;
        EXPECT_LE(got.at(c).count, 4u) << "column " << c;
    }
}

TEST(CurveLod, ShortCurvesAndDegenerateRangesAreLeftAsTheyAre)
{
    const auto pts = longSweep(100);
    EXPECT_EQ(decimateToPixels(pts, pts.front().x, pts.back().x, 800), pts);
    EXPECT_EQ(decimateToPixels(pts, 5.0, 5.0, 10), pts); // no width to split
    const std::vector<PlotPoint> none;
    EXPECT_TRUE(decimateToPixels(none, 0, 1, 10).empty());
}

TEST(CurveLod, GroupCurvesBecomeABandOfSlowestMedianAndFastest)
{
    // 324 curves of 24 sizes, as one --split session draws them; group 5 is slow, group 7 fast.
    std::vector<std::vector<PlotPoint>> curves(324);
    for (std::size_t g = 0; g < curves.size(); ++g)
        for (int k = 0; k < 24; ++k) {
            const double base = 10.0 * (k + 1);
            const double y = g == 5 ? base * 0.5 : g == 7 ? base * 1.5 : base + double(g % 3); // others: base..base+2
            curves[g].push_back({double(k + 3), y});
        }
    const auto band = aggregateBand(curves);
    ASSERT_EQ(band.size(), 24u);
    for (int k = 0; k < 24; ++k) {
        const double base = 10.0 * (k + 1);
        EXPECT_EQ(band[k].x, double(k + 3));
        EXPECT_EQ(band[k].min, base * 0.5);
        EXPECT_EQ(band[k].max, base * 1.5);
        EXPECT_EQ(band[k].median, base + 1); // 322 curves at base, base+1, base+2 (+ the two outliers)
        EXPECT_EQ(band[k].values, 324);
    }
    EXPECT_TRUE(aggregateBand({}).empty());
}
