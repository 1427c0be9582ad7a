// A benchmark started the way the GUI starts it: the dialog's configuration becomes a real
// ridgeline-cli process that launches real MPI ranks; points arrive as signals and in the store,
// and Cancel leaves a cancelled session with the points it finished.
#include <QFileInfo>
#include <QSignalSpy>

#include "gui/runs/benchmarkconfig.h"
#include "gui/runs/runcontroller.h"
#include "store/workspace.h"
#include "tempdir.h"
#include "test_gui_env.h"

using rl::BenchmarkConfig;
using rl::RunController;

namespace {
BenchmarkConfig smallSweep()
{
    BenchmarkConfig c;
    c.ops = {QStringLiteral("all_reduce")};
    c.minBytes = QStringLiteral("8");
    c.maxBytes = QStringLiteral("512");
    c.factor = 4; // 8 32 128 512
    c.dtypes = {QStringLiteral("float64")};
    c.redop = QStringLiteral("max");
    c.iterations = 3;
    c.warmup = 1;
    c.launch.np = 2;
    // Open MPI on a small VM: shared memory only, more ranks than cores allowed.
    c.launch.mpirunOptions = QStringLiteral("--mca pml ob1 --mca btl self,vader --oversubscribe");
    return c;
}
} // namespace

TEST(GuiRun, TheDialogsCommandRunsRealRanksAndStoresEveryPoint)
{
    rl::test::TempDir dir;
    const QString db = dir.filePath(QStringLiteral("w.db"));
    const BenchmarkConfig c = smallSweep();
    ASSERT_TRUE(c.validate().isEmpty()) << c.validate().toStdString();
    ASSERT_EQ(c.expectedPoints(), 4);

    RunController run;
    QSignalSpy points(&run, &RunController::pointAvailable);
    QSignalSpy finished(&run, &RunController::runFinished);
    QSignalSpy failed(&run, &RunController::runFailed);
    run.start(QStringLiteral(RIDGELINE_CLI_BIN), c.cliArguments(db), c.expectedPoints());
    ASSERT_TRUE(rl::testing::waitFor([&] { return !finished.isEmpty() || !failed.isEmpty(); }, 120000));
    ASSERT_TRUE(failed.isEmpty()) << failed.first().first().toString().toStdString();
    EXPECT_EQ(finished.first().at(1).toString(), QStringLiteral("complete"));
    EXPECT_EQ(points.size(), 4);
    EXPECT_EQ(run.pointsDone(), 4);

    rl::store::Workspace ws(db.toStdString());
    const auto stored = ws.collectivePoints(run.sessionId());
    ASSERT_EQ(stored.size(), 4u);
    for (const auto& p : stored) {
        EXPECT_EQ(p.dtype, "float64");
        EXPECT_EQ(p.redop, "max");
        EXPECT_FALSE(p.inPlace);
        EXPECT_EQ(p.nranks, 2);
        EXPECT_EQ(p.wrong, 0);
    }
    EXPECT_EQ(stored.back().bytes, 512);
}

TEST(GuiRun, CancelStopsTheRanksAndKeepsTheFinishedPoints)
{
    rl::test::TempDir dir;
    const QString db = dir.filePath(QStringLiteral("w.db"));
    BenchmarkConfig c = smallSweep();
    c.maxBytes = QStringLiteral("1G");
    c.factor = 2;
    c.iterations = 20;

    RunController run;
    QSignalSpy finished(&run, &RunController::runFinished);
    QSignalSpy failed(&run, &RunController::runFailed);
    run.start(QStringLiteral(RIDGELINE_CLI_BIN), c.cliArguments(db), c.expectedPoints());
    ASSERT_TRUE(rl::testing::waitFor([&] { return run.pointsDone() >= 3 || !failed.isEmpty(); }, 120000));
    ASSERT_TRUE(failed.isEmpty()) << failed.first().first().toString().toStdString();
    run.cancel();
    ASSERT_TRUE(rl::testing::waitFor([&] { return !run.isRunning(); }, 60000));
    ASSERT_EQ(finished.size(), 1);
    EXPECT_EQ(finished.first().at(1).toString(), QStringLiteral("cancelled"));

    rl::store::Workspace ws(db.toStdString());
    const auto session = ws.session(run.sessionId());
    ASSERT_TRUE(session);
    EXPECT_EQ(session->status, rl::SessionStatus::Cancelled);
    const auto stored = ws.collectivePoints(run.sessionId());
    EXPECT_GE(stored.size(), 3u);
    EXPECT_LT(stored.size(), static_cast<size_t>(c.expectedPoints()));
}

// The GUI finds ridgeline-cli beside itself (installed) or in the build tree's cli/ folder, else
// names it for PATH. The old braced list of QStringBuilder temporaries read freed memory here:
// std::bad_alloc in the field, a stack-use-after-scope under ASan.
TEST(GuiRun, FindCliNamesAnExecutableOrThePathName)
{
    for (int i = 0; i < 3; ++i) {
        const QString cli = RunController::findCli();
        if (cli != QLatin1String("ridgeline-cli")) {
            EXPECT_TRUE(QFileInfo(cli).isExecutable()) << cli.toStdString();
            EXPECT_TRUE(cli.endsWith(QLatin1String("/ridgeline-cli"))) << cli.toStdString();
        }
    }
}
