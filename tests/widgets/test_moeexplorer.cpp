// The MoE explorer: the scatter on a small hand-checked sweep (Pareto front, bands, axes, hover),
// and a real sweep of a preset run in the background through the explorer with its progress.
#include <QChart>
#include <QChartView>
#include <QTest>
#include <QComboBox>
#include <QFile>
#include <QLegendMarker>
#include <QLineEdit>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPushButton>
#include <QSpinBox>
#include <QScatterSeries>
#include <QLabel>
#include <QSignalSpy>
#include <QToolTip>
#include <QApplication>
#include <QHelpEvent>
#include <QValueAxis>
#include <QProgressBar>

#include <fstream>
#include <set>

#include "gui/sizing/configeditor.h"
#include "jobtracker.h"
#include "model/calibration.h"
#include "model/hardwareprofileloader.h"
#include "plan/layout.h"
#include "plan/shapesearch.h"
#include "gui/sizing/moeexplorer.h"
#include "moescatterchart.h"
#include "callout.h"
#include "pointcloud.h"
#include "tempdir.h"
#include "test_gui_env.h"
#include "units/units.h"
#include "units/memory.h"

using rl::charts::MoeScatterChart;
using rl::model::MoeSweepRow;

namespace {
MoeSweepRow row(int experts, int topK, double tokensPerS, double decodeMs, double params, double memGiB)
{
    MoeSweepRow r;
    r.experts = experts;
    r.topK = topK;
    r.expertWidth = 1024;
    r.tokensPerSecond = tokensPerS;
    r.mfu = tokensPerS / 1e6;
    r.decodeSecondsPerToken = decodeMs / 1e3;
    r.totalParams = params;
    r.activeParams = params / 8;
    r.memoryPerGpuBytes = memGiB * (1 << 30);
    return r;
}

// Five configurations; by hand: (10 ms, 100k) and (2 ms, 60k) and (1 ms, 20k) are not dominated,
// (5 ms, 50k) is beaten by (2 ms, 60k) and (20 ms, 90k) by (10 ms, 100k).
std::vector<MoeSweepRow> handChecked()
{
    std::vector<MoeSweepRow> rows{row(8, 1, 20e3, 1, 1e9, 10), row(16, 2, 60e3, 2, 5e9, 20),
                                  row(32, 2, 50e3, 5, 9e9, 40), row(64, 4, 100e3, 10, 20e9, 60),
                                  row(128, 8, 90e3, 20, 40e9, 80)};
    rl::model::markParetoFront(rows);
    return rows;
}

QLineSeries* front(QChart* chart)
{
    for (auto* s : chart->series())
        if (auto* l = qobject_cast<QLineSeries*>(s); l && s->type() == QAbstractSeries::SeriesTypeLine)
            return l;
    return nullptr;
}
} // namespace

TEST(MoeScatter, ParetoFrontIsTheHandCheckedOneInLatencyOrder)
{
    MoeScatterChart chart;
    chart.resize(900, 600);
    chart.setRows(handChecked());
    ASSERT_EQ(chart.paretoOrder().size(), 3u);
    auto* line = front(chart.chart());
    ASSERT_TRUE(line);
    const auto pts = line->points();
    ASSERT_EQ(pts.size(), 3);
    EXPECT_DOUBLE_EQ(pts[0].x(), 1.0); // ms
    EXPECT_DOUBLE_EQ(pts[1].x(), 2.0);
    EXPECT_DOUBLE_EQ(pts[2].x(), 10.0);
    EXPECT_DOUBLE_EQ(pts[2].y(), 100e3);
    EXPECT_TRUE(line->name().contains(QStringLiteral("3 configs")));
}

TEST(MoeScatter, EveryRowIsDrawnOnceWithUnitsOnLogLatencyAxis)
{
    MoeScatterChart chart;
    chart.resize(900, 600);
    chart.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&chart));
    // Before a sweep: what will be here, not empty axes.
    auto* empty = chart.findChild<QLabel*>(QStringLiteral("chartEmptyState"));
    ASSERT_TRUE(empty);
    EXPECT_TRUE(empty->isVisible());
    EXPECT_TRUE(empty->text().contains(QStringLiteral("run a sweep")));
    EXPECT_FALSE(chart.view()->isVisible());
    chart.setRows(handChecked());
    EXPECT_FALSE(empty->isVisible());
    EXPECT_TRUE(chart.view()->isVisible());
    // The legend shows its new markers when it lays them out, on a posted event.
    ASSERT_TRUE(rl::testing::waitForLayout(chart.chart())) << "the chart never laid out its legend";
    int legendEntries = 0;
    for (auto* s : chart.chart()->series())
        if (auto* sc = qobject_cast<QScatterSeries*>(s)) {
            EXPECT_EQ(sc->count(), 0) << "the points are painted by the point cloud, not per-point items";
            for (auto* m : chart.chart()->legend()->markers(sc))
                legendEntries += m->isVisible();
        }
    auto* cloud = rl::charts::PointCloud::of(chart.chart());
    ASSERT_TRUE(cloud);
    ASSERT_EQ(cloud->points().size(), 5u);
    EXPECT_DOUBLE_EQ(cloud->points()[3].value.x(), 10.0); // row order, latency in ms
    EXPECT_DOUBLE_EQ(cloud->points()[3].value.y(), 100e3);
    EXPECT_NE(cloud->points()[0].style, cloud->points()[4].style); // smallest and largest model differ
    EXPECT_EQ(legendEntries, 5); // one per colour band of total parameters
    // 1 .. 20 ms spans more than a decade: log axis.
    auto* x = qobject_cast<QLogValueAxis*>(chart.chart()->axes(Qt::Horizontal).value(0));
    ASSERT_TRUE(x);
    EXPECT_TRUE(x->titleText().contains(QStringLiteral("(ms)")));
    EXPECT_LE(x->min(), 1.0);
    EXPECT_GE(x->max(), 20.0);
    auto* y = qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Vertical).value(0));
    ASSERT_TRUE(y);
    EXPECT_TRUE(y->titleText().contains(QStringLiteral("tokens/s")));
    chart.setThroughput(rl::charts::MoeThroughput::Mfu);
    y = qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Vertical).value(0));
    EXPECT_TRUE(y->titleText().contains(QStringLiteral("MFU (%)")));
    EXPECT_DOUBLE_EQ(front(chart.chart())->points().back().y(), 10.0); // 100k tokens/s -> 10 % here

    auto narrow = handChecked();
    for (auto& r : narrow)
        r.decodeSecondsPerToken = 0.010 + r.decodeSecondsPerToken / 1000; // 10.001 .. 10.02 ms
    chart.setRows(narrow);
    auto* linear = qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Horizontal).value(0));
    ASSERT_TRUE(linear) << "a sweep within one decade gets a linear latency axis";
    EXPECT_LT(linear->min(), 10.001);
    EXPECT_GT(linear->max(), 10.02);

    // Two distinct sizes in five rows: quantile bands repeat an edge, and only the bands that hold a
    // point get a legend entry.
    auto twoSizes = handChecked();
    for (std::size_t i = 0; i < twoSizes.size(); ++i)
        twoSizes[i].totalParams = i < 3 ? 8e9 : 16e9;
    chart.setRows(twoSizes);
    ASSERT_TRUE(rl::testing::waitForLayout(chart.chart()));
    QStringList shown;
    for (auto* s : chart.chart()->series())
        if (auto* sc = qobject_cast<QScatterSeries*>(s); sc && sc->name().endsWith(QStringLiteral("params")))
            for (auto* m : chart.chart()->legend()->markers(sc))
                if (m->isVisible())
                    shown << sc->name();
    EXPECT_EQ(shown.size(), 2) << shown.join(QStringLiteral(" | ")).toStdString();
    EXPECT_EQ(shown.removeDuplicates(), 0) << "no band named twice";
}

TEST(MoeScatter, HoverAndClickOnThePointUnderThePointer)
{
    MoeScatterChart chart;
    chart.resize(900, 600);
    chart.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&chart));
    chart.setRows(handChecked());
    // The pointer goes where the points are once the chart has laid out its new axes.
    ASSERT_TRUE(rl::testing::waitForLayout(chart.chart())) << "the chart never laid out its axes";
    QSignalSpy clicked(&chart, &MoeScatterChart::configClicked);
    auto* cloud = rl::charts::PointCloud::of(chart.chart());
    ASSERT_TRUE(cloud);
    // The real pointer path: chart position -> scene -> viewport pixels.
    const auto viewportPos = [&](std::size_t i) {
        return chart.view()->mapFromScene(chart.chart()->mapToScene(cloud->positionOf(i)));
    };
    QTest::mouseMove(chart.view()->viewport(), viewportPos(3));
    EXPECT_TRUE(chart.hoverText().contains(QStringLiteral("64 experts, top-4"))) << chart.hoverText().toStdString();
    QTest::mouseClick(chart.view()->viewport(), Qt::LeftButton, {}, viewportPos(3));
    ASSERT_EQ(clicked.size(), 1);
    EXPECT_EQ(clicked.first().first().value<MoeSweepRow>().experts, 64);
    // Off every point: no hover text, and a click selects nothing.
    const QPoint empty = viewportPos(3) + QPoint(0, 60);
    QTest::mouseMove(chart.view()->viewport(), empty);
    EXPECT_TRUE(chart.hoverText().isEmpty());
    QTest::mouseClick(chart.view()->viewport(), Qt::LeftButton, {}, empty);
    EXPECT_EQ(clicked.size(), 1);
}

TEST(MoeExplorer, SweepsAPresetInTheBackgroundAndExportsCsv)
{
    rl::MoeExplorer explorer;
    explorer.resize(1000, 700);
    QSignalSpy done(&explorer, &rl::MoeExplorer::sweepFinished);
    QSignalSpy failed(&explorer, &rl::MoeExplorer::sweepFailed);
    explorer.runSweep();
    EXPECT_TRUE(explorer.isRunning() || !done.isEmpty());
    ASSERT_TRUE(rl::testing::waitFor([&] { return !done.isEmpty() || !failed.isEmpty(); }, 60000));
    ASSERT_TRUE(failed.isEmpty()) << failed.first().first().toString().toStdString();
    const int n = done.first().first().toInt();
    EXPECT_GT(n, 20); // experts x top-k x shared, minus what cannot hold the base value
    EXPECT_EQ(explorer.result().rows.size(), static_cast<size_t>(n));
    EXPECT_FALSE(explorer.chart()->paretoOrder().empty());
    // ZeRO 1 as the CLI's default, so memory per GPU matches `ridgeline-cli moe-sweep`; mixtral's
    // wider configurations need more than the MI300X's 192 GiB and are off the front.
    EXPECT_DOUBLE_EQ(explorer.result().deviceMemoryBytes, 206.142e9); // as rocminfo reports it
    for (const auto& r : explorer.result().rows)
        EXPECT_FALSE(r.pareto && !r.fits) << r.experts << "x" << r.topK;
    if (!qgetenv("RIDGELINE_TEST_SCREENSHOT_DIR").isEmpty()) {
        explorer.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&explorer));
        rl::testing::shoot(&explorer, "moe-explorer.png"); // once its chart has laid out the sweep
    }

    // A clicked point goes to the config editor as the base model with the swept fields replaced.
    QSignalSpy chosen(&explorer, &rl::MoeExplorer::configChosen);
    const auto& pick = explorer.result().rows[explorer.chart()->paretoOrder().front()];
    emit explorer.chart()->configClicked(pick);
    auto* open = explorer.findChild<QPushButton*>(QStringLiteral("moeOpen"));
    ASSERT_TRUE(open && open->isEnabled());
    open->click();
    ASSERT_EQ(chosen.size(), 1);
    const auto config = chosen.first().first().value<rl::model::ModelConfig>();
    EXPECT_EQ(config.moe.experts, pick.experts);
    EXPECT_EQ(config.moe.topK, pick.topK);
    EXPECT_EQ(config.moe.expertWidth, pick.expertWidth);
    EXPECT_EQ(config.layers, rl::model::loadPreset("mixtral-8x7b").layers);
    // With what it was sized with, so the config editor shows the point's own figures.
    const auto recipe = chosen.first().at(1).value<rl::model::ParallelConfig>();
    EXPECT_EQ(recipe.zeroStage, 1);
    EXPECT_EQ(recipe.dtype, "bf16");
    EXPECT_EQ(chosen.first().at(2).toString(), QStringLiteral("dp=8,ep=8"));
    EXPECT_EQ(chosen.first().at(3).toString(), QStringLiteral("mi300x"));
    rl::ConfigEditor editor;
    editor.loadSized(config, recipe, chosen.first().at(2).toString(), chosen.first().at(3).toString(),
                     chosen.first().at(4).toString());
    ASSERT_TRUE(rl::testing::waitFor([&] { return editor.report().has_value(); }, 5000)) << editor.problem().toStdString();
    EXPECT_NEAR(editor.report()->step.stepSeconds, pick.stepSeconds, 1e-9 * pick.stepSeconds);
    EXPECT_NEAR(editor.report()->step.memory.total(), pick.memoryPerGpuBytes, 1e-9 * pick.memoryPerGpuBytes);

    rl::test::TempDir dir;
    const QString csv = dir.filePath(QStringLiteral("sweep.csv"));
    EXPECT_EQ(explorer.exportTo(csv), QString());
    std::ifstream in(csv.toStdString());
    std::string line;
    int lines = 0;
    while (std::getline(in, line))
        lines += !line.empty();
    EXPECT_EQ(lines, n + 1); // header + one row per configuration

    const QString svg = dir.filePath(QStringLiteral("sweep.svg"));
    ASSERT_EQ(explorer.exportTo(svg), QString());
    QFile f(svg);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    const QByteArray text = f.readAll();
    EXPECT_TRUE(text.contains("<svg"));
    EXPECT_TRUE(text.contains("Decode latency per token (ms)"));
    EXPECT_TRUE(text.contains("Pareto front"));
    EXPECT_FALSE(explorer.exportTo(dir.filePath(QStringLiteral("sweep.bmpx"))).isEmpty());
}

// Issue 24: the form above the chart was taller than a 1280x720 screen: the chart's x axis lay below
// the screen's edge and the window could not be made smaller. In both layout modes the window fits
// such a screen less its frame (sizeOnScreen's 16 x 48 px), with the whole chart and Run in sight.
TEST(MoeExplorer, FitsASmallScreenWithTheWholeChartInSight)
{
    const QSize room = QSize(1280, 720) - QSize(16, 48);
    rl::MoeExplorer explorer;
    for (const auto mode : {rl::MoeExplorer::LayoutMode::BestPerShape, rl::MoeExplorer::LayoutMode::Fixed}) {
        explorer.setLayoutMode(mode); // best per shape has three more rows
        const QSize least = explorer.minimumSizeHint();
        EXPECT_LE(least.width(), room.width()) << "layout mode " << int(mode);
        EXPECT_LE(least.height(), room.height()) << "layout mode " << int(mode);
    }
    explorer.findChild<QLineEdit*>(QStringLiteral("moeExperts"))->setText(QStringLiteral("8,16,32"));
    explorer.findChild<QLineEdit*>(QStringLiteral("moeTopK"))->setText(QStringLiteral("1,2"));
    explorer.resize(room);
    explorer.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&explorer));
    EXPECT_EQ(explorer.size(), room) << "the window is no larger than the screen has room for";
    QSignalSpy done(&explorer, &rl::MoeExplorer::sweepFinished);
    QSignalSpy failed(&explorer, &rl::MoeExplorer::sweepFailed);
    explorer.runSweep();
    ASSERT_TRUE(rl::testing::waitFor([&] { return !done.isEmpty() || !failed.isEmpty(); }, 60000));
    ASSERT_TRUE(failed.isEmpty()) << failed.first().first().toString().toStdString();
    ASSERT_TRUE(rl::testing::waitForChartsLaidOut(&explorer));

    const auto onWindow = [&](const QWidget* w) { return QRect(w->mapTo(&explorer, QPoint(0, 0)), w->size()); };
    auto* view = explorer.chart()->view();
    EXPECT_TRUE(explorer.rect().contains(onWindow(view))) << "the chart, its x axis included, is inside the window";
    const QRectF plot = explorer.chart()->chart()->plotArea();
    EXPECT_GE(plot.height(), 300) << "a plot area tall enough to tell the points apart";
    EXPECT_GE(plot.width(), 300);
    auto* run = explorer.findChild<QPushButton*>(QStringLiteral("moeRun"));
    ASSERT_TRUE(run);
    EXPECT_TRUE(explorer.rect().contains(onWindow(run))) << "Run is in sight with the form at its top";
    EXPECT_FALSE(run->visibleRegion().isEmpty());
    auto* status = explorer.findChild<QLabel*>(QStringLiteral("moeStatus"));
    ASSERT_TRUE(status);
    EXPECT_GE(status->height(), status->heightForWidth(status->width())) << "the status's lines are cut";
    rl::testing::shoot(&explorer, "moe-explorer-1280x720.png");
}

// Holding nothing makes expert width a fourth swept axis; the axes are typed as lists or ranges.
TEST(MoeExplorer, HoldingNothingSweepsTheTypedExpertWidths)
{
    rl::MoeExplorer explorer;
    auto* hold = explorer.findChild<QComboBox*>(QStringLiteral("moeHold"));
    auto* widths = explorer.findChild<QLineEdit*>(QStringLiteral("moeWidths"));
    auto* experts = explorer.findChild<QLineEdit*>(QStringLiteral("moeExperts"));
    auto* topK = explorer.findChild<QLineEdit*>(QStringLiteral("moeTopK"));
    auto* shared = explorer.findChild<QLineEdit*>(QStringLiteral("moeShared"));
    ASSERT_TRUE(hold && widths && experts && topK && shared);
    EXPECT_FALSE(widths->isEnabled()); // only meaningful when nothing is held
    hold->setCurrentIndex(hold->findData(int(rl::model::SweepHold::None)));
    EXPECT_TRUE(widths->isEnabled());
    experts->setText(QStringLiteral("8,16"));
    topK->setText(QStringLiteral("1:2"));
    shared->setText(QStringLiteral("0"));
    widths->setText(QStringLiteral("1024:4096:1024"));

    QSignalSpy done(&explorer, &rl::MoeExplorer::sweepFinished);
    QSignalSpy failed(&explorer, &rl::MoeExplorer::sweepFailed);
    explorer.runSweep();
    ASSERT_TRUE(rl::testing::waitFor([&] { return !done.isEmpty() || !failed.isEmpty(); }, 60000));
    ASSERT_TRUE(failed.isEmpty()) << failed.first().first().toString().toStdString();
    const auto& rows = explorer.result().rows;
    ASSERT_EQ(rows.size(), 2u * 2u * 4u);
    std::set<int> seen;
    for (const auto& r : rows)
        seen.insert(r.expertWidth);
    EXPECT_EQ(seen, (std::set<int>{1024, 2048, 3072, 4096}));

    // A typo is named in the status line and nothing runs.
    widths->setText(QStringLiteral("1024:x"));
    explorer.runSweep();
    ASSERT_EQ(failed.size(), 1);
    EXPECT_TRUE(failed.first().first().toString().contains(QStringLiteral("expert width")));
    EXPECT_FALSE(explorer.isRunning());
    EXPECT_EQ(explorer.result().rows.size(), 16u); // the last good sweep stays on screen

    // A layout that cannot be laid out (ep=3 over dp=8) fails in the job with the reason
    // model::parallelLayout gives the CLI too.
    widths->setText(QStringLiteral("1024"));
    auto* parallel = explorer.findChild<QLineEdit*>(QStringLiteral("moeParallel"));
    ASSERT_TRUE(parallel);
    parallel->setText(QStringLiteral("dp=8,ep=3"));
    explorer.runSweep();
    ASSERT_TRUE(rl::testing::waitFor([&] { return failed.size() == 2 || done.size() == 2; }, 60000));
    ASSERT_EQ(failed.size(), 2);
    const QString why = failed.last().first().toString();
    EXPECT_TRUE(why.startsWith(QStringLiteral("parallel layout:"))) << why.toStdString();
    EXPECT_TRUE(why.contains(QStringLiteral("ep=3 does not divide dp=8"))) << why.toStdString();

    // The GEMM dtype reaches the sweep: the same configurations in FP8 step faster than in BF16.
    parallel->setText(QStringLiteral("dp=8,ep=8"));
    explorer.runSweep();
    ASSERT_TRUE(rl::testing::waitFor([&] { return done.size() == 2 || failed.size() == 3; }, 60000));
    ASSERT_EQ(done.size(), 2);
    const auto bf16 = explorer.result().rows;
    auto* dtype = explorer.findChild<QComboBox*>(QStringLiteral("moeDtype"));
    ASSERT_TRUE(dtype);
    dtype->setCurrentText(QStringLiteral("fp8"));
    explorer.runSweep();
    ASSERT_TRUE(rl::testing::waitFor([&] { return done.size() == 3 || failed.size() == 3; }, 60000));
    ASSERT_EQ(done.size(), 3) << failed.last().first().toString().toStdString();
    const auto& fp8 = explorer.result().rows;
    ASSERT_EQ(fp8.size(), bf16.size());
    for (std::size_t i = 0; i < fp8.size(); ++i)
        EXPECT_LT(fp8[i].stepSeconds, bf16[i].stepSeconds) << i;

    // So does the rest of the recipe: full recompute runs each layer's forward twice, and with 8
    // micro-batches a step carries 8 times the tokens.
    const auto fp8Rows = fp8;
    auto* recompute = explorer.findChild<QComboBox*>(QStringLiteral("moeRecompute"));
    auto* microBatches = explorer.findChild<QSpinBox*>(QStringLiteral("moeMicroBatches"));
    ASSERT_TRUE(recompute && microBatches);
    recompute->setCurrentText(QStringLiteral("full"));
    microBatches->setValue(8);
    explorer.runSweep();
    ASSERT_TRUE(rl::testing::waitFor([&] { return done.size() == 4 || failed.size() == 3; }, 60000));
    ASSERT_EQ(done.size(), 4) << failed.last().first().toString().toStdString();
    const auto& recomputed = explorer.result().rows;
    ASSERT_EQ(recomputed.size(), fp8Rows.size());
    for (std::size_t i = 0; i < recomputed.size(); ++i) {
        EXPECT_GT(recomputed[i].stepSeconds, 8 * fp8Rows[i].stepSeconds) << i;
        EXPECT_LT(recomputed[i].tokensPerSecond, fp8Rows[i].tokensPerSecond) << i;
    }
}

namespace {
rl::charts::Callout* calloutOf(QChart* chart)
{
    for (QGraphicsItem* item : chart->childItems())
        if (auto* c = dynamic_cast<rl::charts::Callout*>(item))
            return c;
    return nullptr;
}
} // namespace

// A configuration needing more memory per GPU than the device has cannot run: it is drawn in its
// own style, its hover says so in the device's unit, and it is off the Pareto front even when it
// would dominate everything else.
TEST(MoeScatter, ConfigurationsThatDoNotFitAreMarkedAndOffTheFront)
{
    auto rows = handChecked();
    rows.push_back(row(256, 8, 200e3, 0.5, 80e9, 222)); // fastest, lowest latency, 222 GiB per GPU
    rows.back().fits = false;
    rl::model::markParetoFront(rows);
    EXPECT_FALSE(rows.back().pareto);
    MoeScatterChart chart;
    chart.resize(900, 600);
    chart.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&chart));
    chart.setRows(rows, 192.0 * (1ull << 30)); // an MI300X: 192 GiB
    ASSERT_TRUE(rl::testing::waitForLayout(chart.chart())) << "the chart never laid out its axes";
    EXPECT_EQ(chart.paretoOrder().size(), 3u); // the hand-checked front; the misfit is not on it
    auto* cloud = rl::charts::PointCloud::of(chart.chart());
    ASSERT_TRUE(cloud);
    std::set<int> fitting;
    for (std::size_t i = 0; i + 1 < rows.size(); ++i)
        fitting.insert(cloud->points()[i].style);
    EXPECT_FALSE(fitting.count(cloud->points().back().style)) << "a misfit shares no style with fitting points";
    bool legend = false;
    for (auto* s : chart.chart()->series())
        legend = legend || s->name().startsWith(QStringLiteral("does not fit 192 GiB per GPU"));
    EXPECT_TRUE(legend);

    const auto viewportPos = [&](std::size_t i) {
        return chart.view()->mapFromScene(chart.chart()->mapToScene(cloud->positionOf(i)));
    };
    QTest::mouseMove(chart.view()->viewport(), viewportPos(rows.size() - 1));
    const QString needed = QString::fromStdString(rl::units::formatMemory(222.0 * (1 << 30)));
    EXPECT_TRUE(chart.hoverText().contains(QStringLiteral("does not fit: ") + needed + QStringLiteral(" needed, 182.1 GiB usable of 192 GiB")))
        << chart.hoverText().toStdString();
    EXPECT_TRUE(chart.hoverText().contains(needed + QStringLiteral(" per GPU"))) << "memory in GiB, as the device reports it";
    EXPECT_FALSE(chart.hoverText().contains(QStringLiteral(" GB"))) << chart.hoverText().toStdString();
}

// The hover label of every point stays inside the plot area (it flips to the other side of the
// point near an edge), and while it is up the view's own tooltip does not open over it.
TEST(MoeScatter, OneHoverLabelAtATimeInsideThePlotArea)
{
    MoeScatterChart chart;
    chart.resize(900, 600);
    chart.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&chart));
    chart.setRows(handChecked(), 192e9);
    // The plot area and the points' positions are those of the new rows once the chart laid them out.
    ASSERT_TRUE(rl::testing::waitForLayout(chart.chart())) << "the chart never laid out its axes";
    auto* cloud = rl::charts::PointCloud::of(chart.chart());
    auto* callout = calloutOf(chart.chart());
    ASSERT_TRUE(cloud && callout);
    const QRectF area = chart.chart()->plotArea();
    for (std::size_t i = 0; i < cloud->points().size(); ++i) {
        const QPoint at = chart.view()->mapFromScene(chart.chart()->mapToScene(cloud->positionOf(i)));
        QTest::mouseMove(chart.view()->viewport(), at);
        ASSERT_FALSE(chart.hoverText().isEmpty()) << "point " << i;
        const QRectF box = callout->box();
        EXPECT_TRUE(area.adjusted(-0.5, -0.5, 0.5, 0.5).contains(box))
            << "point " << i << ": label at " << box.x() << "," << box.y() << " " << box.width() << "x" << box.height()
            << " outside the plot area " << area.x() << "," << area.y() << " " << area.width() << "x" << area.height();
        if (const QByteArray dir = qgetenv("RIDGELINE_TEST_SCREENSHOT_DIR"); !dir.isEmpty() && i == 0)
            chart.grab().save(QString::fromLocal8Bit(dir) + QStringLiteral("/moe-hover-left.png"));
        // The view's "drag to zoom" tooltip is due now; with the callout up it must not show.
        QHelpEvent help(QEvent::ToolTip, at, chart.view()->viewport()->mapToGlobal(at));
        QApplication::sendEvent(chart.view()->viewport(), &help);
        EXPECT_FALSE(QToolTip::isVisible()) << "point " << i << ": tooltip " << QToolTip::text().toStdString();
        QToolTip::hideText();
    }
    // Off the points the callout goes, and the view's tooltip may help again.
    QTest::mouseMove(chart.view()->viewport(), QPoint(5, 5));
    EXPECT_TRUE(chart.hoverText().isEmpty());
}

// ---- Layout: best per shape on a cluster (plan::runShapeSearch, as moe-sweep --best-layout) ----
namespace {
constexpr char kSmallFix[] = "cp=1,pp=1,micro-batch=1,zero=1";

struct BestLayoutCase
{
    const char* model;
    const char* hardware;
    int gpus, globalBatch;
    const char* experts;
    const char* topK;
    const char* shared;
    const char* fix;
};

// Types a case into the explorer's fields, as a user would.
void enter(rl::MoeExplorer& explorer, const BestLayoutCase& c)
{
    explorer.findChild<QComboBox*>(QStringLiteral("moeModel"))->setCurrentText(QLatin1String(c.model));
    explorer.findChild<QComboBox*>(QStringLiteral("moeHardware"))->setCurrentText(QLatin1String(c.hardware));
    auto* mode = explorer.findChild<QComboBox*>(QStringLiteral("moeLayoutMode"));
    mode->setCurrentIndex(mode->findData(int(rl::MoeExplorer::LayoutMode::BestPerShape)));
    explorer.findChild<QSpinBox*>(QStringLiteral("moeGpus"))->setValue(c.gpus);
    explorer.findChild<QSpinBox*>(QStringLiteral("moeGlobalBatch"))->setValue(c.globalBatch);
    explorer.findChild<QLineEdit*>(QStringLiteral("moeExperts"))->setText(QLatin1String(c.experts));
    explorer.findChild<QLineEdit*>(QStringLiteral("moeTopK"))->setText(QLatin1String(c.topK));
    explorer.findChild<QLineEdit*>(QStringLiteral("moeShared"))->setText(QLatin1String(c.shared));
    explorer.findChild<QLineEdit*>(QStringLiteral("moeFix"))->setText(QLatin1String(c.fix));
}

// The request ridgeline-cli moe-sweep CONFIG --hardware H --best-layout --gpus N --global-batch B
// --experts .. --top-k .. --shared .. --fix .. builds (runBestLayoutSweep), with its defaults.
rl::plan::ShapeSearchRequest cliRequest(const BestLayoutCase& c, const rl::HardwareProfile& hw)
{
    rl::plan::ShapeSearchRequest req;
    req.sweep.base = rl::model::loadPreset(c.model);
    req.sweep.experts = rl::model::parseSweepValues(c.experts, "experts");
    req.sweep.topK = rl::model::parseSweepValues(c.topK, "top-k");
    req.sweep.sharedExperts = rl::model::parseSweepValues(c.shared, "shared");
    req.sweep.hold = rl::model::SweepHold::ActiveParams;
    req.sweep.decode.batch = 1;
    req.sweep.decode.contextTokens = 4096;
    req.sweep.decode.tp = 1;
    req.sweep.parallel.dtype = "bf16";
    req.plan.base.hardware = hw;
    req.plan.cluster = {c.gpus, hw.gpusPerNode, c.globalBatch, 4096};
    req.fix = c.fix;
    return req;
}
} // namespace

TEST(MoeExplorer, BestPerShapeGivesTheShapeSearchsRowsBaseAndVerdict)
{
    const BestLayoutCase c{"olmoe-1b-7b", "h100-sxm", 64, 256, "16,64", "2,8", "0", kSmallFix};
    rl::MoeExplorer explorer;
    explorer.resize(1400, 900);
    explorer.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&explorer));
    auto* parallel = explorer.findChild<QLineEdit*>(QStringLiteral("moeParallel"));
    auto* gpus = explorer.findChild<QSpinBox*>(QStringLiteral("moeGpus"));
    auto* perNode = explorer.findChild<QSpinBox*>(QStringLiteral("moeGpusPerNode"));
    ASSERT_TRUE(parallel && gpus && perNode);
    EXPECT_TRUE(parallel->isVisible());
    EXPECT_FALSE(gpus->isVisible()); // fixed layout: no cluster
    enter(explorer, c);
    EXPECT_FALSE(parallel->isVisible()) << "the fixed layout is the search's in this mode";
    EXPECT_TRUE(gpus->isVisible());
    EXPECT_TRUE(perNode->isVisible());
    EXPECT_EQ(perNode->value(), 0);
    EXPECT_EQ(perNode->specialValueText(), QStringLiteral("profile's (8 GPUs)"));

    QSignalSpy done(&explorer, &rl::MoeExplorer::sweepFinished);
    QSignalSpy failed(&explorer, &rl::MoeExplorer::sweepFailed);
    explorer.runSweep();
    EXPECT_TRUE(explorer.isRunning());
    ASSERT_TRUE(rl::testing::waitFor([&] { return !done.isEmpty() || !failed.isEmpty(); }, 120000));
    ASSERT_TRUE(failed.isEmpty()) << failed.first().first().toString().toStdString();

    const auto hw = rl::findHardwareProfile(c.hardware);
    const auto direct = rl::plan::runShapeSearch(cliRequest(c, hw), rl::model::Calibration{});
    ASSERT_TRUE(explorer.shapeResult().has_value());
    const auto& shown = *explorer.shapeResult();
    ASSERT_EQ(shown.rows.size(), direct.rows.size());
    EXPECT_EQ(done.first().first().toInt(), static_cast<int>(direct.rows.size()));
    ASSERT_EQ(explorer.result().rows.size(), direct.rows.size()); // what the chart draws
    auto* cloud = rl::charts::PointCloud::of(explorer.chart()->chart());
    ASSERT_TRUE(cloud);
    EXPECT_EQ(cloud->points().size(), direct.rows.size());
    for (std::size_t i = 0; i < direct.rows.size(); ++i) {
        const auto& a = shown.rows[i];
        const auto& b = direct.rows[i];
        EXPECT_EQ(a.base, b.base) << i;
        EXPECT_EQ(a.row.experts, b.row.experts) << i;
        EXPECT_EQ(a.row.topK, b.row.topK) << i;
        EXPECT_EQ(a.row.expertWidth, b.row.expertWidth) << i;
        EXPECT_DOUBLE_EQ(a.row.tokensPerSecond, b.row.tokensPerSecond) << i;
        EXPECT_DOUBLE_EQ(a.row.decodeSecondsPerToken, b.row.decodeSecondsPerToken) << i;
        EXPECT_EQ(a.row.pareto, b.row.pareto) << i;
        ASSERT_EQ(a.best.has_value(), b.best.has_value()) << i;
        if (b.best) {
            EXPECT_EQ(rl::plan::toSpec(a.best->layout), rl::plan::toSpec(b.best->layout)) << i;
        }
    }

    // The base shape (first) is ringed, under its own legend entry.
    ASSERT_TRUE(direct.rows.front().base);
    EXPECT_EQ(explorer.chart()->marks().base, 0);
    auto* base = MoeScatterChart::baseSeries(explorer.chart()->chart());
    ASSERT_TRUE(base);
    EXPECT_EQ(base->name(), QStringLiteral("base (olmoe-1b-7b)"));
    ASSERT_EQ(base->count(), 1);
    EXPECT_DOUBLE_EQ(base->at(0).x(), cloud->points()[0].value.x());
    EXPECT_DOUBLE_EQ(base->at(0).y(), cloud->points()[0].value.y());
    const auto markers = explorer.chart()->chart()->legend()->markers(base);
    ASSERT_EQ(markers.size(), 1);
    EXPECT_TRUE(rl::testing::waitFor([&] { return markers.first()->isVisible(); }, 2000));

    // The verdict is placeBase's.
    const QString verdict = QString::fromStdString(rl::plan::placeBase(direct));
    ASSERT_FALSE(verdict.isEmpty());
    EXPECT_EQ(explorer.baseVerdict(), verdict);
    auto* verdictLabel = explorer.findChild<QLabel*>(QStringLiteral("moeVerdict"));
    ASSERT_TRUE(verdictLabel && verdictLabel->isVisible());
    EXPECT_EQ(verdictLabel->text(), QStringLiteral("Base shape (olmoe-1b-7b): ") + verdict + QStringLiteral("."));
    rl::testing::shoot(&explorer, "moe-best-layout.png");

    // Hovering a point shows its best layout.
    const std::size_t pick = direct.rows.size() - 1;
    ASSERT_TRUE(direct.rows[pick].best);
    const auto& best = *direct.rows[pick].best;
    auto* view = explorer.chart()->view();
    const QPoint at = view->mapFromScene(explorer.chart()->chart()->mapToScene(cloud->positionOf(pick)));
    QTest::mouseMove(view->viewport(), at);
    const QString hover = explorer.chart()->hoverText();
    EXPECT_TRUE(hover.contains(QStringLiteral("best layout"))) << hover.toStdString();
    QString flat = hover;
    flat.replace(QStringLiteral(",\n"), QStringLiteral(","));
    EXPECT_TRUE(flat.contains(QString::fromStdString(rl::plan::toSpec(best.layout)))) << hover.toStdString();
    QEvent leave(QEvent::Leave); // the pointer leaves the plot: no label lingers
    QApplication::sendEvent(view->viewport(), &leave);
    EXPECT_TRUE(explorer.chart()->hoverText().isEmpty());

    // A click selects it, with its best layout in the details; Open hands over the shape with that
    // layout, and the config editor shows the point's step time.
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, at);
    EXPECT_TRUE(explorer.selectedText().contains(QString::fromStdString(rl::plan::toSpec(best.layout))))
        << explorer.selectedText().toStdString();
    QSignalSpy chosen(&explorer, &rl::MoeExplorer::configChosen);
    auto* open = explorer.findChild<QPushButton*>(QStringLiteral("moeOpen"));
    ASSERT_TRUE(open && open->isEnabled());
    open->click();
    ASSERT_EQ(chosen.size(), 1);
    const auto config = chosen.first().at(0).value<rl::model::ModelConfig>();
    const auto recipe = chosen.first().at(1).value<rl::model::ParallelConfig>();
    EXPECT_EQ(config.moe.experts, direct.rows[pick].row.experts);
    EXPECT_EQ(config.moe.topK, direct.rows[pick].row.topK);
    EXPECT_EQ(config.moe.expertWidth, direct.rows[pick].row.expertWidth);
    EXPECT_EQ(recipe.dtype, best.parallel.dtype);
    EXPECT_EQ(recipe.microBatches, best.parallel.microBatches);
    EXPECT_EQ(chosen.first().at(3).toString(), QStringLiteral("h100-sxm"));
    EXPECT_EQ(chosen.first().at(4).toString(), QString::fromStdString(best.layout.attention));
    rl::ConfigEditor editor;
    editor.loadSized(config, recipe, chosen.first().at(2).toString(), chosen.first().at(3).toString(),
                     chosen.first().at(4).toString());
    ASSERT_TRUE(rl::testing::waitFor([&] { return editor.report().has_value(); }, 5000)) << editor.problem().toStdString();
    EXPECT_NEAR(editor.report()->step.stepSeconds, best.step.stepSeconds, 1e-9 * best.step.stepSeconds)
        << chosen.first().at(2).toString().toStdString();
    EXPECT_NEAR(editor.report()->step.memory.total(), best.step.memory.total(), 1e-9 * best.step.memory.total());

    // Back to the fixed layout: its field returns, and its sweep replaces the shapes.
    explorer.setLayoutMode(rl::MoeExplorer::LayoutMode::Fixed);
    EXPECT_TRUE(parallel->isVisible());
    EXPECT_FALSE(gpus->isVisible());
}

// Cancel stops a long search between shapes: nothing is delivered, the last result stays.
TEST(MoeExplorer, BestPerShapeCancels)
{
    const BestLayoutCase c{"olmoe-1b-7b", "h100-sxm", 64, 256, "8:256:8", "1,2,4,8", "0,1", kSmallFix};
    rl::MoeExplorer explorer;
    enter(explorer, c);
    auto* progress = explorer.findChild<QProgressBar*>(QStringLiteral("moeProgress"));
    auto* cancel = explorer.findChild<QPushButton*>(QStringLiteral("moeCancel"));
    auto* job = explorer.findChild<rl::JobTracker*>();
    ASSERT_TRUE(progress && cancel && job);
    QSignalSpy done(&explorer, &rl::MoeExplorer::sweepFinished);
    QSignalSpy canceled(job, &rl::JobTracker::jobCanceled);
    explorer.runSweep();
    ASSERT_TRUE(explorer.isRunning());
    EXPECT_TRUE(cancel->isEnabled());
    // Progress per shape: the first shape done shows as "shape 1 of N".
    ASSERT_TRUE(rl::testing::waitFor([&] { return progress->maximum() == 1000 && progress->value() > 0; }, 60000));
    EXPECT_TRUE(progress->format().startsWith(QStringLiteral("shape "))) << progress->format().toStdString();
    cancel->click();
    EXPECT_FALSE(cancel->isEnabled());
    EXPECT_TRUE(explorer.findChild<QPushButton*>(QStringLiteral("moeRun"))->isEnabled());
    EXPECT_FALSE(progress->isVisible());
    EXPECT_EQ(explorer.statusText(), QStringLiteral("Sweep cancelled."));
    ASSERT_TRUE(canceled.wait(60000)); // the worker stops after the shape it is on
    EXPECT_TRUE(done.isEmpty());
    EXPECT_FALSE(explorer.isRunning());
    EXPECT_FALSE(explorer.shapeResult().has_value());
}

// Fix text that does not parse is named next to the field, and nothing runs.
TEST(MoeExplorer, BadFixTextIsShownNextToTheField)
{
    rl::MoeExplorer explorer;
    explorer.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&explorer));
    const BestLayoutCase c{"olmoe-1b-7b", "h100-sxm", 64, 256, "16", "2", "0", kSmallFix};
    enter(explorer, c);
    auto* fix = explorer.findChild<QLineEdit*>(QStringLiteral("moeFix"));
    auto* error = explorer.findChild<QLabel*>(QStringLiteral("moeFixError"));
    ASSERT_TRUE(fix && error);
    EXPECT_FALSE(error->isVisible());
    EXPECT_FALSE(fix->toolTip().isEmpty());
    EXPECT_TRUE(fix->toolTip().contains(QStringLiteral("micro-batch")));
    EXPECT_TRUE(fix->toolTip().contains(QStringLiteral("tp=1,cp=1,pp=1,ep=1,zero=1")));

    const struct
    {
        const char* text;
        const char* says;
    } bad[] = {{"tp=x", "'x' is not a whole number"}, {"colour=red", "unknown dimension 'colour'"},
               {"zero=5", "ZeRO stages are 0..3"}, {"tp8", "is not name=value"}};
    QSignalSpy failed(&explorer, &rl::MoeExplorer::sweepFailed);
    for (const auto& b : bad) {
        fix->setText(QLatin1String(b.text));
        EXPECT_TRUE(error->isVisible()) << b.text;
        EXPECT_TRUE(error->text().startsWith(QStringLiteral("Fix: "))) << error->text().toStdString();
        EXPECT_TRUE(error->text().contains(QLatin1String(b.says))) << error->text().toStdString();
        const auto before = failed.size();
        explorer.runSweep();
        EXPECT_EQ(failed.size(), before + 1) << b.text;
        EXPECT_FALSE(explorer.isRunning()) << b.text;
    }
    fix->setText(QStringLiteral("tp=1|2,recompute=none|selective"));
    EXPECT_FALSE(error->isVisible());
    EXPECT_TRUE(error->text().isEmpty());
}
