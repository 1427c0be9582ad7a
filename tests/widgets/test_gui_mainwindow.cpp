// The main window on a temporary workspace: imported sessions show in the browser, selecting one
// fills the details and the charts, selecting two overlays them, the filter narrows the list,
// notes are saved to the store.
#include <QScreen>
#include <QDockWidget>
#include <QApplication>
#include <QFile>
#include <QTimer>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QTableView>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QTreeView>
#include <QTreeWidget>

#include <QAbstractSeries>
#include <QChart>
#include <QFile>
#include <QXYSeries>

#include <QDateTime>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QTextBrowser>

#include <map>
#include <QScrollBar>

#include "gui/window/chartarea.h"
#include "detailspanel.h"
#include "gui/settings/manualdialog.h"
#include "collectivechart.h"
#include "collectivepointmodel.h"
#include "collectives/tierpeak.h"
#include "gui/window/importcontroller.h"
#include "gui/window/mainwindow.h"
#include "gui/window/toolwindow.h"
#include "records/wireformat.h"
#include "gui/runs/runcontroller.h"
#include "gui/window/sessionbrowser.h"
#include "sessionmodel.h"
#include "settings.h"
#include "gui/window/startup.h"
#include "store/workspace.h"
#include "tempdir.h"
#include "test_gui_env.h"
#include "units/units.h"

using rl::testing::waitFor;

namespace {
struct Fixture
{
    rl::test::TempDir dir;
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
    EXPECT_EQ(w.findChild<QLabel*>(QStringLiteral("detailsTitle"))->text(),
              QStringLiteral("2 sessions selected (overlaid in the charts)"));

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

namespace {
std::int64_t sessionTitled(const QString& ws, const std::string& title)
{
    rl::store::Workspace w(ws.toStdString());
    for (const auto& s : w.sessions())
        if (s.title == title)
            return s.id;
    return 0;
}
} // namespace

// Issue 9 item 8: two overlaid sessions' rows carry which session (id and host) they came from.
TEST(GuiMainWindow, ResultsTableNamesTheSessionOfEachRow)
{
    Fixture f;
    auto& w = f.window;
    const auto h100 = sessionTitled(f.ws, "all_gather 8 ranks H100");
    const auto mi300x = sessionTitled(f.ws, "all_reduce 8 ranks MI300X");
    QSignalSpy charts(&w, &rl::MainWindow::chartsShown);
    w.sessionBrowser()->selectSessions({h100, mi300x});
    ASSERT_TRUE(charts.wait(15000));
    auto* table = w.findChild<QTableView*>(QStringLiteral("resultsTable"));
    ASSERT_TRUE(table);
    const int column = rl::CollectivePointModel::SessionLabel;
    EXPECT_FALSE(table->isColumnHidden(column));
    EXPECT_EQ(table->model()->headerData(column, Qt::Horizontal).toString(), QStringLiteral("Session"));
    QStringList labels;
    for (int r = 0; r < table->model()->rowCount(); ++r)
        labels << table->model()->index(r, column).data().toString();
    labels.removeDuplicates();
    labels.sort();
    EXPECT_EQ(labels, (QStringList{QStringLiteral("#%1 h100-node07").arg(h100),
                                   QStringLiteral("#%1 mi300x-node01").arg(mi300x)}));
    // A session of many hosts must not push the figures off screen (issue 24, minor list): the
    // column stays narrow, elides in the middle, and the tooltip names the session.
    EXPECT_LE(table->columnWidth(column), 200);
    EXPECT_EQ(table->textElideMode(), Qt::ElideMiddle);
    EXPECT_FALSE(table->model()->index(0, column).data(Qt::ToolTipRole).toString().isEmpty());
}

// Issue 13, "is this number good?": every row with a busbw says what share of its tier's ceiling
// it reaches, from the same sessionTierPeak the chart's peak line and the CLI's results use.
TEST(GuiMainWindow, ResultsTableGivesBusbwAsAShareOfTheTiersPeak)
{
    Fixture f;
    auto& w = f.window;
    // A published run whose header names its devices (NVIDIA H100 80GB HBM3) and its one host.
    QSignalSpy imported(&w, &rl::MainWindow::importDone);
    w.importPaths({QStringLiteral(RIDGELINE_SAMPLE_DATA "/nccl-tests_8xH100_all_collectives.txt")});
    ASSERT_TRUE(imported.wait(30000));
    std::int64_t h100 = 0;
    int sessions = 0;
    {
        rl::store::Workspace ws(f.ws.toStdString());
        for (const auto& s : ws.sessions()) {
            ++sessions;
            if (s.tool == "nccl-tests")
                h100 = s.id;
        }
    }
    ASSERT_NE(h100, 0);
    ASSERT_TRUE(waitFor([&] { return w.sessionBrowser()->model()->sessionCount() == sessions; }));
    w.sessionBrowser()->selectSessions({h100});
    auto* area = w.findChild<rl::ChartArea*>(QStringLiteral("chartArea"));
    auto* table = w.findChild<QTableView*>(QStringLiteral("resultsTable"));
    ASSERT_TRUE(area && table);
    ASSERT_TRUE(waitFor([&] { return area->data().size() == 1 && area->data().front().session.id == h100; }));
    const int column = rl::CollectivePointModel::PeakShare;
    EXPECT_EQ(table->model()->headerData(column, Qt::Horizontal).toString(), QStringLiteral("% of tier peak"));
    rl::store::Workspace ws(f.ws.toStdString());
    const auto session = *ws.session(h100);
    const auto* model = table->model();
    int checked = 0;
    for (int r = 0; r < model->rowCount(); ++r) {
        const auto busbw = model->index(r, rl::CollectivePointModel::BusBw).data(rl::CollectivePointModel::SortRole).toDouble();
        const auto op = model->index(r, rl::CollectivePointModel::Op).data().toString().toStdString();
        const int ranks = model->index(r, rl::CollectivePointModel::Ranks).data().toInt();
        const QString text = model->index(r, column).data().toString();
        std::string why;
        const auto peak = rl::sessionTierPeak(session, op, ranks, {}, 0, &why);
        if (busbw <= 0 || !peak) {
            EXPECT_TRUE(text.isEmpty()) << "row " << r << ": " << why;
            continue;
        }
        EXPECT_EQ(text, QString::fromStdString(rl::units::formatPercent(busbw / peak->peakBusGBs))) << "row " << r;
        EXPECT_TRUE(model->index(r, column).data(Qt::ToolTipRole).toString().contains(QString::fromStdString(peak->reasoning)));
        ++checked;
    }
    EXPECT_GT(checked, 10);
}

// Issue 10: a live point is one more row of the one table model (no reset of the table), and
// the chart tabs read the same data set.
TEST(GuiMainWindow, LivePointsAppendOneRowAndReachEveryTab)
{
    Fixture f;
    auto& w = f.window;
    const auto h100 = sessionTitled(f.ws, "all_gather 8 ranks H100");
    QSignalSpy charts(&w, &rl::MainWindow::chartsShown);
    w.sessionBrowser()->selectSessions({h100});
    ASSERT_TRUE(charts.wait(15000));
    auto* area = w.findChild<rl::ChartArea*>(QStringLiteral("chartArea"));
    auto* table = w.findChild<QTableView*>(QStringLiteral("resultsTable"));
    ASSERT_TRUE(area && table);
    const int rows = table->model()->rowCount();
    QSignalSpy resets(table->model(), &QAbstractItemModel::modelReset);
    QSignalSpy inserted(table->model(), &QAbstractItemModel::rowsInserted);
    rl::CollectivePoint p = area->data().front().points.back();
    p.bytes *= 2;
    area->appendPoint(h100, p);
    area->appendPoint(h100, p); // the store read and the live stream may both carry it: kept once
    EXPECT_EQ(table->model()->rowCount(), rows + 1);
    EXPECT_EQ(inserted.count(), 1);
    EXPECT_EQ(resets.count(), 0);
    for (auto* chart : area->findChildren<rl::charts::CollectiveChart*>())
        EXPECT_EQ(&chart->sessions(), &area->data()) << "every tab reads the one data set";
}

namespace {
// The points a collective chart tab draws per curve: the series named after each curve of the data.
std::map<std::string, int> drawnPerCurve(rl::charts::CollectiveChart* chart)
{
    std::map<std::string, int> out;
    const auto series = chart->chart()->series();
    for (const auto& curve : rl::charts::collectCurves(chart->sessions()))
        for (QAbstractSeries* s : series)
            if (s->name() == QString::fromStdString(curve.name))
                out[curve.name] = int(qobject_cast<QXYSeries*>(s)->count());
    return out;
}

void writeLines(const QString& path, const std::vector<nlohmann::json>& records, std::int64_t sessionId)
{
    QFile f(path);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    for (auto r : records) {
        r["session_id"] = sessionId; // as ridgeline-cli echoes a record it stored
        f.write(QByteArray::fromStdString(r.dump() + '\n'));
    }
}
} // namespace

// Issue 10, through the real path: a run's output lines (RunController) -> MainWindow ->
// ChartArea, which appends each point once to the data set the tabs and the table read. A shell
// script stands in for ridgeline-cli: it says which session runs, waits until the window shows it,
// then prints the points, and keeps the run open while they are checked (the end reloads from
// the store). Afterwards the table's rows, each size chart's series and the data set agree, and
// every row is the data set's own point, not a copy.
TEST(GuiMainWindow, LivePointsOfARunAreStoredOnceAndEveryViewReadsThem)
{
    Fixture f;
    auto& w = f.window;
    const auto h100 = sessionTitled(f.ws, "all_gather 8 ranks H100");
    const rl::Session session = *rl::store::Workspace(f.ws.toStdString()).session(h100);
    const auto stored = rl::store::Workspace(f.ws.toStdString()).collectivePoints(h100);
    ASSERT_FALSE(stored.empty());
    rl::CollectivePoint last = stored.front();
    for (const auto& p : stored)
        if (!p.inPlace && p.bytes > last.bytes)
            last = p;
    std::vector<nlohmann::json> points;
    auto next = last;
    for (int i = 0; i < 4; ++i) { // a sweep going on past the stored sizes
        next.bytes *= 2;
        next.count *= 2;
        points.push_back(rl::wire::toJson(next));
    }
    auto between = stored.front();
    between.bytes += 1; // a size between two drawn ones: the series is redrawn in order
    points.push_back(rl::wire::toJson(between));
    auto other = last;
    other.inPlace = !other.inPlace;
    other.bytes *= 1024;
    points.push_back(rl::wire::toJson(other)); // a curve the session did not have: the tabs rebuild
    next.bytes *= 2;
    points.push_back(rl::wire::toJson(next)); // and append again after the rebuild
    const int live = int(points.size());

    rl::test::TempDir run;
    writeLines(run.filePath(QStringLiteral("header.jsonl")), {rl::wire::toJson(session)}, h100);
    writeLines(run.filePath(QStringLiteral("points.jsonl")), points, h100);
    writeLines(run.filePath(QStringLiteral("end.jsonl")), {rl::wire::endRecord(rl::SessionStatus::Complete)}, h100);
    QFile script(run.filePath(QStringLiteral("cli.sh")));
    ASSERT_TRUE(script.open(QIODevice::WriteOnly));
    script.write("cat \"$1/header.jsonl\"\n"
                 "while [ ! -e \"$1/go\" ]; do sleep 0.02; done\n"
                 "cat \"$1/points.jsonl\"\n"
                 "while [ ! -e \"$1/stop\" ]; do sleep 0.02; done\n"
                 "cat \"$1/end.jsonl\"\n");
    script.close();

    auto* area = w.chartArea();
    auto* table = w.findChild<QTableView*>(QStringLiteral("resultsTable"));
    ASSERT_TRUE(area && table);
    // The model sorts itself (no proxy): the rows come sorted from the loader's worker.
    auto* model = qobject_cast<rl::CollectivePointModel*>(table->model());
    ASSERT_TRUE(model);
    auto* runner = w.runController();
    QSignalSpy charts(&w, &rl::MainWindow::chartsShown);
    QSignalSpy finished(runner, &rl::RunController::runFinished);
    QSignalSpy failed(runner, &rl::RunController::runFailed);
    runner->start(QStringLiteral("/bin/sh"), {script.fileName(), run.qpath()}, live);
    // The window selects the run's session and shows what the store holds of it.
    ASSERT_TRUE(waitFor([&] { return !charts.isEmpty() && area->data().size() == 1 && area->data().front().session.id == h100; }))
        << (failed.isEmpty() ? std::string() : failed.first().first().toString().toStdString());
    const int before = area->pointCount();
    ASSERT_EQ(before, int(stored.size()));
    ASSERT_EQ(model->rowCount(), before);
    const auto* dataSet = &area->data();
    QSignalSpy resets(model, &QAbstractItemModel::modelReset);
    QSignalSpy inserted(model, &QAbstractItemModel::rowsInserted);

    ASSERT_TRUE(QFile(run.filePath(QStringLiteral("go"))).open(QIODevice::WriteOnly));
    ASSERT_TRUE(waitFor([&] { return runner->pointsDone() == live; }));
    EXPECT_TRUE(failed.isEmpty());
    EXPECT_TRUE(finished.isEmpty()) << "checked while the run is live";

    // One data set, appended once per point: the table's rows, the data set and each size tab's
    // series agree, point for point.
    EXPECT_EQ(&area->data(), dataSet) << "live points do not replace the data set";
    EXPECT_EQ(area->pointCount(), before + live);
    EXPECT_EQ(model->rowCount(), before + live);
    EXPECT_EQ(inserted.count(), live) << "one inserted row per point";
    EXPECT_EQ(resets.count(), 0);
    EXPECT_EQ(model->sessions().get(), dataSet);
    const auto& pts = area->data().front().points;
    for (int r = 0; r < model->rowCount(); ++r)
        EXPECT_EQ(&model->point(r), &pts[std::size_t(r)]) << "row " << r << " is the data set's own point";
    EXPECT_EQ(model->point(before + live - 1).bytes, next.bytes) << "the last live point is the last row";

    for (auto* chart : area->findChildren<rl::charts::CollectiveChart*>()) {
        EXPECT_EQ(&chart->sessions(), dataSet) << chart->objectName().toStdString();
        if (chart->kind() != rl::charts::ChartKind::Bandwidth && chart->kind() != rl::charts::ChartKind::Latency)
            continue;
        // A tab is drawn when it is shown (issue 26 item 11): look at it as the user would.
        area->setCurrentWidget(chart);
        EXPECT_FALSE(chart->isUndrawn());
        const auto drawn = drawnPerCurve(chart);
        std::map<std::string, int> expected;
        int total = 0;
        for (const auto& curve : rl::charts::collectCurves(area->data())) {
            expected[curve.name] = int(curve.points.size());
            total += int(curve.points.size());
        }
        EXPECT_EQ(drawn, expected) << chart->objectName().toStdString();
        EXPECT_EQ(total, before + live);
        EXPECT_EQ(expected.size(), 2u) << "the in-place point made a curve of its own";
    }

    ASSERT_TRUE(QFile(run.filePath(QStringLiteral("stop"))).open(QIODevice::WriteOnly));
    ASSERT_TRUE(waitFor([&] { return !finished.isEmpty(); }));
}

// Issue 9 item 12: selecting sessions must not widen the window (the details dock grew to the
// longest unbreakable text and pushed the window from 1400 to 1470 px).
TEST(GuiMainWindow, SelectingSessionsKeepsTheWindowWidth)
{
    Fixture f;
    auto& w = f.window;
    w.resize(1400, 850);
    ASSERT_TRUE(waitFor([&] { return w.width() == 1400; }));
    rl::store::Workspace ws(f.ws.toStdString());
    QSignalSpy charts(&w, &rl::MainWindow::chartsShown);
    std::vector<std::int64_t> all;
    for (const auto& s : ws.sessions()) {
        all.push_back(s.id);
        w.sessionBrowser()->selectSessions({s.id});
        ASSERT_TRUE(charts.wait(15000));
        QCoreApplication::processEvents();
        EXPECT_EQ(w.width(), 1400) << "after selecting " << s.title;
    }
    w.sessionBrowser()->selectSessions(all);
    ASSERT_TRUE(charts.wait(15000));
    QCoreApplication::processEvents();
    EXPECT_EQ(w.width(), 1400) << "after selecting all";
}

// Issue 9 item 13: a failed import keeps the user's selection and says why in the message itself.
TEST(GuiMainWindow, FailedImportKeepsTheSelectionAndShowsTheReason)
{
    qputenv("RIDGELINE_NO_DIALOGS", "1");
    rl::test::TempDir dir;
    rl::Settings settings{dir.filePath(QStringLiteral("settings.ini"))};
    rl::MainWindow w{&settings};
    w.resize(1400, 850);
    w.show();
    rl::StartupOptions options;
    options.workspace = dir.filePath(QStringLiteral("ws.db"));
    // The real start-up sequence: import, then select the newest two.
    QSignalSpy imported(&w, &rl::MainWindow::importDone);
    rl::startWindow(w, options, {rl::testing::guiData("import/h100_allgather_8r.jsonl"),
                                 rl::testing::guiData("import/mi300x_allreduce_8r.jsonl"),
                                 rl::testing::guiData("import/nested")});
    ASSERT_TRUE(imported.wait(30000));
    ASSERT_TRUE(waitFor([&] { return w.sessionBrowser()->selectedIds().size() == 2; }));
    const auto chosen = sessionTitled(options.workspace, "all_gather 8 ranks H100");
    w.sessionBrowser()->selectSessions({chosen});
    ASSERT_EQ(w.sessionBrowser()->selectedIds(), std::vector<std::int64_t>{chosen});

    QSignalSpy shown(&w, &rl::MainWindow::sessionsShown);
    w.importPaths({rl::testing::guiData("import/notes_garbage.txt")});
    ASSERT_TRUE(imported.wait(30000));
    ASSERT_TRUE(waitFor([&] { return !shown.isEmpty(); }));
    QCoreApplication::processEvents();
    EXPECT_EQ(w.sessionBrowser()->selectedIds(), std::vector<std::int64_t>{chosen});

    const auto report = imported.last().first().value<rl::ImportReport>();
    ASSERT_EQ(report.errors.size(), 1);
    auto* box = w.findChild<QMessageBox*>(QStringLiteral("importProblems"));
    ASSERT_TRUE(box);
    EXPECT_TRUE(box->text().contains(QStringLiteral("notes_garbage.txt"))) << box->text().toStdString();
    EXPECT_TRUE(box->text().contains(report.errors.first().section(u'/', -1))) << box->text().toStdString();
}

// Issue 24, minor list: every start selected the two newest sessions, whatever the user had
// selected. A first start still selects the newest two; the next start on the same workspace (here
// with the same start-up import, as the README's command does) comes back to the last selection.
TEST(GuiMainWindow, TheNextStartRestoresTheLastSelection)
{
    qputenv("RIDGELINE_NO_DIALOGS", "1");
    rl::test::TempDir dir;
    rl::Settings settings{dir.filePath(QStringLiteral("settings.ini"))};
    rl::StartupOptions options;
    options.workspace = dir.filePath(QStringLiteral("ws.db"));
    const QStringList imports{rl::testing::guiData("import/h100_allgather_8r.jsonl"),
                              rl::testing::guiData("import/mi300x_allreduce_8r.jsonl")};
    std::int64_t chosen = 0;
    {
        rl::MainWindow w{&settings};
        w.show();
        QSignalSpy imported(&w, &rl::MainWindow::importDone);
        rl::startWindow(w, options, imports);
        ASSERT_TRUE(imported.wait(30000));
        ASSERT_TRUE(waitFor([&] { return w.sessionBrowser()->selectedIds().size() == 2; })) << "a first start";
        chosen = sessionTitled(options.workspace, "all_gather 8 ranks H100");
        w.sessionBrowser()->selectSessions({chosen});
        w.close();
    }
    rl::MainWindow again{&settings};
    again.show();
    QSignalSpy imported(&again, &rl::MainWindow::importDone);
    QSignalSpy shown(&again, &rl::MainWindow::sessionsShown);
    rl::startWindow(again, options, imports);
    ASSERT_TRUE(imported.wait(30000));
    ASSERT_TRUE(waitFor([&] { return shown.size() >= 2; })) << "the list before and after the import";
    QCoreApplication::processEvents();
    EXPECT_EQ(again.sessionBrowser()->selectedIds(), std::vector<std::int64_t>{chosen});
}

// Quitting right after cancelling a run: the run is already ending, so the window closes without
// asking whether to keep it (the end-to-end test saw Ctrl+Q answered by that question), and the
// ending process is left to finish its own exit.
TEST(GuiMainWindow, QuitRightAfterCancellingDoesNotAskAgain)
{
    Fixture f;
    auto* run = f.window.runController();
    // A stand-in that takes a while to end after SIGTERM, as a CLI storing its cancel does. It says
    // when its trap is set (a SIGTERM before that would end it at once).
    rl::test::TempDir scratch;
    const QString armed = scratch.filePath(QStringLiteral("armed")), done = scratch.filePath(QStringLiteral("ended"));
    run->start(QStringLiteral("/bin/sh"),
               {QStringLiteral("-c"),
                QStringLiteral("trap 'sleep 1; touch %1; exit 0' TERM; touch %2; while :; do sleep 0.1; done").arg(done, armed)},
               0);
    ASSERT_TRUE(waitFor([&] { return run->isRunning() && QFile::exists(armed); })) << "the stand-in never set its trap";
    run->cancel();
    EXPECT_TRUE(run->isCancelling());
    // Were a question box to come up, answer it (so the test fails instead of hanging).
    bool asked = false;
    QTimer::singleShot(3000, [&] {
        for (auto* w : QApplication::topLevelWidgets())
            if (auto* box = qobject_cast<QMessageBox*>(w); box && box->isVisible()) {
                asked = true;
                box->reject();
            }
    });
    f.window.close();
    EXPECT_FALSE(asked);
    EXPECT_FALSE(f.window.isVisible());
    EXPECT_FALSE(run->isRunning()); // detached, not killed:
    EXPECT_TRUE(waitFor([&] { return QFile::exists(done); }, 10000)) << "the cancelled process was cut short";
}

// Issue 24, minor list: in the narrow Sessions dock titles were cut at the view's edge with no
// ellipsis, so a duplicate's "(copy)" was invisible; the Details parameters' value column ran off
// the right edge; "Created" showed the stored UTC string, cut, under a "(local time)" tooltip.
TEST(GuiNarrowDocks, TitlesEndInAnEllipsisInsideTheViewAndDetailsFitTheDock)
{
    rl::SessionBrowser browser;
    browser.resize(200, 400);
    browser.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&browser));
    rl::Session s;
    s.id = 1;
    s.kind = "collectives";
    s.title = "all_reduce_perf 8 ranks on mi300x-n01 (rccl-tests 2.17.1-develop:5272cd1) (copy)";
    s.created = "2026-11-20T09:00:00Z";
    browser.setSessions({s});
    QTreeView* view = browser.view();
    EXPECT_EQ(view->textElideMode(), Qt::ElideMiddle) << "the end of a title, (copy), stays visible";
    EXPECT_LE(view->columnViewportPosition(0) + view->columnWidth(0), view->viewport()->width());
    browser.resize(160, 400); // a narrower dock: the title column follows
    EXPECT_TRUE(waitFor([&] { return view->columnWidth(0) <= view->viewport()->width(); })) << view->columnWidth(0);

    rl::DetailsPanel details;
    details.resize(240, 500);
    details.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&details));
    s.params = {{"array_size", 10000000},
                {"byte_counting", "STREAM: copy/scale 2 arrays, add/triad 3 arrays; MiB = 1048576 B"},
                {"threads", 2}};
    details.setSession(s);
    auto* params = details.findChild<QTreeWidget*>(QStringLiteral("detailsParams"));
    ASSERT_TRUE(params);
    QApplication::processEvents();
    EXPECT_LE(params->columnWidth(0) + params->columnWidth(1), params->viewport()->width() + 1);
    EXPECT_FALSE(params->horizontalScrollBar()->isVisible());
    const auto found = params->findItems(QStringLiteral("byte_counting"), Qt::MatchExactly);
    ASSERT_EQ(found.size(), 1);
    EXPECT_EQ(found.front()->toolTip(1).toStdString(), s.params["byte_counting"].get<std::string>());
    const auto* created = details.findChild<QLabel*>(QStringLiteral("detailsCreated"));
    ASSERT_TRUE(created);
    EXPECT_EQ(created->text(),
              QDateTime::fromString(QStringLiteral("2026-11-20T09:00:00Z"), Qt::ISODate).toLocalTime().toString(
                  QStringLiteral("yyyy-MM-dd HH:mm:ss")));
    EXPECT_TRUE(created->toolTip().contains(QStringLiteral("2026-11-20T09:00:00Z")));
}

// Issue 24, minor list: Help had no manual. Help > Ridgeline manual shows the short manual
// (compiled in, so it is there offline), with its task sections; every menu path it names
// ("**Tools > Plan a run…**") is an action of the real menu bar, so the manual cannot drift from
// the menus; the find field moves to a match.
TEST(GuiMainWindow, TheManualIsInHelpAndNamesOnlyRealMenuEntries)
{
    rl::test::TempDir dir;
    rl::Settings settings{dir.filePath(QStringLiteral("settings.ini"))};
    rl::MainWindow w{&settings};
    w.show();
    QAction* manual = w.findChild<QAction*>(QStringLiteral("manualAction"));
    ASSERT_TRUE(manual);
    manual->trigger();
    auto* dialog = w.findChild<rl::ManualDialog*>();
    ASSERT_TRUE(dialog);
    EXPECT_TRUE(dialog->isVisible());
    const QString text = rl::ManualDialog::text();
    ASSERT_GT(text.size(), 2000) << "the manual resource is compiled in";
    const QString shown = dialog->browser()->toPlainText();
    for (const char* section : {"Import what you already have", "Run a benchmark", "Read the results", "Size a model",
                                "Plan a run", "Where the numbers come from"})
        EXPECT_TRUE(shown.contains(QLatin1String(section))) << section;
    EXPECT_FALSE(shown.contains(QStringLiteral("**"))) << "Markdown rendered, not shown raw";

    // Every "Menu > Entry" the manual names.
    std::map<QString, QStringList> menus;
    for (QAction* top : w.menuBar()->actions())
        if (top->menu())
            for (QAction* a : top->menu()->actions())
                menus[top->text().remove(QLatin1Char('&'))] << a->text().remove(QLatin1Char('&'));
    const QRegularExpression path(QStringLiteral(R"(\*\*(File|Edit|View|Tools|Help) > ([^*]+)\*\*)"));
    int named = 0;
    for (auto it = path.globalMatch(text); it.hasNext(); ++named) {
        const auto m = it.next();
        EXPECT_TRUE(menus[m.captured(1)].contains(m.captured(2)))
            << m.captured(0).toStdString() << " is not in the " << m.captured(1).toStdString() << " menu";
    }
    EXPECT_GE(named, 8);

    auto* find = dialog->findChild<QLineEdit*>(QStringLiteral("manualFind"));
    ASSERT_TRUE(find);
    QTest::keyClicks(find, QStringLiteral("Young/Daly"));
    EXPECT_EQ(dialog->browser()->textCursor().selectedText(), QStringLiteral("Young/Daly"));
    // Enter goes to the next match, Shift+Enter back to the one before (as the tooltip says).
    find->clear();
    QTest::keyClicks(find, QStringLiteral("ridgeline-cli"));
    const int first = dialog->browser()->textCursor().position();
    QTest::keyClick(find, Qt::Key_Return);
    const int second = dialog->browser()->textCursor().position();
    EXPECT_GT(second, first);
    QTest::keyClick(find, Qt::Key_Return, Qt::ShiftModifier);
    EXPECT_EQ(dialog->browser()->textCursor().position(), first);
    EXPECT_TRUE(dialog->isVisible()) << "Enter in the find field does not close the dialog";
    manual->trigger(); // asked again: the same window
    EXPECT_EQ(w.findChildren<rl::ManualDialog*>().size(), 1);
}

// A first start (no saved geometry) on a screen smaller than the 1400x850 default fits the screen:
// on a 1280x720 screen the window ran 120 px past its right and bottom edges. The offscreen
// platform's screen is smaller still.
TEST(GuiMainWindow, AFirstStartFitsASmallScreen)
{
    rl::test::TempDir dir;
    rl::Settings settings{dir.filePath(QStringLiteral("settings.ini"))};
    rl::MainWindow w{&settings};
    w.show();
    const QScreen* screen = w.screen();
    ASSERT_TRUE(screen);
    const QRect room = screen->availableGeometry();
    if (room.width() >= 1400 && room.height() >= 850)
        GTEST_SKIP() << "this screen has room for the default size";
    EXPECT_LE(w.height(), room.height()) << "screen " << room.height() << " px high";
    EXPECT_LE(w.width(), std::max(room.width(), w.minimumSizeHint().width()))
        << "no wider than the screen, unless the window cannot be narrower";
    // The tool windows (Sizing, Plan, Resilience: 1500 px wide) too.
    QWidget tool;
    rl::makeToolWindow(&tool, QStringLiteral("Plan a run"), {1500, 1000});
    EXPECT_LE(tool.width(), room.width());
    EXPECT_LE(tool.height(), room.height());
}
