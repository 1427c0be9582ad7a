// Trace and training-log sessions in the main window: selecting one switches the central view to
// the step breakdown / kernels / training-log tabs with the stored numbers; selecting a collective
// session switches back to the collective charts.
#include <QSignalSpy>
#include <QStackedWidget>
#include <QTableView>

#include "gui/window/chartarea.h"
#include "gui/window/mainwindow.h"
#include "gui/window/sessionbrowser.h"
#include "settings.h"
#include "stepbreakdownchart.h"
#include "store/traceresults.h"
#include "store/workspace.h"
#include "tempdir.h"
#include "test_gui_env.h"
#include "gui/traces/traceview.h"
#include "trainlogchart.h"

TEST(GuiTraceView, TraceLogAndCollectiveSessionsEachGetTheirView)
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
    window.importPaths({QStringLiteral(RIDGELINE_TEST_DATA "/traces/ranks"),
                        QStringLiteral(RIDGELINE_TEST_DATA "/logs/megatron_lm_restart.log"),
                        QStringLiteral(RIDGELINE_TEST_DATA "/collectives/nccl_2.13_allreduce_8xh100.txt")});
    ASSERT_TRUE(imported.wait(30000));

    rl::store::Workspace store(ws.toStdString());
    std::int64_t trace = 0, log = 0, bench = 0;
    for (const auto& s : store.sessions()) {
        if (s.kind == rl::kind::Trace)
            trace = s.id;
        else if (s.kind == rl::kind::TrainingLog)
            log = s.id;
        else
            bench = s.id;
    }
    ASSERT_TRUE(trace && log && bench);
    ASSERT_TRUE(rl::testing::waitFor([&] { return window.sessionBrowser()->session(trace).has_value(); }));

    auto* views = window.findChild<QStackedWidget*>();
    auto* traceView = window.findChild<rl::TraceView*>();
    ASSERT_TRUE(views && traceView);
    QSignalSpy charts(&window, &rl::MainWindow::chartsShown);

    window.sessionBrowser()->selectSessions({trace});
    ASSERT_TRUE(charts.wait(15000));
    EXPECT_EQ(views->currentWidget(), traceView);
    EXPECT_EQ(traceView->stepChart()->data().session.id, trace);
    EXPECT_EQ(traceView->stepChart()->data().steps.size(), rl::store::stepBreakdowns(store.database(), trace).size());
    EXPECT_GT(traceView->kernelTable()->model()->rowCount(), 0);
    EXPECT_FALSE(traceView->isTabEnabled(2)) << "no training log selected";

    window.sessionBrowser()->selectSessions({log});
    ASSERT_TRUE(charts.wait(15000));
    EXPECT_EQ(views->currentWidget(), traceView);
    EXPECT_EQ(traceView->currentIndex(), 2);
    EXPECT_EQ(traceView->trainLogChart()->data().trainSteps.size(), rl::store::trainSteps(store.database(), log).size());

    window.sessionBrowser()->selectSessions({bench});
    ASSERT_TRUE(charts.wait(15000));
    EXPECT_EQ(views->currentWidget(), window.chartArea());
    EXPECT_GT(window.chartArea()->pointCount(), 0);
}
