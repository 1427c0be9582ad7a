// What a size chart draws, computed off the GUI thread (issue 26 item 11): the bands of a
// --split selection and of a selection of many plain sessions, the drawn curves with their fits,
// one set of curves shared by the bandwidth and latency charts, and when the prepared data still
// answers a chart whose options or width changed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "views/sizechartdata.h"

using namespace rl;
using namespace rl::charts;

namespace {
// sessions x 2 ops x in-place or not x sizes, each size once per group; no group: a plain run.
std::vector<SessionCurves> selection(int sessions, int groups, int sizes)
{
    std::vector<SessionCurves> out;
    for (int s = 0; s < sessions; ++s) {
        SessionCurves sc;
        sc.session.id = s + 1;
        sc.session.title = "run " + std::to_string(s + 1);
        for (const char* op : {"all_reduce", "all_gather"})
            for (bool inPlace : {false, true})
                for (int k = 0; k < sizes; ++k)
                    for (int g = 0; g < std::max(1, groups); ++g) {
                        CollectivePoint p{op, 2, "float32", "sum", std::int64_t{8} << k, 2 << k, inPlace, -1, 0, 0, 0, 0};
                        p.timeUs = (20 + double(p.bytes) / 180e3) * (1.0 + 0.01 * g + 0.001 * s);
                        p.algbwGBs = double(p.bytes) / (p.timeUs * 1e3);
                        p.busbwGBs = p.algbwGBs;
                        if (groups > 0)
                            p.group = "ranks " + std::to_string(2 * g) + "-" + std::to_string(2 * g + 1);
                        sc.points.push_back(p);
                    }
        out.push_back(std::move(sc));
    }
    return out;
}

SizeChartRequest request(ChartKind kind, int pixels = 1000)
{
    SizeChartRequest r;
    r.kind = kind;
    r.pixels = pixels;
    return r;
}

std::size_t drawnCount(const SizeChartData& d)
{
    return static_cast<std::size_t>(std::count(d.banded.begin(), d.banded.end(), false));
}
} // namespace

TEST(SizeChartData, SplitGroupsBecomeOneBandPerSessionOpAndInPlace)
{
    const auto sessions = selection(10, 81, 24);
    const auto d = sizeChartData(sessions, request(ChartKind::Bandwidth));
    ASSERT_EQ(d.curves->size(), 3240u);
    ASSERT_EQ(d.bands.size(), 40u);
    EXPECT_EQ(drawnCount(d), 0u);
    EXPECT_EQ(d.bands.front().name, "run 1 · all_gather · 81 groups"); // curves in op order
    EXPECT_EQ(d.bands.front().member, "group");
    EXPECT_EQ(d.bands.front().points.size(), 24u);
    EXPECT_EQ(d.bands.front().points.front().values, 81);
    for (const auto& f : d.fits)
        EXPECT_FALSE(f) << "a banded curve has no fit drawn";
}

TEST(SizeChartData, ManyPlainSessionsAreBandedPerOpAndInPlaceAcrossSessions)
{
    // 60 sessions x 4 curves, none with a --split group: 240 series would name nothing.
    const auto sessions = selection(60, 0, 24);
    const auto d = sizeChartData(sessions, request(ChartKind::Latency));
    ASSERT_EQ(d.curves->size(), 240u);
    ASSERT_EQ(d.bands.size(), 4u);
    EXPECT_EQ(drawnCount(d), 0u);
    EXPECT_EQ(d.bands[0].name, "all_gather · 60 sessions");
    EXPECT_EQ(d.bands[1].name, "all_gather in-place · 60 sessions");
    EXPECT_EQ(d.bands[2].name, "all_reduce · 60 sessions");
    EXPECT_EQ(d.bands[0].member, "session");
    // Latency in µs: the slowest session (the last) is the band's top at every size.
    const auto& last = (*d.curves)[d.bands[0].curves.back()].points;
    for (std::size_t k = 0; k < d.bands[0].points.size(); ++k)
        EXPECT_DOUBLE_EQ(d.bands[0].points[k].max, last[k].timeUs) << k;
}

TEST(SizeChartData, AFewCurvesAreDrawnOneByOneWithTheirFits)
{
    const auto sessions = selection(2, 0, 24);
    const auto d = sizeChartData(sessions, request(ChartKind::Bandwidth));
    ASSERT_EQ(d.curves->size(), 8u);
    EXPECT_TRUE(d.bands.empty());
    for (std::size_t i = 0; i < d.curves->size(); ++i) {
        EXPECT_EQ(d.drawn[i], plotPoints((*d.curves)[i], ChartKind::Bandwidth, BandwidthMetric::BusBw,
                                         units::BandwidthUnit::GBps));
        EXPECT_TRUE(d.fits[i]) << i;
    }
    EXPECT_EQ(d.longestDrawn, 24u);
}

TEST(SizeChartData, TheBandwidthAndLatencyChartsShareOneSetOfCurves)
{
    const std::vector<SizeChartRequest> requests{request(ChartKind::Bandwidth), request(ChartKind::Latency),
                                                 request(ChartKind::Scaling), request(ChartKind::Compare)};
    const auto prepared = prepareCurves(selection(10, 81, 24), requests);
    ASSERT_EQ(prepared.sessions->size(), 10u);
    ASSERT_EQ(prepared.charts.size(), 4u);
    ASSERT_TRUE(prepared.charts[0] && prepared.charts[1]);
    EXPECT_FALSE(prepared.charts[2]);
    EXPECT_FALSE(prepared.charts[3]);
    EXPECT_EQ(prepared.charts[0]->curves, prepared.charts[1]->curves);
    EXPECT_EQ(prepared.charts[1]->request.kind, ChartKind::Latency);
    // The two fit the same times once: each chart's fits are those it would make alone; a chart
    // whose fit range differs makes its own.
    auto narrow = requests;
    narrow[1].options.fitMinBytes = 1024;
    const auto plain = selection(2, 0, 24);
    for (const auto& r : {requests, narrow}) {
        const auto shared = prepareCurves(plain, r);
        for (std::size_t k = 0; k < 2; ++k) {
            const auto alone = sizeChartData(plain, r[k]);
            ASSERT_EQ(shared.charts[k]->fits.size(), alone.fits.size());
            for (std::size_t c = 0; c < alone.fits.size(); ++c) {
                ASSERT_TRUE(alone.fits[c]);
                ASSERT_TRUE(shared.charts[k]->fits[c]);
                EXPECT_EQ(shared.charts[k]->fits[c]->alphaUs, alone.fits[c]->alphaUs);
                EXPECT_EQ(shared.charts[k]->fits[c]->minBytes, alone.fits[c]->minBytes);
            }
        }
    }
    EXPECT_EQ(prepareCurves(plain, narrow).charts[1]->fits[0]->minBytes, 1024);
    // Cancelled: the sessions, no chart data.
    const auto cancelled = prepareCurves(selection(1, 0, 4), requests, [] { return true; });
    EXPECT_EQ(cancelled.sessions->size(), 1u);
    EXPECT_TRUE(cancelled.charts.empty());
}

TEST(SizeChartData, PreparedDataAnswersOnlyTheChartItWasMadeFor)
{
    const auto sessions = selection(1, 0, 24);
    const auto d = sizeChartData(sessions, request(ChartKind::Bandwidth, 1000));
    EXPECT_TRUE(d.answers(request(ChartKind::Bandwidth, 1000)));
    // 24 points per curve are drawn whole at either width.
    EXPECT_TRUE(d.answers(request(ChartKind::Bandwidth, 700)));
    EXPECT_FALSE(d.answers(request(ChartKind::Latency, 1000)));
    auto algbw = request(ChartKind::Bandwidth, 1000);
    algbw.options.metric = BandwidthMetric::AlgBw;
    EXPECT_FALSE(d.answers(algbw));
    auto gib = request(ChartKind::Bandwidth, 1000);
    gib.unit = units::BandwidthUnit::GiBps;
    EXPECT_FALSE(d.answers(gib));
    auto range = request(ChartKind::Bandwidth, 1000);
    range.options.fitMinBytes = 1024;
    EXPECT_FALSE(d.answers(range));
    // 24 points thinned to 5 pixel columns are drawn differently at 1,000.
    const auto thinned = sizeChartData(selection(1, 0, 24), request(ChartKind::Bandwidth, 5));
    EXPECT_EQ(thinned.longestDrawn, 24u);
    EXPECT_TRUE(thinned.answers(request(ChartKind::Bandwidth, 5)));
    EXPECT_FALSE(thinned.answers(request(ChartKind::Bandwidth, 1000)));
}

// A curve of many sizes is thinned to columns as wide as the curves' pen (kCurvePenPixels): at most
// 4 points a column, each column's lowest and highest kept, so the line covers what the full curve
// covers to within the pen, from half the points of one column a pixel.
TEST(SizeChartData, ALongCurveIsThinnedToColumnsAsWideAsItsPen)
{
    SessionCurves sc;
    sc.session.id = 1;
    sc.session.title = "fine sweep";
    constexpr int sizes = 20000;
    for (int k = 0; k < sizes; ++k) {
        const auto bytes = static_cast<std::int64_t>(8.0 * std::pow(2.0, 31.0 * k / (sizes - 1)));
        CollectivePoint p{"all_reduce", 8, "float32", "sum", bytes, bytes / 4, false, -1, 0, 0, 0, 0};
        p.timeUs = 20 + double(bytes) / 180e3 * (1.0 + 0.05 * (k % 7)); // a saw tooth within each column
        p.algbwGBs = double(bytes) / (p.timeUs * 1e3);
        p.busbwGBs = p.algbwGBs;
        sc.points.push_back(p);
    }
    const std::vector<SessionCurves> sessions{sc};
    const int pixels = 1000;
    const auto d = sizeChartData(sessions, request(ChartKind::Latency, pixels));
    ASSERT_EQ(d.curves->size(), 1u);
    EXPECT_EQ(kCurvePenPixels, 2);
    EXPECT_EQ(curveColumns(pixels), 500);
    EXPECT_EQ(curveColumns(1), 1);
    const auto& drawn = d.drawn[0];
    EXPECT_LE(drawn.size(), 4u * 500u);
    EXPECT_GT(drawn.size(), 2u * 500u) << "each column's lowest and highest";
    EXPECT_EQ(d.longestDrawn, std::size_t(sizes));
    // The drawn line reaches the full curve's extremes.
    const auto all = plotPoints((*d.curves)[0], ChartKind::Latency, BandwidthMetric::BusBw, units::BandwidthUnit::GBps);
    const auto byY = [](const PlotPoint& a, const PlotPoint& b) { return a.y < b.y; };
    EXPECT_EQ(std::max_element(drawn.begin(), drawn.end(), byY)->y, std::max_element(all.begin(), all.end(), byY)->y);
    EXPECT_EQ(std::min_element(drawn.begin(), drawn.end(), byY)->y, std::min_element(all.begin(), all.end(), byY)->y);
    EXPECT_FALSE(d.answers(request(ChartKind::Latency, 900))) << "thinned: another width draws other columns";
}
