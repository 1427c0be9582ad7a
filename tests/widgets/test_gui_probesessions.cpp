// Issue 25 in the GUI, "its records are stored and charted": the PyTorch probe's attention rates
// (real H200 run) on the attention chart, filtered to a readable slice, with hover text and a
// hardware profile's published rates; the main window shows an attention session on the kernel
// view's Attention tab and a step session's timed steps and summary (both fell through to the
// empty collective charts); the GPU tool dialog offers the probe first.
#include <QChart>
#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineSeries>
#include <QPushButton>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <QStatusBar>
#include <QTabWidget>
#include <QLogValueAxis>
#include <QValueAxis>

#include <cmath>

#include "attentionchart.h"
#include "gui/runs/copybandwidthview.h"
#include "resulttableview.h"
#include "gui/runs/gputooldialog.h"
#include "gui/runs/kernelview.h"
#include "gui/runs/probedialog.h"
#include "gui/runs/probeoffer.h"
#include "gui/runs/pytorchcheck.h"
#include "gui/runs/runcontroller.h"
#include "gui/runs/stepview.h"
#include "gui/traces/traceview.h"
#include "gui/window/chartarea.h"
#include "gui/window/sessionbrowser.h"
#include "model/hardwareprofileloader.h"
#include "openwindow.h"
#include "probefixtures.h"
#include "store/fileimport.h"
#include "store/workspace.h"
#include "tempdir.h"
#include "test_gui_env.h"

using namespace rl;
using namespace rl::charts;

namespace {
KernelChartData h200Attention()
{
    KernelSession k;
    k.session = test::h200ProbeSession("attention.jsonl");
    k.session.id = 1;
    return {{k}};
}

const std::vector<QLineSeries*>& drawnCurves(const AttentionChart& chart)
{
    return drawnOn<AttentionDrawn>(chart.chart())->curves;
}

QLineSeries* curveNamed(const AttentionChart& chart, const QString& name)
{
    for (auto* s : drawnCurves(chart))
        if (s->name() == name)
            return s;
    return nullptr;
}

// The plotted TFLOP/s of a curve at a sequence length; NaN when it has no point there.
double rateAt(const QLineSeries* s, int seq)
{
    for (const QPointF& p : s->points())
        if (std::abs(p.x() - std::log2(double(seq))) < 1e-9)
            return p.y();
    return NAN;
}

void choose(AttentionChart& chart, const char* box, const QString& text)
{
    auto* combo = chart.findChild<QComboBox*>(QString::fromLatin1(box));
    ASSERT_TRUE(combo) << box;
    const int index = combo->findText(text);
    ASSERT_GE(index, 0) << box << ": no " << text.toStdString();
    combo->setCurrentIndex(index);
}

struct ProbeEnv
{
    explicit ProbeEnv(const QByteArray& probe = RIDGELINE_PROBE) { qputenv("RIDGELINE_PROBE", probe); }
    ~ProbeEnv() { qunsetenv("RIDGELINE_PROBE"); }
};
} // namespace

TEST(AttentionChart, TheH200RunDrawsOneReadableSliceWithItsRates)
{
    AttentionChart chart;
    chart.resize(1200, 700);
    chart.show();
    chart.setData(h200Attention());
    ASSERT_EQ(drawnCurves(chart).size(), 4u) << "head dim 128, forward, no mask: one line per backend";
    const auto* cudnn = curveNamed(chart, QStringLiteral("cudnn forward, d=128"));
    ASSERT_TRUE(cudnn);
    EXPECT_EQ(cudnn->count(), 5);
    EXPECT_NEAR(rateAt(cudnn, 4096), 655.0, 0.5); // the H200's cuDNN forward at 4k tokens
    EXPECT_NEAR(rateAt(curveNamed(chart, QStringLiteral("flash forward, d=128")), 8192), 350.4, 0.5);
    EXPECT_NEAR(rateAt(curveNamed(chart, QStringLiteral("math forward, d=128")), 512), 21.4, 0.5);
    const auto horizontal = chart.chart()->axes(Qt::Horizontal);
    const auto vertical = chart.chart()->axes(Qt::Vertical);
    ASSERT_EQ(horizontal.size(), 1);
    ASSERT_EQ(vertical.size(), 1);
    EXPECT_EQ(horizontal.front()->titleText(), QStringLiteral("Sequence length (tokens)"));
    EXPECT_TRUE(vertical.front()->titleText().startsWith(QStringLiteral("TFLOP/s")));
    // math (21 TFLOP/s) and cuDNN (678) differ 30x: a log axis, or the math line lies on zero.
    const auto* log = qobject_cast<QLogValueAxis*>(vertical.front());
    ASSERT_TRUE(log) << "a linear axis over 1.5 decades";
    EXPECT_GE(log->max(), 677.9) << "the highest rate fits";
    EXPECT_LE(log->min(), 19.0) << "the lowest rate fits";
    EXPECT_TRUE(chart.title().contains(QStringLiteral("forward, no mask, head dim 128"))) << chart.title().toStdString();
    rl::testing::shoot(&chart, "attention-chart.png");
}

TEST(AttentionChart, TheBoxesChangeWhatIsDrawn)
{
    AttentionChart chart;
    chart.resize(1200, 700);
    chart.setData(h200Attention());
    choose(chart, "attentionPass", QStringLiteral("backward"));
    ASSERT_EQ(drawnCurves(chart).size(), 4u);
    EXPECT_TRUE(curveNamed(chart, QStringLiteral("cudnn backward, d=128")));
    choose(chart, "attentionMask", QStringLiteral("causal"));
    EXPECT_TRUE(curveNamed(chart, QStringLiteral("cudnn backward causal, d=128")));
    EXPECT_FALSE(curveNamed(chart, QStringLiteral("cudnn backward, d=128")));
    choose(chart, "attentionHeadDim", QStringLiteral("d=64"));
    EXPECT_TRUE(curveNamed(chart, QStringLiteral("cudnn backward causal, d=64")));
    EXPECT_EQ(drawnCurves(chart).size(), 4u);
    choose(chart, "attentionMask", QStringLiteral("both"));
    EXPECT_EQ(drawnCurves(chart).size(), 8u);
    choose(chart, "attentionPass", QStringLiteral("both"));
    choose(chart, "attentionHeadDim", QStringLiteral("all"));
    EXPECT_EQ(drawnCurves(chart).size(), 32u) << "everything: 4 backends x 2 passes x 2 masks x 2 head dims";

    // The same sessions again (a reload) keep the user's choice.
    choose(chart, "attentionPass", QStringLiteral("backward"));
    chart.setData(h200Attention());
    EXPECT_EQ(chart.options().filter.pass, "backward");
    EXPECT_EQ(drawnCurves(chart).size(), 16u);
}

TEST(AttentionChart, HoverNamesBackendPassSequenceAndRate)
{
    AttentionChart chart;
    chart.resize(1200, 700);
    chart.show();
    chart.setData(h200Attention());
    auto* cudnn = curveNamed(chart, QStringLiteral("cudnn forward, d=128"));
    ASSERT_TRUE(cudnn);
    Q_EMIT cudnn->hovered(QPointF(std::log2(4096.0) + 0.1, 650), true);
    const QString text = chart.hoverText();
    EXPECT_TRUE(text.startsWith(QStringLiteral("cudnn forward, d=128\nseq 4096 tokens: 655 TFLOP/s"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("per call, batch 4 × 16 heads"))) << text.toStdString();
    Q_EMIT cudnn->hovered(QPointF(std::log2(4096.0), 650), false);
    EXPECT_TRUE(chart.hoverText().isEmpty());
}

TEST(AttentionChart, AProfilesPublishedRatesAreDashedNextToTheMeasured)
{
    AttentionChart chart;
    chart.resize(1200, 700);
    chart.show();
    chart.setData(h200Attention());
    auto* note = chart.findChild<QLabel*>(QStringLiteral("attentionNote"));
    ASSERT_TRUE(note);
    EXPECT_TRUE(note->text().contains(QStringLiteral("h100-sxm"))) << "says where references come from";
    chart.setHardwareProfile(findHardwareProfile("h100-sxm"));
    EXPECT_TRUE(note->text().isEmpty()) << note->text().toStdString();
    const auto* fa3 = curveNamed(chart, QStringLiteral("fa3 forward, d=128 (h100-sxm, published)"));
    ASSERT_TRUE(fa3);
    EXPECT_EQ(fa3->pen().style(), Qt::DashLine);
    const auto* cudnn = curveNamed(chart, QStringLiteral("cudnn forward, d=128 (h100-sxm, published)"));
    ASSERT_TRUE(cudnn);
    EXPECT_NEAR(rateAt(cudnn, 4096), 609, 1e-9); // FlashAttention-3 paper, Figure 5, cuDNN bar on an H100
    EXPECT_EQ(curveNamed(chart, QStringLiteral("cudnn forward, d=128"))->pen().style(), Qt::SolidLine);
    EXPECT_EQ(cudnn->pen().color(), curveNamed(chart, QStringLiteral("cudnn forward, d=128"))->pen().color())
        << "the same backend, the same colour";
    rl::testing::shoot(&chart, "attention-chart-h100-references.png");

    test::TempDir dir;
    QString error;
    const QString csv = dir.filePath(QStringLiteral("attention.csv"));
    ASSERT_TRUE(chart.exportTo(csv, &error)) << error.toStdString();
    QFile file(csv);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QString rows = QString::fromUtf8(file.readAll());
    EXPECT_TRUE(rows.startsWith(QStringLiteral("session_id,reference,backend,pass,causal,head_dim,seq,tflops")));
    EXPECT_TRUE(rows.contains(QStringLiteral("1,0,cudnn,forward,0,128,4096,655."))) << rows.toStdString();
    EXPECT_TRUE(rows.contains(QStringLiteral("0,1,fa3,forward,0,128,"))) << rows.toStdString();
    ASSERT_TRUE(chart.exportTo(dir.filePath(QStringLiteral("attention.svg")), &error)) << error.toStdString();
    EXPECT_GT(QFileInfo(dir.filePath(QStringLiteral("attention.svg"))).size(), 1000);
}

// The probe's sessions in a workspace as the store keeps them (params with the kept records),
// selected in the main window.
class ProbeSessionsInTheWindow : public ::testing::Test
{
protected:
    test::TempDir dir;
    QString ws = dir.filePath(QStringLiteral("ws.db"));
    std::int64_t attention = 0, step = 0, trace = 0;

    void SetUp() override
    {
        store::Workspace w(ws.toStdString());
        Session t;
        t.kind = kind::Trace;
        t.title = "the step's profiler trace";
        trace = w.createSession(t);
        attention = w.createSession(test::h200ProbeSession("attention.jsonl"));
        Session s = test::h200ProbeSession("step.jsonl");
        s.params["trace_session"] = trace; // as `ridgeline-cli run probe --probe step` names it
        step = w.createSession(s);
    }
};

TEST_F(ProbeSessionsInTheWindow, AnAttentionSessionShowsTheKernelViewsAttentionTab)
{
    rl::testing::OpenWindow open(dir, ws);
    ASSERT_TRUE(open.loaded);
    auto& window = open.window;
    ASSERT_TRUE(rl::testing::waitFor([&] { return window.sessionBrowser()->session(attention).has_value(); }));
    auto* views = window.findChild<QStackedWidget*>();
    auto* kernels = window.findChild<KernelView*>();
    ASSERT_TRUE(views && kernels);
    QSignalSpy charts(&window, &MainWindow::chartsShown);
    window.sessionBrowser()->selectSessions({attention});
    ASSERT_TRUE(charts.wait(15000));
    EXPECT_EQ(views->currentWidget(), kernels) << "not the collective charts, which have nothing of it";
    EXPECT_NE(views->currentWidget(), window.chartArea());
    EXPECT_EQ(kernels->tabs()->currentWidget(), kernels->attention());
    EXPECT_EQ(kernels->tabs()->tabText(kernels->tabs()->currentIndex()), QStringLiteral("Attention"));
    EXPECT_FALSE(kernels->tabs()->isTabEnabled(1)) << "no GEMM points";
    EXPECT_FALSE(kernels->tabs()->isTabEnabled(0)) << "nothing of it on the roofline";
    EXPECT_EQ(drawnCurves(*kernels->attention()).size(), 4u);
    EXPECT_NEAR(rateAt(curveNamed(*kernels->attention(), QStringLiteral("cudnn forward, d=128")), 4096), 655.0, 0.5);

    kernels->setHardwareProfile(QStringLiteral("h100-sxm"));
    EXPECT_TRUE(curveNamed(*kernels->attention(), QStringLiteral("fa3 forward, d=128 (h100-sxm, published)")))
        << "the view's hardware profile box gives the published rates";
    rl::testing::shoot(&window, "mainwindow-attention.png");
}

TEST_F(ProbeSessionsInTheWindow, AStepSessionShowsItsTimedStepsAndSummaryAndLeadsToItsTrace)
{
    rl::testing::OpenWindow open(dir, ws);
    ASSERT_TRUE(open.loaded);
    auto& window = open.window;
    ASSERT_TRUE(rl::testing::waitFor([&] { return window.sessionBrowser()->session(step).has_value(); }));
    auto* views = window.findChild<QStackedWidget*>();
    auto* steps = window.findChild<StepView*>();
    ASSERT_TRUE(views && steps);
    window.sessionBrowser()->selectSessions({step});
    ASSERT_TRUE(rl::testing::waitFor([&] { return views->currentWidget() == steps; }));
    ASSERT_EQ(steps->steps()->rowCount(), 8);
    EXPECT_EQ(steps->steps()->item(0, StepView::StepColumn)->text(), QStringLiteral("0"));
    EXPECT_EQ(steps->steps()->item(3, StepView::TimeColumn)->text(), QStringLiteral("166.94"));
    EXPECT_EQ(steps->steps()->item(0, StepView::TflopsColumn)->text(), QStringLiteral("457.2"));
    EXPECT_TRUE(steps->summaryText().contains(QStringLiteral("8 timed steps, median 157.93 ms")))
        << steps->summaryText().toStdString();
    EXPECT_TRUE(steps->summaryText().contains(QStringLiteral("456 TFLOP/s"))) << steps->summaryText().toStdString();
    rl::testing::shoot(&window, "mainwindow-step.png");

    auto* show = steps->findChild<QPushButton*>(QStringLiteral("showStepTrace"));
    ASSERT_TRUE(show);
    ASSERT_TRUE(show->isVisible());
    EXPECT_TRUE(show->text().contains(QString::number(trace))) << show->text().toStdString();
    show->click();
    ASSERT_TRUE(rl::testing::waitFor([&] { return views->currentWidget() == window.findChild<TraceView*>(); }));
    EXPECT_EQ(window.sessionBrowser()->selectedIds(), std::vector<std::int64_t>{trace});
}

// A run's step records come as the probe times them: the window reloads the step session it shows
// (its steps are kept in the session's params), as it reloads a kernel run's charts.
TEST_F(ProbeSessionsInTheWindow, AStepShownWhileItsRunStoresStepsGainsThemAsTheyCome)
{
    rl::testing::OpenWindow open(dir, ws);
    ASSERT_TRUE(open.loaded);
    auto& window = open.window;
    ASSERT_TRUE(rl::testing::waitFor([&] { return window.sessionBrowser()->session(step).has_value(); }));
    auto* steps = window.findChild<StepView*>();
    window.sessionBrowser()->selectSessions({step});
    ASSERT_TRUE(rl::testing::waitFor([&] { return steps->steps()->rowCount() == 8; }));
    {
        store::Workspace w(ws.toStdString());
        auto params = w.session(step)->params;
        auto next = params["timed_steps"].back();
        next["step"] = 8;
        next["time_ms"] = 150.25;
        params["timed_steps"].push_back(next);
        w.setParams(step, params);
    }
    emit window.runController()->keptRecordAvailable(step); // as RunController does for a "step" line
    ASSERT_TRUE(rl::testing::waitFor([&] { return steps->steps()->rowCount() == 9; }))
        << "the ninth step, stored by the run, never showed";
    EXPECT_EQ(steps->steps()->item(8, StepView::TimeColumn)->text(), QStringLiteral("150.25"));
    EXPECT_EQ(window.sessionBrowser()->selectedIds(), std::vector<std::int64_t>{step}) << "the selection stays";
}

// nvbandwidth's directed copy matrices (kind copybw) have their tables; they fell through to the
// empty collective charts. A selection of kinds with different views and no collective session
// shows the first session's view with what it can show, and says how many it left out.
TEST_F(ProbeSessionsInTheWindow, CopyMatricesHaveTablesAndAMixedSelectionSaysWhatItLeftOut)
{
    std::int64_t copybw = 0;
    {
        store::Workspace w(ws.toStdString());
        const auto outcome = store::importIntoWorkspace(w, RIDGELINE_TEST_DATA "/kernels/nvbandwidth-v0.8-4gpu.json");
        ASSERT_TRUE(outcome.ok) << outcome.error;
        copybw = outcome.sessionIds.at(0);
    }
    rl::testing::OpenWindow open(dir, ws);
    ASSERT_TRUE(open.loaded);
    auto& window = open.window;
    ASSERT_TRUE(rl::testing::waitFor([&] { return window.sessionBrowser()->session(copybw).has_value(); }));
    auto* views = window.findChild<QStackedWidget*>();
    auto* copies = window.findChild<CopyBandwidthView*>();
    ASSERT_TRUE(views && copies);
    window.sessionBrowser()->selectSessions({copybw});
    ASSERT_TRUE(rl::testing::waitFor([&] { return views->currentWidget() == copies; }));
    ASSERT_EQ(copies->tables().size(), 2u) << "the waived bidirectional test has no matrix";
    const auto* h2d = copies->tables()[0]->resultModel();
    ASSERT_EQ(h2d->rowCount(), 1);
    ASSERT_EQ(h2d->columnCount(), 4);
    EXPECT_EQ(h2d->headerData(0, Qt::Vertical).toString(), QStringLiteral("0"));
    EXPECT_EQ(h2d->headerData(3, Qt::Horizontal).toString(), QStringLiteral("3\n(GB/s)"));
    EXPECT_EQ(h2d->index(0, 3).data().toString(), QStringLiteral("55.5"));
    EXPECT_DOUBLE_EQ(h2d->index(0, 3).data(charts::ResultTableModel::ValueRole).toDouble(), 55.48);
    const auto* d2d = copies->tables()[1]->resultModel();
    ASSERT_EQ(d2d->rowCount(), 4);
    EXPECT_EQ(d2d->index(2, 2).data().toString(), QStringLiteral("N/A")) << "a GPU with itself";
    EXPECT_EQ(d2d->index(2, 1).data().toString(), QStringLiteral("389.7"));
    EXPECT_TRUE(copies->summaryText().contains(QStringLiteral("2 matrices"))) << copies->summaryText().toStdString();
    rl::testing::shoot(&window, "mainwindow-copybw.png");

    // A step with the copy matrices: the step's view, the matrices left out and said so.
    window.sessionBrowser()->selectSessions({step, copybw});
    ASSERT_TRUE(rl::testing::waitFor([&] { return views->currentWidget() == window.findChild<StepView*>(); }));
    EXPECT_TRUE(window.statusBar()->currentMessage().contains(QStringLiteral("Showing 1 of the 2 selected sessions")))
        << window.statusBar()->currentMessage().toStdString();
    // The Details dock says the same: it said "(overlaid in the charts)" of the left-out matrices too.
    const QString details = window.findChild<QLabel*>(QStringLiteral("detailsTitle"))->text();
    EXPECT_EQ(details, QStringLiteral("2 sessions selected (the view shows 1 of them; select the others alone)"))
        << details.toStdString();
    EXPECT_NE(views->currentWidget(), window.chartArea());
    // An attention session with a step: the kernel view (the attention tab), the step left out.
    QSignalSpy charts(&window, &MainWindow::chartsShown);
    window.sessionBrowser()->selectSessions({step, attention});
    ASSERT_TRUE(charts.wait(15000));
    EXPECT_EQ(views->currentWidget(), window.findChild<KernelView*>());
}

// A GPU's GEMM points without a profile had no roof: the profile of the device the session names is
// chosen (and said so) until the user picks one; a CPU session goes back to its measured ceilings.
TEST_F(ProbeSessionsInTheWindow, AGpuSessionGetsItsDevicesProfileUntilTheUserPicksOne)
{
    std::int64_t gemm = 0, stream = 0;
    {
        store::Workspace w(ws.toStdString());
        const auto points = store::importIntoWorkspace(w, RIDGELINE_TEST_DATA "/probe/h200/gemm.jsonl");
        ASSERT_TRUE(points.ok) << points.error;
        gemm = points.sessionIds.at(0);
        const auto outcome = store::importIntoWorkspace(w, RIDGELINE_TEST_DATA "/kernels/stream-5.10-2threads.txt");
        ASSERT_TRUE(outcome.ok) << outcome.error;
        stream = outcome.sessionIds.at(0);
    }
    rl::testing::OpenWindow open(dir, ws);
    ASSERT_TRUE(open.loaded);
    auto& window = open.window;
    ASSERT_TRUE(rl::testing::waitFor([&] { return window.sessionBrowser()->session(stream).has_value(); }));
    auto* kernels = window.findChild<KernelView*>();
    auto* profile = kernels->findChild<QComboBox*>(QStringLiteral("kernelProfile"));
    ASSERT_TRUE(profile);
    QSignalSpy charts(&window, &MainWindow::chartsShown);
    window.sessionBrowser()->selectSessions({gemm});
    ASSERT_TRUE(rl::testing::waitFor([&] { return profile->currentData().toString() == QStringLiteral("h200"); }))
        << profile->currentData().toString().toStdString();
    EXPECT_TRUE(profile->toolTip().contains(QStringLiteral("the device the sessions name (H200)")))
        << profile->toolTip().toStdString();
    window.sessionBrowser()->selectSessions({stream});
    ASSERT_TRUE(rl::testing::waitFor([&] { return profile->currentData().toString().isEmpty(); }))
        << "a CPU's STREAM under the H200's roofs";
    // The user's choice stays, whatever is selected next.
    profile->setCurrentIndex(profile->findData(QStringLiteral("mi300x")));
    emit profile->activated(profile->currentIndex());
    window.sessionBrowser()->selectSessions({gemm});
    ASSERT_TRUE(rl::testing::waitFor([&] { return kernels->tabs()->isTabEnabled(1); }));
    EXPECT_EQ(profile->currentData().toString(), QStringLiteral("mi300x"));
}

TEST(GpuToolProbeOffer, TheDialogOffersTheProbeFirstAndHandsItsLauncherOver)
{
    ProbeEnv env;
    test::TempDir dir;
    qputenv("XDG_DATA_HOME", dir.filePath(QStringLiteral("data")).toLocal8Bit());
    GpuToolDialog dialog(QStringLiteral("ridgeline-cli"), dir.filePath(QStringLiteral("ws.db")));
    auto* offer = dialog.findChild<ProbeOffer*>(QStringLiteral("probeOffer"));
    ASSERT_TRUE(offer);
    auto* tool = dialog.findChild<QComboBox*>(QStringLiteral("tool"));
    ASSERT_TRUE(tool);
    dialog.show();
    ASSERT_TRUE(rl::testing::waitFor([&] { return offer->check()->isDone(); }, 120000));
    EXPECT_LT(offer->mapTo(&dialog, QPoint(0, 0)).y(), tool->mapTo(&dialog, QPoint(0, 0)).y()) << "first";
    if (offer->check()->found())
        EXPECT_TRUE(offer->text().startsWith(QStringLiteral("PyTorch probe, no tool to build: PyTorch ")))
            << offer->text().toStdString();
    else
        EXPECT_TRUE(offer->text().startsWith(QStringLiteral("PyTorch probe: Not found here"))) << offer->text().toStdString();
    rl::testing::shoot(&dialog, "gputool-probe-offer.png");

    GpuToolConfig c = dialog.config();
    c.launch.mode = LaunchSettings::Mode::LocalMpirun;
    c.launch.np = 4;
    dialog.setConfig(c);
    auto* open = dialog.findChild<QPushButton*>(QStringLiteral("openProbeDialog"));
    ASSERT_TRUE(open);
    open->click();
    EXPECT_EQ(dialog.result(), GpuToolDialog::ProbeRequested);
    // What the main window does with it: the probe dialog, launched as chosen here.
    ProbeDialog probe(QStringLiteral("ridgeline-cli"), dir.filePath(QStringLiteral("ws.db")));
    probe.setLaunch(dialog.config().launch);
    EXPECT_EQ(probe.request().launch.mode, LaunchSettings::Mode::LocalMpirun);
    EXPECT_EQ(probe.request().launch.np, 4);
}

TEST(GpuToolProbeOffer, WithoutTheProbeItSaysSoInOneLine)
{
    ProbeEnv env("/nonexistent/ridgeline-probe");
    test::TempDir dir;
    qputenv("XDG_DATA_HOME", dir.filePath(QStringLiteral("data")).toLocal8Bit());
    GpuToolDialog dialog(QStringLiteral("ridgeline-cli"), dir.filePath(QStringLiteral("ws.db")));
    auto* offer = dialog.findChild<ProbeOffer*>(QStringLiteral("probeOffer"));
    ASSERT_TRUE(offer);
    ASSERT_TRUE(rl::testing::waitFor([&] { return offer->check()->isDone(); }));
    EXPECT_FALSE(offer->check()->found());
    EXPECT_TRUE(offer->text().startsWith(QStringLiteral("PyTorch probe: ridgeline-probe could not start")))
        << offer->text().toStdString();
    EXPECT_FALSE(offer->text().contains(u'\n'));
}
