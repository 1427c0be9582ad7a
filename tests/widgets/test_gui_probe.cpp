// Issue 25 in the GUI: "New PyTorch probe run" is a form over a runs::RunRequest of kind Probe: the
// preview is the request's own arguments, a problem is validate()'s sentence, what PyTorch the probe
// finds here is shown (asked in the background), the last run is remembered, and its command run
// through the main window's RunController stores a probe session in the real workspace.
#include <algorithm>

#include <QComboBox>
#include <QCoreApplication>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>

#include "gui/runs/benchmarkconfig.h"
#include "gui/runs/launchsettings.h"
#include "openwindow.h"
#include "gui/runs/probedialog.h"
#include "gui/runs/runcontroller.h"
#include "settings.h"
#include "store/workspace.h"
#include "tempdir.h"
#include "test_gui_env.h"

namespace {
// The probe's own check: a Python with PyTorch for ridgeline-probe, or why not.
QString torchMissing()
{
    QProcess p;
    p.start(QStringLiteral(RIDGELINE_PROBE), {QStringLiteral("info")});
    if (!p.waitForFinished(120000) || p.exitCode() != 0)
        return QString::fromUtf8(p.readAllStandardError());
    return {};
}

struct ProbeEnv
{
    ProbeEnv() { qputenv("RIDGELINE_PROBE", RIDGELINE_PROBE); }
    ~ProbeEnv() { qunsetenv("RIDGELINE_PROBE"); }
};
} // namespace

TEST(GuiProbe, ThePreviewIsTheRequestsOwnCommandAndProblemsAreValidatesSentences)
{
    ProbeEnv env;
    rl::test::TempDir dir;
    const QString ws = dir.filePath(QStringLiteral("ws.db"));
    rl::ProbeDialog dialog(QStringLiteral("/opt/rl/ridgeline-cli"), ws);
    auto* what = dialog.findChild<QComboBox*>(QStringLiteral("probe"));
    auto* options = dialog.findChild<QLineEdit*>(QStringLiteral("probeOptions"));
    auto* device = dialog.findChild<QComboBox*>(QStringLiteral("probeDevice"));
    auto* envText = dialog.findChild<QPlainTextEdit*>(QStringLiteral("probeEnvironment"));
    auto* run = dialog.findChild<QPushButton*>(QStringLiteral("runButton"));
    ASSERT_TRUE(what && options && device && envText && run);

    EXPECT_EQ(what->currentText(), QStringLiteral("gemm"));
    EXPECT_EQ(options->text(), rl::ProbeDialog::defaultOptions(QStringLiteral("gemm")));
    what->setCurrentText(QStringLiteral("collectives"));
    EXPECT_EQ(options->text(), QStringLiteral("-b 8 -e 1G -f 2")) << "an untouched form takes the new choice's options";
    options->setText(QStringLiteral("-b 64 -e 4K"));
    what->setCurrentText(QStringLiteral("step"));
    EXPECT_EQ(options->text(), QStringLiteral("-b 64 -e 4K")) << "what the user wrote stays";
    what->setCurrentText(QStringLiteral("collectives"));
    device->setCurrentText(QStringLiteral("cpu"));
    envText->setPlainText(QStringLiteral("MASTER_PORT=29511\n# a comment\n"));

    const rl::runs::RunRequest r = dialog.request();
    EXPECT_EQ(r.kind, rl::runs::RunKind::Probe);
    EXPECT_EQ(r.probe, "collectives");
    EXPECT_EQ(r.args, (std::vector<std::string>{"-b", "64", "-e", "4K", "--device", "cpu"}));
    EXPECT_EQ(r.env, std::vector<std::string>{"MASTER_PORT=29511"});
    const QStringList expected{QStringLiteral("--db"), ws, QStringLiteral("run"), QStringLiteral("probe"),
                               QStringLiteral("--probe"), QStringLiteral("collectives"), QStringLiteral("--env"),
                               QStringLiteral("MASTER_PORT=29511"), QStringLiteral("--point-timeout"),
                               QStringLiteral("600"), QStringLiteral("--"), QStringLiteral("-b"), QStringLiteral("64"),
                               QStringLiteral("-e"), QStringLiteral("4K"), QStringLiteral("--device"), QStringLiteral("cpu")};
    EXPECT_EQ(dialog.cliArguments(), expected);
    EXPECT_EQ(dialog.previewText(), rl::shellJoin(QStringLiteral("/opt/rl/ridgeline-cli"), expected));
    EXPECT_TRUE(run->isEnabled()) << dialog.problem().toStdString();

    envText->setPlainText(QStringLiteral("NOT AN ASSIGNMENT"));
    EXPECT_FALSE(run->isEnabled());
    EXPECT_EQ(dialog.problem(), rl::sentence(dialog.request().validate()));
    EXPECT_TRUE(dialog.problem().contains(QStringLiteral("NAME=VALUE"))) << dialog.problem().toStdString();
    rl::testing::shoot(&dialog, "probe-dialog.png");
}

TEST(GuiProbe, SaysWhichPyTorchAndDeviceTheProbeFindsHere)
{
    ProbeEnv env;
    const QString missing = torchMissing();
    rl::ProbeDialog dialog(QStringLiteral("ridgeline-cli"), QStringLiteral("/tmp/ws.db"));
    QSignalSpy checked(&dialog, &rl::ProbeDialog::pytorchChecked);
    ASSERT_TRUE(checked.wait(120000));
    if (!missing.isEmpty()) {
        EXPECT_TRUE(dialog.pytorchStatus().startsWith(QStringLiteral("Not found here"))) << dialog.pytorchStatus().toStdString();
        GTEST_SKIP() << "no PyTorch for the probe: " << missing.toStdString();
    }
    EXPECT_TRUE(dialog.pytorchStatus().startsWith(QStringLiteral("PyTorch "))) << dialog.pytorchStatus().toStdString();
    EXPECT_TRUE(dialog.pytorchStatus().contains(QStringLiteral("cpu")) ||
                dialog.pytorchStatus().contains(QStringLiteral("cuda")))
        << dialog.pytorchStatus().toStdString();
}

TEST(GuiProbe, TheLastRunIsRememberedAndItsCommandStoresAProbeSession)
{
    ProbeEnv env;
    if (const QString missing = torchMissing(); !missing.isEmpty())
        GTEST_SKIP() << "no PyTorch for the probe: " << missing.toStdString();
    rl::test::TempDir dir;
    const QString ws = dir.filePath(QStringLiteral("ws.db"));
    rl::Settings settings(dir.filePath(QStringLiteral("s.ini")));
    QStringList args;
    {
        rl::ProbeDialog dialog(QStringLiteral("ridgeline-cli"), ws, &settings);
        dialog.findChild<QComboBox*>(QStringLiteral("probe"))->setCurrentText(QStringLiteral("gemm"));
        dialog.findChild<QLineEdit*>(QStringLiteral("probeOptions"))->setText(QStringLiteral("--shapes 64x64x64,96x96x96 --dtypes fp32"));
        dialog.findChild<QComboBox*>(QStringLiteral("probeDevice"))->setCurrentText(QStringLiteral("cpu"));
        dialog.findChild<QLineEdit*>(QStringLiteral("title"))->setText(QStringLiteral("from the dialog"));
        dialog.show();
        dialog.findChild<QPushButton*>(QStringLiteral("runButton"))->click();
        EXPECT_EQ(dialog.result(), QDialog::Accepted);
        args = dialog.cliArguments();
    }
    rl::ProbeDialog again(QStringLiteral("ridgeline-cli"), ws, &settings);
    EXPECT_EQ(again.cliArguments(), args) << "the next dialog opens with the last run";

    rl::testing::OpenWindow open(dir, ws);
    ASSERT_TRUE(open.loaded);
    auto* run = open.window.runController();
    QSignalSpy finished(run, &rl::RunController::runFinished);
    QSignalSpy failed(run, &rl::RunController::runFailed);
    QSignalSpy points(run, &rl::RunController::kernelRecordAvailable);
    run->start(QStringLiteral(RIDGELINE_CLI_BIN), args, 0);
    ASSERT_TRUE(finished.wait(120000)) << (failed.isEmpty() ? std::string() : failed.first().first().toString().toStdString());
    EXPECT_EQ(points.size(), 2);
    rl::store::Workspace w(ws.toStdString());
    const auto sessions = w.sessions();
    ASSERT_EQ(sessions.size(), 1u);
    EXPECT_EQ(sessions[0].kind, "gemm");
    EXPECT_EQ(sessions[0].tool, "ridgeline-probe");
    EXPECT_EQ(sessions[0].title, "from the dialog");
}

// A step run's timed steps are records the store keeps in the session's params, not points of a
// table: each still counts toward the run's progress and tells the window to reload what it shows.
TEST(GuiProbe, AStepRunsTimedStepsCountAsPointsAndRefreshTheView)
{
    ProbeEnv env;
    if (const QString missing = torchMissing(); !missing.isEmpty())
        GTEST_SKIP() << "no PyTorch for the probe: " << missing.toStdString();
    rl::test::TempDir dir;
    const QString ws = dir.filePath(QStringLiteral("ws.db"));
    rl::testing::OpenWindow open(dir, ws);
    ASSERT_TRUE(open.loaded);
    auto* run = open.window.runController();
    QSignalSpy finished(run, &rl::RunController::runFinished);
    QSignalSpy failed(run, &rl::RunController::runFailed);
    QSignalSpy kept(run, &rl::RunController::keptRecordAvailable);
    QSignalSpy progress(run, &rl::RunController::progressChanged);
    const QStringList args{QStringLiteral("--db"), ws, QStringLiteral("run"), QStringLiteral("probe"),
                           QStringLiteral("--probe"), QStringLiteral("step"), QStringLiteral("--"),
                           QStringLiteral("--device"), QStringLiteral("cpu"), QStringLiteral("--model"),
                           QStringLiteral("llama-3-8b"), QStringLiteral("--layers"), QStringLiteral("1"),
                           QStringLiteral("--hidden"), QStringLiteral("64"), QStringLiteral("--vocab"),
                           QStringLiteral("256"), QStringLiteral("--seq"), QStringLiteral("32"),
                           QStringLiteral("--steps"), QStringLiteral("3"), QStringLiteral("--warmup"), QStringLiteral("1")};
    run->start(QStringLiteral(RIDGELINE_CLI_BIN), args, 0);
    ASSERT_TRUE(finished.wait(120000)) << (failed.isEmpty() ? std::string() : failed.first().first().toString().toStdString());
    EXPECT_EQ(finished.first().at(1).toString(), QStringLiteral("complete"));
    EXPECT_GE(kept.size(), 3) << "a signal per timed step, and for the step summary";
    ASSERT_FALSE(progress.isEmpty());
    EXPECT_EQ(progress.last().at(0).toInt(), 3) << "the three timed steps are the run's points";
    EXPECT_EQ(progress.last().at(1).toInt(), 3);
    rl::store::Workspace w(ws.toStdString());
    const auto sessions = w.sessions(); // the step, and the trace its profiler wrote
    const auto step = std::find_if(sessions.begin(), sessions.end(), [](const auto& s) { return s.kind == "step"; });
    ASSERT_NE(step, sessions.end());
    EXPECT_EQ(step->params["timed_steps"].size(), 3u);
}

// Issue 24, minor list: at about 1000 px the dialog squeezed its #SBATCH field. The field keeps
// the width of the form's other fields and room for two option lines at least.
TEST(GuiProbe, TheSbatchFieldIsAsWideAsTheOtherFieldsAt1000Px)
{
    ProbeEnv env;
    rl::test::TempDir dir;
    rl::ProbeDialog dialog(QStringLiteral("/opt/rl/ridgeline-cli"), dir.filePath(QStringLiteral("ws.db")));
    dialog.resize(1000, dialog.sizeHint().height());
    dialog.show();
    auto* sbatch = dialog.findChild<QPlainTextEdit*>(QStringLiteral("sbatchOptions"));
    auto* title = dialog.findChild<QLineEdit*>(QStringLiteral("probeTitle"));
    auto* options = dialog.findChild<QLineEdit*>(QStringLiteral("probeOptions"));
    ASSERT_TRUE(sbatch && options);
    ASSERT_TRUE(rl::testing::waitFor([&] { return sbatch->width() > 0 && dialog.width() >= 1000; }));
    QCoreApplication::processEvents();
    const QLineEdit* other = title ? title : options;
    EXPECT_GE(sbatch->width(), other->width() * 9 / 10) << "sbatch " << sbatch->width() << ", field " << other->width();
    EXPECT_GE(sbatch->viewport()->height(), sbatch->fontMetrics().lineSpacing() * 2);
    rl::testing::shoot(&dialog, "probe-dialog-1000.png");
    // As it opens, it fits a 1280x720 screen: at its 495 px hint it needed over 700 px of height
    // and the #SBATCH field slid under the job folder row.
    rl::ProbeDialog opened(QStringLiteral("/opt/rl/ridgeline-cli"), dir.filePath(QStringLiteral("ws.db")));
    opened.show();
    QCoreApplication::processEvents();
    EXPECT_GE(opened.width(), 720);
    EXPECT_LE(opened.layout()->totalHeightForWidth(opened.width()), 680) << "width " << opened.width();
}
