// The Plan window (issue 27): a small layout search run from the window against runPlan on the same
// request, the result table (sorted, roles, QAbstractItemModelTester), the Pareto chart, cancel of a
// large search, bad --fix text, "Open in Sizing" into the config editor, and the CSV export.
#include <QAbstractItemModelTester>
#include <QChart>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QProgressBar>
#include <QPushButton>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QTableView>
#include <QValueAxis>

#include "calibrationpicker.h"
#include "gui/sizing/configeditor.h"
#include "model/hardwareprofileloader.h"
#include "plan/layout.h"
#include "planparetochart.h"
#include "planresultmodel.h"
#include "resulttableview.h"
#include "gui/sizing/planwindow.h"
#include "tempdir.h"
#include "test_gui_env.h"

using rl::PlanResultModel;
using rl::PlanWindow;

namespace {
// llama-3-8b on 16 H100s, narrowed to a few hundred combinations.
const char* const kFix = "tp=1|2|4,cp=1,pp=1|2,vpp=1,micro-batch=1|2,zero=1,dtype=bf16";

template <typename T>
T* child(QWidget& w, const char* name)
{
    auto* c = w.findChild<T*>(QLatin1String(name));
    EXPECT_TRUE(c) << name;
    return c;
}

void setSmallSearch(PlanWindow& window)
{
    window.calibrationPicker()->setHardware(QStringLiteral("h100-sxm"));
    child<QComboBox>(window, "planModel")->setCurrentText(QStringLiteral("llama-3-8b"));
    child<QSpinBox>(window, "planGpus")->setValue(16);
    child<QSpinBox>(window, "planGlobalBatch")->setValue(256);
    child<QSpinBox>(window, "planSeq")->setValue(4096);
    child<QSpinBox>(window, "planTop")->setValue(10);
    child<QLineEdit>(window, "planFix")->setText(QString::fromLatin1(kFix));
}

// The same request as ridgeline-cli plan llama-3-8b --hardware h100-sxm --gpus 16 --global-batch 256 --fix ...
rl::plan::PlanResult planDirectly()
{
    rl::plan::PlanRequest req;
    req.base.model = rl::model::loadPreset("llama-3-8b");
    req.base.hardware = rl::findHardwareProfile("h100-sxm");
    const auto& hw = req.base.hardware;
    req.cluster = {16, hw.gpusPerNode, 256, 4096};
    req.space = rl::plan::defaultSpace(req.base.model, hw, req.cluster, req.allow);
    rl::plan::applyFix(req.space, kFix);
    req.top = 10;
    return rl::plan::runPlan(req, rl::model::Calibration{});
}

bool runAndWait(PlanWindow& window, int timeoutMs = 120000)
{
    QSignalSpy done(&window, &PlanWindow::searchFinished);
    QSignalSpy failed(&window, &PlanWindow::searchFailed);
    window.runSearch();
    if (!done.wait(timeoutMs) && done.isEmpty()) {
        ADD_FAILURE() << "no result; failed: "
                      << (failed.isEmpty() ? std::string("-") : failed.first().first().toString().toStdString());
        return false;
    }
    return failed.isEmpty();
}
} // namespace

TEST(PlanWindow, SmallSearchShowsPlansFiguresInTableAndChart)
{
    PlanWindow window;
    window.resize(1500, 1000);
    setSmallSearch(window);
    ASSERT_TRUE(runAndWait(window));
    EXPECT_FALSE(window.isRunning());
    const auto& r = window.result();
    EXPECT_FALSE(r.cancelled);
    // Every combination is accounted for once.
    EXPECT_GT(r.counts.enumerated, 0);
    EXPECT_DOUBLE_EQ(r.counts.illegalTotal() + r.counts.outOfMemoryTotal() + r.counts.ranked, r.counts.enumerated);
    ASSERT_FALSE(r.top.empty());
    EXPECT_LE(r.top.size(), 10u);
    EXPECT_TRUE(window.statusText().contains(QStringLiteral(" ranked"))) << window.statusText().toStdString();
    EXPECT_TRUE(child<QLabel>(window, "planBand")->text().contains(QStringLiteral("tie")));
    auto* leftOutView = child<rl::charts::ResultTableView>(window, "planLeftOut");
    ASSERT_TRUE(leftOutView);
    const auto* leftOut = leftOutView->resultModel();
    EXPECT_GT(leftOut->rowCount(), 0); // tp=4 with pp=2 etc. break rules or memory
    double leftOutCount = 0;
    for (int i = 0; i < leftOut->rowCount(); ++i) {
        EXPECT_FALSE(leftOut->index(i, 2).data().toString().isEmpty()) << "each reason cites what it follows";
        leftOutCount += leftOut->index(i, 1).data(rl::charts::ResultTableModel::ValueRole).toDouble();
    }
    // The counts sort as numbers: each row carries its count of layouts, and they add up.
    EXPECT_DOUBLE_EQ(leftOutCount, r.counts.illegalTotal() + r.counts.outOfMemoryTotal());

    // The same figures as runPlan on the same request (what ridgeline-cli plan prints).
    const auto direct = planDirectly();
    ASSERT_EQ(direct.top.size(), r.top.size());
    EXPECT_DOUBLE_EQ(direct.counts.ranked, r.counts.ranked);
    EXPECT_NEAR(r.top.front().step.stepSeconds, direct.top.front().step.stepSeconds,
                1e-9 * direct.top.front().step.stepSeconds);
    EXPECT_EQ(rl::plan::toSpec(r.top.front().layout), rl::plan::toSpec(direct.top.front().layout));

    // The table: one row per ranked layout, fastest first, every figure with its unit.
    QAbstractItemModelTester tester(window.model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    auto* table = child<QTableView>(window, "planTable");
    ASSERT_TRUE(table);
    const auto* view = table->model();
    ASSERT_EQ(view->rowCount(), int(r.top.size()));
    double last = 0;
    for (int i = 0; i < view->rowCount(); ++i) {
        const double step = view->index(i, 0).data(PlanResultModel::StepSecondsRole).toDouble();
        EXPECT_GE(step, last) << "row " << i;
        last = step;
    }
    EXPECT_DOUBLE_EQ(view->index(0, 0).data(PlanResultModel::StepSecondsRole).toDouble(), r.top.front().step.stepSeconds);
    const QString stepText = view->index(0, PlanResultModel::StepColumn).data().toString();
    EXPECT_TRUE(stepText.endsWith(QStringLiteral(" s")) || stepText.endsWith(QStringLiteral("ms"))) << stepText.toStdString();
    EXPECT_TRUE(view->index(0, PlanResultModel::MemoryColumn).data().toString().contains(QStringLiteral(" GiB of ")));
    EXPECT_TRUE(view->index(0, PlanResultModel::TokensColumn).data().toString().endsWith(QStringLiteral("tokens/s")));
    EXPECT_TRUE(view->index(0, PlanResultModel::MfuColumn).data().toString().endsWith(QStringLiteral("%")));
    // Sorting by memory goes by bytes, not text.
    table->sortByColumn(PlanResultModel::MemoryColumn, Qt::AscendingOrder);
    for (int i = 1; i < view->rowCount(); ++i)
        EXPECT_LE(view->index(i - 1, 0).data(PlanResultModel::MemoryBytesRole).toDouble(),
                  view->index(i, 0).data(PlanResultModel::MemoryBytesRole).toDouble());
    table->sortByColumn(PlanResultModel::StepColumn, Qt::AscendingOrder);

    // The detail pane of the selected (first) row: breakdown and launch arguments.
    const QString details = window.detailsText();
    EXPECT_TRUE(details.startsWith(QStringLiteral("#1"))) << details.toStdString();
    for (const char* part : {"GEMM", "element-wise", "recompute", "pipeline bubble", "exposed DP", "exposed TP",
                             "exposed EP", "exposed PP / CP", "optimizer", "--tensor-model-parallel-size",
                             "[parallelism]", "ridgeline-cli size llama-3-8b --hardware h100-sxm"})
        EXPECT_TRUE(details.contains(QLatin1String(part))) << part;

    // The chart: one point per ranked row, the front as a line, the usable memory as a vertical line.
    auto* chart = window.chart();
    EXPECT_EQ(chart->pointCount(), int(r.top.size()));
    int points = 0, frontPoints = -1;
    bool capacity = false;
    for (auto* s : chart->chart()->series()) {
        if (auto* sc = qobject_cast<QScatterSeries*>(s))
            points += int(sc->count());
        else if (auto* line = qobject_cast<QLineSeries*>(s); line && line->name().startsWith(QStringLiteral("Pareto")))
            frontPoints = int(line->count());
        else if (line && line->name().startsWith(QStringLiteral("usable memory"))) {
            capacity = true;
            ASSERT_EQ(line->count(), 2);
            EXPECT_DOUBLE_EQ(line->at(0).x(), line->at(1).x());
            // H100 SXM: CUDA's 85.0175 GB less the framework's 0.75 GiB context, over its 5 % allocator slack, in GiB.
            EXPECT_NEAR(line->at(0).x(), (85.0175e9 / (1ull << 30) - 0.75) / 1.05, 1e-6);
        }
    }
    EXPECT_EQ(points, int(r.top.size()));
    EXPECT_EQ(frontPoints, int(r.pareto.size()));
    EXPECT_TRUE(capacity);
    auto* x = qobject_cast<QValueAxis*>(chart->chart()->axes(Qt::Horizontal).value(0));
    auto* y = chart->chart()->axes(Qt::Vertical).value(0); // linear here; log when the front spans a decade
    ASSERT_TRUE(x && y);
    EXPECT_EQ(x->titleText(), QStringLiteral("Memory per GPU (GiB)"));
    EXPECT_EQ(y->titleText(), QStringLiteral("Step time (s)"));

    // CSV export writes plan::toCsv: its header, then the rows.
    rl::test::TempDir dir;
    const QString csv = dir.filePath(QStringLiteral("plan.csv"));
    ASSERT_EQ(window.exportTo(csv), QString());
    QFile f(csv);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    EXPECT_TRUE(f.readLine().startsWith("rank,tie_with_best,pareto,gap_to_best,step_s"));
    const QString svg = dir.filePath(QStringLiteral("plan.svg"));
    ASSERT_EQ(window.exportTo(svg), QString());
    rl::testing::shoot(&window, "plan-window.png");
}

// Issue 24: at 720 px high the inputs above the results left the table two rows. On a 1280x720
// screen less the window frame, five rows of a search's table are in sight, and so is the chart.
TEST(PlanWindow, ASmallScreenShowsFiveRowsOfTheTableAndTheChart)
{
    const QSize room = QSize(1280, 720) - QSize(16, 48);
    PlanWindow window;
    window.resize(room);
    setSmallSearch(window);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    EXPECT_EQ(window.size(), room) << "the window is no larger than the screen has room for";
    ASSERT_TRUE(runAndWait(window));
    auto* table = child<QTableView>(window, "planTable");
    ASSERT_TRUE(table && table->model()->rowCount() >= 5);
    const QRect viewport(table->viewport()->mapTo(&window, QPoint(0, 0)), table->viewport()->size());
    ASSERT_TRUE(window.rect().contains(viewport));
    for (int row = 0; row < 5; ++row)
        EXPECT_TRUE(table->viewport()->rect().contains(table->visualRect(table->model()->index(row, 0))))
            << "row " << row << " of the table is out of sight";
    auto* chart = window.findChild<rl::charts::PlanParetoChart*>();
    ASSERT_TRUE(chart);
    EXPECT_TRUE(window.rect().contains(QRect(chart->mapTo(&window, QPoint(0, 0)), chart->size())));
    auto* band = child<QLabel>(window, "planBand");
    EXPECT_GE(band->height(), band->heightForWidth(band->width())) << "the error band's lines are cut";
    rl::testing::shoot(&window, "plan-window-1280x720.png");
    // No stray box by the y axis's top label: the axes of the chart before a search, laid out at
    // the frame's first small size, left their ticks, grid and labels cut to "..." behind when a
    // search replaced them. Every text the chart shows is whole.
    ASSERT_TRUE(rl::testing::waitForLayout(chart->chart()));
    for (QGraphicsItem* item : chart->chart()->scene()->items()) {
        if (auto* text = dynamic_cast<QGraphicsTextItem*>(item); text && text->isVisible()) {
            EXPECT_FALSE(text->toPlainText() == QStringLiteral("...") || text->toPlainText() == QStringLiteral("…"))
                << "a label cut to nothing at " << text->sceneBoundingRect().x() << "," << text->sceneBoundingRect().y();
        }
    }
}

TEST(PlanWindow, ChartSaysWhatWillAppearBeforeASearch)
{
    rl::charts::PlanParetoChart chart;
    chart.resize(800, 500);
    chart.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&chart));
    auto* empty = chart.findChild<QLabel*>(QStringLiteral("chartEmptyState"));
    ASSERT_TRUE(empty);
    EXPECT_TRUE(empty->isVisible());
    EXPECT_TRUE(empty->text().contains(QStringLiteral("run a search")));
    EXPECT_EQ(chart.pointCount(), 0);
}

TEST(PlanWindow, CancelEndsALargeSearchCancelled)
{
    PlanWindow window;
    child<QComboBox>(window, "planModel")->setCurrentText(QStringLiteral("qwen3-235b-a22b"));
    child<QSpinBox>(window, "planGpus")->setValue(1024);
    child<QSpinBox>(window, "planGlobalBatch")->setValue(2048);
    auto* progress = child<QProgressBar>(window, "planProgress");
    QSignalSpy cancelled(&window, &PlanWindow::searchCancelled);
    QSignalSpy done(&window, &PlanWindow::searchFinished);
    window.runSearch();
    ASSERT_TRUE(window.isRunning());
    // Wait for the first real progress tick, then cancel mid-search.
    ASSERT_TRUE(rl::testing::waitFor([&] { return progress->maximum() == 1000 || !done.isEmpty(); }, 60000));
    ASSERT_TRUE(done.isEmpty()) << "the large search finished before it could be cancelled";
    // Combinations done of total, as the CLI counts them.
    EXPECT_TRUE(rl::testing::waitFor([&] { return progress->format().contains(QStringLiteral(" combinations")); }, 5000))
        << progress->format().toStdString();
    ASSERT_TRUE(window.isRunning());
    child<QPushButton>(window, "planCancel")->click();
    ASSERT_TRUE(cancelled.wait(30000) || !cancelled.isEmpty());
    EXPECT_FALSE(window.isRunning());
    EXPECT_TRUE(done.isEmpty());
    EXPECT_TRUE(window.statusText().contains(QStringLiteral("cancelled")));
    EXPECT_FALSE(child<QPushButton>(window, "planCancel")->isEnabled());
}

TEST(PlanWindow, BadFixAndYoursTextIsShownNextToTheField)
{
    PlanWindow window;
    auto* fix = child<QLineEdit>(window, "planFix");
    auto* fixError = child<QLabel>(window, "planFixError");
    auto* yours = child<QLineEdit>(window, "planYours");
    auto* yoursError = child<QLabel>(window, "planYoursError");
    EXPECT_FALSE(fixError->isVisibleTo(&window));
    EXPECT_TRUE(fix->toolTip().contains(QStringLiteral("micro-batch"))) << "the tooltip lists the dimensions";
    EXPECT_TRUE(fix->toolTip().contains(QStringLiteral("e.g.")));
    fix->setText(QStringLiteral("tq=8"));
    EXPECT_TRUE(fixError->isVisibleTo(&window));
    EXPECT_FALSE(fixError->text().isEmpty());
    fix->setText(QStringLiteral("tp=x"));
    EXPECT_TRUE(fixError->text().contains(QStringLiteral("tp=x"))) << fixError->text().toStdString();
    QSignalSpy failed(&window, &PlanWindow::searchFailed);
    window.runSearch();
    ASSERT_EQ(failed.size(), 1);
    EXPECT_FALSE(window.isRunning());
    fix->setText(QStringLiteral("tp=8"));
    EXPECT_FALSE(fixError->isVisibleTo(&window));
    yours->setText(QStringLiteral("tp=8|4"));
    EXPECT_TRUE(yoursError->isVisibleTo(&window));
    EXPECT_TRUE(yoursError->text().contains(QStringLiteral("one value"))) << yoursError->text().toStdString();
    yours->clear();
    EXPECT_FALSE(yoursError->isVisibleTo(&window));
}

TEST(PlanWindow, YoursIsPlacedAndOpenInSizingShowsTheSameStepTime)
{
    PlanWindow window;
    setSmallSearch(window);
    child<QLineEdit>(window, "planYours")->setText(QStringLiteral("tp=2,pp=2,micro-batch=1,dp-overlap=on"));
    ASSERT_TRUE(runAndWait(window));
    const auto& r = window.result();
    ASSERT_TRUE(r.yours.has_value());
    auto* yoursLine = child<QLabel>(window, "planYoursLine");
    EXPECT_TRUE(yoursLine->text().startsWith(QStringLiteral("Yours (")));
    EXPECT_TRUE(yoursLine->text().contains(QString::fromStdString(r.yours->explanation)));

    // Every shown row, among them uneven stage splits and DP overlap off where the search ranks them,
    // gives the config editor the step time the table shows.
    QSignalSpy chosen(&window, &PlanWindow::configChosen);
    auto* open = child<QPushButton>(window, "planOpen");
    for (const auto& row : r.top) {
        window.selectRank(row.rank);
        ASSERT_TRUE(open->isEnabled());
        open->click();
        ASSERT_FALSE(chosen.isEmpty());
        const auto args = chosen.takeFirst();
        const auto config = args.at(0).value<rl::model::ModelConfig>();
        const auto recipe = args.at(1).value<rl::model::ParallelConfig>();
        EXPECT_EQ(config.seqLen, 4096);
        EXPECT_EQ(args.at(3).toString(), QStringLiteral("h100-sxm"));
        rl::ConfigEditor editor;
        editor.loadSized(config, recipe, args.at(2).toString(), args.at(3).toString(), args.at(4).toString());
        ASSERT_TRUE(rl::testing::waitFor([&] { return editor.report().has_value(); }, 5000))
            << editor.problem().toStdString();
        EXPECT_NEAR(editor.report()->step.stepSeconds, row.step.stepSeconds, 1e-9 * row.step.stepSeconds)
            << "#" << row.rank << " " << rl::plan::toSpec(row.layout);
        EXPECT_NEAR(editor.report()->step.memory.total(), row.step.memory.total(), 1e-9 * row.step.memory.total());
    }
}

TEST(PlanWindow, TheFrameworkPickedRunsEveryLayoutAndGivesItsBand)
{
    PlanWindow window;
    window.resize(1500, 1000);
    setSmallSearch(window);
    auto* framework = child<QComboBox>(window, "planFramework");
    ASSERT_TRUE(framework);
    EXPECT_EQ(framework->currentData().toString(), QStringLiteral("megatron")); // the CLI's default
    EXPECT_FALSE(framework->toolTip().isEmpty());
    framework->setCurrentIndex(framework->findData(QStringLiteral("composer")));
    ASSERT_TRUE(runAndWait(window));
    const auto& r = window.result();
    ASSERT_FALSE(r.top.empty());
    EXPECT_EQ(r.top.front().parallel.framework, rl::model::Framework::Composer);
    // Composer's own published runs give the band (7 llm-foundry runs in the holdout).
    EXPECT_TRUE(child<QLabel>(window, "planBand")->text().contains(QStringLiteral("Composer (FSDP)")))
        << child<QLabel>(window, "planBand")->text().toStdString();
}
