// Kernel-benchmark sessions in the main window: selecting them switches the central view to the
// roofline / GEMM efficiency / memory bandwidth tabs with the stored records, and a hardware
// profile adds its ceilings.
#include <QChart>
#include <QComboBox>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QTabWidget>

#include "gui/runs/kernelbenchmarkdialog.h"
#include "gui/runs/kernelview.h"
#include "gui/window/mainwindow.h"
#include "membwchart.h"
#include "rooflinechart.h"
#include "gui/runs/runcontroller.h"
#include "store/kernelresults.h"
#include "gui/window/sessionbrowser.h"
#include "settings.h"
#include "store/workspace.h"
#include "tempdir.h"
#include "test_gui_env.h"

TEST(GuiKernelView, KernelSessionsGetTheRooflineAndBandwidthViews)
{
    rl::test::TempDir dir;
    const QString ws = dir.filePath(QStringLiteral("ws.db"));
    qputenv("RIDGELINE_NO_DIALOGS", "1");
    rl::Settings settings{dir.filePath(QStringLiteral("settings.ini"))};
    rl::MainWindow window{&settings};
    window.resize(1300, 800);
    window.show();
    QSignalSpy shown(&window, &rl::MainWindow::sessionsShown);
    window.openWorkspace(ws);
    ASSERT_TRUE(shown.wait(15000));
    QSignalSpy imported(&window, &rl::MainWindow::importDone);
    window.importPaths({QStringLiteral(RIDGELINE_TEST_DATA "/kernels/membw-zen5-2cpu-kvm.jsonl"),
                        QStringLiteral(RIDGELINE_TEST_DATA "/kernels/rocblas-bench-gemm-mixed.txt"),
                        QStringLiteral(RIDGELINE_TEST_DATA "/traces/handmade_two_steps.json")});
    ASSERT_TRUE(imported.wait(30000));

    rl::store::Workspace store(ws.toStdString());
    std::int64_t membw = 0, gemm = 0, trace = 0;
    for (const auto& s : store.sessions()) {
        if (s.kind == rl::kind::Trace)
            trace = s.id;
        if (s.kind == rl::kind::MemBandwidth)
            membw = s.id;
        if (s.kind == rl::kind::Gemm)
            gemm = s.id;
    }
    ASSERT_TRUE(membw && gemm && trace);
    ASSERT_TRUE(rl::testing::waitFor([&] { return window.sessionBrowser()->session(gemm).has_value(); }));
    auto* views = window.findChild<QStackedWidget*>();
    auto* kernels = window.findChild<rl::KernelView*>();
    ASSERT_TRUE(views && kernels);
    QSignalSpy charts(&window, &rl::MainWindow::chartsShown);

    window.sessionBrowser()->selectSessions({membw});
    ASSERT_TRUE(charts.wait(15000));
    EXPECT_EQ(views->currentWidget(), kernels);
    EXPECT_EQ(kernels->tabs()->currentIndex(), 2) << "a membw sweep alone opens on memory bandwidth";
    EXPECT_FALSE(kernels->memoryBandwidth()->chart()->series().isEmpty());
    // The same sessions read again (a preference applied) keep the tab the user chose: a theme or
    // unit change moved them back to memory bandwidth (issue 24).
    kernels->tabs()->setCurrentIndex(0);
    settings.setBandwidthUnit(rl::units::BandwidthUnit::GiBps);
    ASSERT_TRUE(charts.wait(15000));
    EXPECT_EQ(kernels->tabs()->currentIndex(), 0);
    settings.setBandwidthUnit(rl::units::BandwidthUnit::GBps);
    ASSERT_TRUE(charts.wait(15000));

    window.sessionBrowser()->selectSessions({gemm, membw});
    ASSERT_TRUE(charts.wait(15000));
    kernels->tabs()->setCurrentIndex(0);
    const auto measuredOnly = kernels->roofline()->geometry();
    EXPECT_FALSE(measuredOnly.gemm.empty());
    kernels->setHardwareProfile(QStringLiteral("mi300x"));
    const auto withProfile = kernels->roofline()->geometry();
    EXPECT_GT(withProfile.compute.size(), measuredOnly.compute.size()) << "the profile's peaks are drawn too";
    EXPECT_EQ(kernels->findChild<QComboBox*>(QStringLiteral("kernelProfile"))->currentData().toString(),
              QStringLiteral("mi300x"));

    // A second profile, and a model's predicted GEMMs on the first profile.
    kernels->setCompareProfile(QStringLiteral("h100-sxm"));
    bool second = false;
    for (const auto& c : kernels->roofline()->geometry().compute)
        second = second || c.origin == rl::charts::CeilingOrigin::SecondProfile;
    EXPECT_TRUE(second);
    const auto sourceCount = [&](rl::charts::PointSource source) {
        int n = 0;
        for (const auto& s : kernels->roofline()->geometry().gemm)
            n += s.source == source ? int(s.points.size()) : 0;
        return n;
    };
    kernels->setModelGemms(QStringLiteral("llama-3-8b"), QStringLiteral("dp=8,tp=8"));
    EXPECT_GT(sourceCount(rl::charts::PointSource::Predicted), 5) << kernels->note().toStdString();
    kernels->setHardwareProfile(QString());
    EXPECT_EQ(sourceCount(rl::charts::PointSource::Predicted), 0);
    EXPECT_TRUE(kernels->note().contains(QStringLiteral("hardware profile"))) << kernels->note().toStdString();

    // A trace selected with the kernel sessions: its kernels that recorded flops and bytes join.
    window.sessionBrowser()->selectSessions({gemm, trace});
    ASSERT_TRUE(charts.wait(15000));
    EXPECT_EQ(views->currentWidget(), kernels);
    EXPECT_EQ(sourceCount(rl::charts::PointSource::Trace), 1); // the one GEMM with kernel_flop
    EXPECT_GT(sourceCount(rl::charts::PointSource::Imported), 0); // rocblas-bench is an import
}

// A kernel benchmark started from the window, as "New kernel benchmark…" starts it: the session is
// selected at once, the kernel view shows it, progress counts to the runner's own total, and the
// roofline holds every GEMM when it ends; every point is in the store.
TEST(GuiKernelView, AKernelBenchmarkRunFromTheWindowFillsItsChartsAsItRuns)
{
    rl::test::TempDir dir;
    const QString ws = dir.filePath(QStringLiteral("ws.db"));
    qputenv("RIDGELINE_NO_DIALOGS", "1");
    rl::Settings settings{dir.filePath(QStringLiteral("settings.ini"))};
    rl::MainWindow window{&settings};
    window.resize(1300, 800);
    window.show();
    QSignalSpy shown(&window, &rl::MainWindow::sessionsShown);
    window.openWorkspace(ws);
    ASSERT_TRUE(shown.wait(15000));

    rl::KernelBenchmarkDialog dialog(QStringLiteral(RIDGELINE_CLI_BIN), ws);
    dialog.setBenchmark(QStringLiteral("gemm"));
    EXPECT_TRUE(dialog.runnerArguments().contains(QStringLiteral("-m "))) << "each kind has its defaults";
    dialog.setRunnerArguments(QStringLiteral("-m 64:256:64 --dtypes float32 --repeats 1 --budget 0.02 --threads 1 --no-peak"));
    EXPECT_TRUE(dialog.previewText().contains(QStringLiteral("run gemm -- -m 64:256:64"))) << dialog.previewText().toStdString();

    auto* run = window.runController();
    QSignalSpy records(run, &rl::RunController::kernelRecordAvailable);
    QSignalSpy progress(run, &rl::RunController::progressChanged);
    QSignalSpy finished(run, &rl::RunController::runFinished);
    QSignalSpy failed(run, &rl::RunController::runFailed);
    QSignalSpy charts(&window, &rl::MainWindow::chartsShown);
    window.startKernelBenchmark(dialog.cliArguments(), QStringLiteral(RIDGELINE_CLI_BIN));
    ASSERT_TRUE(rl::testing::waitFor([&] { return !finished.isEmpty() || !failed.isEmpty(); }, 120000));
    ASSERT_TRUE(failed.isEmpty()) << failed.first().first().toString().toStdString();
    EXPECT_EQ(finished.first().at(1).toString(), QStringLiteral("complete"));
    EXPECT_EQ(records.size(), 4);
    ASSERT_FALSE(progress.isEmpty());
    EXPECT_EQ(progress.last().at(0).toInt(), 4);
    EXPECT_EQ(progress.last().at(1).toInt(), 4) << "the total comes from the runner's header";

    rl::store::Workspace store(ws.toStdString());
    const auto session = store.session(run->sessionId());
    ASSERT_TRUE(session);
    EXPECT_EQ(session->kind, rl::kind::Gemm);
    EXPECT_EQ(session->status, rl::SessionStatus::Complete);
    EXPECT_EQ(rl::store::gemmPoints(store.database(), run->sessionId()).size(), 4u);

    auto* kernels = window.findChild<rl::KernelView*>();
    auto* views = window.findChild<QStackedWidget*>();
    ASSERT_TRUE(rl::testing::waitFor([&] {
        const auto& g = kernels->roofline()->geometry().gemm;
        return views->currentWidget() == kernels && !g.empty() && g.front().points.size() == 4;
    }, 15000));
    EXPECT_EQ(kernels->roofline()->geometry().gemm.front().source, rl::charts::PointSource::Measured);
}
