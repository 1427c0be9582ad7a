// The numbers the charts draw: curves, fits, scaling (nearest size) and ratios, from a real workspace.
#include <gtest/gtest.h>

#include <stdexcept>

#include "views/chartdata.h"
#include "chartfixtures.h"

using namespace rl;
using namespace rl::charts;

TEST(ChartData, CurvesPerSessionOpAndPlacementSortedBySize)
{
    test::ChartWorkspace w;
    const auto curves = collectCurves(w.load({w.h100, w.mi300}));
    ASSERT_EQ(curves.size(), 4u);
    EXPECT_EQ(curves[0].name, "H100 8 ranks · all_gather");
    EXPECT_EQ(curves[1].name, "H100 8 ranks · all_reduce");
    EXPECT_EQ(curves[2].name, "H100 8 ranks · all_reduce in-place");
    EXPECT_EQ(curves[3].name, "MI300X 8 ranks · all_reduce");
    EXPECT_EQ(curves[1].points.size(), 32u); // 8 B .. 16 GiB
    for (const auto& c : curves)
        EXPECT_TRUE(std::is_sorted(c.points.begin(), c.points.end(),
                                   [](const auto& a, const auto& b) { return a.bytes < b.bytes; }));
    EXPECT_NEAR(busFactorOf(curves[1]), 1.75, 1e-9); // 2 (n-1) / n for 8 ranks
    EXPECT_NEAR(busFactorOf(curves[0]), 0.875, 1e-9);
}

TEST(ChartData, FitsRecoverTheModelAndHonourTheSizeRange)
{
    test::ChartWorkspace w;
    auto sessions = w.load({w.h100});
    const auto curves = collectCurves(sessions);
    auto fits = fitCurves(curves, 0, INT64_MAX);
    ASSERT_EQ(fits.size(), 3u);
    EXPECT_NEAR(fits[1].fit.alphaUs, 25.0, 1e-6);
    EXPECT_NEAR(fits[1].fit.betaGBs, 150.0, 1e-6);
    EXPECT_EQ(fits[1].name, "H100 8 ranks · all_reduce fit: α 25 µs, β 150 GB/s");
    EXPECT_EQ(fits[1].fit.points, 32);

    // Distort the small sizes: a fit restricted to >= 1 MiB must ignore them, the full fit not.
    sessions[0].points.edit([](std::vector<CollectivePoint>& points) {
        for (auto& p : points)
            if (p.op == "all_reduce" && !p.inPlace && p.bytes < (1 << 20))
                p.timeUs *= 3;
    });
    const auto distorted = collectCurves(sessions);
    auto restricted = fitCurves(distorted, 1 << 20, INT64_MAX);
    EXPECT_NEAR(restricted[1].fit.alphaUs, 25.0, 1e-6);
    EXPECT_NEAR(restricted[1].fit.betaGBs, 150.0, 1e-6);
    EXPECT_EQ(restricted[1].fit.points, 15); // 1 MiB .. 16 GiB
    EXPECT_EQ(restricted[1].fit.minBytes, 1 << 20);
    auto all = fitCurves(distorted, 0, INT64_MAX);
    EXPECT_GT(std::abs(all[1].fit.alphaUs - 25.0), 1.0);
}

TEST(ChartData, ScalingTakesNearestSizePerSessionAndOneLinePerOp)
{
    test::ChartWorkspace w;
    const auto sessions = w.load(w.scaling);
    const auto lines = scalingLines(sessions, std::int64_t{256} << 20, BandwidthMetric::BusBw);
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0].op, "all_gather");
    EXPECT_EQ(lines[1].op, "all_reduce");
    const auto& ar = lines[1].points;
    ASSERT_EQ(ar.size(), 4u);
    EXPECT_EQ(ar[0].nranks, 2);
    EXPECT_EQ(ar[3].nranks, 16);
    EXPECT_EQ(ar[0].bytes, std::int64_t{256} << 20);
    EXPECT_EQ(ar[3].bytes, std::int64_t{128} << 20); // the 16-rank run stopped at 128 MiB
    const auto expected = test::modelPoint("all_reduce", 16, std::int64_t{128} << 20, 26.0, 120.0);
    EXPECT_NEAR(ar[3].value, expected.busbwGBs, 1e-9);
    EXPECT_EQ(ar[3].sessionTitle, "sweep 16 ranks");

    const auto alg = scalingLines(sessions, std::int64_t{256} << 20, BandwidthMetric::AlgBw);
    EXPECT_NEAR(alg[1].points[0].value, ar[0].value, 1e-9); // 2 ranks: bus factor 1
    EXPECT_NEAR(alg[1].points[2].value * 1.75, ar[2].value, 1e-9);
}

TEST(ChartData, RatioIsBOverAPerSizeAndOp)
{
    test::ChartWorkspace w;
    const auto sessions = w.load({w.h100, w.mi300});
    const auto ratios = ratioCurves(sessions[0], sessions[1], BandwidthMetric::BusBw);
    ASSERT_EQ(ratios.size(), 1u); // only out-of-place all_reduce exists in both
    EXPECT_EQ(ratios[0].name, "all_reduce: B / A");
    ASSERT_EQ(ratios[0].points.size(), 32u);
    for (const auto& p : ratios[0].points) {
        const auto a = test::modelPoint("all_reduce", 8, p.bytes, 25.0, 150.0);
        const auto b = test::modelPoint("all_reduce", 8, p.bytes, 30.0, 120.0);
        EXPECT_NEAR(p.ratio, b.busbwGBs / a.busbwGBs, 1e-9) << p.bytes;
        EXPECT_NEAR(p.ratio, a.timeUs / b.timeUs, 1e-9) << p.bytes;
    }
    EXPECT_NEAR(ratios[0].points.back().ratio, 0.8, 0.01); // large sizes: 120 / 150
}

TEST(ChartData, MissingSessionIsAnErrorNamingTheId)
{
    test::ChartWorkspace w;
    try {
        w.load({w.h100, 9999});
        FAIL() << "expected an error";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("9999"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("charts.db"), std::string::npos) << e.what();
    }
}

TEST(ChartData, ChartKindNamesRoundTrip)
{
    for (auto k : {ChartKind::Bandwidth, ChartKind::Latency, ChartKind::Scaling, ChartKind::Compare})
        EXPECT_EQ(chartKindFromString(toString(k)), k);
    EXPECT_FALSE(chartKindFromString("pie"));
}

TEST(ChartData, CurveNamesDropTheImportersToolSuffix)
{
    EXPECT_EQ(curveName("all_reduce_perf 8 ranks on h100-node-07 (nccl-tests 2.17.1)", "all_reduce", false),
              "all_reduce_perf 8 ranks on h100-node-07 · all_reduce");
    EXPECT_EQ(curveName("(unnamed)", "broadcast", true), "(unnamed) · broadcast in-place");
    EXPECT_EQ(curveName("H100 (a) run", "all_gather", false), "H100 (a) run · all_gather");
}

// One rank moves nothing between GPUs: nccl-tests prints busbw 0, and the busbw chart's fit must lie
// on that curve (factor 0), not at the algorithm bandwidth.
TEST(ChartData, OneRankCurveHasBusFactorZero)
{
    Curve c;
    c.key.op = "all_reduce";
    for (std::int64_t b : {1024, 4096}) {
        CollectivePoint p = test::modelPoint("all_reduce", 1, b, 20.0, 150.0);
        p.busbwGBs = 0;
        c.points.push_back(p);
    }
    EXPECT_EQ(busFactorOf(c), 0.0);
    c.points.edit([](std::vector<CollectivePoint>& v) { v[0].nranks = v[1].nranks = 0; }); // rank count unknown: no factor to apply
    EXPECT_EQ(busFactorOf(c), 1.0);
}

// --split: each group of one session is its own curve, named after its group, in the order the
// runner printed the groups ("ranks 10-11" after "ranks 2-3"); a live point of one group joins it.
TEST(ChartData, SplitGroupsAreSeparateCurvesNamedByGroup)
{
    SessionCurves s;
    s.session.id = 7;
    s.session.title = "MPI collectives, 12 ranks on 1 host, split ranks:2,world";
    for (const char* group : {"ranks 2-3", "ranks 10-11", "world"})
        for (std::int64_t b : {1024, 4096}) {
            CollectivePoint p = test::modelPoint("all_reduce", group[0] == 'w' ? 12 : 2, b, 20.0, 150.0);
            p.group = group;
            s.points.push_back(p);
        }
    std::vector<SessionCurves> sessions{s};
    auto curves = collectCurves(sessions);
    ASSERT_EQ(curves.size(), 3u);
    EXPECT_EQ(curves[0].name, "ranks 2-3 · all_reduce · MPI collectives, 12 ranks on 1 host, split ranks:2,world");
    EXPECT_EQ(curves[1].key.group, "ranks 10-11");
    EXPECT_EQ(curves[2].key.group, "world");
    for (const auto& c : curves)
        EXPECT_EQ(c.points.size(), 2u);
    EXPECT_EQ(fitCurves(curves, 0, INT64_MAX).size(), 3u);

    CollectivePoint live = test::modelPoint("all_reduce", 2, 16384, 20.0, 150.0);
    live.group = "ranks 10-11";
    EXPECT_TRUE(appendLivePoint(sessions, 7, live));
    EXPECT_FALSE(appendLivePoint(sessions, 7, live)) << "already there";
    live.group = "ranks 2-3";
    EXPECT_TRUE(appendLivePoint(sessions, 7, live)) << "the same size of another group is a new point";
}

// Issue 26 item 11: the store gives each curve's points together, sorted by size, so a curve is a
// slice of its session's points, not a copy; a live point appended to the session copies the
// session's points and leaves the curves drawn from them as they were.
TEST(ChartData, CurvesOfAStoredSessionAreSlicesOfItsPoints)
{
    test::ChartWorkspace w;
    auto sessions = w.load({w.h100});
    const auto curves = collectCurves(sessions);
    ASSERT_EQ(curves.size(), 3u);
    std::size_t sliced = 0;
    for (const auto& c : curves) {
        EXPECT_TRUE(c.points.sharesStoreWith(sessions[0].points)) << c.name;
        sliced += c.points.size();
    }
    EXPECT_EQ(sliced, sessions[0].points.size());

    const std::vector<CollectivePoint> before(curves[1].points.begin(), curves[1].points.end());
    const CollectivePoint live = test::modelPoint("all_reduce", 8, std::int64_t{1} << 35, 20.0, 150.0);
    ASSERT_TRUE(appendLivePoint(sessions, sessions[0].session.id, live));
    EXPECT_FALSE(curves[1].points.sharesStoreWith(sessions[0].points));
    EXPECT_TRUE(std::equal(before.begin(), before.end(), curves[1].points.begin(), curves[1].points.end()));
    EXPECT_EQ(collectCurves(sessions)[1].points.back().bytes, std::int64_t{1} << 35);

    // Points out of curve order (a live point arrived between two curves): copied, then sorted.
    SessionCurves mixed;
    mixed.session.id = 9;
    for (std::int64_t b : {4096, 1024, 2048}) {
        mixed.points.push_back(test::modelPoint("all_reduce", 8, b, 20.0, 150.0));
        mixed.points.push_back(test::modelPoint("all_gather", 8, b, 20.0, 150.0));
    }
    const auto own = collectCurves({mixed});
    ASSERT_EQ(own.size(), 2u);
    EXPECT_FALSE(own[0].points.sharesStoreWith(mixed.points));
    EXPECT_EQ(own[0].points.front().bytes, 1024);
    EXPECT_EQ(own[0].points.back().bytes, 4096);
}
