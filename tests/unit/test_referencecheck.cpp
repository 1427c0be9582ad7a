// Points against a reference session's alpha-beta fit: expected busbw by hand, flags at the threshold.
#include <gtest/gtest.h>

#include "collectives/referencecheck.h"

using namespace rl;

namespace {
// all_reduce points with t = alpha + bytes / beta exactly (alpha in µs, beta in GB/s).
std::vector<CollectivePoint> curve(int ranks, double alphaUs, double betaGBs, bool inPlace = false)
{
    std::vector<CollectivePoint> out;
    for (std::int64_t bytes = 1 << 10; bytes <= (1 << 26); bytes *= 4) {
        CollectivePoint p{"all_reduce", ranks, "float32", "sum", bytes, bytes / 4, inPlace, -1, 0, 0, 0, 0};
        p.timeUs = alphaUs + double(bytes) / (betaGBs * 1e3);
        p.algbwGBs = double(bytes) / (p.timeUs * 1e3);
        p.busbwGBs = p.algbwGBs * 2.0 * (ranks - 1) / ranks;
        out.push_back(p);
    }
    return out;
}
} // namespace

TEST(ReferenceCheck, ExpectedBusbwComesFromTheReferenceFitAndRankCount)
{
    const auto reference = curve(8, 20, 200); // busbw plateau 200 x 14 / 8 = 350 GB/s
    auto points = curve(16, 20, 100);         // half the algbw on twice the ranks
    const auto v = compareToReference(points, reference, 0.9);
    ASSERT_EQ(v.size(), points.size());
    for (std::size_t i = 0; i < points.size(); ++i) {
        ASSERT_TRUE(v[i]);
        const double bytes = double(points[i].bytes);
        const double expected = bytes / ((20 + bytes / 200e3) * 1e3) * 14.0 / 8; // reference busbw at this size
        EXPECT_NEAR(v[i]->expectedBusGBs, expected, 1e-9 * expected);
        EXPECT_NEAR(v[i]->ratio, points[i].busbwGBs / expected, 1e-9);
    }
    // At 64 MiB: 64 MiB / (20 + 671.1 µs) x 30 / 16 = 182.1 GB/s against 64 MiB / (20 + 335.5 µs) x 14 / 8
    // = 330.3 GB/s: 0.551, flagged.
    EXPECT_TRUE(v.back()->flagged);
    EXPECT_NEAR(v.back()->ratio, 0.551, 0.001);
}

TEST(ReferenceCheck, ThresholdAndMissingOps)
{
    const auto reference = curve(8, 20, 200);
    const auto same = compareToReference(reference, reference, 0.9);
    for (const auto& v : same) {
        ASSERT_TRUE(v);
        EXPECT_NEAR(v->ratio, 1, 1e-9);
        EXPECT_FALSE(v->flagged);
    }
    // A reference with in-place points only still serves out-of-place ones.
    EXPECT_TRUE(compareToReference(curve(8, 20, 200), curve(8, 20, 200, true), 0.9).front());
    auto gather = curve(8, 20, 200);
    for (auto& p : gather)
        p.op = "all_gather";
    for (const auto& v : compareToReference(gather, reference, 0.9))
        EXPECT_FALSE(v) << "no all_gather in the reference";
}
