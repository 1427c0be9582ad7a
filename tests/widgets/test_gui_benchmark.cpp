// The benchmark dialog builds the exact ridgeline-cli command for each launcher, previews it
// live, and counts the points the progress bar expects.
#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>

#include "benchmarkdialog.h"
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
    c.np = 16;
    return c;
}

struct LauncherCase
{
    BenchmarkConfig::Launcher launcher;
    QStringList launchArgs;
};
} // namespace

TEST(GuiBenchmark, BuildsTheExactCommandForEachLauncher)
{
    const std::vector<LauncherCase> cases{
        {BenchmarkConfig::Launcher::LocalMpirun, {}},
        {BenchmarkConfig::Launcher::Hostfile, {QStringLiteral("--hostfile"), QStringLiteral("/etc/hosts.mi300x")}},
        {BenchmarkConfig::Launcher::Template,
         {QStringLiteral("--launcher"), QStringLiteral("srun -N {nodes} --ntasks-per-node {ppn} {bench}"),
          QStringLiteral("--nodes"), QStringLiteral("2"), QStringLiteral("--ppn"), QStringLiteral("8")}},
    };
    for (const auto& c : cases) {
        BenchmarkConfig cfg = base();
        cfg.launcher = c.launcher;
        cfg.hostfile = QStringLiteral("/etc/hosts.mi300x");
        cfg.nodes = 2;
        cfg.ppn = 8;
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
