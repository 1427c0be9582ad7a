// What hovering a collective chart says (views/collectivehover), on hand-made points.
#include <gtest/gtest.h>

#include "views/collectivehover.h"

using namespace rl;
using namespace rl::charts;

TEST(CollectiveHover, PointFitScalingAndRatioSayWhatTheyAre)
{
    CollectivePoint p;
    p.op = "all_reduce";
    p.inPlace = true;
    p.group = "node 0";
    p.bytes = 64 << 20;
    p.timeUs = 412.5;
    p.algbwGBs = 162.7;
    p.busbwGBs = 284.7;
    p.nranks = 8;
    p.dtype = "float";
    EXPECT_EQ(describeCurvePoint(p, "all_reduce_perf 8 ranks"),
              "session: all_reduce_perf 8 ranks\nop: all_reduce (in-place)\ngroup: node 0\nsize: 64 MiB (67108864 B)"
              "\ntime: 412 µs\nalgbw: 163 GB/s\nbusbw: 285 GB/s\nranks: 8, float");

    FitCurve f;
    f.name = "fit: α 20 µs, β 200 GB/s";
    f.fit.alphaUs = 20;
    f.fit.betaGBs = 200;
    f.fit.points = 12;
    f.fit.minBytes = 1 << 20;
    f.fit.maxBytes = 1 << 30;
    f.fit.rmsRelError = 0.031;
    // 200 MB at 200 GB/s is 1 ms, plus 20 µs.
    EXPECT_EQ(describeFitAt(f, 200e6), "fit: α 20 µs, β 200 GB/s\nsize: 191 MiB\nmodel time: 1.02 ms\nfitted on 12 "
                                       "points, 1 MiB – 1 GiB, rms error 3.1 %");

    ScalingLine line;
    line.op = "all_gather";
    ScalingPoint s{16, 1 << 30, 190.0, 8, "all_gather_perf 16 ranks"};
    EXPECT_EQ(describeScalingPoint(line, s, BandwidthMetric::BusBw),
              "op: all_gather\nsession: all_gather_perf 16 ranks\nranks: 16\nsize: 1 GiB (1073741824 B)\nbusbw: 190 GB/s");
    EXPECT_NE(describeScalingPoint(line, s, BandwidthMetric::AlgBw).find("\nalgbw: 190 GB/s"), std::string::npos);

    RatioCurve c;
    c.op = "all_reduce";
    EXPECT_EQ(describeRatioPoint(c, RatioPoint{1024, 10.0, 12.5, 1.25}),
              "op: all_reduce\nsize: 1 KiB (1024 B)\nA: 10 GB/s\nB: 12.5 GB/s\nB / A: 1.250 ×");
}
