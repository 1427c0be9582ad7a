// Storage sessions in the main window (issue 14, "measure storage"): a real `ridgeline-bench io`
// run under mpirun (ranks 1 and 2, two file sizes) and a real fio JSON import. Selecting them shows
// bandwidth against file size and against ranks with their units, and the points as a table.
#include <QAbstractItemModelTester>
#include <QDir>
#include <QFile>
#include <QLineSeries>
#include <QProcess>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>

#include <memory>

#include "openwindow.h"
#include "gui/runs/runcontroller.h"
#include "gui/runs/storagebenchmarkdialog.h"
#include "gui/window/sessionbrowser.h"
#include "storagechart.h"
#include "storagepointmodel.h"
#include "gui/runs/storageview.h"
#include "store/workspace.h"
#include "tempdir.h"

namespace {
// The storage benchmark dialog filled as a user would: 2 ranks, the scratch folder, the launcher
// options this machine needs.
std::unique_ptr<rl::StorageBenchmarkDialog> ioDialog(const QString& ws, const QString& folder, const QString& sizes,
                                                     const QString& blocks)
{
    auto dialog = std::make_unique<rl::StorageBenchmarkDialog>(QStringLiteral(RIDGELINE_CLI_BIN), ws);
    dialog->setFolder(folder);
    dialog->setRanks(2);
    dialog->setSizes(sizes);
    dialog->setBlocks(blocks);
    dialog->setMpirunOptions(rl::testing::testMpirunOptions());
    return dialog;
}

int seriesPoints(rl::charts::StorageChart* chart)
{
    int n = 0;
    for (auto* s : chart->chart()->series())
        if (auto* line = qobject_cast<QLineSeries*>(s))
            n += int(line->count());
    return n;
}
} // namespace

TEST(GuiStorageView, ARealIoRunAndAFioImportAreChartedAndTabled)
{
    if (!QFile::exists(QStringLiteral(RIDGELINE_MPIEXEC)))
        GTEST_SKIP() << "no MPI launcher at " << RIDGELINE_MPIEXEC;
    rl::test::TempDir dir;
    const QString ws = dir.filePath(QStringLiteral("ws.db"));
    const QString scratch = dir.filePath(QStringLiteral("scratch"));
    ASSERT_TRUE(QDir().mkpath(scratch));
    QProcess run;
    const QStringList args = ioDialog(ws, scratch, QStringLiteral("1M,4M"), QStringLiteral("512K"))->cliArguments();
    run.start(QStringLiteral(RIDGELINE_CLI_BIN), args);
    ASSERT_TRUE(run.waitForFinished(180000));
    ASSERT_EQ(run.exitCode(), 0) << run.readAllStandardError().toStdString();
    EXPECT_TRUE(QDir(scratch).isEmpty()) << "the bench removes its files";

    rl::testing::OpenWindow open(dir, ws);
    ASSERT_TRUE(open.loaded);
    auto& window = open.window;
    QSignalSpy imported(&window, &rl::MainWindow::importDone);
    QSignalSpy listed(&window, &rl::MainWindow::sessionsShown);
    window.importPaths({QStringLiteral(RIDGELINE_TEST_DATA "/storage/fio-ckpt-2jobs.json")});
    ASSERT_TRUE(imported.wait(30000));
    // The list the import reloads replaces the model: select once it is shown.
    ASSERT_TRUE(listed.count() > 0 || listed.wait(15000));

    std::vector<std::int64_t> ids;
    {
        rl::store::Workspace store(ws.toStdString());
        for (const auto& s : store.sessions())
            if (s.kind == rl::kind::Storage)
                ids.push_back(s.id);
    }
    ASSERT_EQ(ids.size(), 2u);
    ASSERT_TRUE(rl::testing::waitFor([&] { return window.sessionBrowser()->session(ids.back()).has_value(); }));
    auto* views = window.findChild<QStackedWidget*>();
    auto* storage = window.findChild<rl::StorageView*>();
    ASSERT_TRUE(views && storage);

    QSignalSpy charts(&window, &rl::MainWindow::chartsShown);
    window.sessionBrowser()->selectSessions(ids);
    ASSERT_TRUE(charts.wait(15000));
    EXPECT_EQ(views->currentWidget(), storage);
    // io: ranks 1 and 2 x two sizes x write and read = 8 points; fio: a write and a read of 2 jobs.
    // (The selection can arrive in two steps: wait for the load of both sessions.)
    EXPECT_TRUE(rl::testing::waitFor([&] { return seriesPoints(storage->bySize()) == 10; }));
    EXPECT_EQ(seriesPoints(storage->bySize()), 10);
    EXPECT_EQ(seriesPoints(storage->byRanks()), 10);
    EXPECT_TRUE(storage->bySize()->title().contains(QStringLiteral("file size")));
    QStringList axisTitles;
    for (auto* a : storage->bySize()->chart()->axes())
        axisTitles << a->titleText();
    EXPECT_TRUE(axisTitles.join(u'|').contains(QStringLiteral("GB/s"))) << axisTitles.join(u'|').toStdString();
    EXPECT_TRUE(axisTitles.join(u'|').contains(QStringLiteral("bytes"))) << axisTitles.join(u'|').toStdString();

    auto* model = storage->points();
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::Warning);
    ASSERT_EQ(model->rowCount(), 10);
    // Every point names its slowest rank (fio: its slowest job); the run measured time to first byte.
    int named = 0;
    for (int r = 0; r < model->rowCount(); ++r) {
        EXPECT_GT(model->index(r, rl::charts::StoragePointModel::AggregateColumn).data(rl::charts::StoragePointModel::SortRole).toDouble(), 0);
        if (model->index(r, rl::charts::StoragePointModel::SlowestRankColumn).data().toString() != QStringLiteral("–"))
            ++named;
    }
    EXPECT_EQ(named, 10);
    int timedFirstByte = 0;
    for (int r = 0; r < model->rowCount(); ++r)
        timedFirstByte += model->index(r, rl::charts::StoragePointModel::FirstByteColumn)
                              .data(rl::charts::StoragePointModel::SortRole).toDouble() > 0;
    EXPECT_GE(timedFirstByte, 8) << "every point of the run";

    // Hover on a point: its series, size and bandwidth with the unit.
    auto* line = qobject_cast<QLineSeries*>(storage->bySize()->chart()->series().at(0));
    ASSERT_TRUE(line && line->count() > 0);
    storage->tabs()->setCurrentWidget(storage->bySize());
    Q_EMIT line->hovered(line->at(0), true);
    EXPECT_TRUE(storage->bySize()->hoverText().contains(QStringLiteral("GB/s aggregate")))
        << storage->bySize()->hoverText().toStdString();
    EXPECT_TRUE(storage->bySize()->hoverText().contains(QStringLiteral("per rank")));

    const QString svg = dir.filePath(QStringLiteral("ranks.svg"));
    QString error;
    ASSERT_TRUE(storage->byRanks()->exportTo(svg, &error)) << error.toStdString();
    QFile f(svg);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    EXPECT_TRUE(f.readAll().contains("Storage bandwidth vs ranks"));
}

TEST(GuiStorageView, ARunFromTheDialogIsChartedAsItGoesAndCancelRemovesItsFiles)
{
    if (!QFile::exists(QStringLiteral(RIDGELINE_MPIEXEC)))
        GTEST_SKIP() << "no MPI launcher at " << RIDGELINE_MPIEXEC;
    rl::test::TempDir dir;
    const QString ws = dir.filePath(QStringLiteral("ws.db"));
    const QString scratch = dir.filePath(QStringLiteral("scratch"));
    ASSERT_TRUE(QDir().mkpath(scratch));
    rl::testing::OpenWindow open(dir, ws);
    ASSERT_TRUE(open.loaded);
    auto& window = open.window;

    auto dialogOwner = ioDialog(ws, scratch, QStringLiteral("1M,2M"), QStringLiteral("256K"));
    auto& dialog = *dialogOwner;
    EXPECT_TRUE(dialog.previewText().contains(QStringLiteral(" run io --np 2 "))) << dialog.previewText().toStdString();
    auto* run = window.runController();
    QSignalSpy finished(run, &rl::RunController::runFinished);
    QSignalSpy points(run, &rl::RunController::storedPointAvailable);
    QSignalSpy failed(run, &rl::RunController::runFailed);
    run->start(QStringLiteral(RIDGELINE_CLI_BIN), dialog.cliArguments(), 0);
    ASSERT_TRUE(finished.wait(120000)) << (failed.isEmpty() ? std::string() : failed.first().first().toString().toStdString());
    EXPECT_EQ(points.size(), 8); // ranks 1 and 2 x two sizes x write and read
    ASSERT_TRUE(rl::testing::waitFor([&] { return !run->isRunning(); })) << "the CLI exits after its end record";
    auto* storage = window.findChild<rl::StorageView*>();
    auto* views = window.findChild<QStackedWidget*>();
    ASSERT_TRUE(rl::testing::waitFor([&] { return views->currentWidget() == storage && seriesPoints(storage->bySize()) == 8; }))
        << "the run's session is selected and its points charted";
    EXPECT_TRUE(QDir(scratch).isEmpty());

    // A long run cancelled after its first point: the session says so and the files are gone.
    dialog.setSizes(QStringLiteral("64M,128M,256M"));
    dialog.setBlocks(QStringLiteral("64K"));
    QSignalSpy started(run, &rl::RunController::runStarted);
    finished.clear();
    points.clear();
    run->start(QStringLiteral(RIDGELINE_CLI_BIN), dialog.cliArguments(), 0);
    ASSERT_TRUE(points.wait(120000));
    run->cancel();
    ASSERT_TRUE(rl::testing::waitFor([&] { return !run->isRunning(); }, 60000));
    ASSERT_FALSE(started.isEmpty());
    const auto id = started.last().first().value<std::int64_t>();
    EXPECT_TRUE(QDir(scratch).isEmpty()) << QDir(scratch).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).join(u' ').toStdString();
    rl::store::Workspace store(ws.toStdString());
    const auto session = store.session(id);
    ASSERT_TRUE(session);
    EXPECT_EQ(session->status, rl::SessionStatus::Cancelled);
}
