// Issue 12 in the GUI: "New GPU tool benchmark" builds the exact `ridgeline-cli run nccl-tests|
// hipblaslt|rocblas` command for each tool and launcher (the one the real CLI accepts), says why
// Run is disabled, finds the tool through tools.json (and adds its folder there), remembers the
// last run; and a run through RunController + ridgeline-cli + the tools' stand-ins streams points,
// cancels cleanly and fills the kernel view with the GEMM points.
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QScrollBar>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStackedWidget>

#include "gui/runs/benchmarkconfig.h"
#include "gui/runs/gputooldialog.h"
#include "rooflinechart.h"
#include "gui/runs/kernelview.h"
#include "gui/window/mainwindow.h"
#include "gui/runs/runcontroller.h"
#include "gui/window/chartarea.h"
#include "gui/window/sessionbrowser.h"
#include "settings.h"
#include "store/kernelresults.h"
#include "store/workspace.h"
#include "tempdir.h"
#include "test_gui_env.h"

using rl::GpuToolConfig;
using rl::GpuToolDialog;
using rl::LaunchSettings;

namespace {
const QString kCli = QStringLiteral(RIDGELINE_CLI_BIN);
const QString kStandins = QStringLiteral(RIDGELINE_STANDIN_BIN);

// A user data dir of the test's own (tools.json), with the stand-ins' folder registered or not.
class GuiGpuTool : public ::testing::Test
{
protected:
    rl::test::TempDir dir;
    QString ws = dir.filePath(QStringLiteral("ws.db"));

    void SetUp() override
    {
        qputenv("XDG_DATA_HOME", dir.filePath(QStringLiteral("data")).toLocal8Bit());
        for (const char* v : {"STANDIN_DELAY_MS", "STANDIN_FAIL_AFTER", "STANDIN_HANG_AFTER", "STANDIN_WRONG_ROW",
                              "STANDIN_FLAVOR"})
            qunsetenv(v);
        qputenv("STANDIN_DELAY_MS", "5");
        qputenv("RIDGELINE_NO_DIALOGS", "1");
    }
    void registerStandins()
    {
        GpuToolDialog dialog(kCli, ws);
        ASSERT_EQ(dialog.addToolFolder(kStandins), QString());
    }
    // What `ridgeline-cli ARGS --dry-run` prints (the real parser accepts every argument).
    QString dryRun(QStringList args)
    {
        args.insert(4, QStringLiteral("--dry-run")); // after `--db W run SUB`
        QProcess p;
        p.start(kCli, args);
        EXPECT_TRUE(p.waitForFinished(60000));
        EXPECT_EQ(p.exitCode(), 0) << p.readAllStandardError().toStdString() << args.join(u' ').toStdString();
        return QString::fromLocal8Bit(p.readAllStandardOutput());
    }
};

GpuToolConfig nccl()
{
    GpuToolConfig c;
    c.ops = {QStringLiteral("all_reduce"), QStringLiteral("all_gather")};
    c.minBytes = QStringLiteral("8");
    c.maxBytes = QStringLiteral("8G");
    c.factor = 2;
    c.gpus = 1;
    c.iters = 20;
    c.warmup = 5;
    c.dtype = QStringLiteral("bfloat16");
    c.environment = QStringLiteral("NCCL_ALGO=Ring\n# a comment\n\nNCCL_PROTO=Simple\n");
    c.pointTimeout = 120;
    return c;
}

QStringList l(std::initializer_list<const char*> items)
{
    QStringList out;
    for (const char* i : items)
        out << QString::fromUtf8(i);
    return out;
}

const QStringList kNcclToolArgs = l({"--", "-b", "8", "-e", "8G", "-f", "2", "-g", "1", "-n", "20", "-w", "5", "-d",
                                     "bfloat16", "-o", "sum", "-c", "1", "-z", "0", "-G", "0"});
const QStringList kEnv = l({"--env", "NCCL_ALGO=Ring", "--env", "NCCL_PROTO=Simple", "--point-timeout", "120"});

struct Case
{
    const char* name;
    GpuToolConfig config;
    QStringList expected;
};

std::vector<Case> cases()
{
    std::vector<Case> out;
    const QStringList head = l({"--db", "/w/ws.db", "run"});
    { // one process, no MPI
        out.push_back({"nccl local", nccl(), head + l({"nccl-tests", "--op", "all_reduce,all_gather"}) + kEnv + kNcclToolArgs});
    }
    {
        GpuToolConfig c = nccl();
        c.launch.mode = LaunchSettings::Mode::LocalMpirun;
        c.launch.np = 8;
        c.launch.mpirunOptions = QStringLiteral("--oversubscribe --bind-to none");
        c.title = QStringLiteral("8 GPUs, ring");
        out.push_back({"nccl mpirun", c,
                       head + l({"nccl-tests", "--op", "all_reduce,all_gather", "--np", "8", "--mpirun-arg=--oversubscribe",
                                 "--mpirun-arg=--bind-to", "--mpirun-arg=none"}) +
                           kEnv + l({"--title", "8 GPUs, ring"}) + kNcclToolArgs});
    }
    {
        GpuToolConfig c = nccl();
        c.launch.mode = LaunchSettings::Mode::Hostfile;
        c.launch.np = 16;
        c.launch.hostfile = QStringLiteral("/etc/hosts.mi300x");
        c.useIncrement = true;
        c.increment = QStringLiteral("64M");
        c.check = false;
        c.blocking = true;
        c.graph = 10;
        c.redop = QStringLiteral("max");
        QStringList tool = kNcclToolArgs;
        tool.replace(tool.indexOf(QStringLiteral("-f")), QStringLiteral("-i"));
        tool.replace(tool.indexOf(QStringLiteral("-i")) + 1, QStringLiteral("64M"));
        tool.replace(tool.indexOf(QStringLiteral("-o")) + 1, QStringLiteral("max"));
        tool.replace(tool.indexOf(QStringLiteral("-c")) + 1, QStringLiteral("0"));
        tool.replace(tool.indexOf(QStringLiteral("-z")) + 1, QStringLiteral("1"));
        tool.replace(tool.indexOf(QStringLiteral("-G")) + 1, QStringLiteral("10"));
        out.push_back({"nccl hostfile", c,
                       head + l({"nccl-tests", "--op", "all_reduce,all_gather", "--np", "16", "--hostfile",
                                 "/etc/hosts.mi300x"}) + kEnv + tool});
    }
    {
        GpuToolConfig c = nccl();
        c.launch.mode = LaunchSettings::Mode::Template;
        c.launch.np = 16;
        c.launch.nodes = 2;
        c.launch.ppn = 8;
        c.launch.sbatch = true;
        c.launch.sbatchOptions = QStringLiteral("--partition=mi300x\n  --time=00:30:00  \n\n");
        c.launch.sbatchDir = QStringLiteral("/scratch/jobs");
        out.push_back({"nccl template + sbatch", c,
                       head + l({"nccl-tests", "--op", "all_reduce,all_gather", "--np", "16", "--launcher",
                                 "srun -N {nodes} --ntasks-per-node {ppn} {bench}", "--nodes", "2", "--ppn", "8",
                                 "--sbatch", "--sbatch-option=--partition=mi300x", "--sbatch-option=--time=00:30:00",
                                 "--sbatch-dir", "/scratch/jobs"}) +
                           kEnv + kNcclToolArgs});
    }
    {
        GpuToolConfig c;
        c.tool = QStringLiteral("hipblaslt-bench");
        c.recipe = GpuToolConfig::Recipe::Shapes;
        c.shapes = QStringLiteral("4096x4096x4096, 8192x1024x4096xNT\n1024x1024x1024");
        c.gemmDtype = QStringLiteral("fp8");
        c.gemmIters = 50;
        c.coldIters = 10;
        c.extraArgs = QStringLiteral("--rotating 512  --use_gpu_timer");
        out.push_back({"hipblaslt shapes", c,
                       head + l({"hipblaslt", "--shape", "4096x4096x4096,8192x1024x4096xNT,1024x1024x1024", "--dtype",
                                 "fp8", "--iters", "50", "--cold-iters", "10", "--point-timeout", "300", "--",
                                 "--rotating", "512", "--use_gpu_timer"})});
    }
    {
        GpuToolConfig c;
        c.tool = QStringLiteral("rocblas-bench");
        c.recipe = GpuToolConfig::Recipe::Square;
        c.squareFrom = QStringLiteral("1024");
        c.squareTo = QStringLiteral("8192");
        c.launch.mode = LaunchSettings::Mode::Local;
        c.launch.sbatch = true;
        out.push_back({"rocblas square + sbatch", c,
                       head + l({"rocblas", "--square", "1024:8192", "--dtype", "bf16", "--sbatch", "--point-timeout",
                                 "300"})});
    }
    {
        GpuToolConfig c;
        c.tool = QStringLiteral("hipblaslt-bench");
        c.recipe = GpuToolConfig::Recipe::MaxAchievable;
        c.cus = 304;
        c.environment = QStringLiteral("HIP_VISIBLE_DEVICES=3");
        out.push_back({"hipblaslt max-achievable", c,
                       head + l({"hipblaslt", "--recipe", "max-achievable", "--cus", "304", "--dtype", "bf16", "--env",
                                 "HIP_VISIBLE_DEVICES=3", "--point-timeout", "300"})});
    }
    {
        GpuToolConfig c;
        c.tool = QStringLiteral("rocblas-bench");
        c.recipe = GpuToolConfig::Recipe::Model;
        c.modelConfig = QStringLiteral("llama-3-8b");
        c.parallel = QStringLiteral("tp=8,pp=1,dp=1");
        out.push_back({"rocblas model", c,
                       head + l({"rocblas", "--recipe", "model", "--config", "llama-3-8b", "--parallel",
                                 "tp=8,pp=1,dp=1", "--seq", "4096", "--micro-batch", "1", "--dtype", "bf16",
                                 "--point-timeout", "300"})});
    }
    return out;
}
} // namespace

TEST_F(GuiGpuTool, BuildsTheExactCommandForEachToolAndLauncher)
{
    registerStandins();
    for (const auto& c : cases()) {
        SCOPED_TRACE(c.name);
        EXPECT_EQ(c.config.validate(), QString());
        EXPECT_EQ(c.config.cliArguments(QStringLiteral("/w/ws.db")), c.expected);
        GpuToolDialog dialog(QStringLiteral("/opt/rl/ridgeline-cli"), QStringLiteral("/w/ws.db"));
        dialog.setConfig(c.config);
        EXPECT_EQ(dialog.config().cliArguments(QStringLiteral("/w/ws.db")), c.expected);
        EXPECT_EQ(dialog.previewText(), rl::shellJoin(QStringLiteral("/opt/rl/ridgeline-cli"), c.expected));
        EXPECT_EQ(dialog.problem(), QString());
        EXPECT_TRUE(dialog.findChild<QPushButton*>(QStringLiteral("runButton"))->isEnabled());
    }
}

// The real CLI parses every form the dialog writes (--mpirun-arg=-..., --sbatch-option=--..., --env).
TEST_F(GuiGpuTool, TheRealCliAcceptsTheDialogsCommands)
{
    registerStandins();
    for (const auto& c : cases()) {
        SCOPED_TRACE(c.name);
        if (c.config.launch.mode == LaunchSettings::Mode::Hostfile ||
            c.config.recipe == GpuToolConfig::Recipe::Model)
            continue; // no such hostfile here; the model recipe reads the preset (covered by the CLI tests)
        QStringList args = c.config.cliArguments(ws);
        const QString out = dryRun(args);
        if (c.config.isNcclTests()) {
            EXPECT_TRUE(out.contains(QStringLiteral("all_reduce_perf"))) << out.toStdString();
            EXPECT_TRUE(out.contains(QStringLiteral("-d bfloat16"))) << out.toStdString();
        } else {
            EXPECT_TRUE(out.contains(QStringLiteral("-bench -m "))) << out.toStdString();
        }
        if (c.config.launch.mode == LaunchSettings::Mode::LocalMpirun) {
            EXPECT_TRUE(out.contains(QStringLiteral("--oversubscribe"))) << out.toStdString();
        }
    }
}

TEST_F(GuiGpuTool, InvalidInputDisablesRunWithAReason)
{
    registerStandins();
    GpuToolDialog dialog(kCli, ws);
    dialog.setConfig(nccl());
    auto* run = dialog.findChild<QPushButton*>(QStringLiteral("runButton"));
    auto* problem = dialog.findChild<QLabel*>(QStringLiteral("problem"));
    ASSERT_TRUE(run && problem);
    EXPECT_TRUE(run->isEnabled()) << dialog.problem().toStdString();
    auto expectBlocked = [&](const char* what) {
        EXPECT_FALSE(run->isEnabled()) << what;
        EXPECT_FALSE(problem->text().isEmpty()) << what;
    };
    auto* maxBytes = dialog.findChild<QLineEdit*>(QStringLiteral("maxBytes"));
    maxBytes->setText(QStringLiteral("12 parsecs"));
    expectBlocked("a size that is not one");
    maxBytes->setText(QStringLiteral("4"));
    expectBlocked("max below min");
    maxBytes->setText(QStringLiteral("1G"));
    EXPECT_TRUE(run->isEnabled());
    for (auto* box : dialog.findChildren<QCheckBox*>())
        if (box->objectName().startsWith(QStringLiteral("op_")))
            box->setChecked(false);
    expectBlocked("no operation");
    dialog.findChild<QCheckBox*>(QStringLiteral("op_all_reduce"))->setChecked(true);
    auto* env = dialog.findChild<QPlainTextEdit*>(QStringLiteral("environment"));
    env->setPlainText(QStringLiteral("NCCL_ALGO Ring"));
    expectBlocked("environment line without =");
    EXPECT_TRUE(problem->text().contains(QStringLiteral("NAME=VALUE"))) << problem->text().toStdString();
    env->setPlainText(QStringLiteral("NCCL_ALGO=Tree"));
    EXPECT_TRUE(run->isEnabled());

    auto* launcher = dialog.findChild<QComboBox*>(QStringLiteral("launcher"));
    launcher->setCurrentIndex(2); // hostfile
    expectBlocked("hostfile without a file");
    launcher->setCurrentIndex(3); // template
    dialog.findChild<QLineEdit*>(QStringLiteral("launchTemplate"))->setText(QStringLiteral("srun -N 2"));
    expectBlocked("template without {bench}");
    launcher->setCurrentIndex(0);
    EXPECT_TRUE(run->isEnabled());
    dialog.findChild<QCheckBox*>(QStringLiteral("sbatch"))->setChecked(true);
    dialog.findChild<QPlainTextEdit*>(QStringLiteral("sbatchOptions"))->setPlainText(QStringLiteral("partition=gpu"));
    expectBlocked("an #SBATCH option without its dashes");
    dialog.findChild<QPlainTextEdit*>(QStringLiteral("sbatchOptions"))->setPlainText(QStringLiteral("--partition=gpu"));
    EXPECT_TRUE(run->isEnabled());

    auto* tool = dialog.findChild<QComboBox*>(QStringLiteral("tool"));
    tool->setCurrentIndex(tool->findData(QStringLiteral("hipblaslt-bench")));
    auto* recipe = dialog.findChild<QComboBox*>(QStringLiteral("recipe"));
    recipe->setCurrentIndex(0);
    auto* shapes = dialog.findChild<QLineEdit*>(QStringLiteral("shapes"));
    shapes->setText(QStringLiteral("4096x4096"));
    expectBlocked("a shape without K");
    shapes->setText(QStringLiteral("4096x4096x4096"));
    EXPECT_TRUE(run->isEnabled()) << dialog.problem().toStdString();
    recipe->setCurrentIndex(1);
    dialog.findChild<QLineEdit*>(QStringLiteral("squareTo"))->setText(QStringLiteral("16"));
    expectBlocked("square sweep ending below its start");
    recipe->setCurrentIndex(3);
    dialog.findChild<QLineEdit*>(QStringLiteral("parallel"))->setText(QStringLiteral("eight"));
    expectBlocked("a layout that is not one");

    for (auto* w : dialog.findChildren<QWidget*>()) {
        if (qobject_cast<QLineEdit*>(w) && (qobject_cast<QComboBox*>(w->parent()) || qobject_cast<QSpinBox*>(w->parent())))
            continue; // an editable combo's or a spin box's own line edit: the outer widget has the tooltip
        if (qobject_cast<QLineEdit*>(w) || qobject_cast<QSpinBox*>(w) || qobject_cast<QComboBox*>(w) ||
            qobject_cast<QCheckBox*>(w) || qobject_cast<QPlainTextEdit*>(w) || qobject_cast<QPushButton*>(w)) {
            EXPECT_FALSE(w->toolTip().isEmpty()) << "no tooltip: " << w->objectName().toStdString() << " "
                                                 << w->metaObject()->className();
        }
    }
}

TEST_F(GuiGpuTool, AToolNotFoundOffersToAddItsFolderToToolsJson)
{
    const QByteArray path = qgetenv("PATH");
    qputenv("PATH", "/usr/bin:/bin"); // no tools here
    GpuToolDialog dialog(kCli, ws);
    auto* location = dialog.findChild<QLabel*>(QStringLiteral("toolLocation"));
    auto* run = dialog.findChild<QPushButton*>(QStringLiteral("runButton"));
    ASSERT_TRUE(location && run);
    EXPECT_TRUE(location->text().contains(QStringLiteral("not found"))) << location->text().toStdString();
    EXPECT_FALSE(run->isEnabled());
    EXPECT_TRUE(dialog.problem().contains(QStringLiteral("add its folder"))) << dialog.problem().toStdString();
    EXPECT_FALSE(dialog.findChild<QPushButton*>(QStringLiteral("addToolFolder"))->toolTip().isEmpty());

    EXPECT_FALSE(dialog.addToolFolder(dir.filePath(QStringLiteral("nowhere"))).isEmpty());
    EXPECT_EQ(dialog.addToolFolder(kStandins), QString());
    EXPECT_TRUE(location->text().remove(QChar(0x200b)).startsWith(QDir(kStandins).absolutePath())) << location->text().toStdString();
    EXPECT_TRUE(run->isEnabled()) << dialog.problem().toStdString();
    QFile json(dir.filePath(QStringLiteral("data/ridgeline/tools.json")));
    ASSERT_TRUE(json.open(QIODevice::ReadOnly));
    EXPECT_TRUE(json.readAll().contains(QDir(kStandins).absolutePath().toUtf8()));
    // The stand-ins have no reduce_perf: its box cannot be chosen.
    EXPECT_FALSE(dialog.findChild<QCheckBox*>(QStringLiteral("op_reduce"))->isEnabled());
    EXPECT_TRUE(dialog.findChild<QCheckBox*>(QStringLiteral("op_alltoallv"))->isEnabled());

    auto* tool = dialog.findChild<QComboBox*>(QStringLiteral("tool"));
    tool->setCurrentIndex(tool->findData(QStringLiteral("rocblas-bench")));
    EXPECT_TRUE(location->text().remove(QChar(0x200b)).startsWith(QDir(kStandins).absolutePath())) << location->text().toStdString();
    EXPECT_TRUE(location->text().contains(QStringLiteral("version not asked yet"))) << location->text().toStdString();
    dialog.findChild<QPushButton*>(QStringLiteral("askToolVersion"))->click();
    EXPECT_TRUE(location->text().contains(QStringLiteral("version 4.3.0-standin"))) << location->text().toStdString();
    GpuToolDialog again(kCli, ws);
    again.setConfig(dialog.config());
    EXPECT_TRUE(again.findChild<QLabel*>(QStringLiteral("toolLocation"))->text().contains(QStringLiteral("4.3.0-standin")))
        << "the version is remembered in tools.json";
    qputenv("PATH", path);
}

TEST_F(GuiGpuTool, ReopensWithTheLastRunConfiguration)
{
    registerStandins();
    rl::Settings settings(dir.filePath(QStringLiteral("s.ini")));
    const QString defaults = GpuToolDialog(QStringLiteral("cli"), QStringLiteral("/w.db")).previewText();
    GpuToolConfig ran = cases()[3].config; // template + sbatch
    {
        GpuToolDialog dialog(QStringLiteral("cli"), QStringLiteral("/w.db"), &settings);
        EXPECT_EQ(dialog.previewText(), defaults);
        dialog.setConfig(ran);
        dialog.show();
        dialog.findChild<QPushButton*>(QStringLiteral("runButton"))->click();
        EXPECT_EQ(dialog.result(), QDialog::Accepted);
    }
    {
        GpuToolDialog dialog(QStringLiteral("cli"), QStringLiteral("/w.db"), &settings);
        EXPECT_EQ(dialog.config().cliArguments(QStringLiteral("/w.db")), ran.cliArguments(QStringLiteral("/w.db")));
        dialog.findChild<QSpinBox*>(QStringLiteral("pointTimeout"))->setValue(5);
        dialog.reject();
    }
    GpuToolDialog dialog(QStringLiteral("cli"), QStringLiteral("/w.db"), &settings);
    EXPECT_EQ(dialog.config().pointTimeout, ran.pointTimeout) << "a cancelled dialog does not overwrite the last run";
    dialog.findChild<QPushButton*>(QStringLiteral("restoreDefaults"))->click();
    EXPECT_EQ(dialog.previewText(), defaults);
    QJsonObject other = ran.toJson();
    other[QStringLiteral("version")] = GpuToolConfig::kJsonVersion + 1;
    EXPECT_EQ(GpuToolConfig::fromJson(other).cliArguments(QStringLiteral("/w.db")),
              GpuToolConfig{}.cliArguments(QStringLiteral("/w.db")));
}

TEST_F(GuiGpuTool, ExpectedPointsFollowTheSweepAndTheShapes)
{
    GpuToolConfig c = nccl();
    c.maxBytes = QStringLiteral("512K");
    c.factor = 4; // 8 .. 512K by 4: 9 sizes, two points a row (out-of-place, in-place), two ops
    EXPECT_EQ(c.expectedPoints(), 2 * 9 * 2);
    c.useIncrement = true;
    c.minBytes = QStringLiteral("1M");
    c.maxBytes = QStringLiteral("4M");
    c.increment = QStringLiteral("1M");
    EXPECT_EQ(c.expectedPoints(), 2 * 4 * 2);
    GpuToolConfig g = cases()[4].config;
    EXPECT_EQ(g.expectedPoints(), 3);
    g.recipe = GpuToolConfig::Recipe::Square;
    g.squareFrom = QStringLiteral("256");
    g.squareTo = QStringLiteral("2048");
    EXPECT_EQ(g.expectedPoints(), 4);
}

// ---- real runs: RunController + ridgeline-cli + the stand-ins
TEST_F(GuiGpuTool, NcclTestsPointsArriveLiveAndAreStored)
{
    registerStandins();
    qputenv("STANDIN_DELAY_MS", "60");
    GpuToolConfig c = nccl();
    c.ops = {QStringLiteral("all_reduce")};
    c.minBytes = QStringLiteral("1K");
    c.maxBytes = QStringLiteral("256K"); // 9 sizes, 18 points
    c.environment = QStringLiteral("NCCL_ALGO=Ring");
    ASSERT_EQ(c.validate(), QString());
    ASSERT_EQ(c.expectedPoints(), 18);

    rl::RunController run;
    QSignalSpy points(&run, &rl::RunController::pointAvailable);
    QSignalSpy finished(&run, &rl::RunController::runFinished);
    QSignalSpy failed(&run, &rl::RunController::runFailed);
    // Live means the first point came well before the end: 9 rows 60 ms apart.
    QElapsedTimer clock;
    clock.start();
    qint64 firstPointMs = -1, endMs = -1;
    QObject::connect(&run, &rl::RunController::pointAvailable, [&] {
        if (firstPointMs < 0)
            firstPointMs = clock.elapsed();
    });
    QObject::connect(&run, &rl::RunController::runFinished, [&] { endMs = clock.elapsed(); });
    run.start(kCli, c.cliArguments(ws), c.expectedPoints());
    ASSERT_TRUE(rl::testing::waitFor([&] { return !finished.isEmpty() || !failed.isEmpty(); }, 120000));
    ASSERT_TRUE(failed.isEmpty()) << failed.first().first().toString().toStdString();
    EXPECT_EQ(finished.first().at(1).toString(), QStringLiteral("complete")) << finished.first().at(2).toString().toStdString();
    ASSERT_GE(firstPointMs, 0);
    EXPECT_GT(endMs - firstPointMs, 300) << "points came only with the end";
    EXPECT_EQ(points.size(), 18);
    EXPECT_EQ(run.pointsExpected(), 18);

    rl::store::Workspace store(ws.toStdString());
    const auto session = store.session(run.sessionId());
    ASSERT_TRUE(session);
    EXPECT_EQ(session->tool, "nccl-tests");
    EXPECT_EQ(session->params["environment"]["NCCL_ALGO"], "Ring");
    EXPECT_EQ(store.collectivePoints(run.sessionId()).size(), 18u);
}

TEST_F(GuiGpuTool, CancelMidSweepEndsCancelledAndKeepsThePoints)
{
    registerStandins();
    qputenv("STANDIN_DELAY_MS", "200");
    GpuToolConfig c = nccl();
    c.ops = {QStringLiteral("all_reduce")};
    c.minBytes = QStringLiteral("1K");
    c.maxBytes = QStringLiteral("1G"); // 21 sizes: seconds of output

    rl::RunController run;
    QSignalSpy points(&run, &rl::RunController::pointAvailable);
    QSignalSpy finished(&run, &rl::RunController::runFinished);
    QSignalSpy failed(&run, &rl::RunController::runFailed);
    run.start(kCli, c.cliArguments(ws), c.expectedPoints());
    ASSERT_TRUE(rl::testing::waitFor([&] { return points.size() >= 4 || !failed.isEmpty() || !finished.isEmpty(); },
                                     120000));
    ASSERT_TRUE(failed.isEmpty()) << failed.first().first().toString().toStdString();
    ASSERT_TRUE(finished.isEmpty());
    run.cancel();
    ASSERT_TRUE(rl::testing::waitFor([&] { return !run.isRunning(); }, 60000));
    ASSERT_EQ(finished.size(), 1);
    EXPECT_EQ(finished.first().at(1).toString(), QStringLiteral("cancelled"));
    EXPECT_TRUE(failed.isEmpty());

    rl::store::Workspace store(ws.toStdString());
    const auto session = store.session(run.sessionId());
    ASSERT_TRUE(session);
    EXPECT_EQ(session->status, rl::SessionStatus::Cancelled);
    const auto stored = store.collectivePoints(run.sessionId());
    EXPECT_GE(stored.size(), 4u);
    EXPECT_LT(stored.size(), static_cast<size_t>(c.expectedPoints()));
    EXPECT_EQ(stored.size(), static_cast<size_t>(points.size()));
}

// A GEMM bench run from the window: the session is selected, the kernel view shows it and its
// roofline holds every shape when it ends; progress counts to the shapes the CLI announced.
TEST_F(GuiGpuTool, AGemmRunFromTheWindowStoresGemmPointsAndShowsThemInTheKernelView)
{
    registerStandins();
    qputenv("STANDIN_DELAY_MS", "30");
    rl::Settings settings{dir.filePath(QStringLiteral("settings.ini"))};
    rl::MainWindow window{&settings};
    window.resize(1300, 800);
    window.show();
    QSignalSpy shown(&window, &rl::MainWindow::sessionsShown);
    window.openWorkspace(ws);
    ASSERT_TRUE(shown.wait(15000));

    QAction* action = nullptr;
    for (auto* a : window.menuBar()->findChildren<QAction*>())
        if (a->text().contains(QStringLiteral("GPU tool benchmark")))
            action = a;
    ASSERT_TRUE(action) << "File > New GPU tool benchmark…";
    EXPECT_EQ(action->shortcut(), QKeySequence(QStringLiteral("Ctrl+Alt+B")));
    EXPECT_FALSE(action->toolTip().isEmpty());

    GpuToolConfig c;
    c.tool = QStringLiteral("hipblaslt-bench");
    c.recipe = GpuToolConfig::Recipe::Square;
    c.squareFrom = QStringLiteral("256");
    c.squareTo = QStringLiteral("2048"); // 4 shapes
    auto* run = window.runController();
    QSignalSpy records(run, &rl::RunController::kernelRecordAvailable);
    QSignalSpy progress(run, &rl::RunController::progressChanged);
    QSignalSpy finished(run, &rl::RunController::runFinished);
    QSignalSpy failed(run, &rl::RunController::runFailed);
    window.startKernelBenchmark(c.cliArguments(ws), kCli);
    ASSERT_TRUE(rl::testing::waitFor([&] { return !finished.isEmpty() || !failed.isEmpty(); }, 120000));
    ASSERT_TRUE(failed.isEmpty()) << failed.first().first().toString().toStdString();
    EXPECT_EQ(finished.first().at(1).toString(), QStringLiteral("complete")) << finished.first().at(2).toString().toStdString();
    EXPECT_EQ(records.size(), 4);
    ASSERT_FALSE(progress.isEmpty());
    EXPECT_EQ(progress.last().at(0).toInt(), 4);
    EXPECT_EQ(progress.last().at(1).toInt(), 4) << "the total comes from the session header";

    rl::store::Workspace store(ws.toStdString());
    const auto session = store.session(run->sessionId());
    ASSERT_TRUE(session);
    EXPECT_EQ(session->kind, rl::kind::Gemm);
    EXPECT_EQ(session->tool, "hipblaslt-bench");
    EXPECT_EQ(rl::store::gemmPoints(store.database(), run->sessionId()).size(), 4u);

    auto* kernels = window.findChild<rl::KernelView*>();
    auto* views = window.findChild<QStackedWidget*>();
    ASSERT_TRUE(rl::testing::waitFor([&] {
        const auto& g = kernels->roofline()->geometry().gemm;
        return views->currentWidget() == kernels && !g.empty() && g.front().points.size() == 4;
    }, 15000));
}

// nccl-tests over two ops stores two sessions; the window keeps both selected as the second
// starts, so the chart shows every point of the run, live and at the end.
TEST_F(GuiGpuTool, ATwoOpRunFromTheWindowKeepsBothSessionsSelectedAndCharted)
{
    registerStandins();
    qputenv("STANDIN_DELAY_MS", "20");
    rl::Settings settings{dir.filePath(QStringLiteral("settings.ini"))};
    rl::MainWindow window{&settings};
    window.resize(1300, 800);
    window.show();
    QSignalSpy shown(&window, &rl::MainWindow::sessionsShown);
    window.openWorkspace(ws);
    ASSERT_TRUE(shown.wait(15000));

    GpuToolConfig c = nccl();
    c.maxBytes = QStringLiteral("64K"); // 14 sizes: 28 points per op
    auto* run = window.runController();
    QSignalSpy points(run, &rl::RunController::pointAvailable);
    QSignalSpy failed(run, &rl::RunController::runFailed);
    window.startKernelBenchmark(c.cliArguments(ws), kCli);
    ASSERT_TRUE(rl::testing::waitFor([&] { return (points.size() == 56 && !run->isRunning()) || !failed.isEmpty(); },
                                     120000));
    ASSERT_TRUE(failed.isEmpty()) << failed.first().first().toString().toStdString();
    ASSERT_TRUE(rl::testing::waitFor([&] {
        int n = 0;
        for (const auto& s : window.chartArea()->data())
            n += int(s.points.size());
        return window.sessionBrowser()->selectedIds().size() == 2 && n == 56;
    }, 15000)) << window.sessionBrowser()->selectedIds().size() << " sessions selected";
}

// Both columns at their natural size: nothing clipped; saved for a look when asked.
TEST_F(GuiGpuTool, DialogScreenshots)
{
    registerStandins();
    const QString cli = QStringLiteral("/opt/cluster/software/ridgeline/2026.11/bin/ridgeline-cli");
    GpuToolDialog dialog(cli, QStringLiteral("/home/researcher/workspaces/mi300x-acceptance.db"));
    dialog.setConfig(cases()[3].config);
    dialog.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&dialog));
    QApplication::processEvents();
    auto* preview = dialog.findChild<QPlainTextEdit*>(QStringLiteral("commandPreview"));
    EXPECT_EQ(preview->verticalScrollBar()->maximum(), 0) << "the whole command shows";
    GpuToolConfig gemm = cases()[4].config;
    GpuToolDialog gemmDialog(cli, QStringLiteral("/home/researcher/workspaces/mi300x-acceptance.db"));
    gemmDialog.setConfig(gemm);
    gemmDialog.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&gemmDialog));
    QApplication::processEvents();
    if (const QByteArray out = qgetenv("RIDGELINE_TEST_SCREENSHOT_DIR"); !out.isEmpty()) {
        dialog.grab().save(QString::fromLocal8Bit(out) + QStringLiteral("/gputool-dialog-nccl.png"));
        gemmDialog.grab().save(QString::fromLocal8Bit(out) + QStringLiteral("/gputool-dialog-gemm.png"));
    }
}
