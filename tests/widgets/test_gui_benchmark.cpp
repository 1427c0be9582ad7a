// The benchmark dialog builds the exact ridgeline-cli command for each launcher, previews it
// live, and counts the points the progress bar expects.
#include <QCheckBox>
#include <QComboBox>
#include <QFontMetrics>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSpinBox>

#include "gui/runs/benchmarkdialog.h"
#include "gui/runs/kernelbenchmarkdialog.h"
#include "settings.h"
#include "tempdir.h"
#include "test_gui_env.h"

using rl::BenchmarkConfig;
using rl::BenchmarkDialog;

namespace {
const QStringList kRunner{QStringLiteral("--ops"), QStringLiteral("all_reduce,all_gather"),
                          QStringLiteral("-b"), QStringLiteral("1K"), QStringLiteral("-e"), QStringLiteral("1M"),
                          QStringLiteral("-f"), QStringLiteral("4"), QStringLiteral("-d"),
                          QStringLiteral("float64"), QStringLiteral("-o"), QStringLiteral("sum"),
                          QStringLiteral("--inplace"), QStringLiteral("0"), QStringLiteral("-n"), QStringLiteral("50"), QStringLiteral("-w"), QStringLiteral("10")};

BenchmarkConfig base()
{
    BenchmarkConfig c;
    c.ops = {QStringLiteral("all_reduce"), QStringLiteral("all_gather")};
    c.minBytes = QStringLiteral("1K");
    c.maxBytes = QStringLiteral("1M");
    c.factor = 4;
    c.dtypes = {QStringLiteral("float64")};
    c.iterations = 50;
    c.warmup = 10;
    c.launch.np = 16;
    return c;
}

struct LauncherCase
{
    rl::LaunchSettings::Mode launcher;
    QStringList launchArgs;
};
} // namespace

TEST(GuiBenchmark, BuildsTheExactCommandForEachLauncher)
{
    const std::vector<LauncherCase> cases{
        {rl::LaunchSettings::Mode::LocalMpirun, {}},
        {rl::LaunchSettings::Mode::Hostfile, {QStringLiteral("--hostfile"), QStringLiteral("/etc/hosts.mi300x")}},
        {rl::LaunchSettings::Mode::Template,
         {QStringLiteral("--launcher"), QStringLiteral("srun -N {nodes} --ntasks-per-node {ppn} {bench}"),
          QStringLiteral("--nodes"), QStringLiteral("2"), QStringLiteral("--ppn"), QStringLiteral("8")}},
    };
    for (const auto& c : cases) {
        BenchmarkConfig cfg = base();
        cfg.launch.mode = c.launcher;
        cfg.launch.hostfile = QStringLiteral("/etc/hosts.mi300x");
        cfg.launch.nodes = 2;
        cfg.launch.ppn = 8;
        const QStringList expected = QStringList{QStringLiteral("--db"), QStringLiteral("/w/ws.db"), QStringLiteral("run"),
                                                 QStringLiteral("collectives"), QStringLiteral("--np"),
                                                 QStringLiteral("16")} +
                                     c.launchArgs + QStringList{QStringLiteral("--")} + kRunner;
        EXPECT_EQ(cfg.validate(), QString());
        EXPECT_EQ(cfg.cliArguments(QStringLiteral("/w/ws.db")), expected) << int(c.launcher);

        BenchmarkDialog dialog(QStringLiteral("/opt/rl/ridgeline-cli"), QStringLiteral("/w/ws.db"));
        dialog.setConfig(cfg);
        EXPECT_EQ(dialog.config().cliArguments(QStringLiteral("/w/ws.db")), expected);
        EXPECT_EQ(dialog.previewText(), rl::shellJoin(QStringLiteral("/opt/rl/ridgeline-cli"), expected));
    }
}

TEST(GuiBenchmark, PreviewUpdatesLiveAndInvalidInputDisablesRun)
{
    BenchmarkDialog dialog(QStringLiteral("ridgeline-cli"), QStringLiteral("/w/ws.db"));
    auto* preview = dialog.findChild<QPlainTextEdit*>(QStringLiteral("commandPreview"));
    auto* np = dialog.findChild<QSpinBox*>(QStringLiteral("np"));
    auto* launcher = dialog.findChild<QComboBox*>(QStringLiteral("launcher"));
    auto* templ = dialog.findChild<QLineEdit*>(QStringLiteral("launchTemplate"));
    auto* maxBytes = dialog.findChild<QLineEdit*>(QStringLiteral("maxBytes"));
    auto* run = dialog.findChild<QPushButton*>(QStringLiteral("runButton"));
    ASSERT_TRUE(preview && np && launcher && templ && maxBytes && run);
    EXPECT_TRUE(preview->isReadOnly());
    np->setValue(8);
    EXPECT_TRUE(preview->toPlainText().contains(QStringLiteral("--np 8 --")));
    launcher->setCurrentIndex(2);
    EXPECT_TRUE(preview->toPlainText().contains(
        QStringLiteral("--launcher 'srun -N {nodes} --ntasks-per-node {ppn} {bench}' --nodes 1 --ppn 2")))
        << preview->toPlainText().toStdString();
    EXPECT_TRUE(run->isEnabled());
    templ->setText(QStringLiteral("srun -N 2"));
    EXPECT_FALSE(run->isEnabled()) << "a template without {bench} cannot run";
    templ->setText(QStringLiteral("srun -N {nodes} {bench}"));
    maxBytes->setText(QStringLiteral("12 parsecs"));
    EXPECT_FALSE(run->isEnabled());
    maxBytes->setText(QStringLiteral("128M"));
    EXPECT_TRUE(run->isEnabled());
    for (auto* box : dialog.findChildren<QCheckBox*>())
        EXPECT_FALSE(box->toolTip().isEmpty()) << box->objectName().toStdString();
}

TEST(GuiBenchmark, ExpectedPointsFollowTheSweep)
{
    BenchmarkConfig c = base(); // 1K..1M by 4: 1K 4K 16K 64K 256K 1M = 6 sizes
    EXPECT_EQ(c.sizes().size(), 6u);
    EXPECT_EQ(c.expectedPoints(), 2 * 6 * 1);
    c.inPlace = true;
    c.dtypes << QStringLiteral("float32");
    EXPECT_EQ(c.expectedPoints(), 2 * 6 * 2 * 2);
    c.minBytes = QStringLiteral("2M");
    EXPECT_FALSE(c.validate().isEmpty());
    EXPECT_EQ(c.expectedPoints(), 0);
}

TEST(GuiBenchmark, ConfigJsonRoundTripsAndAnotherVersionGivesTheDefaults)
{
    BenchmarkConfig c = base();
    c.launch.mode = rl::LaunchSettings::Mode::Template;
    c.launch.sbatch = true;
    c.launch.sbatchOptions = QStringLiteral("--partition=gpu");
    c.inPlace = true;
    c.title = QStringLiteral("MI300X node pair");
    c.launch.mpirunOptions = QStringLiteral("--oversubscribe");
    const auto back = BenchmarkConfig::fromJson(c.toJson());
    EXPECT_EQ(back.cliArguments(QStringLiteral("/w.db")), c.cliArguments(QStringLiteral("/w.db")));
    EXPECT_EQ(back.launch.mpirunOptions, c.launch.mpirunOptions);
    EXPECT_TRUE(back.cliArguments(QStringLiteral("/w.db")).contains(QStringLiteral("--sbatch-option=--partition=gpu")));

    QJsonObject other = c.toJson();
    other[QStringLiteral("version")] = BenchmarkConfig::kJsonVersion + 1;
    EXPECT_EQ(BenchmarkConfig::fromJson(other).cliArguments(QStringLiteral("/w.db")),
              BenchmarkConfig{}.cliArguments(QStringLiteral("/w.db")));
    QJsonObject mistyped = c.toJson();
    QJsonObject mistypedLaunch = c.launch.toJson();
    mistypedLaunch[QStringLiteral("np")] = QStringLiteral("sixteen");
    mistyped[QStringLiteral("launch")] = mistypedLaunch;
    EXPECT_EQ(BenchmarkConfig::fromJson(mistyped).launch.np, BenchmarkConfig{}.launch.np) << "a mistyped field keeps its default";
    EXPECT_EQ(BenchmarkConfig::fromJson(mistyped).factor, 4);
}

// Run remembers what was set in the form; the next dialog opens with it; Cancel forgets edits;
// Restore defaults puts the defaults back.
TEST(GuiBenchmark, CollectiveDialogReopensWithTheLastRunConfiguration)
{
    rl::test::TempDir dir;
    rl::Settings settings(dir.filePath(QStringLiteral("s.ini")));
    const QString defaults = BenchmarkDialog(QStringLiteral("cli"), QStringLiteral("/w.db")).previewText();
    {
        BenchmarkDialog dialog(QStringLiteral("cli"), QStringLiteral("/w.db"), &settings);
        EXPECT_EQ(dialog.previewText(), defaults) << "nothing stored yet: the defaults";
        dialog.findChild<QCheckBox*>(QStringLiteral("op_all_gather"))->setChecked(true);
        dialog.findChild<QCheckBox*>(QStringLiteral("dtype_float64"))->setChecked(true);
        dialog.findChild<QLineEdit*>(QStringLiteral("maxBytes"))->setText(QStringLiteral("1G"));
        dialog.findChild<QSpinBox*>(QStringLiteral("np"))->setValue(8);
        dialog.findChild<QComboBox*>(QStringLiteral("launcher"))->setCurrentIndex(2);
        dialog.findChild<QSpinBox*>(QStringLiteral("nodes"))->setValue(4);
        dialog.findChild<QLineEdit*>(QStringLiteral("title"))->setText(QStringLiteral("four nodes"));
        dialog.show();
        dialog.findChild<QPushButton*>(QStringLiteral("runButton"))->click();
        EXPECT_EQ(dialog.result(), QDialog::Accepted);
    }
    const BenchmarkConfig ran = BenchmarkDialog(QStringLiteral("cli"), QStringLiteral("/w.db"), &settings).config();
    {
        BenchmarkDialog dialog(QStringLiteral("cli"), QStringLiteral("/w.db"), &settings);
        const BenchmarkConfig c = dialog.config();
        EXPECT_EQ(c.ops, (QStringList{QStringLiteral("all_reduce"), QStringLiteral("all_gather")}));
        EXPECT_EQ(c.dtypes, (QStringList{QStringLiteral("float32"), QStringLiteral("float64")}));
        EXPECT_EQ(c.maxBytes, QStringLiteral("1G"));
        EXPECT_EQ(c.launch.np, 8);
        EXPECT_EQ(c.launch.mode, rl::LaunchSettings::Mode::Template);
        EXPECT_EQ(c.launch.nodes, 4);
        EXPECT_EQ(c.title, QStringLiteral("four nodes"));
        dialog.findChild<QSpinBox*>(QStringLiteral("np"))->setValue(3);
        dialog.reject();
    }
    BenchmarkDialog dialog(QStringLiteral("cli"), QStringLiteral("/w.db"), &settings);
    EXPECT_EQ(dialog.config().launch.np, 8) << "a cancelled dialog does not overwrite the last run";
    EXPECT_EQ(dialog.config().cliArguments(QStringLiteral("/w.db")), ran.cliArguments(QStringLiteral("/w.db")));
    auto* restore = dialog.findChild<QPushButton*>(QStringLiteral("restoreDefaults"));
    ASSERT_TRUE(restore);
    EXPECT_FALSE(restore->toolTip().isEmpty());
    restore->click();
    EXPECT_EQ(dialog.previewText(), defaults);
}

TEST(GuiBenchmark, KernelDialogReopensOnTheLastKindWithEachKindsLastArguments)
{
    rl::test::TempDir dir;
    rl::Settings settings(dir.filePath(QStringLiteral("s.ini")));
    const QString gemmArgs = QStringLiteral("-m 64:512:64 --dtypes float32 --repeats 1");
    const QString membwArgs = QStringLiteral("--steps-per-octave 2 --repeats 2");
    auto run = [&](const QString& kind, const QString& args) {
        rl::KernelBenchmarkDialog dialog(QStringLiteral("cli"), QStringLiteral("/w.db"), &settings);
        auto* combo = dialog.findChild<QComboBox*>(QStringLiteral("kernelKind"));
        combo->setCurrentIndex(combo->findData(kind));
        dialog.findChild<QLineEdit*>(QStringLiteral("kernelArgs"))->setText(args);
        dialog.show();
        dialog.findChild<QPushButton*>(QStringLiteral("runButton"))->click();
    };
    run(QStringLiteral("membw"), membwArgs);
    run(QStringLiteral("gemm"), gemmArgs);

    rl::KernelBenchmarkDialog dialog(QStringLiteral("cli"), QStringLiteral("/w.db"), &settings);
    EXPECT_EQ(dialog.benchmark(), QStringLiteral("gemm"));
    EXPECT_EQ(dialog.runnerArguments(), gemmArgs);
    EXPECT_TRUE(dialog.previewText().endsWith(QStringLiteral("run gemm -- ") + gemmArgs)) << dialog.previewText().toStdString();
    auto* combo = dialog.findChild<QComboBox*>(QStringLiteral("kernelKind"));
    combo->setCurrentIndex(combo->findData(QStringLiteral("membw")));
    EXPECT_EQ(dialog.runnerArguments(), membwArgs) << "each kind keeps its own last arguments";
    combo->setCurrentIndex(combo->findData(QStringLiteral("peakflops")));
    EXPECT_EQ(dialog.runnerArguments(), rl::KernelBenchmarkDialog::defaultArguments(QStringLiteral("peakflops")));
    combo->setCurrentIndex(combo->findData(QStringLiteral("gemm")));
    auto* restore = dialog.findChild<QPushButton*>(QStringLiteral("restoreDefaults"));
    ASSERT_TRUE(restore);
    restore->click();
    EXPECT_EQ(dialog.benchmark(), QStringLiteral("peakflops"));
    combo->setCurrentIndex(combo->findData(QStringLiteral("gemm")));
    EXPECT_EQ(dialog.runnerArguments(), rl::KernelBenchmarkDialog::defaultArguments(QStringLiteral("gemm")));
}

namespace {
// True when every character of the preview is on screen without scrolling: a word-wrapped label
// only breaks at spaces, so a long path runs past its edge; a text box may hide lines below.
bool showsWholeCommand(QWidget* preview, QString* why)
{
    if (auto* label = qobject_cast<QLabel*>(preview)) {
        const QRect room = label->contentsRect();
        const QRect need = label->fontMetrics().boundingRect(QRect(room.topLeft(), QSize(room.width(), 100000)),
                                                             Qt::TextWordWrap, label->text());
        *why = QStringLiteral("label needs %1x%2, has %3x%4")
                   .arg(need.width()).arg(need.height()).arg(room.width()).arg(room.height());
        return need.width() <= room.width() && need.height() <= room.height();
    }
    if (auto* edit = qobject_cast<QPlainTextEdit*>(preview)) {
        *why = QStringLiteral("text box scrolls %1 lines down, %2 px across")
                   .arg(edit->verticalScrollBar()->maximum()).arg(edit->horizontalScrollBar()->maximum());
        return edit->verticalScrollBar()->maximum() == 0 && edit->horizontalScrollBar()->maximum() == 0;
    }
    *why = QStringLiteral("no preview");
    return false;
}
} // namespace

// A deep workspace path and a long launcher template make a command several lines long; both
// dialogs show all of it at their natural size, selectable for copying.
TEST(GuiBenchmark, CommandPreviewsShowTheWholeCommand)
{
    const QString cli = QStringLiteral("/opt/cluster/software/ridgeline/2026.11/bin/ridgeline-cli");
    const QString ws = QStringLiteral("/home/researcher/projects/mi300x-acceptance-tests/workspaces/"
                                      "rack-17-two-node-all-reduce-sweep-after-firmware-update.db");
    rl::KernelBenchmarkDialog kernel(cli, ws);
    kernel.setBenchmark(QStringLiteral("gemm"));
    kernel.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&kernel));
    QApplication::processEvents();
    auto* kernelPreview = kernel.findChild<QWidget*>(QStringLiteral("kernelPreview"));
    ASSERT_TRUE(kernelPreview);
    QString why;
    EXPECT_TRUE(showsWholeCommand(kernelPreview, &why)) << why.toStdString();
    EXPECT_EQ(kernel.previewText(), rl::shellJoin(cli, kernel.cliArguments()));
    auto* kernelText = qobject_cast<QPlainTextEdit*>(kernelPreview);
    EXPECT_TRUE(kernelText && kernelText->isReadOnly() &&
                (kernelText->textInteractionFlags() & Qt::TextSelectableByMouse));

    BenchmarkDialog collective(cli, ws);
    BenchmarkConfig c = base();
    c.ops = {QStringLiteral("all_reduce"), QStringLiteral("all_gather"), QStringLiteral("reduce_scatter")};
    c.launch.mode = rl::LaunchSettings::Mode::Template;
    c.launch.launchTemplate = QStringLiteral("srun --partition=mi300x-long --account=proj-acceptance --exclusive "
                                      "-N {nodes} --ntasks-per-node {ppn} --gpus-per-task=1 {bench}");
    collective.setConfig(c);
    collective.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&collective));
    QApplication::processEvents();
    EXPECT_TRUE(showsWholeCommand(collective.findChild<QWidget*>(QStringLiteral("commandPreview")), &why))
        << why.toStdString();
    if (const QByteArray dir = qgetenv("RIDGELINE_TEST_SCREENSHOT_DIR"); !dir.isEmpty()) {
        kernel.grab().save(QString::fromLocal8Bit(dir) + QStringLiteral("/kernel-dialog.png"));
        collective.grab().save(QString::fromLocal8Bit(dir) + QStringLiteral("/collective-dialog.png"));
    }
}

// Issue 13: the dialog's defaults leave the repetitions to the runner's time budget (IMB's policy)
// instead of a fixed -n 20 that got the latency regime wrong; a number typed in is passed on.
TEST(GuiBenchmark, RepetitionsDefaultToTheRunnersTimeBudget)
{
    const BenchmarkConfig defaults;
    const QStringList args = defaults.runnerArguments();
    EXPECT_FALSE(args.contains(QStringLiteral("-n"))) << args.join(u' ').toStdString();
    EXPECT_FALSE(args.contains(QStringLiteral("-w"))) << args.join(u' ').toStdString();
    BenchmarkDialog dialog(QStringLiteral("cli"), QStringLiteral("/w.db"));
    dialog.setConfig(defaults);
    auto* iterations = dialog.findChild<QSpinBox*>(QStringLiteral("iterations"));
    ASSERT_TRUE(iterations);
    EXPECT_EQ(iterations->text(), QStringLiteral("auto (time budget)"));
    iterations->setValue(1000);
    EXPECT_TRUE(dialog.config().runnerArguments().join(u' ').contains(QStringLiteral("-n 1000")));
}
