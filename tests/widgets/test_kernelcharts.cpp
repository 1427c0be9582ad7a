// Roofline geometry on hand-made ceilings with known answers, and the charts drawn from it.
#include <QChart>
#include <QLineSeries>
#include <QValueAxis>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QSpinBox>
#include <QApplication>
#include <QPalette>
#include <QFontMetricsF>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "gemmefficiencychart.h"
#include "importers/importerregistry.h"
#include "views/kernelchartdata.h"
#include "membwchart.h"
#include "model/hardwareprofileloader.h"
#include "niceticks.h"
#include "rooflinechart.h"
#include "darkpalette.h"
#include "test_gui_env.h"

using namespace rl;
using namespace rl::charts;

namespace {
// A real file through its importer, as the GUI stores it (kernel records only).
KernelSession imported(const std::string& file, std::int64_t id)
{
    const auto r = importFile(std::string(RIDGELINE_TEST_DATA) + "/kernels/" + file);
    EXPECT_TRUE(r.ok) << r.error;
    KernelSession k;
    if (r.sessions.empty())
        return k;
    k.session = r.sessions.front().session;
    k.session.id = id;
    k.membw = r.sessions.front().membw;
    k.memCeilings = r.sessions.front().memCeilings;
    k.peakFlops = r.sessions.front().peaks;
    k.gemm = r.sessions.front().gemms;
    return k;
}

KernelChartData handMade()
{
    KernelSession peak;
    peak.session.id = 1;
    peak.session.kind = kind::PeakFlops;
    PeakFlopsPoint p64;
    p64.dtype = "float64";
    p64.threads = 2;
    p64.gflops = 200;
    PeakFlopsPoint p64one = p64;
    p64one.threads = 1;
    p64one.gflops = 100; // the best over thread counts is the roof
    peak.peakFlops = {p64one, p64};
    KernelSession mem;
    mem.session.id = 2;
    mem.session.kind = kind::MemBandwidth;
    mem.memCeilings = {{"L1", "triad", 2, 4096, 32768, 400}, {"DRAM", "triad", 2, 1 << 27, 1 << 28, 20},
                       {"DRAM", "triad", 1, 1 << 27, 1 << 28, 12}}; // the highest thread count counts
    KernelSession gemm;
    gemm.session.id = 3;
    gemm.session.kind = kind::Gemm;
    GemmPoint g;
    g.dtype = "float64";
    g.m = g.n = g.k = 512;
    g.intensity = 2.0 * 512 * 512 * 512 / (8.0 * 3 * 512 * 512);
    g.gflops = 150;
    gemm.gemm = {g};
    return {{gemm, peak, mem}};
}
} // namespace

TEST(KernelCharts, RidgePointsAreWhereTheRoofMeetsEachSlope)
{
    const auto g = rooflineGeometry(handMade(), {});
    ASSERT_EQ(g.compute.size(), 1u);
    EXPECT_DOUBLE_EQ(g.compute[0].gflops, 200);
    ASSERT_EQ(g.bandwidth.size(), 2u);
    EXPECT_DOUBLE_EQ(g.bandwidth[0].gbs, 400); // fastest first
    EXPECT_DOUBLE_EQ(g.bandwidth[1].gbs, 20);
    ASSERT_EQ(g.ridges.size(), 2u);
    for (const auto& r : g.ridges) {
        EXPECT_DOUBLE_EQ(r.gflops, 200);
        EXPECT_DOUBLE_EQ(r.intensity, r.level == "L1" ? 0.5 : 10.0); // 200 GFLOP/s over 400 and 20 GB/s
    }
    ASSERT_EQ(g.gemm.size(), 1u);
    // The axes take the point, the ridges and a decade of room, on decade boundaries.
    EXPECT_LT(g.xMin, 0.5);
    EXPECT_GT(g.xMax, 42.0);
    EXPECT_DOUBLE_EQ(std::log10(g.xMin), std::round(std::log10(g.xMin)));
}

TEST(KernelCharts, AProfileAddsItsOwnCeilingsAndRidgesNeverMixOrigins)
{
    RooflineOptions o;
    o.hardware = findHardwareProfile("mi300x");
    const auto g = rooflineGeometry(handMade(), o);
    EXPECT_GT(g.compute.size(), 1u);
    for (const auto& r : g.ridges) {
        const bool measured = r.origin == CeilingOrigin::Measured;
        // A measured ridge lies on a measured roof: 200 GFLOP/s here, far below any MI300X peak.
        EXPECT_EQ(measured, r.gflops == 200) << r.dtype << " " << r.level;
    }
}

TEST(KernelCharts, RooflineChartUsesLogAxesWithUnitsAndAMembwSweepAloneDraws)
{
    RooflineChart chart;
    chart.resize(900, 600);
    chart.setData(handMade());
    const auto axes = chart.chart()->axes();
    ASSERT_EQ(axes.size(), 2);
    for (auto* a : axes) {
        ASSERT_TRUE(qobject_cast<QLogValueAxis*>(a));
        EXPECT_TRUE(a->titleText().contains(QStringLiteral("FLOP/byte")) ||
                    a->titleText().contains(QStringLiteral("GFLOP/s")))
            << a->titleText().toStdString();
    }
    KernelChartData membwOnly;
    membwOnly.sessions.push_back(handMade().sessions[2]);
    chart.setData(membwOnly); // no roof and no point: used to recurse forever in Qt's log domain
    const auto g = chart.geometry();
    EXPECT_TRUE(std::isfinite(g.yMin) && std::isfinite(g.yMax) && g.yMax > g.yMin);
}

// Trace kernels with flops and bytes, and the sizing model's GEMMs, join the roofline as their own
// sources; a second profile brings its own roofs and ridges.
TEST(KernelCharts, TraceKernelsPredictedGemmsAndASecondProfileJoinTheRoofline)
{
    auto data = handMade();
    KernelSession trace;
    trace.session.id = 4;
    trace.session.kind = kind::Trace;
    trace.session.title = "llama step";
    trace.traceKernels = {{0, "gemm_a", KernelClass::Gemm, 2000, 5e14}, {1, "softmax", KernelClass::Other, 1, 2e12}};
    data.sessions.push_back(trace);

    const auto config = model::loadPreset("llama-3-8b");
    model::ParallelConfig p;
    model::parseParallelSpec("dp=8", p);
    const auto mi300x = findHardwareProfile("mi300x");
    RooflineOptions o;
    o.hardware = mi300x;
    o.compareHardware = findHardwareProfile("h100-sxm");
    o.predicted = predictedGemms(config, p, mi300x, model::GemmTiming{});
    const auto g = rooflineGeometry(data, o);

    std::map<PointSource, const GemmScatter*> bySource;
    for (const auto& s : g.gemm)
        bySource[s.source] = &s;
    ASSERT_TRUE(bySource.count(PointSource::Trace) && bySource.count(PointSource::Predicted));
    const auto& t = *bySource[PointSource::Trace];
    ASSERT_EQ(t.points.size(), 2u);
    EXPECT_DOUBLE_EQ(t.points[0].gflops, 5e5); // 5e14 FLOP/s
    EXPECT_DOUBLE_EQ(t.points[0].intensity, 2000);
    EXPECT_NE(describeScatterPoint(t, 0).find("gemm_a"), std::string::npos);

    // One point per distinct GEMM of the step; none above the profile's max-achievable rate (AMD's
    // 708 TFLOP/s BF16), the large ones close under it (efficiency by shape).
    const auto& pr = *bySource[PointSource::Predicted];
    EXPECT_EQ(pr.points.size(), model::stepGemms(config, p).size());
    const double ceilingGflops = mi300x.maxAchievableTflops.at("bf16").value * 1e3;
    int atRoof = 0;
    for (const auto& pt : pr.points) {
        EXPECT_LE(pt.gflops, ceilingGflops * (1 + 1e-9));
        const double m = double(pt.m), n = double(pt.n), k = double(pt.k);
        EXPECT_NEAR(pt.intensity, 2 * m * n * k / (2 * (m * k + k * n + m * n)), 1e-6 * pt.intensity);
        atRoof += pt.gflops > 0.9 * ceilingGflops;
    }
    EXPECT_GT(atRoof, 0);
    EXPECT_EQ(pr.labels.size(), pr.points.size());

    // The second profile's ridges lie on its own roofs.
    std::set<double> h100Roofs;
    for (const auto& c : g.compute)
        if (c.origin == CeilingOrigin::SecondProfile)
            h100Roofs.insert(c.gflops);
    ASSERT_FALSE(h100Roofs.empty());
    int secondRidges = 0;
    for (const auto& r : g.ridges)
        if (r.origin == CeilingOrigin::SecondProfile) {
            ++secondRidges;
            EXPECT_TRUE(std::any_of(h100Roofs.begin(), h100Roofs.end(),
                                    [&](double v) { return std::abs(v - r.gflops) < 1e-9 * v; }));
        }
    EXPECT_GT(secondRidges, 0);

    const auto csv = rooflineCsv(data, o);
    EXPECT_NE(csv.find("\ntrace,4,llama step,"), std::string::npos);
    EXPECT_NE(csv.find("\npredicted,0,"), std::string::npos);
    EXPECT_NE(csv.find("second profile"), std::string::npos);

    // Drawn with one marker shape per source and named by source in the legend.
    RooflineChart chart;
    chart.resize(900, 600);
    chart.setData(data);
    chart.setHardwareProfile(o.hardware);
    chart.setCompareProfile(o.compareHardware);
    chart.setPredictedGemms(o.predicted);
    std::map<QString, QScatterSeries::MarkerShape> shapes;
    for (const auto& [sc, index] : drawnOn<RooflineDrawn>(chart.chart())->gemm) {
        shapes[sc->name().section(QLatin1Char(':'), 0, 0)] = sc->markerShape();
        // Hovering a point names its set and the GEMM under the pointer.
        ASSERT_GT(sc->count(), 0);
        Q_EMIT sc->hovered(sc->at(0), true);
        EXPECT_TRUE(sc->name().endsWith(QStringLiteral(")")));
        EXPECT_FALSE(chart.hoverText().isEmpty()) << sc->name().toStdString();
        Q_EMIT sc->hovered(sc->at(0), false);
        EXPECT_TRUE(chart.hoverText().isEmpty());
    }
    EXPECT_EQ(shapes[QStringLiteral("measured")], QScatterSeries::MarkerShapeCircle);
    EXPECT_EQ(shapes[QStringLiteral("trace kernels")], QScatterSeries::MarkerShapeTriangle);
    EXPECT_EQ(shapes[QStringLiteral("predicted")], QScatterSeries::MarkerShapeStar);
    EXPECT_TRUE(chart.title().contains(QStringLiteral(" and "))) << chart.title().toStdString();
}

// The readout on a device of 4 CUs with 256x256 tiles, N fixed at 512, so every figure is by hand:
// M = 600 -> 3x2 = 6 tiles in 2 waves (6/8) with 600·512/(6·256²) of the tiles useful.
TEST(KernelCharts, NearestFastSizeIsTheHandCheckedOne)
{
    KernelSession s;
    s.session.id = 1;
    s.session.kind = kind::Gemm;
    for (std::int64_t m : {256, 512, 768}) {
        GemmPoint p;
        p.dtype = "float32";
        p.m = m;
        p.n = 512;
        p.k = 512;
        p.gflops = double(m);
        s.gemm.push_back(p);
    }
    auto hw = findHardwareProfile("mi300x");
    hw.computeUnits.value = 4;
    GemmEfficiencyOptions o;
    o.hardware = hw;
    const auto g = gemmEfficiencyGeometry({{s}}, o);
    ASSERT_EQ(g.dim, GemmDim::M);
    const auto r = nearestFastSize(g, 600);
    EXPECT_DOUBLE_EQ(r.predicted, 0.75 * 600.0 * 512 / (6.0 * 65536));
    EXPECT_EQ(r.below, 512); // 2x2 tiles, one full wave
    EXPECT_DOUBLE_EQ(r.belowEfficiency, 1.0);
    // 576..768: 3 row tiles, a wave 3/4 full; 832, 896: 4 row tiles only 81 %, 88 % used; 960: 94 %.
    EXPECT_EQ(r.above, 960);
    EXPECT_DOUBLE_EQ(r.aboveEfficiency, 960.0 / 1024);
    EXPECT_EQ(r.measuredAt, 512);
    EXPECT_DOUBLE_EQ(r.measuredValue, 512);
    const auto text = describeFastSize(r, g);
    EXPECT_NE(text.find("nearest fast: 512 (100 %) / 960 (94 %)"), std::string::npos) << text;

    // On MI300X with M = N moving together nothing between the answer and the asked size is fast.
    KernelSession square = s;
    for (auto& p : square.gemm)
        p.n = p.m;
    GemmEfficiencyOptions mi;
    mi.hardware = findHardwareProfile("mi300x");
    const auto gs = gemmEfficiencyGeometry({{square}}, mi);
    const auto q = nearestFastSize(gs, 5000);
    ASSERT_GT(q.below, 0);
    ASSERT_GT(q.above, 0);
    for (std::int64_t v = q.below + 64; v < q.above; v += 64) {
        const auto w = model::waveQuantization(v, v, 304, {});
        EXPECT_LT(w.efficiency(), 0.9) << v;
    }

    // The widget's tile editor and readout.
    GemmEfficiencyChart chart;
    chart.setData({{s}});
    chart.setHardwareProfile(hw);
    chart.setReadoutValue(600);
    EXPECT_TRUE(chart.readoutText().contains(QStringLiteral("nearest fast: 512"))) << chart.readoutText().toStdString();
    auto* tm = chart.findChild<QSpinBox*>(QStringLiteral("tileM"));
    ASSERT_TRUE(tm);
    tm->setValue(128);
    emit tm->editingFinished();
    EXPECT_EQ(chart.options().tile.tm, 128);
    EXPECT_TRUE(chart.readoutText().contains(QStringLiteral("tiles of 128x256"))) << chart.readoutText().toStdString();

    // Hovering a measured point names it (the frame's hover plumbing over the drawn sweeps).
    const auto* drawn = drawnOn<GemmEfficiencyDrawn>(chart.chart());
    ASSERT_TRUE(drawn);
    ASSERT_FALSE(drawn->sweeps.empty());
    auto* sweep = drawn->sweeps.front();
    ASSERT_GT(sweep->count(), 0);
    Q_EMIT sweep->hovered(sweep->at(0), true);
    EXPECT_TRUE(chart.hoverText().startsWith(sweep->name())) << chart.hoverText().toStdString();
    Q_EMIT sweep->hovered(sweep->at(0), false);
    EXPECT_TRUE(chart.hoverText().isEmpty());
}

// A STREAM run has one working set per kernel and no detected cache levels; it still measured the
// memory bandwidth the roofline's slope needs (issue 9: "no ceilings" with a STREAM run selected).
TEST(KernelCharts, AStreamRunAloneGivesItsTriadBandwidthAsACeiling)
{
    const KernelChartData data{{imported("stream-5.10-2threads.txt", 7)}};
    ASSERT_EQ(data.sessions[0].membw.size(), 4u);
    ASSERT_TRUE(data.sessions[0].memCeilings.empty());
    const auto g = rooflineGeometry(data, {});
    ASSERT_EQ(g.bandwidth.size(), 1u);
    EXPECT_DOUBLE_EQ(g.bandwidth[0].gbs, 41.0069); // Triad: 41006.9 MB/s
    EXPECT_EQ(g.bandwidth[0].label, "STREAM triad (measured): 41.0 GB/s");

    RooflineChart chart;
    chart.resize(900, 600);
    chart.setData(data);
    EXPECT_FALSE(chart.title().contains(QStringLiteral("no ceilings"))) << chart.title().toStdString();
    // A slope without a roof runs to 400 TFLOP/s at the right edge: the title says the roof is missing.
    EXPECT_TRUE(chart.title().contains(QStringLiteral("no compute ceiling: select a peakflops session,")))
        << chart.title().toStdString();
    EXPECT_FALSE(chart.title().contains(QStringLiteral("membw"))) << "the membw session is already there";

    // With nothing that gives a ceiling the GUI names its own control, not the CLI's flag.
    KernelSession gemm = handMade().sessions[0];
    chart.setData({{gemm}});
    EXPECT_TRUE(chart.title().contains(QStringLiteral("no ceilings"))) << chart.title().toStdString();
    EXPECT_TRUE(chart.title().contains(QStringLiteral("Hardware profile"))) << chart.title().toStdString();
    EXPECT_FALSE(chart.title().contains(QStringLiteral("--hardware"))) << chart.title().toStdString();
}

// Single-point curves (a STREAM run: one working set per kernel) are drawn with markers; a line
// through one point draws nothing (issue 10: the first start's empty "Memory bandwidth" chart).
TEST(KernelCharts, MembwCurvesOfOnePointAreVisible)
{
    MemBwChart chart;
    chart.resize(900, 600);
    chart.setData({{imported("stream-5.10-2threads.txt", 7)}});
    int curves = 0;
    QList<QLineSeries*> lines;
    for (auto* line : drawnOn<MemBwDrawn>(chart.chart())->curves) {
        ASSERT_EQ(line->count(), 1);
        EXPECT_TRUE(line->pointsVisible()) << line->name().toStdString();
        EXPECT_GE(line->markerSize(), 6) << line->name().toStdString();
        lines << line;
        ++curves;
    }
    EXPECT_EQ(curves, 4);
    // Copy and scale (and add and triad) share a working set at nearly one bandwidth: the one
    // drawn first has the larger marker, so it shows as a ring around the other.
    const double yRange = static_cast<QValueAxis*>(chart.chart()->axes(Qt::Vertical).front())->max();
    int stacked = 0;
    for (qsizetype i = 0; i < lines.size(); ++i)
        for (qsizetype j = i + 1; j < lines.size(); ++j)
            if (lines[i]->at(0).x() == lines[j]->at(0).x()
                && std::abs(lines[i]->at(0).y() - lines[j]->at(0).y()) < 0.03 * yRange) {
                EXPECT_GE(lines[i]->markerSize(), lines[j]->markerSize() + 4)
                    << lines[i]->name().toStdString() << " hidden under " << lines[j]->name().toStdString();
                ++stacked;
            }
    EXPECT_EQ(stacked, 2);

    // Hovering a curve names its kernel, working set and bandwidth; leaving it hides the callout.
    Q_EMIT lines[0]->hovered(lines[0]->at(0), true);
    EXPECT_TRUE(chart.hoverText().startsWith(lines[0]->name())) << chart.hoverText().toStdString();
    EXPECT_TRUE(chart.hoverText().contains(QStringLiteral("GB/s"))) << chart.hoverText().toStdString();
    Q_EMIT lines[0]->hovered(lines[0]->at(0), false);
    EXPECT_TRUE(chart.hoverText().isEmpty());
}

namespace {
// A dense roofline from real runs: the zen5 membw sweep's levels, a STREAM run whose triad slope
// lies next to its L2 one, a measured fp64 roof and two GPU profiles with all their roofs and ridges.
KernelChartData denseRoofline(RooflineOptions& o)
{
    auto data = handMade();
    data.sessions.erase(data.sessions.begin() + 2); // keep the GEMM and the peak, not the hand-made levels
    data.sessions.push_back(imported("membw-zen5-2cpu-kvm.jsonl", 8));
    data.sessions.push_back(imported("stream-5.10-2threads.txt", 9));
    o.hardware = findHardwareProfile("mi300x");
    o.compareHardware = findHardwareProfile("h100-sxm");
    return data;
}

// The roofline on screen at a size, with the options' profiles.
bool shownAt(RooflineChart& chart, QSize size, const KernelChartData& data, const RooflineOptions& o)
{
    chart.resize(size);
    chart.show();
    if (!QTest::qWaitForWindowExposed(&chart))
        return false;
    chart.setData(data);
    chart.setHardwareProfile(o.hardware);
    chart.setCompareProfile(o.compareHardware);
    return true;
}

// The on-screen box of a label series: Qt centres the text on the point, baseline 3.5 px above it.
QRectF labelBox(QChart* chart, QScatterSeries* s)
{
    const QFontMetricsF fm(s->pointLabelsFont());
    const QPointF at = chart->mapToPosition(s->at(0), s);
    const double w = fm.horizontalAdvance(s->pointLabelsFormat());
    return QRectF(at.x() - w / 2, at.y() - 3.5 - fm.ascent(), w, fm.ascent() + fm.descent());
}
} // namespace

// Issue 9: ridge values were drawn on roof labels and the measured L1/L2/DRAM labels stacked.
// At the GUI's size and at the export size no two labels overlap, and every ceiling is named.
TEST(KernelCharts, RooflineLabelsDoNotOverlap)
{
    RooflineOptions o;
    const auto data = denseRoofline(o);
    const auto g = rooflineGeometry(data, o);
    ASSERT_GE(g.bandwidth.size(), 4u);
    ASSERT_GE(g.compute.size(), 5u);
    for (const QSize size : {QSize(1000, 650), QSize(1200, 800)}) {
        RooflineChart chart;
        ASSERT_TRUE(shownAt(chart, size, data, o));
        // The labels are placed for the plot area the chart has once it laid out its axes.
        ASSERT_TRUE(rl::testing::waitForLayout(chart.chart())) << "the chart never laid out its axes";
        std::vector<std::pair<QString, QRectF>> boxes;
        QStringList names;
        for (auto* s : chart.chart()->series())
            if (auto* sc = qobject_cast<QScatterSeries*>(s); sc && sc->pointLabelsVisible() && sc->count() == 1) {
                boxes.emplace_back(sc->pointLabelsFormat(), labelBox(chart.chart(), sc));
                names << sc->pointLabelsFormat();
            }
        for (const auto& c : g.compute)
            EXPECT_TRUE(names.contains(QString::fromStdString(c.label))) << c.label;
        for (const auto& b : g.bandwidth)
            EXPECT_TRUE(names.contains(QString::fromStdString(b.label))) << b.label;
        const QRectF plot = chart.chart()->plotArea();
        for (std::size_t i = 0; i < boxes.size(); ++i) {
            EXPECT_TRUE(plot.adjusted(-1, -1, 1, 1).contains(boxes[i].second)) << boxes[i].first.toStdString();
            for (std::size_t j = i + 1; j < boxes.size(); ++j)
                EXPECT_FALSE(boxes[i].second.intersects(boxes[j].second))
                    << size.width() << "x" << size.height() << ": '" << boxes[i].first.toStdString() << "' on '"
                    << boxes[j].first.toStdString() << "'";
        }
    }
}

// Issue 9: the y axis printed "1e+07" next to "100000". Every decade tick of both axes is printed
// the same plain way, also when the range reaches petaflops (y) or below 1 FLOP/B (x).
TEST(KernelCharts, RooflineTicksAreOnePlainFormat)
{
    RooflineOptions o;
    const auto data = denseRoofline(o);
    RooflineChart chart;
    chart.resize(1000, 650);
    chart.setData(data);
    chart.setHardwareProfile(o.hardware);
    for (auto* a : chart.chart()->axes()) {
        auto* axis = qobject_cast<QLogValueAxis*>(a);
        ASSERT_TRUE(axis);
        ASSERT_GT(axis->max() / axis->min(), 1e5) << axis->titleText().toStdString(); // a wide range
        const QByteArray format = axis->labelFormat().toLatin1();
        for (double v = axis->min(); v <= axis->max() * 1.0001; v *= 10) {
            const QString tick = QString::asprintf(format.constData(), v);
            EXPECT_FALSE(tick.contains(QLatin1Char('e'))) << tick.toStdString();
            EXPECT_NEAR(tick.toDouble(), v, 1e-9 * v) << tick.toStdString();
        }
    }
    EXPECT_EQ(logTickFormat(1, 1e7), QStringLiteral("%.0f"));
    EXPECT_EQ(logTickFormat(0.01, 1e4), QStringLiteral("%g"));
    EXPECT_EQ(QString::asprintf(logTickFormat(0.001, 1e7).toLatin1().constData(), 1e7), QStringLiteral("10000000.000"));
}

namespace {
// The ridge label series of a populated roofline, with the ridge each one names.
struct RidgeLabel
{
    QScatterSeries* series;
    QPointF ridge; // FLOP/B, GFLOP/s
};
std::vector<RidgeLabel> ridgeLabels(QChart* chart)
{
    std::vector<RidgeLabel> out;
    for (const auto& label : drawnOn<RooflineDrawn>(chart)->labels)
        if (label.kind == RooflineLabel::Ridge)
            out.push_back({label.series, QPointF(label.a, label.c)});
    return out;
}

} // namespace

// Issue 24, item 6: on MI300X's roofline the fp32/fp64 ridge value was drawn twice side by side,
// and the bf16 ridge's value hung under the bf16 roof just above the tf32 one, reading as tf32's.
// Each ridge value is shown once, next to its own marker and above its own roof.
TEST(KernelCharts, EachRidgeValueIsShownOnceAboveItsOwnRoof)
{
    RooflineOptions o;
    o.hardware = findHardwareProfile("mi300x");
    const KernelChartData data{{imported("stream-5.10-2threads.txt", 9)}};
    for (const QSize size : {QSize(1000, 650), QSize(1200, 800)}) {
        RooflineChart chart;
        ASSERT_TRUE(shownAt(chart, size, data, o));
        QApplication::processEvents();
        QChart* c = chart.chart();
        const auto labels = ridgeLabels(c);
        ASSERT_GE(labels.size(), 4u);
        std::set<QString> shown;
        for (const auto& l : labels) {
            if (!l.series->pointLabelsVisible())
                continue;
            EXPECT_TRUE(shown.insert(l.series->pointLabelsFormat()).second)
                << "'" << l.series->pointLabelsFormat().toStdString() << "' twice";
            const QRectF box = labelBox(c, l.series);
            const QPointF own = c->mapToPosition(l.ridge, l.series);
            EXPECT_LE(box.bottom(), own.y()) << l.series->pointLabelsFormat().toStdString() << " hangs below its roof";
            const auto gap = [&](QPointF p) {
                const double dx = std::max({box.left() - p.x(), 0.0, p.x() - box.right()});
                const double dy = std::max({box.top() - p.y(), 0.0, p.y() - box.bottom()});
                return std::hypot(dx, dy);
            };
            for (const auto& other : labels) {
                if (other.ridge != l.ridge) {
                    EXPECT_LT(gap(own), gap(c->mapToPosition(other.ridge, l.series)))
                        << l.series->pointLabelsFormat().toStdString() << " is nearer another ridge";
                }
            }
        }
        EXPECT_GE(shown.size(), 3u) << "most ridge values have room at " << size.width() << "x" << size.height();
    }
}

// Issue 24, item 5: in the dark theme the measured compute roof (drawn near-black) vanished on the
// dark plot, and the minor grid struck through every label. Each ceiling, marker and label stands
// out from the plot in both themes, and the minor grid stays quieter than the major one.
TEST(KernelCharts, CeilingsAndLabelsStandOutInTheDarkTheme)
{
    RooflineOptions o;
    const auto data = denseRoofline(o);
    for (const bool dark : {false, true}) {
        RooflineChart chart;
        chart.resize(1000, 650);
        if (dark)
            chart.setPalette(rl::testing::darkPalette());
        chart.setData(data);
        chart.setHardwareProfile(o.hardware);
        QChart* c = chart.chart();
        const QColor back = c->backgroundBrush().color();
        ASSERT_EQ(back.lightness() < 128, dark);
        const auto standsOut = [&](QColor color) { return std::abs(color.lightness() - back.lightness()) >= 60; };
        int roofs = 0;
        for (auto* s : c->series()) {
            if (auto* line = qobject_cast<QLineSeries*>(s); line && !qobject_cast<QScatterSeries*>(s)) {
                ++roofs;
                EXPECT_TRUE(standsOut(line->pen().color()))
                    << (dark ? "dark: " : "light: ") << line->name().toStdString() << " "
                    << line->pen().color().name().toStdString() << " on " << back.name().toStdString();
            } else if (auto* sc = qobject_cast<QScatterSeries*>(s); sc && sc->pointLabelsVisible()) {
                EXPECT_TRUE(standsOut(sc->pointLabelsColor())) << sc->pointLabelsFormat().toStdString();
            } else if (sc && sc->name() == QStringLiteral("Ridge points")) { // the marker
                EXPECT_TRUE(standsOut(sc->borderColor()));
            }
        }
        EXPECT_GE(roofs, 8);
        for (auto* axis : c->axes()) {
            const int minor = std::abs(axis->minorGridLinePen().color().lightness() - back.lightness());
            const int major = std::abs(axis->gridLinePen().color().lightness() - back.lightness());
            EXPECT_LT(minor, major) << (dark ? "dark: " : "light: ") << axis->titleText().toStdString();
        }
    }
}

// An exported roofline is drawn on a fresh chart whose light theme paints a gradient: the ridge
// markers take the plot's colour from its first stop (white), not the gradient brush's black.
TEST(KernelCharts, ExportedRidgeMarkersAreHollow)
{
    RooflineOptions o;
    o.hardware = findHardwareProfile("mi300x");
    QChart chart;
    RooflineChart::populate(&chart, KernelChartData{{imported("stream-5.10-2threads.txt", 9)}}, o);
    QScatterSeries* ridges = nullptr;
    for (auto* s : chart.series())
        if (s->name() == QStringLiteral("Ridge points"))
            ridges = qobject_cast<QScatterSeries*>(s);
    ASSERT_TRUE(ridges);
    EXPECT_GT(ridges->color().lightness(), 200) << ridges->color().name().toStdString();
}
