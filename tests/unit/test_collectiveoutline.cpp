// Issue 26 item 11: a long session's outline (store/collectiveoutline.h) draws every size chart as
// every point would, fits what they fit, and is read only while it covers the session's points.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <string>
#include <tuple>

#include "store/collectiveoutline.h"
#include "store/database.h"
#include "store/migrations.h"
#include "store/workspace.h"
#include "tempdir.h"
#include "views/chartdata.h"
#include "views/collectivecsv.h"
#include "views/sizechartdata.h"

using namespace rl;
using namespace rl::charts;
using rl::store::Workspace;

namespace {
// A long sweep as a runner or nccl-tests log of many iterations leaves it: 2 ops x in-place x 2
// groups x 300 sizes, each size measured 30 times, with noise, equal values, runner statistics on
// half the points, 0-byte and 0-time rows (plotted on one view and not the other), in the order a
// run prints them.
SessionData longSweep(int repeats = 30, int sizes = 300)
{
    SessionData d;
    d.session.kind = kind::Collectives;
    d.session.title = "long sweep";
    std::mt19937_64 rng(3);
    std::normal_distribution<double> noise(1.0, 0.04);
    for (int r = 0; r < repeats; ++r)
        for (const char* op : {"all_reduce", "all_gather"})
            for (bool inPlace : {false, true})
                for (int k = 0; k < sizes; ++k)
                    for (const char* group : {"", "ranks 0-1"}) {
                        CollectivePoint p;
                        p.op = op;
                        p.nranks = 8;
                        p.dtype = "float32";
                        p.inPlace = inPlace;
                        p.group = group;
                        p.bytes = k == 0 ? 0 : static_cast<std::int64_t>(8 * std::pow(2.0, 31.0 * k / sizes)) & ~7;
                        p.count = p.bytes / 4;
                        // Every 7th size repeats one value exactly: the first of equals is the one drawn.
                        const double n = k % 7 == 0 ? 1.0 : std::max(0.5, noise(rng));
                        p.timeUs = (k == 5 && r % 3 == 0) ? 0.0 : (20 + double(p.bytes) / 180e3) * n;
                        p.algbwGBs = p.timeUs > 0 ? double(p.bytes) / (p.timeUs * 1e3) : 0.0;
                        p.busbwGBs = p.algbwGBs * 1.75;
                        if ((r + k) % 2 == 0) {
                            CallStats s;
                            s.iters = 20;
                            s.meanUs = p.timeUs;
                            s.minUs = p.timeUs * (0.9 + 0.05 * noise(rng));
                            s.maxUs = p.timeUs * (1.1 + 0.2 * std::abs(noise(rng) - 1));
                            p.stats = s;
                        }
                        d.collectives.push_back(p);
                    }
    return d;
}

// Per x, the lowest and highest y: what a thinned curve and the curve it was thinned from share
// (a curve drawn whole draws every repeat of a size; its outline the extremes among them).
std::map<double, std::pair<double, double>> extremes(const std::vector<PlotPoint>& pts)
{
    std::map<double, std::pair<double, double>> out;
    for (const auto& p : pts) {
        auto [it, fresh] = out.try_emplace(p.x, p.y, p.y);
        it->second = {std::min(it->second.first, p.y), std::max(it->second.second, p.y)};
    }
    return out;
}

std::size_t curveSizes(const SessionData& d)
{
    std::set<std::tuple<std::string, bool, std::string, std::int64_t>> sizes;
    for (const auto& p : d.collectives)
        sizes.emplace(p.op, p.inPlace, p.group, p.bytes);
    return sizes.size();
}

void expectSameFit(const std::optional<fits::AlphaBeta>& outline, const std::optional<fits::AlphaBeta>& every)
{
    ASSERT_EQ(outline.has_value(), every.has_value());
    if (!every)
        return;
    EXPECT_NEAR(outline->alphaUs, every->alphaUs, 1e-9 * std::max(1.0, every->alphaUs));
    EXPECT_NEAR(outline->betaGBs, every->betaGBs, 1e-9 * every->betaGBs);
    EXPECT_NEAR(outline->rmsRelError, every->rmsRelError, 1e-9);
    EXPECT_EQ(outline->points, every->points);
    EXPECT_EQ(outline->minBytes, every->minBytes);
    EXPECT_EQ(outline->maxBytes, every->maxBytes);
}
} // namespace

TEST(CollectiveOutline, ChartsDrawnFromTheOutlineAreTheChartsOfEveryPoint)
{
    test::TempDir dir;
    Workspace ws((dir.path / "w.db").string());
    const auto data = longSweep();
    const std::int64_t id = ws.storeSession(data); // an import stores the outline with the points

    const auto every = loadSessionCurves(ws, {id});
    const auto outlined = loadSessionCurves(ws, {id}, MissingSession::Fail, {}, PointsRead::OutlineWhereStored);
    ASSERT_EQ(every.front().points.size(), data.collectives.size());
    ASSERT_TRUE(outlined.front().outline);
    EXPECT_FALSE(every.front().outline);
    EXPECT_TRUE(anyOutline(outlined));
    EXPECT_FALSE(anyOutline(every));
    EXPECT_EQ(sessionPointCount(outlined.front()), static_cast<std::int64_t>(data.collectives.size()));
    // An image of the size charts is the image every point draws; the data and the views that pick
    // points by size need every point.
    EXPECT_EQ(collectiveExportProblem(ChartKind::Bandwidth, outlined, ExportedPart::Image), "");
    EXPECT_EQ(collectiveExportProblem(ChartKind::Latency, outlined, ExportedPart::Image), "");
    EXPECT_NE(collectiveExportProblem(ChartKind::Bandwidth, outlined, ExportedPart::Data), "");
    EXPECT_NE(collectiveExportProblem(ChartKind::Scaling, outlined, ExportedPart::Image), "");
    EXPECT_EQ(collectiveExportProblem(ChartKind::Bandwidth, every, ExportedPart::Data), "");
    // 8 curves x 300 sizes of 30 points each: at most a quarter of them.
    EXPECT_LE(outlined.front().points.size(), data.collectives.size() / 4);
    EXPECT_GE(outlined.front().points.size(), 8u * 300u);

    for (ChartKind kind : {ChartKind::Bandwidth, ChartKind::Latency})
        for (BandwidthMetric metric : {BandwidthMetric::BusBw, BandwidthMetric::AlgBw})
            for (int pixels : {150, 1000, 2000, 4000})
                for (auto unit : {units::BandwidthUnit::GBps, units::BandwidthUnit::GiBps}) {
                    SCOPED_TRACE(std::string(toString(kind)) + " " + metricTitle(metric) + " at " + std::to_string(pixels) +
                                 " px");
                    SizeChartRequest r;
                    r.kind = kind;
                    r.options.metric = metric;
                    r.unit = unit;
                    r.pixels = pixels;
                    const auto a = sizeChartData(every, r), b = sizeChartData(outlined, r);
                    ASSERT_EQ(a.curves->size(), 8u);
                    ASSERT_EQ(b.curves->size(), a.curves->size());
                    for (std::size_t c = 0; c < a.curves->size(); ++c) {
                        EXPECT_EQ((*b.curves)[c].key, (*a.curves)[c].key);
                        EXPECT_EQ((*b.curves)[c].name, (*a.curves)[c].name);
                        // 9,000 points a curve: thinned at every width, as its outline is.
                        EXPECT_EQ(b.drawn[c], a.drawn[c]) << "curve " << c;
                        if (kind == ChartKind::Bandwidth) {
                            // Half of them have call statistics: drawn whole at 2,000 pen columns.
                            if (pixels < 4000) {
                                EXPECT_EQ(b.spreads[c].upper, a.spreads[c].upper) << "curve " << c;
                                EXPECT_EQ(b.spreads[c].lower, a.spreads[c].lower) << "curve " << c;
                            } else {
                                EXPECT_LT(b.spreads[c].upper.size(), a.spreads[c].upper.size());
                                EXPECT_EQ(extremes(b.spreads[c].upper), extremes(a.spreads[c].upper)) << "curve " << c;
                                EXPECT_EQ(extremes(b.spreads[c].lower), extremes(a.spreads[c].lower)) << "curve " << c;
                            }
                        }
                        expectSameFit(b.fits[c], a.fits[c]);
                        // and over a range of sizes, as the fit range control asks
                        expectSameFit(fitCurve((*b.curves)[c], 4096, 64 << 20), fitCurve((*a.curves)[c], 4096, 64 << 20));
                    }
                    EXPECT_FALSE(a.drawn.front().empty());
                    EXPECT_EQ(b.longestDrawn, a.longestDrawn);
                    EXPECT_EQ(b.peaks.size(), a.peaks.size());
                }
}

TEST(CollectiveOutline, ReadOnlyWhileItCoversThePoints)
{
    test::TempDir dir;
    Workspace ws((dir.path / "w.db").string());
    const std::int64_t id = ws.storeSession(longSweep());
    ASSERT_TRUE(store::readCollectiveOutline(ws.database(), id));
    // A point appended since (a run that goes on): the session is read in full.
    CollectivePoint p = ws.collectivePoints(id).back();
    p.bytes *= 2;
    ws.addCollectivePoint(id, p);
    EXPECT_FALSE(store::readCollectiveOutline(ws.database(), id));
    const auto curves = loadSessionCurves(ws, {id}, MissingSession::Fail, {}, PointsRead::OutlineWhereStored);
    EXPECT_FALSE(curves.front().outline);
    EXPECT_EQ(curves.front().points.size(), longSweep().collectives.size() + 1);
    // Outlined again from the blocks, it covers the point.
    {
        store::Transaction t(ws.database());
        EXPECT_TRUE(store::storeCollectiveOutline(ws.database(), id));
        t.commit();
    }
    const auto again = store::readCollectiveOutline(ws.database(), id);
    ASSERT_TRUE(again);
    EXPECT_EQ(again->covers, static_cast<std::int64_t>(longSweep().collectives.size() + 1));
    // Deleting the session deletes its outline.
    ws.deleteSession(id);
    store::Statement q(ws.database(), "SELECT count(*) FROM collective_outlines");
    ASSERT_TRUE(q.step());
    EXPECT_EQ(q.int64(0), 0);
}

TEST(CollectiveOutline, FromTheBlocksAsFromThePointsInMemory)
{
    test::TempDir dir;
    Workspace ws((dir.path / "w.db").string());
    const std::int64_t id = ws.storeSession(longSweep());
    const auto fromImport = store::readCollectiveOutline(ws.database(), id);
    ASSERT_TRUE(fromImport);
    {
        store::Transaction t(ws.database());
        ASSERT_TRUE(store::storeCollectiveOutline(ws.database(), id));
        t.commit();
    }
    const auto fromBlocks = store::readCollectiveOutline(ws.database(), id);
    ASSERT_TRUE(fromBlocks);
    EXPECT_EQ(fromBlocks->points, fromImport->points);
    ASSERT_EQ(fromBlocks->sums.size(), fromImport->sums.size());
    EXPECT_EQ(fromBlocks->sums.size(), curveSizes(longSweep()));
    EXPECT_GT(fromBlocks->sums.size(), 2000u); // of 8 x 300: small sizes round to the same 8-byte multiple
    for (std::size_t i = 0; i < fromBlocks->sums.size(); ++i) {
        EXPECT_EQ(fromBlocks->sums[i].bytes, fromImport->sums[i].bytes);
        EXPECT_EQ(fromBlocks->sums[i].sums.points, fromImport->sums[i].sums.points);
        EXPECT_EQ(fromBlocks->sums[i].sums.nw, fromImport->sums[i].sums.nw);
    }
}

TEST(CollectiveOutline, OnlyWhereItSavesReading)
{
    test::TempDir dir;
    Workspace ws((dir.path / "w.db").string());
    // Too short to need one (the whole session reads in milliseconds).
    const std::int64_t shortId = ws.storeSession(longSweep(2));
    EXPECT_FALSE(store::readCollectiveOutline(ws.database(), shortId));
    // 160,000 sizes, 20,000 a curve over 31 octaves: about 25 a bin, 4 of which the outline keeps,
    // but it has more bins than a quarter of the points.
    const std::int64_t distinctId = ws.storeSession(longSweep(1, 20000));
    EXPECT_FALSE(store::readCollectiveOutline(ws.database(), distinctId));
    EXPECT_EQ(ws.collectivePointCount(distinctId), 8 * 20000);
}

TEST(CollectiveOutline, Schema10OutlinesTheLongSessionsStoredBefore)
{
    test::TempDir dir;
    const auto file = (dir.path / "w.db").string();
    std::int64_t id = 0;
    {
        Workspace ws(file);
        id = ws.storeSession(longSweep());
        // The file as schema 9 left it: the same points, no outlines.
        ws.database().exec("DROP TABLE collective_outlines; PRAGMA user_version = 9;");
    }
    Workspace ws(file);
    EXPECT_EQ(ws.schemaVersion(), store::latestSchemaVersion());
    const auto outline = store::readCollectiveOutline(ws.database(), id);
    ASSERT_TRUE(outline);
    EXPECT_EQ(outline->covers, static_cast<std::int64_t>(longSweep().collectives.size()));
}

TEST(CollectiveOutline, ADamagedOutlineNamesTheWorkspace)
{
    test::TempDir dir;
    const auto file = (dir.path / "w.db").string();
    Workspace ws(file);
    const std::int64_t id = ws.storeSession(longSweep());
    // Cut short; then listing more points than the session has (no allocation of them is tried).
    for (const char* damage : {"UPDATE collective_outlines SET data = substr(data, 1, 100)",
                               "UPDATE collective_outlines SET points = 1000000000000"}) {
        SCOPED_TRACE(damage);
        ws.database().exec(damage);
        try {
            store::readCollectiveOutline(ws.database(), id);
            FAIL() << "a damaged outline read";
        } catch (const store::StoreError& e) {
            EXPECT_NE(std::string(e.what()).find(file), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find("outline of session"), std::string::npos) << e.what();
        }
    }
}

// Reading every point is cancelled between blocks, not only between sessions: a selection stopped
// in its first session returns none, and the share read so far was reported as it grew.
TEST(CollectiveOutline, ReadingEveryPointReportsProgressAndStopsWhenCancelled)
{
    test::TempDir dir;
    Workspace ws((dir.path / "w.db").string());
    // 72,000 points: read in 18 blocks of 4,096, decoded in 2 pieces of 65,536.
    const std::int64_t id = ws.storeSession(longSweep());
    std::vector<double> shares;
    const auto all = loadSessionCurves(ws, {id, id}, MissingSession::Fail, {}, PointsRead::Every,
                                       [&](double share) { shares.push_back(share); });
    ASSERT_EQ(all.size(), 2u);
    ASSERT_EQ(shares.size(), 2u * (18u + 2u));
    EXPECT_TRUE(std::is_sorted(shares.begin(), shares.end()));
    EXPECT_NEAR(shares[17], 0.25, 1e-12); // the first session's blocks read
    EXPECT_NEAR(shares[19], 0.5, 1e-12);  // and decoded
    EXPECT_NEAR(shares.back(), 1.0, 1e-12);

    int reports = 0;
    const auto stopped = loadSessionCurves(ws, {id, id}, MissingSession::Fail, [&] { return reports >= 3; },
                                           PointsRead::Every, [&](double) { ++reports; });
    EXPECT_TRUE(stopped.empty());
    EXPECT_EQ(reports, 3); // stopped at the block after the third

    // Stopped while decoding: the last block read is report 18, the first piece decoded report 19.
    reports = 0;
    EXPECT_TRUE(loadSessionCurves(ws, {id}, MissingSession::Fail, [&] { return reports >= 19; }, PointsRead::Every,
                                  [&](double) { ++reports; })
                    .empty());
}

// A sweep finer than the bins (1/256 octave), every size once: 2 curves of 300,000 sizes. Its
// outline keeps each bin's extremes, so the curve drawn from it has every column's lowest and
// highest point but where a bin straddles two columns; the fit is the points' fit.
TEST(CollectiveOutline, AFineSweepOfDistinctSizesIsOutlinedByBins)
{
    test::TempDir dir;
    Workspace ws((dir.path / "w.db").string());
    SessionData d;
    d.session.kind = kind::Collectives;
    d.session.title = "fine sweep";
    std::mt19937_64 rng(5);
    std::normal_distribution<double> noise(1.0, 0.04);
    for (bool inPlace : {false, true})
        for (int k = 0; k < 300000; ++k) {
            CollectivePoint p;
            p.op = "all_reduce";
            p.nranks = 8;
            p.dtype = "float32";
            p.inPlace = inPlace;
            p.bytes = 1024 + std::int64_t(k) * 3500; // 1 KiB .. 1 GiB, 3,500 B apart
            p.timeUs = (20 + double(p.bytes) / 180e3) * std::max(0.5, noise(rng));
            p.algbwGBs = double(p.bytes) / (p.timeUs * 1e3);
            p.busbwGBs = p.algbwGBs * 1.75;
            d.collectives.push_back(p);
        }
    const std::int64_t id = ws.storeSession(d);
    const auto every = loadSessionCurves(ws, {id});
    const auto outlined = loadSessionCurves(ws, {id}, MissingSession::Fail, {}, PointsRead::OutlineWhereStored);
    ASSERT_TRUE(outlined.front().outline) << "no outline for a fine sweep";
    EXPECT_LE(outlined.front().points.size(), d.collectives.size() / 4);

    SizeChartRequest r;
    r.pixels = 1000;
    const auto a = sizeChartData(every, r), b = sizeChartData(outlined, r);
    ASSERT_EQ(b.curves->size(), 2u);
    for (std::size_t c = 0; c < 2; ++c) {
        // Per pen column, the lowest and highest drawn value.
        const auto& drawnA = a.drawn[c];
        const double lo = drawnA.front().x, hi = drawnA.back().x;
        const auto extremes = [&](const std::vector<PlotPoint>& pts) {
            std::map<int, std::pair<double, double>> out;
            for (const auto& p : pts) {
                auto [it, fresh] = out.try_emplace(pixelColumn(p.x, lo, hi, curveColumns(1000)), p.y, p.y);
                it->second = {std::min(it->second.first, p.y), std::max(it->second.second, p.y)};
            }
            return out;
        };
        const auto ea = extremes(drawnA), eb = extremes(b.drawn[c]);
        ASSERT_EQ(ea.size(), eb.size());
        int same = 0;
        for (const auto& [col, mm] : ea)
            same += eb.count(col) && eb.at(col) == mm;
        EXPECT_GE(same, int(ea.size()) * 95 / 100) << same << " of " << ea.size() << " columns";
        expectSameFit(b.fits[c], a.fits[c]);
    }
}
