// The main window on a temporary workspace: imported sessions show in the browser, selecting one
// fills the details and the charts, selecting two overlays them, the filter narrows the list,
// notes are saved to the store.
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTreeView>
#include <QTreeWidget>

#include "chartarea.h"
#include "importcontroller.h"
#include "mainwindow.h"
#include "sessionbrowser.h"
#include "sessionmodel.h"
#include "settings.h"
#include "store/workspace.h"
#include "test_gui_env.h"

using rl::testing::waitFor;

namespace {
struct Fixture
{
    QTemporaryDir dir;
    QString ws = dir.filePath(QStringLiteral("ws.db"));
    rl::Settings settings{dir.filePath(QStringLiteral("settings.ini"))};
    rl::MainWindow window{&settings};

    Fixture()
    {
        qputenv("RIDGELINE_NO_DIALOGS", "1");
        window.resize(1300, 800);
        window.show();
        QSignalSpy shown(&window, &rl::MainWindow::sessionsShown);
        window.openWorkspace(ws);
        EXPECT_TRUE(shown.wait(15000));
        QSignalSpy imported(&window, &rl::MainWindow::importDone);
        window.importPaths({rl::testing::guiData("import")});
        EXPECT_TRUE(imported.wait(30000));
        EXPECT_TRUE(waitFor([&] { return window.sessionBrowser()->model()->sessionCount() == 3; }));
    }
};
} // namespace

TEST(GuiMainWindow, ShowsSessionsDetailsAndCharts)
{
    Fixture f;
    auto& w = f.window;
    EXPECT_EQ(w.findChild<QLabel*>(QStringLiteral("workspacePath"))->text(), f.ws);
    EXPECT_EQ(f.settings.recentWorkspaces().value(0), f.ws);

    rl::store::Workspace ws(f.ws.toStdString());
    std::int64_t allgather = 0, allreduce = 0;
    for (const auto& s : ws.sessions()) {
        if (s.title == "all_gather 8 ranks H100")
            allgather = s.id;
        if (s.title == "all_reduce 8 ranks MI300X")
            allreduce = s.id;
    }
    ASSERT_NE(allgather, 0);
    ASSERT_NE(allreduce, 0);

    QSignalSpy charts(&w, &rl::MainWindow::chartsShown);
    w.sessionBrowser()->selectSessions({allgather});
    ASSERT_TRUE(charts.wait(15000));
    // Shown with zero-width break points after separators, so long file names wrap in the dock.
    const auto* title = w.findChild<QLabel*>(QStringLiteral("detailsTitle"));
    EXPECT_EQ(title->text(), QStringLiteral("all_\u200Bgather 8 ranks H100"));
    EXPECT_EQ(title->toolTip(), QStringLiteral("all_gather 8 ranks H100"));
    EXPECT_EQ(w.findChild<QLabel*>(QStringLiteral("detailsHost"))->text(), QStringLiteral("h100-node07"));
    EXPECT_TRUE(w.findChild<QLabel*>(QStringLiteral("detailsCommandLine"))->text().contains(QStringLiteral("mpirun -np 8")));
    EXPECT_EQ(w.findChild<QLabel*>(QStringLiteral("detailsTool"))->text(), QStringLiteral("ridgeline-bench 0.1.0"));
    auto* params = w.findChild<QTreeWidget*>(QStringLiteral("detailsParams"));
    ASSERT_TRUE(params);
    EXPECT_FALSE(params->findItems(QStringLiteral("np"), Qt::MatchExactly).isEmpty());
    EXPECT_EQ(w.chartArea()->pointCount(), 12);

    w.sessionBrowser()->selectSessions({allreduce, allgather});
    ASSERT_TRUE(charts.wait(15000));
    EXPECT_EQ(w.chartArea()->data().size(), 2u) << "two selected sessions are overlaid";
    EXPECT_EQ(w.chartArea()->pointCount(), 24);
    EXPECT_TRUE(w.findChild<QLabel*>(QStringLiteral("detailsTitle"))->text().startsWith(QStringLiteral("2 sessions")));

    auto* search = w.findChild<QLineEdit*>(QStringLiteral("sessionSearch"));
    auto* view = w.findChild<QTreeView*>(QStringLiteral("sessionView"));
    search->setText(QStringLiteral("h100"));
    EXPECT_EQ(view->model()->rowCount(view->model()->index(0, 0)), 1);
    search->clear();
    EXPECT_EQ(view->model()->rowCount(view->model()->index(0, 0)), 3);
}

TEST(GuiMainWindow, NotesAreSavedToTheStore)
{
    Fixture f;
    auto& w = f.window;
    rl::store::Workspace ws(f.ws.toStdString());
    const auto id = ws.sessions().front().id;
    QSignalSpy charts(&w, &rl::MainWindow::chartsShown);
    w.sessionBrowser()->selectSessions({id});
    ASSERT_TRUE(charts.wait(15000));
    auto* notes = w.findChild<QPlainTextEdit*>(QStringLiteral("detailsNotes"));
    auto* save = w.findChild<QPushButton*>(QStringLiteral("detailsSaveNotes"));
    EXPECT_FALSE(save->isEnabled());
    notes->setPlainText(QStringLiteral("re-run after the RCCL upgrade"));
    EXPECT_TRUE(save->isEnabled());
    save->click();
    EXPECT_TRUE(waitFor([&] { return ws.session(id)->notes == "re-run after the RCCL upgrade"; }));
    EXPECT_TRUE(waitFor([&] { return !save->isEnabled(); }));
}
