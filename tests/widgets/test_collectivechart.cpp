// The interactive chart on real sessions from a workspace: series, names, axes, toggles, legend,
// hover, fits, live appends and the scaling and compare views.
#include <gtest/gtest.h>

#include <QAreaSeries>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QTabWidget>
#include <QCategoryAxis>
#include <QCoreApplication>
#include <QChart>
#include <QCheckBox>
#include <QComboBox>
#include <QFontMetricsF>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPushButton>
#include <QValueAxis>

#include "bandlayer.h"
#include "chartfixtures.h"
#include "collectivechart.h"
#include "collectives/tierpeak.h"
#include "importers/importerregistry.h"
#include "plotpixels.h"
#include "test_gui_env.h"
#include "units/units.h"

using namespace rl;
using namespace rl::charts;

namespace {
QLineSeries* seriesNamed(QChart* chart, const QString& name)
{
    const auto all = chart->series();
    for (QAbstractSeries* s : all)
        if (s->name() == name)
            return qobject_cast<QLineSeries*>(s);
    return nullptr;
}

QStringList names(QChart* chart)
{
    QStringList out;
    const auto all = chart->series();
    for (QAbstractSeries* s : all)
        out << s->name();
    return out;
}

QAbstractAxis* axis(QChart* chart, Qt::Orientation o)
{
    const auto a = chart->axes(o);
    return a.isEmpty() ? nullptr : a.first();
}

// The y value plotted at a given size (x = log2 bytes).
double yAt(QLineSeries* s, std::int64_t bytes)
{
    const auto pts = s->points();
    for (const QPointF& p : pts)
        if (std::abs(p.x() - std::log2(static_cast<double>(bytes))) < 1e-9)
            return p.y();
    return -1;
}

struct ChartFixture : ::testing::Test
{
    test::ChartWorkspace w;
    CollectiveChart chart;
    ChartFixture()
    {
        chart.resize(1200, 800);
        chart.show();
    }
};

const QString kAllReduce = QStringLiteral("H100 8 ranks · all_reduce");
} // namespace

TEST_F(ChartFixture, BandwidthChartHasOneSeriesPerCurveAndHumanSizeLabels)
{
    chart.setShowFits(false);
    chart.setSessions(w.load({w.h100, w.mi300}));
    EXPECT_EQ(names(chart.chart()),
              QStringList({QStringLiteral("H100 8 ranks · all_gather"), kAllReduce,
                           QStringLiteral("H100 8 ranks · all_reduce in-place"),
                           QStringLiteral("MI300X 8 ranks · all_reduce")}));
    auto* x = qobject_cast<QCategoryAxis*>(axis(chart.chart(), Qt::Horizontal));
    ASSERT_TRUE(x);
    EXPECT_EQ(x->titleText(), QStringLiteral("Message size"));
    EXPECT_LE(x->min(), 3.0);  // 8 B
    EXPECT_GE(x->max(), 34.0); // 16 GiB
    const QStringList labels = x->categoriesLabels();
    EXPECT_TRUE(labels.contains(QStringLiteral("1 KiB"))) << labels.join(QLatin1Char('|')).toStdString();
    EXPECT_TRUE(labels.contains(QStringLiteral("1 MiB"))) << labels.join(QLatin1Char('|')).toStdString();
    EXPECT_TRUE(labels.contains(QStringLiteral("1 GiB"))) << labels.join(QLatin1Char('|')).toStdString();
    EXPECT_EQ(x->endValue(QStringLiteral("1 KiB")), 10.0);
    EXPECT_GE(labels.size(), 4);
    EXPECT_LE(labels.size(), 18);

    auto* y = qobject_cast<QValueAxis*>(axis(chart.chart(), Qt::Vertical));
    ASSERT_TRUE(y);
    EXPECT_EQ(y->titleText(), QStringLiteral("Bus bandwidth (GB/s)"));
    const double maxBusbw = test::modelPoint("all_reduce", 8, std::int64_t{16} << 30, 24.0, 155.0).busbwGBs;
    EXPECT_EQ(y->min(), 0.0);
    EXPECT_GE(y->max(), maxBusbw);
    EXPECT_LE(y->max(), maxBusbw * 1.3);
    EXPECT_EQ(seriesNamed(chart.chart(), kAllReduce)->count(), 32);
}

TEST_F(ChartFixture, MetricToggleSwitchesBetweenBusAndAlgorithmBandwidth)
{
    chart.setSessions(w.load({w.h100}));
    const auto p = test::modelPoint("all_reduce", 8, std::int64_t{1} << 30, 25.0, 150.0);
    EXPECT_NEAR(yAt(seriesNamed(chart.chart(), kAllReduce), p.bytes), p.busbwGBs, 1e-9);

    auto* combo = chart.findChild<QComboBox*>(QStringLiteral("metricCombo"));
    ASSERT_TRUE(combo);
    combo->setCurrentIndex(combo->findText(QStringLiteral("algbw")));
    EXPECT_EQ(chart.bandwidthMetric(), BandwidthMetric::AlgBw);
    EXPECT_NEAR(yAt(seriesNamed(chart.chart(), kAllReduce), p.bytes), p.algbwGBs, 1e-9);
    EXPECT_EQ(axis(chart.chart(), Qt::Vertical)->titleText(), QStringLiteral("Algorithm bandwidth (GB/s)"));
    EXPECT_EQ(chart.chart()->title(), QStringLiteral("Algorithm bandwidth vs message size"));
}

TEST_F(ChartFixture, LatencyViewPlotsTimeOnALog10Axis)
{
    chart.setSessions(w.load({w.h100}));
    chart.setKind(ChartKind::Latency);
    auto* y = qobject_cast<QLogValueAxis*>(axis(chart.chart(), Qt::Vertical));
    ASSERT_TRUE(y);
    EXPECT_EQ(y->base(), 10.0);
    EXPECT_EQ(y->titleText(), QStringLiteral("Time (µs)"));
    const auto small = test::modelPoint("all_reduce", 8, 8, 25.0, 150.0);
    const auto large = test::modelPoint("all_reduce", 8, std::int64_t{16} << 30, 25.0, 150.0);
    EXPECT_LE(y->min(), small.timeUs);
    EXPECT_GE(y->max(), large.timeUs);
    EXPECT_NEAR(yAt(seriesNamed(chart.chart(), kAllReduce), 8), small.timeUs, 1e-9);
    EXPECT_EQ(chart.findChild<QComboBox*>(QStringLiteral("chartKindCombo"))->currentText(), QStringLiteral("Latency"));
}

TEST_F(ChartFixture, LegendClickTogglesSeriesVisibility)
{
    chart.setSessions(w.load({w.h100}));
    QLineSeries* s = seriesNamed(chart.chart(), kAllReduce);
    ASSERT_TRUE(s);
    const auto markers = chart.chart()->legend()->markers(s);
    ASSERT_EQ(markers.size(), 1);
    Q_EMIT markers[0]->clicked();
    EXPECT_FALSE(s->isVisible());
    QCoreApplication::processEvents(); // the legend applies series visibility through the event loop
    EXPECT_TRUE(markers[0]->isVisible()); // still there to click it back on, dimmed
    EXPECT_LT(markers[0]->labelBrush().color().alphaF(), 0.5);
    Q_EMIT markers[0]->clicked();
    EXPECT_TRUE(s->isVisible());
    EXPECT_EQ(markers[0]->labelBrush().color().alphaF(), 1.0);
}

TEST_F(ChartFixture, FitCurveIsDashedInTheSeriesColourAndMatchesTheModel)
{
    chart.setSessions(w.load({w.h100}));
    ASSERT_EQ(chart.fits().size(), 3u);
    QLineSeries* data = seriesNamed(chart.chart(), kAllReduce);
    QLineSeries* fit = seriesNamed(chart.chart(), kAllReduce % QStringLiteral(" fit: α 25 µs, β 150 GB/s"));
    ASSERT_TRUE(fit) << names(chart.chart()).join(QLatin1Char('|')).toStdString();
    EXPECT_EQ(fit->pen().style(), Qt::DashLine);
    EXPECT_EQ(fit->pen().color(), data->color());
    // Every fit sample lies on the known model's busbw curve.
    const auto pts = fit->points();
    ASSERT_GT(pts.size(), 10);
    for (const QPointF& p : pts) {
        const double bytes = std::exp2(p.x());
        EXPECT_NEAR(p.y(), bytes / (25.0 + bytes / 150e3) / 1e3 * 1.75, 1e-6 * (1 + p.y()));
    }
    // A restricted fit range is reported back in the fits the chart exposes.
    chart.setFitRange(1 << 20, std::int64_t{1} << 30);
    const auto fits = chart.fits();
    auto it = std::find_if(fits.begin(), fits.end(), [](const FitCurve& f) { return f.key.op == "all_reduce" && !f.key.inPlace; });
    ASSERT_NE(it, fits.end());
    EXPECT_EQ(it->fit.points, 11);
    EXPECT_NEAR(it->fit.alphaUs, 25.0, 1e-6);

    chart.findChild<QCheckBox*>(QStringLiteral("showFitsCheck"))->setChecked(false);
    EXPECT_TRUE(chart.fits().empty());
    EXPECT_EQ(chart.chart()->series().size(), 3);
}

// β of the fitted time model is an algorithm bandwidth; a busbw chart's fit curve levels off at
// β x bus factor (all_reduce on 8 ranks: 1.75). The legend says which bandwidth β is and gives
// the chart's own quantity, so "β 150 GB/s" never sits next to a curve plateauing at 262 GB/s.
TEST_F(ChartFixture, FitLegendGivesBetaInTheChartsBandwidth)
{
    chart.setSessions(w.load({w.h100}));
    QLineSeries* fit = seriesNamed(chart.chart(), kAllReduce % QStringLiteral(" fit: α 25 µs, β 150 GB/s"));
    ASSERT_TRUE(fit);
    const auto label = [&] {
        const auto markers = chart.chart()->legend()->markers(fit);
        return markers.isEmpty() ? QString() : markers.first()->label();
    };
    const QString busbw = label();
    EXPECT_TRUE(busbw.startsWith(QStringLiteral("fit: α 25 µs, β "))) << busbw.toStdString();
    EXPECT_TRUE(busbw.endsWith(QStringLiteral(" GB/s busbw, rms error 0.0 %"))) << busbw.toStdString();
    EXPECT_FALSE(busbw.contains(QStringLiteral("algbw"))) << "one bandwidth, the chart's: the legend had no room for two";
    const double stated = busbw.section(QStringLiteral("β "), 1).section(QLatin1Char(' '), 0, 0).toDouble();
    double plateau = 0;
    for (const QPointF& p : fit->points())
        plateau = std::max(plateau, p.y());
    EXPECT_NEAR(plateau, 150 * 1.75, 150 * 1.75 * 0.01) << "the curve the legend describes";
    EXPECT_NEAR(stated, plateau, plateau * 0.01) << "the legend's busbw is where the curve levels off";

    auto* metric = chart.findChild<QComboBox*>(QStringLiteral("metricCombo"));
    ASSERT_TRUE(metric);
    metric->setCurrentIndex(metric->findData(static_cast<int>(BandwidthMetric::AlgBw)));
    fit = seriesNamed(chart.chart(), kAllReduce % QStringLiteral(" fit: α 25 µs, β 150 GB/s"));
    ASSERT_TRUE(fit);
    EXPECT_EQ(label(), QStringLiteral("fit: α 25 µs, β 150 GB/s algbw, rms error 0.0 %"));
}

TEST_F(ChartFixture, HoverShowsExactValuesOfTheNearestPoint)
{
    chart.setSessions(w.load({w.h100}));
    QLineSeries* s = seriesNamed(chart.chart(), kAllReduce);
    const auto p = test::modelPoint("all_reduce", 8, 1 << 20, 25.0, 150.0);
    Q_EMIT s->hovered(QPointF(20.1, p.busbwGBs), true);
    const QString text = chart.hoverText();
    EXPECT_TRUE(text.contains(QStringLiteral("session: H100 8 ranks"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("op: all_reduce"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("size: 1 MiB (1048576 B)"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("time: ") % QString::fromStdString(units::formatTime(p.timeUs))));
    EXPECT_TRUE(text.contains(QStringLiteral("busbw: ") % QString::fromStdString(units::formatBandwidth(p.busbwGBs))));
    EXPECT_TRUE(text.contains(QStringLiteral("algbw: ") % QString::fromStdString(units::formatBandwidth(p.algbwGBs))));
    // Let the chart drop the replaced axes' items and lay out, as a running event loop would.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    QCoreApplication::processEvents();
    Q_EMIT s->hovered(QPointF(20.1, p.busbwGBs), true);
    chart.grab().save(QStringLiteral("/tmp/ridgeline-chart-hover.png")); // for a human to look at
    Q_EMIT s->hovered(QPointF(20.1, p.busbwGBs), false);
    EXPECT_TRUE(chart.hoverText().isEmpty());
}

TEST_F(ChartFixture, LivePointsAppendToTheirSeriesWithoutRebuilding)
{
    auto sessions = w.load({w.h100});
    sessions[0].points.edit([](std::vector<CollectivePoint>& pts) {
        std::erase_if(pts, [](const CollectivePoint& p) { return p.op != "all_reduce" || p.inPlace || p.bytes > (1 << 20); });
    });
    auto shared = std::make_shared<std::vector<SessionCurves>>(sessions);
    chart.setSessions(shared);
    QLineSeries* s = seriesNamed(chart.chart(), kAllReduce);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->count(), 18);
    const double yMaxBefore = qobject_cast<QValueAxis*>(axis(chart.chart(), Qt::Vertical))->max();
    const auto next = test::modelPoint("all_reduce", 8, std::int64_t{1} << 30, 25.0, 150.0);
    ASSERT_TRUE(appendLivePoint(*shared, w.h100, next));
    EXPECT_FALSE(appendLivePoint(*shared, w.h100, next)) << "the same point twice is kept once";
    EXPECT_FALSE(appendLivePoint(*shared, 999999, next)) << "a session not shown takes no points";
    chart.pointsAppended(w.h100);
    EXPECT_EQ(seriesNamed(chart.chart(), kAllReduce), s); // same series object: no rebuild
    EXPECT_EQ(s->count(), 19);
    EXPECT_NEAR(s->points().back().y(), next.busbwGBs, 1e-9);
    EXPECT_GT(qobject_cast<QValueAxis*>(axis(chart.chart(), Qt::Vertical))->max(), yMaxBefore);
    EXPECT_GE(axis(chart.chart(), Qt::Horizontal)->property("max").toDouble(), 30.0);

    const auto gather = test::modelPoint("all_gather", 8, 4096, 18.0, 160.0);
    ASSERT_TRUE(appendLivePoint(*shared, w.h100, gather));
    chart.pointsAppended(w.h100);
    EXPECT_EQ(&chart.sessions(), shared.get()) << "the chart reads the shared data set, not a copy";
    EXPECT_TRUE(seriesNamed(chart.chart(), QStringLiteral("H100 8 ranks · all_gather")));
    EXPECT_EQ(seriesNamed(chart.chart(), kAllReduce)->count(), 19);
}

TEST_F(ChartFixture, ScalingViewPlotsBusbwAtTheChosenSizeAgainstRanks)
{
    chart.setSessions(w.load(w.scaling));
    chart.setKind(ChartKind::Scaling);
    chart.setScalingBytes(std::int64_t{256} << 20);
    EXPECT_EQ(names(chart.chart()), QStringList({QStringLiteral("all_gather"), QStringLiteral("all_reduce")}));
    QLineSeries* s = seriesNamed(chart.chart(), QStringLiteral("all_reduce"));
    const auto pts = s->points();
    ASSERT_EQ(pts.size(), 4);
    EXPECT_DOUBLE_EQ(pts[0].x(), 1.0); // log2(2 ranks)
    EXPECT_DOUBLE_EQ(pts[3].x(), 4.0);
    EXPECT_NEAR(pts[1].y(), test::modelPoint("all_reduce", 4, std::int64_t{256} << 20, 14.0, 180.0).busbwGBs, 1e-9);
    EXPECT_NEAR(pts[3].y(), test::modelPoint("all_reduce", 16, std::int64_t{128} << 20, 26.0, 120.0).busbwGBs, 1e-9);
    auto* x = qobject_cast<QCategoryAxis*>(axis(chart.chart(), Qt::Horizontal));
    ASSERT_TRUE(x);
    EXPECT_EQ(x->titleText(), QStringLiteral("Ranks"));
    EXPECT_TRUE(x->categoriesLabels().contains(QStringLiteral("16")));
    EXPECT_TRUE(chart.chart()->title().contains(QStringLiteral("256 MiB")));
    Q_EMIT s->hovered(pts[3], true);
    EXPECT_TRUE(chart.hoverText().contains(QStringLiteral("size: 128 MiB"))) << chart.hoverText().toStdString();
}

TEST_F(ChartFixture, CompareViewShowsTheRatioWithAParityLine)
{
    chart.setSessions(w.load({w.h100, w.mi300}));
    chart.setKind(ChartKind::Compare);
    QLineSeries* r = seriesNamed(chart.chart(), QStringLiteral("all_reduce: B / A"));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->count(), 32);
    const auto a = test::modelPoint("all_reduce", 8, 1 << 20, 25.0, 150.0);
    const auto b = test::modelPoint("all_reduce", 8, 1 << 20, 30.0, 120.0);
    EXPECT_NEAR(yAt(r, 1 << 20), b.busbwGBs / a.busbwGBs, 1e-9);
    QLineSeries* parity = seriesNamed(chart.chart(), QStringLiteral("parity (1.0)"));
    ASSERT_TRUE(parity);
    for (const QPointF& p : parity->points())
        EXPECT_EQ(p.y(), 1.0);
    auto* y = qobject_cast<QValueAxis*>(axis(chart.chart(), Qt::Vertical));
    EXPECT_LE(y->min(), 0.8);
    EXPECT_GE(y->max(), 1.0);
}

TEST_F(ChartFixture, ResetZoomRestoresTheFullRange)
{
    chart.setSessions(w.load({w.h100}));
    auto* x = axis(chart.chart(), Qt::Horizontal);
    const double min = x->property("min").toDouble(), max = x->property("max").toDouble();
    chart.chart()->zoomIn(QRectF(chart.chart()->plotArea().center(), QSizeF(100, 100)));
    EXPECT_GT(x->property("min").toDouble(), min);
    chart.findChild<QPushButton*>(QStringLiteral("resetZoomButton"))->click();
    EXPECT_DOUBLE_EQ(x->property("min").toDouble(), min);
    EXPECT_DOUBLE_EQ(x->property("max").toDouble(), max);
}

TEST_F(ChartFixture, WidgetExportUsesTheSharedPathAtTheExportSize)
{
    chart.setSessions(w.load({w.h100}));
    chart.setExportSize(QSize(640, 480));
    const QString path = QString::fromStdString((w.dir.path / "w.png").string());
    QString error;
    ASSERT_TRUE(chart.exportTo(path, &error)) << error.toStdString();
    EXPECT_EQ(QImage(path).size(), QSize(640, 480));
}

// Issue 9 item 16: Compare with three sessions (or one) drew empty 0.996-1.004 axes with the
// message in the title; it shows the reason in place of the plot, and the chart has no axes.
TEST_F(ChartFixture, CompareWithAnotherCountThanTwoShowsAnEmptyStateInsteadOfAxes)
{
    chart.setKind(ChartKind::Compare);
    auto* empty = chart.findChild<QLabel*>(QStringLiteral("chartEmptyState"));
    ASSERT_TRUE(empty);
    for (const auto& ids : {std::vector<std::int64_t>{w.h100, w.mi300, w.scaling[0]}, std::vector<std::int64_t>{w.h100}}) {
        chart.setSessions(w.load(ids));
        EXPECT_TRUE(empty->isVisible()) << ids.size() << " sessions";
        EXPECT_TRUE(empty->text().contains(QStringLiteral("exactly two"))) << empty->text().toStdString();
        EXPECT_TRUE(empty->text().contains(QStringLiteral("(%1 selected)").arg(ids.size())));
        EXPECT_FALSE(chart.findChild<QWidget*>(QStringLiteral("chartView"))->isVisible());
        EXPECT_TRUE(chart.chart()->axes().isEmpty()) << "no empty axes";
        EXPECT_TRUE(chart.chart()->series().isEmpty());
    }
    // Two sessions: the ratio is drawn again and the empty state is gone.
    chart.setSessions(w.load({w.h100, w.mi300}));
    EXPECT_FALSE(empty->isVisible());
    EXPECT_TRUE(chart.findChild<QWidget*>(QStringLiteral("chartView"))->isVisible());
    EXPECT_FALSE(chart.chart()->axes().isEmpty());
    // Back to bandwidth: every session count is fine there.
    chart.setSessions(w.load({w.h100, w.mi300, w.scaling[0]}));
    chart.setKind(ChartKind::Bandwidth);
    EXPECT_FALSE(empty->isVisible());
}

// A one-rank run (nccl-tests -g 1, or one process) has busbw 0 at every size: the busbw chart says
// why and what to do instead of drawing a flat line; algbw draws the run.
TEST_F(ChartFixture, OneRankBusbwChartSaysWhyInsteadOfAFlatLine)
{
    SessionCurves one;
    one.session.id = 99;
    one.session.title = "one GPU";
    for (std::int64_t b : {1024, 1 << 20, 1 << 28}) {
        CollectivePoint p = test::modelPoint("all_reduce", 1, b, 20.0, 150.0);
        p.busbwGBs = 0;
        one.points.push_back(p);
    }
    auto* empty = chart.findChild<QLabel*>(QStringLiteral("chartEmptyState"));
    ASSERT_TRUE(empty);
    chart.setSessions(std::vector<SessionCurves>{one});
    EXPECT_TRUE(empty->isVisible());
    EXPECT_TRUE(empty->text().contains(QStringLiteral("busbw is 0 on one rank"))) << empty->text().toStdString();
    chart.setMetric(BandwidthMetric::AlgBw);
    EXPECT_FALSE(empty->isVisible());
    EXPECT_FALSE(chart.chart()->series().isEmpty());
    chart.setMetric(BandwidthMetric::BusBw);
    chart.setSessions(w.load({w.h100})); // 8 ranks: the busbw chart as usual
    EXPECT_FALSE(empty->isVisible());
}

// "Is this number good?" on the chart: the published 2-node 16xH100 all_reduce (8 x 400 Gb/s NICs per
// node, matched to the h100-sxm profile by its device lines) gets its tier's busbw ceiling as a
// labelled line above the curve; the algbw view has none (the ceiling is a bus bandwidth).
TEST_F(ChartFixture, BusbwChartDrawsTheTiersPeakLineOfAPublishedRun)
{
    const ImportResult r = importFile(std::string(RIDGELINE_SAMPLE_DATA) + "/nccl-tests_2node_16xH100_all_reduce.txt");
    ASSERT_TRUE(r.ok) << r.error;
    ASSERT_EQ(r.sessions.size(), 1u);
    const std::vector<std::int64_t> ids{w.ws.storeSession(r.sessions[0])};
    chart.setShowFits(false);
    chart.setSessions(w.load({ids[0]}));
    QLineSeries* peak = nullptr;
    for (QAbstractSeries* s : chart.chart()->series())
        if (s->name().startsWith(QStringLiteral("tier peak: ")))
            peak = qobject_cast<QLineSeries*>(s);
    ASSERT_TRUE(peak) << names(chart.chart()).join(QLatin1Char('|')).toStdString();
    const Session session = *w.ws.session(ids[0]);
    std::string why;
    const auto tier = sessionTierPeak(session, "all_reduce", 16, {}, 0, &why);
    ASSERT_TRUE(tier) << why;
    EXPECT_TRUE(tier->interNode);
    EXPECT_EQ(tier->nodes, 2);
    ASSERT_EQ(peak->count(), 2);
    EXPECT_DOUBLE_EQ(peak->at(0).y(), tier->peakBusGBs);
    EXPECT_DOUBLE_EQ(peak->at(1).y(), tier->peakBusGBs);
    EXPECT_TRUE(peak->name().contains(QStringLiteral("2 nodes, h100-sxm"))) << peak->name().toStdString();
    auto* y = qobject_cast<QValueAxis*>(axis(chart.chart(), Qt::Vertical));
    EXPECT_GE(y->max(), tier->peakBusGBs); // the line is on the chart, not above it
    // Every measured busbw is below the ceiling.
    for (const auto& p : w.ws.collectivePoints(ids[0]))
        EXPECT_LE(p.busbwGBs, tier->peakBusGBs) << p.bytes;
    chart.setMetric(BandwidthMetric::AlgBw);
    for (QAbstractSeries* s : chart.chart()->series())
        EXPECT_FALSE(s->name().startsWith(QStringLiteral("tier peak: ")));
}

// Edit > Preferences' GiB/s changes what is plotted, not only the text: curves, fit, tier-peak line
// and scaling points at GB/s x 1e9 / 2^30, under axis titles that say GiB/s.
TEST_F(ChartFixture, GiBsPreferencePlotsTheValuesAndTitlesTheAxesInGiBs)
{
    struct Restore
    {
        ~Restore() { units::setDisplayBandwidthUnit(units::BandwidthUnit::GBps); }
    } restore;
    units::setDisplayBandwidthUnit(units::BandwidthUnit::GiBps);
    constexpr double kGiBPerGB = 1e9 / 1073741824.0;

    chart.setSessions(w.load({w.h100}));
    EXPECT_EQ(axis(chart.chart(), Qt::Vertical)->titleText(), QStringLiteral("Bus bandwidth (GiB/s)"));
    const auto p = test::modelPoint("all_reduce", 8, std::int64_t{1} << 30, 25.0, 150.0);
    EXPECT_NEAR(yAt(seriesNamed(chart.chart(), kAllReduce), p.bytes), p.busbwGBs * kGiBPerGB, 1e-9);
    QLineSeries* fit = nullptr;
    for (QAbstractSeries* s : chart.chart()->series())
        if (s->name().startsWith(kAllReduce % QStringLiteral(" fit: ")))
            fit = qobject_cast<QLineSeries*>(s);
    ASSERT_TRUE(fit) << names(chart.chart()).join(QLatin1Char('|')).toStdString();
    double plateau = 0;
    for (const QPointF& q : fit->points())
        plateau = std::max(plateau, q.y());
    EXPECT_NEAR(plateau, 150 * 1.75 * kGiBPerGB, 150 * 1.75 * kGiBPerGB * 0.01);
    auto* y = qobject_cast<QValueAxis*>(axis(chart.chart(), Qt::Vertical));
    EXPECT_LE(y->max(), 150 * 1.75 * 1.3 * kGiBPerGB) << "the range follows the plotted values";

    chart.setMetric(BandwidthMetric::AlgBw);
    EXPECT_EQ(axis(chart.chart(), Qt::Vertical)->titleText(), QStringLiteral("Algorithm bandwidth (GiB/s)"));
    EXPECT_NEAR(yAt(seriesNamed(chart.chart(), kAllReduce), p.bytes), p.algbwGBs * kGiBPerGB, 1e-9);

    chart.setMetric(BandwidthMetric::BusBw);
    chart.setSessions(w.load(w.scaling));
    chart.setKind(ChartKind::Scaling);
    chart.setScalingBytes(std::int64_t{256} << 20);
    EXPECT_EQ(axis(chart.chart(), Qt::Vertical)->titleText(), QStringLiteral("Bus bandwidth (GiB/s)"));
    const auto pts = seriesNamed(chart.chart(), QStringLiteral("all_reduce"))->points();
    ASSERT_EQ(pts.size(), 4);
    EXPECT_NEAR(pts[1].y(), test::modelPoint("all_reduce", 4, std::int64_t{256} << 20, 14.0, 180.0).busbwGBs * kGiBPerGB,
                1e-9);

    const ImportResult r = importFile(std::string(RIDGELINE_SAMPLE_DATA) + "/nccl-tests_2node_16xH100_all_reduce.txt");
    ASSERT_TRUE(r.ok) << r.error;
    const auto id = w.ws.storeSession(r.sessions[0]);
    chart.setKind(ChartKind::Bandwidth);
    chart.setSessions(w.load({id}));
    std::string why;
    const auto tier = sessionTierPeak(*w.ws.session(id), "all_reduce", 16, {}, 0, &why);
    ASSERT_TRUE(tier) << why;
    QLineSeries* peak = nullptr;
    for (QAbstractSeries* s : chart.chart()->series())
        if (s->name().startsWith(QStringLiteral("tier peak: ")))
            peak = qobject_cast<QLineSeries*>(s);
    ASSERT_TRUE(peak);
    EXPECT_TRUE(peak->name().contains(QStringLiteral("GiB/s"))) << peak->name().toStdString();
    EXPECT_DOUBLE_EQ(peak->at(0).y(), tier->peakBusGBs * kGiBPerGB);
}

// A dark application palette (Preferences' Dark) darkens the plot, not only the window around it;
// the chart is filled again, so its own pens survive the theme (a fit dashed in its curve's colour).
TEST_F(ChartFixture, ADarkPaletteGivesADarkPlotAndKeepsTheChartsOwnPens)
{
    chart.setSessions(w.load({w.h100}));
    QCoreApplication::processEvents();
    EXPECT_LT(rl::testing::darkShareOfPlot(chart.view()), 0.1) << "light by default";

    QPalette dark = chart.palette();
    dark.setColor(QPalette::Window, QColor(0x2b, 0x2d, 0x30));
    dark.setColor(QPalette::Base, QColor(0x1e, 0x1f, 0x22));
    dark.setColor(QPalette::Text, QColor(0xdf, 0xe1, 0xe5));
    chart.setPalette(dark);
    QCoreApplication::processEvents();
    EXPECT_EQ(chart.chart()->theme(), QChart::ChartThemeDark);
    EXPECT_GT(rl::testing::darkShareOfPlot(chart.view()), 0.9);
    QLineSeries* data = seriesNamed(chart.chart(), kAllReduce);
    QLineSeries* fit = seriesNamed(chart.chart(), kAllReduce % QStringLiteral(" fit: α 25 µs, β 150 GB/s"));
    ASSERT_TRUE(data && fit);
    EXPECT_EQ(fit->pen().style(), Qt::DashLine);
    EXPECT_EQ(fit->pen().color(), data->color());
    EXPECT_EQ(seriesNamed(chart.chart(), kAllReduce)->count(), 32);
    chart.grab().save(QStringLiteral("/tmp/ridgeline-chart-dark.png")); // for a human to look at

    chart.setPalette(QPalette());
    QCoreApplication::processEvents();
    EXPECT_EQ(chart.chart()->theme(), QChart::ChartThemeLight);
    EXPECT_LT(rl::testing::darkShareOfPlot(chart.view()), 0.1);
}

// The runner's per-call statistics show as a band from the slowest to the fastest call's bandwidth.
TEST_F(ChartFixture, PointsWithCallStatisticsGetASpreadBand)
{
    SessionData d{test::session("stats run", "ridgeline-bench"), {}};
    for (std::int64_t b : test::sweep(1024, std::int64_t{1} << 20)) {
        CollectivePoint p = test::modelPoint("all_reduce", 4, b, 20.0, 100.0);
        CallStats st;
        st.meanUs = p.timeUs;
        st.minUs = p.timeUs * 0.8;
        st.maxUs = p.timeUs * 1.5;
        st.p50Us = p.timeUs;
        st.p99Us = p.timeUs * 1.4;
        st.iters = 100;
        p.stats = st;
        d.collectives.push_back(p);
    }
    const auto id = w.ws.storeSession(d);
    chart.setSessions(w.load({id}));
    QAreaSeries* band = nullptr;
    for (QAbstractSeries* s : chart.chart()->series())
        if (auto* a = qobject_cast<QAreaSeries*>(s))
            band = a;
    ASSERT_TRUE(band);
    const auto points = w.ws.collectivePoints(id);
    ASSERT_EQ(band->upperSeries()->count(), int(points.size()));
    EXPECT_NEAR(band->upperSeries()->at(0).y(), points[0].busbwGBs / 0.8, 1e-9 * points[0].busbwGBs);
    EXPECT_NEAR(band->lowerSeries()->at(0).y(), points[0].busbwGBs / 1.5, 1e-9 * points[0].busbwGBs);
}

// Issue 26 item 11, level of detail. A selection of 10 --split sessions (3,240 curves) is drawn
// as one band per session, op and in-place (its groups' slowest, median and fastest), not as
// 3,240 series; a curve of 200,000 points is drawn with at most 4 points per pixel column and its
// hover still gives a stored point's exact values.
namespace {
std::vector<SessionCurves> splitSelection(int sessions, int groups, int sizes)
{
    std::vector<SessionCurves> out;
    for (int s = 0; s < sessions; ++s) {
        SessionCurves sc;
        sc.session.id = s + 1;
        sc.session.title = "split " + std::to_string(s + 1);
        for (const char* op : {"all_reduce", "all_gather"})
            for (bool inPlace : {false, true})
                for (int k = 0; k < sizes; ++k)
                    for (int g = 0; g < groups; ++g) {
                        CollectivePoint p{op, 2, "float32", "sum", std::int64_t{8} << k, 2 << k, inPlace, -1, 0, 0, 0, 0};
                        p.timeUs = (20 + double(p.bytes) / 180e3) * (g == 5 ? 1.6 : 1.0 + 0.001 * g);
                        p.algbwGBs = double(p.bytes) / (p.timeUs * 1e3);
                        p.busbwGBs = p.algbwGBs;
                        p.group = "ranks " + std::to_string(2 * g) + "-" + std::to_string(2 * g + 1);
                        sc.points.push_back(p);
                    }
        out.push_back(std::move(sc));
    }
    return out;
}
} // namespace

TEST_F(ChartFixture, ThousandsOfGroupCurvesAreDrawnAsOneBandPerSessionOpAndInPlace)
{
    chart.setSessions(splitSelection(10, 81, 24));
    ChartContent* content = chart.findChild<ChartContent*>();
    ASSERT_NE(content, nullptr);
    EXPECT_EQ(content->curves().size(), 3240u);
    ASSERT_EQ(content->bands().size(), 40u); // 10 sessions x 2 ops x in-place or not
    int areas = 0, lines = 0;
    const auto all = chart.chart()->series();
    for (QAbstractSeries* s : all) {
        areas += qobject_cast<QAreaSeries*>(s) != nullptr;
        lines += qobject_cast<QLineSeries*>(s) != nullptr;
    }
    // The areas are one layer under the series, not a QAreaSeries each (QtCharts filled each on
    // every paint).
    EXPECT_EQ(areas, 0);
    ASSERT_NE(content->bandLayer(), nullptr);
    EXPECT_EQ(content->bandLayer()->bands().size(), 40u);
    // The medians, and the legend's "… and N more bands" line when not all fit; no curve drawn
    // one by one, no fits.
    EXPECT_EQ(lines, 40 + (content->bandsNotInLegend() > 0));
    EXPECT_TRUE(names(chart.chart()).contains(QStringLiteral("split 1 · all_reduce · 81 groups")))
        << names(chart.chart()).join(u'\n').toStdString();
    // The band's lower edge is the slow group (5) at every size, its median the middle group.
    const auto& band = content->bands().front();
    ASSERT_EQ(band.points.size(), 24u);
    EXPECT_EQ(band.curves.size(), 81u);
    const auto& slow = content->curves()[band.curves[5]].points;
    for (std::size_t k = 0; k < band.points.size(); ++k)
        EXPECT_DOUBLE_EQ(band.points[k].min, units::displayBandwidth(slow[k].busbwGBs)) << k;

    // Hovering the median or the area names the band and gives its slowest, median and fastest
    // group at that size with their unit.
    auto* median = seriesNamed(chart.chart(), QStringLiteral("split 1 · all_reduce · 81 groups"));
    ASSERT_NE(median, nullptr);
    const auto& fast = content->curves()[band.curves[0]].points;
    const QString expected = QStringLiteral("split 1 · all_reduce · 81 groups\nsize: 8 KiB\nbusbw of 81 points: slowest ") %
                             QString::fromStdString(units::formatBandwidth(slow[10].busbwGBs)) % QStringLiteral(", median ");
    Q_EMIT median->hovered(QPointF(band.points[10].x + 0.1, band.points[10].median), true);
    EXPECT_TRUE(chart.hoverText().startsWith(expected)) << chart.hoverText().toStdString();
    EXPECT_TRUE(chart.hoverText().endsWith(QStringLiteral(", fastest ") %
                                           QString::fromStdString(units::formatBandwidth(fast[10].busbwGBs))))
        << chart.hoverText().toStdString();
    Q_EMIT median->hovered(QPointF(band.points[10].x, band.points[10].median), false);
    EXPECT_TRUE(chart.hoverText().isEmpty());
    // Inside the band, off its median: the layer names the band under the pointer (the last
    // drawn of those there, on top).
    const QPointF inside(band.points[10].x - 0.1, (band.points[10].min + band.points[10].median) / 2);
    const int under = content->bandLayer()->bandAt(inside);
    ASSERT_GE(under, 0);
    const BandLayer* layer = content->bandLayer();
    Q_EMIT const_cast<BandLayer*>(layer)->hovered(under, inside, true);
    EXPECT_TRUE(chart.hoverText().startsWith(QString::fromStdString(content->bands()[std::size_t(under)].name) %
                                             QStringLiteral("\nsize: 8 KiB\nbusbw of 81 points: slowest ")))
        << chart.hoverText().toStdString();
    EXPECT_EQ(layer->bandAt(QPointF(band.points[10].x, band.points[10].max * 50)), -1) << "above every band";
    Q_EMIT const_cast<BandLayer*>(layer)->hovered(under, inside, false);
    EXPECT_TRUE(chart.hoverText().isEmpty());

    // On screen the areas are one image rendered off the GUI thread for the plot's size; with a
    // real pointer over a band, the view's hover names it.
    ASSERT_TRUE(rl::testing::waitForLayout(chart.chart()));
    chart.view()->viewport()->repaint();
    ASSERT_TRUE(rl::testing::waitFor([&] { return layer->isRendered(); }));
    const QPoint at = chart.view()->mapFromScene(chart.chart()->mapToScene(chart.chart()->mapToPosition(inside, median)));
    QTest::mouseMove(chart.view()->viewport(), at);
    EXPECT_TRUE(rl::testing::waitFor([&] { return chart.hoverText().contains(QStringLiteral(" of 81 points: slowest ")); }))
        << chart.hoverText().toStdString();

    // Every band is named in the legend, or counted in its last line: QtCharts would cut a legend
    // taller than the chart off without a word.
    QCoreApplication::processEvents();
    int named = 0, legendRows = 0;
    for (QLegendMarker* m : chart.chart()->legend()->markers())
        if (m->isVisible()) {
            ++legendRows;
            named += m->label().endsWith(QStringLiteral(" · 81 groups"));
        }
    EXPECT_GT(content->bandsNotInLegend(), 0) << "40 rows do not fit beside a 800-pixel chart";
    EXPECT_EQ(named + content->bandsNotInLegend(), 40);
    EXPECT_TRUE(names(chart.chart()).contains(
        QStringLiteral("… and %1 more bands: hover one to name it").arg(content->bandsNotInLegend())));
    const double rowHeight = QFontMetricsF(chart.chart()->legend()->font()).height();
    EXPECT_LE(legendRows * rowHeight, chart.chart()->plotArea().height() + 2 * rowHeight) << legendRows;
    chart.resize(1200, 1400);
    chart.setSessions(splitSelection(10, 81, 24));
    EXPECT_EQ(content->bandsNotInLegend(), 0) << "all 40 fit beside a 1400-pixel chart";
    chart.resize(1200, 800);

    // A selection with few curves is drawn curve by curve, as before.
    chart.setSessions(splitSelection(1, 4, 24));
    EXPECT_TRUE(content->bands().empty());
    EXPECT_EQ(chart.chart()->series().size(), 16 + 16); // 16 curves, each with its fit
}

// A selection of many plain sessions (no --split groups) is banded too: per op and in-place over
// the sessions, so 240 curves are 4 bands, not 240 series and a legend that names nothing.
TEST_F(ChartFixture, ManyPlainSessionsAreDrawnAsOneBandPerOpAndInPlace)
{
    auto plain = splitSelection(60, 1, 24);
    for (auto& s : plain)
        s.points.edit([](std::vector<CollectivePoint>& points) {
            for (auto& p : points)
                p.group.clear();
        });
    chart.setSessions(plain);
    ChartContent* content = chart.findChild<ChartContent*>();
    ASSERT_NE(content, nullptr);
    EXPECT_EQ(content->curves().size(), 240u);
    ASSERT_EQ(content->bands().size(), 4u);
    ASSERT_NE(content->bandLayer(), nullptr);
    EXPECT_EQ(content->bandLayer()->bands().size(), 4u);
    const auto& bands = content->bands();
    const auto it = std::find_if(bands.begin(), bands.end(), [](const GroupBand& b) { return b.name == "all_reduce · 60 sessions"; });
    ASSERT_NE(it, bands.end());
    const auto& band = *it;
    auto* layer = const_cast<BandLayer*>(content->bandLayer());
    Q_EMIT layer->hovered(int(it - bands.begin()), QPointF(band.points[10].x, band.points[10].median), true);
    EXPECT_TRUE(chart.hoverText().startsWith(QStringLiteral("all_reduce · 60 sessions\nsize: 8 KiB\nbusbw of 60 points: slowest ")))
        << chart.hoverText().toStdString();
    EXPECT_TRUE(chart.hoverText().contains(QStringLiteral(" GB/s"))) << chart.hoverText().toStdString();
}

TEST_F(ChartFixture, ALongCurveIsDrawnWithAtMostFourPointsPerPixelColumn)
{
    chart.setShowFits(false);
    SessionCurves sc;
    sc.session.id = 1;
    sc.session.title = "long";
    for (int i = 0; i < 200'000; ++i) {
        const std::int64_t bytes = std::int64_t{8} << (i % 28);
        CollectivePoint p{"all_reduce", 8, "float32", "sum", bytes, bytes / 4, false, -1, 0, 0, 0, 0};
        p.timeUs = 20 + double(bytes) / 180e3 * (1.0 + 0.01 * (i % 97));
        p.algbwGBs = double(bytes) / (p.timeUs * 1e3);
        p.busbwGBs = p.algbwGBs;
        sc.points.push_back(p);
    }
    chart.setSessions(std::vector<SessionCurves>{sc});
    auto* s = seriesNamed(chart.chart(), QStringLiteral("long · all_reduce"));
    ASSERT_NE(s, nullptr) << names(chart.chart()).join(u'\n').toStdString();
    const auto pts = s->points();
    EXPECT_LE(pts.size(), 4 * 1200);
    // The thinning's columns are as wide as the pen the theme draws curves with.
    EXPECT_DOUBLE_EQ(s->pen().widthF(), double(kCurvePenPixels));
    EXPECT_GE(pts.size(), 28 * 2); // each size's lowest and highest
    // Each size's extremes are drawn.
    double lo = INFINITY, hi = 0;
    for (const auto& p : sc.points)
        if (p.bytes == 8 << 10) {
            lo = std::min(lo, units::displayBandwidth(p.busbwGBs));
            hi = std::max(hi, units::displayBandwidth(p.busbwGBs));
        }
    double dlo = INFINITY, dhi = 0;
    for (const QPointF& p : pts)
        if (std::abs(p.x() - 13.0) < 1e-9) {
            dlo = std::min(dlo, p.y());
            dhi = std::max(dhi, p.y());
        }
    EXPECT_DOUBLE_EQ(dlo, lo);
    EXPECT_DOUBLE_EQ(dhi, hi);
}

// Issue 24, minor list: a latency axis from below 1 µs to past a second printed "1e+06" next to
// "100000" ("%g"). Every decade tick is printed the same plain way.
TEST_F(ChartFixture, LatencyTicksFromBelowAMicrosecondToSecondsAreOnePlainFormat)
{
    SessionData slow{test::session("slow link 2 ranks", "ridgeline-bench"), {}};
    for (auto b : test::sweep(1, std::int64_t{16} << 20))
        slow.collectives.push_back(test::modelPoint("all_reduce", 2, b, 0.3, 0.01));
    const auto id = w.ws.storeSession(slow);
    chart.setSessions(w.load({id}));
    chart.setKind(ChartKind::Latency);
    auto* y = qobject_cast<QLogValueAxis*>(axis(chart.chart(), Qt::Vertical));
    ASSERT_TRUE(y);
    ASSERT_LT(y->min(), 1);
    ASSERT_GE(y->max(), 1e6);
    const QByteArray format = y->labelFormat().toLatin1();
    for (double tick = y->min(); tick <= y->max() * 1.001; tick *= 10) {
        const QString label = QString::asprintf(format.constData(), tick);
        EXPECT_FALSE(label.contains(QLatin1Char('e'))) << label.toStdString();
    }
}

// A Latency tab drawn when first shown (ChartArea draws hidden tabs then) sized its legend for a
// chart it never had: at 1280x720 it listed 33 band names and its "… and N more" line was below
// the legend's bottom, out of sight. Each visible legend line, that one included, is inside the
// legend once the chart is laid out.
TEST(CollectiveChartLegend, AHiddenTabShownLaterEndsItsLegendWithTheMoreLineInSight)
{
    test::ChartWorkspace w;
    QTabWidget tabs;
    auto* bandwidth = new CollectiveChart;
    auto* latency = new CollectiveChart;
    latency->setKind(ChartKind::Latency);
    tabs.addTab(bandwidth, QStringLiteral("Bandwidth"));
    tabs.addTab(latency, QStringLiteral("Latency"));
    tabs.resize(1000, 620);
    tabs.show();
    const auto data = std::make_shared<const std::vector<SessionCurves>>(splitSelection(10, 81, 24));
    bandwidth->setSessions(data);
    latency->setSessionsUndrawn(data);
    QCoreApplication::processEvents();
    tabs.setCurrentWidget(latency);
    latency->drawIfUndrawn();
    ASSERT_TRUE(rl::testing::waitForLayout(latency->chart()));
    QCoreApplication::processEvents();
    ASSERT_TRUE(rl::testing::waitForLayout(latency->chart()));
    ChartContent* content = latency->findChild<ChartContent*>();
    ASSERT_NE(content, nullptr);
    ASSERT_GT(content->bandsNotInLegend(), 0) << "40 bands do not fit beside a 620-pixel chart";
    const QRectF legend = latency->chart()->legend()->sceneBoundingRect();
    int lines = 0;
    bool moreSeen = false;
    for (QGraphicsItem* item : latency->chart()->scene()->items()) {
        auto* text = dynamic_cast<QGraphicsTextItem*>(item);
        if (!text || !text->isVisible() || !legend.contains(text->sceneBoundingRect().center().x(), legend.center().y()))
            continue;
        if (text->parentItem() == latency->chart() || text->toPlainText().isEmpty())
            continue; // the chart's title and axis titles
        ++lines;
        const QRectF r = text->sceneBoundingRect();
        EXPECT_LE(r.bottom(), legend.bottom() + 1) << text->toPlainText().toStdString() << " is below the legend";
        moreSeen |= text->toPlainText().startsWith(QStringLiteral("… and %1 more bands").arg(content->bandsNotInLegend()));
    }
    EXPECT_TRUE(moreSeen);
    EXPECT_EQ(lines, 40 - content->bandsNotInLegend() + 1);
}
