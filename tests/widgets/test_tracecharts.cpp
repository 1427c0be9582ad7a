// Trace and training-log charts drawn offscreen from really imported data: the bars carry the
// stored breakdown numbers, axes say their units, restarts are marked, the kernel table sorts.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChartView>
#include <QChart>
#include <QImage>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QStackedBarSeries>
#include <QTest>
#include <QValueAxis>

#include "kernelstatmodel.h"
#include "spancloud.h"
#include "settings.h"
#include "stepbreakdownchart.h"
#include "store/fileimport.h"
#include "store/traceresults.h"
#include "store/workspace.h"
#include "tempdir.h"
#include "test_gui_env.h"
#include "timelinechart.h"
#include "trainlogchart.h"

using namespace rl;
using namespace rl::charts;
namespace fs = std::filesystem;

namespace {
struct TempWorkspace
{
    test::TempDir tmp;
    const fs::path& dir = tmp.path;
    std::unique_ptr<store::Workspace> ws = std::make_unique<store::Workspace>((dir / "w.db").string());
    std::int64_t import(const std::string& path)
    {
        const auto r = store::importIntoWorkspace(*ws, path);
        EXPECT_TRUE(r.ok) << r.error;
        return r.sessionIds.empty() ? 0 : r.sessionIds.front();
    }
    TraceChartData load(std::int64_t id) { return loadTraceCharts(*ws, {id}).front(); }
};

template <class T>
QList<T*> seriesOf(QChart* chart)
{
    QList<T*> out;
    for (auto* s : chart->series())
        if (auto* t = qobject_cast<T*>(s))
            out << t;
    return out;
}

QString axisTitle(QChart* chart, Qt::Orientation o)
{
    const auto axes = chart->axes(o);
    return axes.isEmpty() ? QString() : axes.front()->titleText();
}

// The step chart's lines without the marker-less legend entry that states the bars' rule.
QList<QLineSeries*> stepLines(QChart* chart)
{
    QList<QLineSeries*> out;
    const auto* drawn = drawnOn<StepBreakdownDrawn>(chart);
    for (auto* s : seriesOf<QLineSeries>(chart))
        if (!drawn || s != drawn->rule)
            out << s;
    return out;
}

const std::string kData = RIDGELINE_TEST_DATA;
const std::string kResnet =
    std::string(RIDGELINE_SHARED_SAMPLES) + "/traces/kineto_tb_plugin_resnet50_num_workers_0_worker0.pt.trace.json.gz";
} // namespace

TEST(TraceChartData, LoadReadsTraceAndLogRecordsAndRejectsUnknownIds)
{
    TempWorkspace w;
    const auto trace = w.load(w.import(kData + "/traces/ranks"));
    EXPECT_TRUE(trace.isTrace());
    EXPECT_EQ(ranksOf(trace.steps), (std::vector<int>{0, 1}));
    EXPECT_FALSE(trace.kernels.empty());
    const auto log = w.load(w.import(kData + "/logs/megatron_lm_restart.log"));
    EXPECT_TRUE(log.isTrainingLog());
    EXPECT_EQ(log.restarts, 1);
    EXPECT_NEAR(log.goodput, 240.0 / 1300.0, 1e-12);
    EXPECT_THROW(loadTraceCharts(*w.ws, {999}), std::runtime_error);
}

TEST(StepBreakdownChart, BarsAreTheStoredBreakdownAsSharesOfOneRank)
{
    if (!fs::exists(kResnet))
        GTEST_SKIP() << "shared sample trace missing: " << kResnet;
    TempWorkspace w;
    const auto id = w.import(kResnet);
    const auto data = w.load(id);
    const auto stored = store::stepBreakdowns(w.ws->database(), id);
    ASSERT_GT(stored.size(), 1u);

    StepBreakdownChart chart;
    chart.resize(1000, 700);
    chart.setData(data);
    chart.setRank(stored.front().rank);
    const auto bars = seriesOf<QStackedBarSeries>(chart.chart());
    ASSERT_EQ(bars.size(), 1);
    ASSERT_EQ(bars.front()->count(), int(StepSegment::Count));
    const auto sets = bars.front()->barSets();
    EXPECT_EQ(sets[int(StepSegment::Gemm)]->label(), QStringLiteral("GEMM"));
    EXPECT_EQ(sets[int(StepSegment::Idle)]->label(), QStringLiteral("Idle"));
    EXPECT_EQ(sets[int(StepSegment::HiddenComm)]->brush().style(), Qt::TexturePattern); // hatched
    ASSERT_EQ(sets.front()->count(), int(stored.size()));
    for (std::size_t i = 0; i < stored.size(); ++i) {
        const auto& b = stored[i];
        const int k = int(i);
        double compute = 0;
        for (auto seg : {StepSegment::Gemm, StepSegment::Attention, StepSegment::Other, StepSegment::HiddenComm})
            compute += sets[int(seg)]->at(k);
        EXPECT_NEAR(compute, b.computeBusyUs / 1000, 1e-9);
        EXPECT_NEAR(sets[int(StepSegment::HiddenComm)]->at(k), b.overlapUs / 1000, 1e-9);
        EXPECT_NEAR(sets[int(StepSegment::ExposedComm)]->at(k), b.exposedCommUs / 1000, 1e-9);
        EXPECT_NEAR(sets[int(StepSegment::Idle)]->at(k), b.idleUs / 1000, 1e-9);
        // GEMM keeps its share of the compute kernel time.
        if (b.gemmUs + b.attentionUs + b.otherUs > 0) {
            EXPECT_NEAR(sets[int(StepSegment::Gemm)]->at(k) / (compute - sets[int(StepSegment::HiddenComm)]->at(k)),
                        b.gemmUs / (b.gemmUs + b.attentionUs + b.otherUs), 1e-9);
        }
    }
    EXPECT_EQ(axisTitle(chart.chart(), Qt::Vertical), QStringLiteral("Time per step (ms)"));
    EXPECT_TRUE(chart.chart()->legend()->isVisible());
    // One rank: the step time line only, no straggler lines.
    EXPECT_EQ(stepLines(chart.chart()).size(), 1);
}

// The bundled sample (what a first start shows): every bar is as tall as the step-time line above
// it, not ~630 ms of summed kernel time under a ~605 ms step; the legend states the rule.
TEST(StepBreakdownChart, BarsOfTheBundledSampleAddUpToTheStepTimeLine)
{
    TempWorkspace w;
    const auto data = w.load(w.import(kData + "/../../sample_data/kineto_sampled_trace_rank0_hta.json.gz"));
    ASSERT_FALSE(data.steps.empty());
    StepBreakdownChart chart;
    chart.resize(1000, 700);
    chart.setData(data);
    const auto sets = seriesOf<QStackedBarSeries>(chart.chart()).front()->barSets();
    const auto lines = stepLines(chart.chart());
    ASSERT_EQ(lines.size(), 1);
    const auto stepLine = lines.front()->points();
    ASSERT_EQ(stepLine.size(), sets.front()->count());
    for (int k = 0; k < stepLine.size(); ++k) {
        double sum = 0;
        for (auto* set : sets)
            sum += set->at(k);
        EXPECT_GT(stepLine[k].y(), 100); // the sample's steps are ~600 ms
        EXPECT_NEAR(sum, stepLine[k].y(), stepLine[k].y() * 1e-9) << "step " << k;
    }
    bool ruleShown = false;
    for (auto* m : chart.chart()->legend()->markers())
        ruleShown |= m->label() == QStringLiteral("Bars add up to the step time");
    EXPECT_TRUE(ruleShown);

    chart.setMode(StepChartMode::Totals);
    const auto totals = seriesOf<QStackedBarSeries>(chart.chart()).front()->barSets();
    const auto marks = seriesOf<QScatterSeries>(chart.chart());
    ASSERT_EQ(marks.size(), 1);
    double sum = 0;
    for (auto* set : totals)
        sum += set->at(0);
    EXPECT_NEAR(sum, marks.front()->at(0).y(), marks.front()->at(0).y() * 1e-9);
}

TEST(StepBreakdownChart, MeanOverRanksShowsStragglerSpread)
{
    TempWorkspace w;
    const auto data = w.load(w.import(kData + "/traces/ranks"));
    StepBreakdownChart chart;
    chart.setData(data);
    ASSERT_EQ(chart.options().rank, kAllRanksMean);
    const auto bars = stepBars(data.steps);
    ASSERT_EQ(bars.size(), 2u);
    const auto sets = seriesOf<QStackedBarSeries>(chart.chart()).front()->barSets();
    double s0[int(StepSegment::Count)], s1[int(StepSegment::Count)];
    // Mean of the two ranks' stored records of the second step.
    segmentsOf(data.steps[1], s0);
    segmentsOf(data.steps[3], s1);
    ASSERT_EQ(data.steps[1].step, data.steps[3].step);
    for (int i = 0; i < int(StepSegment::Count); ++i)
        EXPECT_NEAR(sets[i]->at(1), (s0[i] + s1[i]) / 2, 1e-12) << i;
    const auto lines = stepLines(chart.chart());
    ASSERT_EQ(lines.size(), 3); // mean, slowest, fastest
    EXPECT_TRUE(lines[1]->name().startsWith(QStringLiteral("Slowest rank")));
    EXPECT_DOUBLE_EQ(lines[1]->at(1).y(), std::max(data.steps[1].stepUs, data.steps[3].stepUs) / 1000);
    EXPECT_DOUBLE_EQ(lines[2]->at(1).y(), std::min(data.steps[1].stepUs, data.steps[3].stepUs) / 1000);
    EXPECT_TRUE(chart.title().contains(QStringLiteral("straggler spread"))) << chart.title().toStdString();
}

TEST(StepBreakdownChart, TotalsModeSumsOverStepsPerRank)
{
    TempWorkspace w;
    const auto data = w.load(w.import(kData + "/traces/ranks"));
    StepBreakdownChart chart;
    chart.setData(data);
    chart.setMode(StepChartMode::Totals);
    const auto sets = seriesOf<QStackedBarSeries>(chart.chart()).front()->barSets();
    ASSERT_EQ(sets.front()->count(), 2); // two ranks
    double idle = 0;
    for (const auto& b : data.steps)
        if (b.rank == 1)
            idle += b.idleUs / 1000;
    EXPECT_NEAR(sets[int(StepSegment::Idle)]->at(1), idle, 1e-12);
    EXPECT_TRUE(axisTitle(chart.chart(), Qt::Vertical).endsWith(QStringLiteral("(ms)")));
    EXPECT_EQ(axisTitle(chart.chart(), Qt::Horizontal), QStringLiteral("Rank"));
}

TEST(StepBreakdownChart, ExportsImageAndCsv)
{
    TempWorkspace w;
    const auto data = w.load(w.import(kData + "/traces/ranks"));
    StepBreakdownChart chart;
    chart.setData(data);
    chart.setExportSize(QSize(800, 500));
    QString error;
    const QString png = QString::fromStdString((w.dir / "s.png").string());
    ASSERT_TRUE(chart.exportTo(png, &error)) << error.toStdString();
    const QImage img(png);
    EXPECT_EQ(img.size(), QSize(800, 500));
    const QString csv = QString::fromStdString((w.dir / "s.csv").string());
    ASSERT_TRUE(chart.exportTo(csv, &error)) << error.toStdString();
    EXPECT_FALSE(chart.exportTo(QString::fromStdString((w.dir / "s.txt").string()), &error));
    EXPECT_TRUE(error.contains(QStringLiteral(".png"))) << error.toStdString();
}

TEST(TrainLogChart, RestartStallAndGoodputAreShown)
{
    TempWorkspace w;
    const auto data = w.load(w.import(kData + "/logs/megatron_lm_restart.log"));
    TrainLogChart chart;
    chart.resize(1000, 700);
    chart.setData(data);
    QChart* c = chart.chart();
    EXPECT_EQ(axisTitle(c, Qt::Vertical), QStringLiteral("Loss"));
    EXPECT_EQ(axisTitle(c, Qt::Horizontal), QStringLiteral("Step"));
    EXPECT_TRUE(chart.title().contains(QStringLiteral("goodput 18.5 %"))) << chart.title().toStdString();

    int runs = 0, restarts = 0;
    QScatterSeries* stall = nullptr;
    for (auto* s : seriesOf<QLineSeries>(c)) {
        if (s->name().startsWith(QStringLiteral("Run ")))
            ++runs;
        if (s->name() == QStringLiteral("Restart")) {
            ++restarts;
            ASSERT_EQ(s->count(), 2); // a vertical line at the restart step
            EXPECT_DOUBLE_EQ(s->at(0).x(), 40);
            EXPECT_DOUBLE_EQ(s->at(1).x(), 40);
        }
    }
    for (auto* s : seriesOf<QScatterSeries>(c))
        if (s->name() == QStringLiteral("Stall"))
            stall = s;
    EXPECT_EQ(runs, 2); // the run before and after the restart
    EXPECT_EQ(restarts, 1);
    ASSERT_NE(stall, nullptr);
    ASSERT_EQ(stall->count(), 1);
    EXPECT_DOUBLE_EQ(stall->at(0).x(), 40);

    chart.setMetric(TrainMetric::StepTime);
    EXPECT_EQ(axisTitle(c, Qt::Vertical), QStringLiteral("Step time (ms)"));
    chart.setXAxis(TrainXAxis::WallTime);
    EXPECT_EQ(axisTitle(c, Qt::Horizontal), QStringLiteral("Wall time since the first step (min)"));
    // The step time series values are the stored ones.
    const auto runsNow = seriesOf<QLineSeries>(c);
    ASSERT_FALSE(runsNow.isEmpty());
    EXPECT_DOUBLE_EQ(runsNow.front()->at(0).y(), data.trainSteps.front().stepTimeMs);
}

TEST(TrainLogChart, TorchtitanMfuInPercentWithTheRestartMarked)
{
    TempWorkspace w;
    const auto data = w.load(w.import(kData + "/logs/torchtitan_restart.log"));
    TrainLogChart chart;
    chart.setData(data);
    chart.setMetric(TrainMetric::Mfu);
    EXPECT_EQ(axisTitle(chart.chart(), Qt::Vertical), QStringLiteral("MFU (%)"));
    const auto lines = seriesOf<QLineSeries>(chart.chart());
    ASSERT_FALSE(lines.isEmpty());
    EXPECT_NEAR(lines.front()->at(0).y(), 39.56, 1e-9);
    int restarts = 0;
    for (auto* s : lines)
        if (s->name() == QStringLiteral("Restart")) {
            ++restarts;
            EXPECT_EQ(chart.chart()->legend()->markers(s).size(), 1);
        }
    EXPECT_EQ(restarts, data.restarts);
    EXPECT_EQ(restarts, 1);
}

// Issue 24, item 9: the bundled Megatron log's MFU chart said "the log has no MFU values" while
// predicted vs measured derived 33 % from it. It draws the log's TFLOP/s per GPU over the H100's
// bf16 peak (the device its file name states) and says so on its axis.
TEST(TrainLogChart, MegatronMfuOverTheNamedDevicesPeakWithItsBasisOnItsAxis)
{
    TempWorkspace w;
    const auto data = w.load(w.import(kData + "/../../sample_data/megatron-lm_gpt-8b_16xH100_pretrain.log"));
    TrainLogChart chart;
    chart.setData(data);
    chart.setMetric(TrainMetric::Mfu);
    EXPECT_FALSE(chart.title().contains(QStringLiteral("no MFU"))) << chart.title().toStdString();
    EXPECT_TRUE(chart.title().contains(QStringLiteral("from the log's TFLOP/s per GPU"))) << chart.title().toStdString();
    EXPECT_EQ(axisTitle(chart.chart(), Qt::Vertical), QStringLiteral("MFU (% of NVIDIA H100 SXM5 80GB bf16 peak, 989 TFLOP/s)"));
    const auto lines = seriesOf<QLineSeries>(chart.chart());
    ASSERT_FALSE(lines.isEmpty());
    EXPECT_NEAR(lines.front()->at(0).y(), 330.0 / 989.4 * 100, 1e-9);
}

TEST(KernelStatModel, SortsNumericallyThroughTheProxy)
{
    TempWorkspace w;
    const auto data = w.load(w.import(kData + "/traces/handmade_two_steps.json"));
    KernelStatModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setTrace(data);
    ASSERT_GE(model.rowCount(), 3);
    EXPECT_EQ(model.columnCount(), int(KernelStatModel::ColumnCount));
    EXPECT_EQ(model.headerData(KernelStatModel::TotalMsColumn, Qt::Horizontal).toString(), QStringLiteral("Total (ms)"));
    EXPECT_EQ(model.headerData(KernelStatModel::MeanUsColumn, Qt::Horizontal).toString(), QStringLiteral("Mean (µs)"));

    double shares = 0;
    for (const auto& r : model.rows())
        shares += r.sharePercent;
    EXPECT_NEAR(shares, 100, 1e-9);

    KernelStatProxy proxy;
    QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
    proxy.setSourceModel(&model);
    for (int col : {int(KernelStatModel::CountColumn), int(KernelStatModel::TotalMsColumn),
                    int(KernelStatModel::MeanUsColumn), int(KernelStatModel::ShareColumn)}) {
        for (auto order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
            proxy.sort(col, order);
            for (int r = 1; r < proxy.rowCount(); ++r) {
                const double a = proxy.index(r - 1, col).data(KernelStatModel::SortRole).toDouble();
                const double b = proxy.index(r, col).data(KernelStatModel::SortRole).toDouble();
                EXPECT_TRUE(order == Qt::AscendingOrder ? a <= b : a >= b) << col << " row " << r;
            }
        }
    }
    proxy.setClassFilter(KernelClass::Gemm);
    ASSERT_GE(proxy.rowCount(), 1);
    for (int r = 0; r < proxy.rowCount(); ++r)
        EXPECT_EQ(proxy.index(r, KernelStatModel::ClassColumn).data().toString(), QStringLiteral("gemm"));
    proxy.setClassFilter(std::nullopt);
    proxy.setNameFilter(QStringLiteral("no such kernel"));
    EXPECT_EQ(proxy.rowCount(), 0);
}

// The timeline of the hand-built trace: step 1 of rank 3 (both steps last 1 ms; the earlier one is
// the median), one lane per stream, every activity a bar at its stored time, hover names it.
TEST(TimelineChart, BarsAreTheStoredEventsOnePerLanePerStream)
{
    TempWorkspace w;
    const auto data = w.load(w.import(RIDGELINE_TEST_DATA "/traces/handmade_two_steps.json"));
    ASSERT_EQ(data.timeline.size(), 5u);
    TimelineChart chart;
    chart.resize(1100, 600);
    chart.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&chart));
    chart.setData(data);
    // The bars' positions (and the pointer on them) are those of the laid-out axes.
    ASSERT_TRUE(rl::testing::waitForLayout(chart.chart())) << "the chart never laid out its axes";
    const auto* spans = SpanCloud::of(chart.chart());
    ASSERT_TRUE(spans);
    ASSERT_EQ(spans->spans().size(), 5u);
    EXPECT_DOUBLE_EQ(spans->spans()[0].start, 0.1); // ms from the step start
    EXPECT_DOUBLE_EQ(spans->spans()[0].end, 0.4);
    EXPECT_DOUBLE_EQ(spans->spans()[1].lane, 0.0); // the NCCL kernel on stream 20, the second (lower) lane
    EXPECT_DOUBLE_EQ(spans->spans()[0].lane, 1.0); // stream 7 on top
    EXPECT_DOUBLE_EQ(spans->spans()[4].end, 1.1);  // runs past the step end: kept whole
    auto* y = qobject_cast<QCategoryAxis*>(chart.chart()->axes(Qt::Vertical).value(0));
    ASSERT_TRUE(y);
    EXPECT_EQ(y->categoriesLabels(), (QStringList{QStringLiteral("stream 20"), QStringLiteral("stream 7")})); // bottom up
    auto* x = qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Horizontal).value(0));
    ASSERT_TRUE(x);
    EXPECT_TRUE(x->titleText().contains(QStringLiteral("(ms)")));
    EXPECT_DOUBLE_EQ(x->max(), 1.1);
    // Ticks on round values (1.1 ms / 6 -> every 0.2 ms), and still round when zoomed in.
    EXPECT_EQ(x->tickType(), QValueAxis::TicksDynamic);
    EXPECT_DOUBLE_EQ(x->tickInterval(), 0.2);
    x->setRange(0.1, 0.15);
    EXPECT_DOUBLE_EQ(x->tickInterval(), 0.01);
    x->setRange(0, 1.1);
    QStringList legend;
    for (auto* s : seriesOf<QScatterSeries>(chart.chart()))
        legend << s->name();
    EXPECT_EQ(legend, (QStringList{QStringLiteral("GEMM"), QStringLiteral("Communication"),
                                   QStringLiteral("Memcpy / memset"), QStringLiteral("Other compute")}));
    EXPECT_TRUE(chart.title().contains(QStringLiteral("step 1"))) << chart.title().toStdString();

    // Hovering the GEMM bar names it; the empty lane area names nothing.
    const auto centre = [&](std::size_t i) {
        return chart.view()->mapFromScene(chart.chart()->mapToScene(spans->rectOf(i).center()));
    };
    QTest::mouseMove(chart.view()->viewport(), centre(0));
    EXPECT_TRUE(chart.hoverText().contains(QStringLiteral("sm90_xmma_gemm"))) << chart.hoverText().toStdString();
    EXPECT_TRUE(chart.hoverText().contains(QStringLiteral("GEMM, stream 7")));
    QTest::mouseMove(chart.view()->viewport(), centre(1) - QPoint(0, 200));
    EXPECT_TRUE(chart.hoverText().isEmpty());

    // Exports: the image is drawn, the CSV has one row per bar.
    const std::string png = (w.dir / "timeline.png").string(), csv = (w.dir / "timeline.csv").string();
    QString error;
    ASSERT_TRUE(chart.exportTo(QString::fromStdString(png), &error)) << error.toStdString();
    const QImage image(QString::fromStdString(png));
    EXPECT_EQ(image.size(), Settings::kDefaultExportSize); // every chart: the settings' size

    ASSERT_TRUE(chart.exportTo(QString::fromStdString(csv), &error)) << error.toStdString();
    std::ifstream in(csv);
    std::string line;
    int lines = 0;
    while (std::getline(in, line))
        ++lines;
    EXPECT_EQ(lines, 6);

    // An empty timeline says why: kernels without a timeline are an old import, no kernels at all
    // is a trace without GPU activity.
    TraceChartData old = data;
    old.timeline.clear();
    chart.setData(old);
    EXPECT_TRUE(chart.title().contains(QStringLiteral("import the trace again"))) << chart.title().toStdString();
    old.kernels.clear();
    chart.setData(old);
    EXPECT_TRUE(chart.title().contains(QStringLiteral("has no GPU activity"))) << chart.title().toStdString();
}

// Issue 9: the title said 5 streams but the top and bottom lanes had no name. In the GUI the chart
// is first laid out small (a hidden tab), which hid the edge labels of the reversed axis for good.
// Every lane of the real sample trace keeps a visible name after the view grows.
TEST(TimelineChart, EveryLaneOfARealTraceIsNamedAfterASmallFirstLayout)
{
    TempWorkspace w;
    const auto data = w.load(w.import(RIDGELINE_SHARED_SAMPLES "/traces/hta_trace_filter_sampled_rank-0.json.gz"));
    TimelineChart chart;
    chart.resize(420, 160);
    chart.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&chart));
    chart.setData(data);
    ASSERT_TRUE(rl::testing::waitForLayout(chart.chart())) << "the chart never laid out its first, small size";
    const QRectF small = chart.chart()->plotArea();
    chart.resize(1100, 700);
    ASSERT_TRUE(rl::testing::waitFor([&] {
        return rl::testing::chartLaidOut(chart.chart()) && chart.chart()->plotArea().height() > small.height();
    }, 5000)) << "the chart never laid out its new size";

    auto* y = qobject_cast<QCategoryAxis*>(chart.chart()->axes(Qt::Vertical).value(0));
    ASSERT_TRUE(y);
    const QStringList lanes = y->categoriesLabels();
    EXPECT_EQ(lanes.size(), 5); // streams 7, 23, 25, 84 and 203 of rank 0
    EXPECT_TRUE(chart.title().contains(QStringLiteral("on %1 streams").arg(lanes.size()))) << chart.title().toStdString();
    QStringList shown;
    for (auto* item : chart.chart()->scene()->items())
        if (auto* text = dynamic_cast<QGraphicsTextItem*>(item); text && text->isVisible())
            if (lanes.contains(text->toPlainText()))
                shown << text->toPlainText();
    shown.sort();
    QStringList expected = lanes;
    expected.sort();
    EXPECT_EQ(shown, expected);
}
