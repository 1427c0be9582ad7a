// Issue 15's Preferences (Edit > Preferences…, Ctrl+,), the start page and the plural suffixes, on
// real widgets with a temporary INI settings file, a temporary XDG_DATA_HOME (tools.json) and a real
// SQLite workspace: Cancel writes nothing, Apply/OK persist through Settings and take effect at once
// (bandwidth unit in the results table, theme, export size), the benchmark dialogs pre-fill the
// default launcher with its mpirun, the tool folders land in the tools.json the CLI reads.
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QDialogButtonBox>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTableView>

#include "gui/runs/benchmarkdialog.h"
#include "gui/window/chartarea.h"
#include "chartframe.h"
#include "collectivepointmodel.h"
#include "gui/runs/gputooldialog.h"
#include "gui/runs/launcherwidget.h"
#include "collectivechart.h"
#include "gui/window/mainwindow.h"
#include "plotpixels.h"
#include "gui/settings/preferencesdialog.h"
#include "gui/window/sessionbrowser.h"
#include "sessionmodel.h"
#include "settings.h"
#include "gui/window/startpage.h"
#include "tempdir.h"
#include "test_gui_env.h"
#include "tools/gputools.h"
#include "units/units.h"

using rl::testing::shoot;
using rl::testing::waitFor;

namespace {
struct Env
{
    rl::test::TempDir dir;
    QString ini = dir.filePath(QStringLiteral("settings.ini"));
    Env()
    {
        qputenv("XDG_DATA_HOME", dir.filePath(QStringLiteral("data")).toLocal8Bit());
        qputenv("RIDGELINE_NO_DIALOGS", "1");
    }
};

template <typename T>
T* child(QWidget* w, const char* name)
{
    auto* c = w->findChild<T*>(QString::fromLatin1(name));
    EXPECT_NE(c, nullptr) << name;
    return c;
}

// Fills every field of the dialog with non-default values.
void fill(rl::PreferencesDialog& d, const QString& toolFolder)
{
    rl::LaunchSettings l;
    l.mode = rl::LaunchSettings::Mode::Hostfile;
    l.np = 16;
    l.hostfile = QStringLiteral("/shared/hosts.txt");
    l.mpirun = QStringLiteral("/opt/openmpi-5/bin/mpirun");
    l.mpirunOptions = QStringLiteral("--mca btl self,tcp");
    d.findChild<rl::LauncherWidget*>()->setLaunch(l);
    EXPECT_TRUE(d.addToolFolder(toolFolder));
    EXPECT_FALSE(d.addToolFolder(toolFolder + QStringLiteral("/not-there")));
    child<QComboBox>(&d, "bandwidthUnit")->setCurrentIndex(1);
    child<QComboBox>(&d, "theme")->setCurrentIndex(2);
    child<QSpinBox>(&d, "exportWidth")->setValue(800);
    child<QSpinBox>(&d, "exportHeight")->setValue(500);
}
} // namespace

TEST(GuiPreferences, CancelWritesNothingApplyPersistsEverything)
{
    Env env;
    const QString tools = env.dir.filePath(QStringLiteral("nccl-tests/build"));
    QDir().mkpath(tools);
    {
        rl::Settings settings(env.ini);
        rl::PreferencesDialog d(&settings);
        fill(d, tools);
        shoot(&d, "preferences.png");
        d.reject();
        EXPECT_TRUE(settings.defaultLaunch().isEmpty());
        EXPECT_EQ(settings.bandwidthUnit(), rl::units::BandwidthUnit::GBps);
        EXPECT_EQ(settings.exportSize(), rl::Settings::kDefaultExportSize);
        EXPECT_TRUE(rl::tools::ToolSettings::load(rl::tools::ToolSettings::defaultPath()).folders.empty());
    }
    {
        rl::Settings settings(env.ini);
        rl::PreferencesDialog d(&settings);
        fill(d, tools);
        QSignalSpy unit(&settings, &rl::Settings::bandwidthUnitChanged);
        d.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Apply)->click();
        EXPECT_EQ(d.result(), 0) << "Apply does not close the dialog";
        EXPECT_EQ(unit.size(), 1);
        EXPECT_TRUE(child<QLabel>(&d, "preferencesProblem")->text().isEmpty());
    }
    rl::Settings again(env.ini);
    EXPECT_EQ(again.bandwidthUnit(), rl::units::BandwidthUnit::GiBps);
    EXPECT_EQ(again.theme(), rl::Settings::Theme::Dark);
    EXPECT_EQ(again.exportSize(), QSize(800, 500));
    const auto launch = rl::LaunchSettings::fromJson(again.defaultLaunch());
    EXPECT_EQ(launch.mode, rl::LaunchSettings::Mode::Hostfile);
    EXPECT_EQ(launch.np, 16);
    EXPECT_EQ(launch.mpirun, QStringLiteral("/opt/openmpi-5/bin/mpirun"));
    EXPECT_FALSE(again.defaultLaunch().contains(QStringLiteral("sbatch"))) << "batch jobs stay per dialog";
    // The tools.json of the GPU tool dialog and `ridgeline-cli tools`.
    const auto stored = rl::tools::ToolSettings::load(rl::tools::ToolSettings::defaultPath());
    ASSERT_EQ(stored.folders.size(), 1u);
    EXPECT_EQ(QString::fromStdString(stored.folders.front()), QDir::cleanPath(tools));
    // Reopened, the dialog shows what is stored.
    rl::PreferencesDialog reopened(&again);
    EXPECT_EQ(reopened.toolFolders(), QStringList{QDir::cleanPath(tools)});
    EXPECT_EQ(child<QComboBox>(&reopened, "bandwidthUnit")->currentIndex(), 1);
    EXPECT_EQ(child<QSpinBox>(&reopened, "np")->value(), 16);
    rl::units::setDisplayBandwidthUnit(rl::units::BandwidthUnit::GBps);
}

// The benchmark dialogs open with the default launcher, mpirun included, over their last run's.
TEST(GuiPreferences, BenchmarkDialogsPrefillTheDefaultLauncherAndMpirun)
{
    Env env;
    rl::Settings settings(env.ini);
    rl::LaunchSettings l;
    l.mode = rl::LaunchSettings::Mode::Hostfile;
    l.np = 16;
    l.hostfile = QStringLiteral("/shared/hosts.txt");
    l.mpirun = QStringLiteral("/opt/openmpi-5/bin/mpirun");
    settings.setDefaultLaunch(l.toJson());

    rl::BenchmarkDialog collective(QStringLiteral("ridgeline-cli"), env.dir.filePath(QStringLiteral("ws.db")), &settings);
    EXPECT_EQ(collective.config().launch.np, 16);
    EXPECT_EQ(collective.config().launch.hostfile, QStringLiteral("/shared/hosts.txt"));
    EXPECT_TRUE(collective.previewText().contains(QStringLiteral("--mpirun /opt/openmpi-5/bin/mpirun")))
        << collective.previewText().toStdString();
    EXPECT_TRUE(collective.previewText().contains(QStringLiteral("--hostfile /shared/hosts.txt")));
    EXPECT_EQ(child<QSpinBox>(&collective, "np")->text(), QStringLiteral("16 ranks"));

    rl::GpuToolDialog tool(QStringLiteral("ridgeline-cli"), env.dir.filePath(QStringLiteral("ws.db")), &settings);
    EXPECT_EQ(tool.config().launch.mode, rl::LaunchSettings::Mode::Hostfile);
    EXPECT_TRUE(tool.previewText().contains(QStringLiteral("--mpirun /opt/openmpi-5/bin/mpirun")))
        << tool.previewText().toStdString();
}

// "1 rank", "2 ranks": the suffix follows the value.
TEST(GuiPreferences, CountSpinBoxesSaySingularForOne)
{
    rl::LauncherWidget launcher({rl::LaunchSettings::Mode::Template}, false);
    auto* np = child<QSpinBox>(&launcher, "np");
    auto* nodes = child<QSpinBox>(&launcher, "nodes");
    auto* ppn = child<QSpinBox>(&launcher, "ppn");
    np->setValue(1);
    nodes->setValue(1);
    ppn->setValue(1);
    EXPECT_EQ(np->text(), QStringLiteral("1 rank"));
    EXPECT_EQ(nodes->text(), QStringLiteral("1 node"));
    EXPECT_EQ(ppn->text(), QStringLiteral("1 rank/node"));
    np->setValue(2);
    nodes->setValue(4);
    EXPECT_EQ(np->text(), QStringLiteral("2 ranks"));
    EXPECT_EQ(nodes->text(), QStringLiteral("4 nodes"));
}

namespace {
struct Window
{
    Env env;
    QString ws = env.dir.filePath(QStringLiteral("ws.db"));
    rl::Settings settings{env.ini};
    rl::MainWindow window{&settings};
    Window()
    {
        window.resize(1300, 800);
        window.show();
        QSignalSpy shown(&window, &rl::MainWindow::sessionsShown);
        window.openWorkspace(ws);
        EXPECT_TRUE(shown.wait(15000));
    }
    void importSamples()
    {
        QSignalSpy imported(&window, &rl::MainWindow::importDone);
        window.importPaths({rl::testing::guiData("import")});
        EXPECT_TRUE(imported.wait(30000));
        EXPECT_TRUE(waitFor([&] { return window.sessionBrowser()->model()->sessionCount() == 3; }));
    }
    QStackedWidget* views() { return window.findChild<QStackedWidget*>(); }
};
} // namespace

// Edit > Preferences… (Ctrl+,) opens the dialog; the unit chosen there reaches the results table of
// the sessions already shown, the theme the application palette, the export size the charts.
TEST(GuiPreferences, ChangesTakeEffectWithoutARestart)
{
    Window w;
    w.importSamples();
    QAction* prefs = w.window.findChild<QAction*>(QStringLiteral("preferencesAction"));
    ASSERT_TRUE(prefs);
    EXPECT_EQ(prefs->shortcut(), QKeySequence(QStringLiteral("Ctrl+,")));
    prefs->trigger();
    rl::PreferencesDialog* dialog = nullptr;
    ASSERT_TRUE(waitFor([&] { return (dialog = w.window.findChild<rl::PreferencesDialog*>()) && dialog->isVisible(); }));
    shoot(dialog, "preferences-dialog.png");

    QSignalSpy charts(&w.window, &rl::MainWindow::chartsShown);
    w.window.sessionBrowser()->selectFirst(1);
    ASSERT_TRUE(charts.wait(15000));
    auto* table = w.window.findChild<QTableView*>(QStringLiteral("resultsTable"));
    const auto busbw = [&] { return table->model()->index(table->model()->rowCount() - 1, rl::CollectivePointModel::BusBw).data().toString(); };
    ASSERT_TRUE(busbw().endsWith(QStringLiteral(" GB/s"))) << busbw().toStdString();
    const QColor lightWindow = QApplication::palette().color(QPalette::Window);

    child<QComboBox>(dialog, "bandwidthUnit")->setCurrentIndex(1);
    child<QComboBox>(dialog, "theme")->setCurrentIndex(2);
    child<QSpinBox>(dialog, "exportWidth")->setValue(640);
    dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
    EXPECT_TRUE(waitFor([&] { return busbw().endsWith(QStringLiteral(" GiB/s")); })) << busbw().toStdString();
    EXPECT_LT(QApplication::palette().color(QPalette::Window).lightness(), 100);
    EXPECT_NE(QApplication::palette().color(QPalette::Window), lightWindow);
    EXPECT_EQ(w.window.findChild<rl::charts::ChartFrame*>()->exportSize().width(), 640);
    // The chart itself: a dark plot, and its axis in the chosen unit.
    auto* chart = w.window.chartArea()->currentChart();
    ASSERT_TRUE(chart);
    EXPECT_TRUE(waitFor([&] { return rl::testing::darkShareOfPlot(chart->view()) > 0.9; }))
        << rl::testing::darkShareOfPlot(chart->view());
    EXPECT_TRUE(waitFor([&] {
        const auto axes = chart->chart()->axes(Qt::Vertical);
        return !axes.isEmpty() && axes.first()->titleText() == QStringLiteral("Bus bandwidth (GiB/s)");
    }));
    shoot(&w.window, "mainwindow-dark-gib.png");
    // Issue 24, item 4: the Details title (bold through a style sheet) kept its light-theme black
    // text on the dark window until a restart. Its text stands out from its background.
    auto* title = w.window.findChild<QLabel*>(QStringLiteral("detailsTitle"));
    ASSERT_TRUE(title);
    // Read from the window as drawn: a grab of the label alone re-polishes it and looks right.
    const auto contrast = [&w](QWidget* widget) {
        const QImage image =
            w.window.grab(QRect(widget->mapTo(&w.window, QPoint(0, 0)), widget->size())).toImage();
        int lo = 255, hi = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x) {
                const int l = QColor(image.pixel(x, y)).lightness();
                lo = std::min(lo, l);
                hi = std::max(hi, l);
            }
        return hi - lo;
    };
    EXPECT_TRUE(waitFor([&] { return contrast(title) >= 120; })) << contrast(title);

    // Back to the system's look and GB/s: a palette of the platform's, not one set by the program,
    // so Qt keeps following the system's colours as they change.
    w.settings.setTheme(rl::Settings::Theme::System);
    w.settings.setBandwidthUnit(rl::units::BandwidthUnit::GBps);
    EXPECT_EQ(QApplication::palette().color(QPalette::Window), lightWindow);
    EXPECT_FALSE(QCoreApplication::testAttribute(Qt::AA_SetPalette));
    EXPECT_TRUE(waitFor([&] { return busbw().endsWith(QStringLiteral(" GB/s")); }));
    EXPECT_TRUE(waitFor([&] { return rl::testing::darkShareOfPlot(chart->view()) < 0.1; }));
    EXPECT_TRUE(waitFor([&] { return contrast(title) >= 120; })) << contrast(title);
}

// Nothing selected: the start page with the recent workspaces, the sample data, the three tasks
// (each the menu's own action) and the drop hint; selecting sessions shows the charts instead.
TEST(GuiStartPage, ShownWhenNothingIsSelectedAndItsButtonsAct)
{
    Window w;
    auto* start = w.window.startPage();
    ASSERT_TRUE(start);
    EXPECT_EQ(w.views()->currentWidget(), start);
    auto* recent = child<QListWidget>(start, "recentWorkspaces");
    ASSERT_GE(recent->count(), 1);
    EXPECT_EQ(recent->item(0)->data(Qt::UserRole).toString(), QFileInfo(w.ws).absoluteFilePath());
    EXPECT_TRUE(child<QLabel>(start, "dropHint")->text().contains(QStringLiteral("Drop")));
    EXPECT_TRUE(child<QPushButton>(start, "openSampleData")->isEnabled()) << "sample_data/ of the source tree";
    for (const char* task : {"startImport", "startBenchmark", "startSizing"}) {
        auto* b = child<QPushButton>(start, task);
        EXPECT_FALSE(b->toolTip().isEmpty()) << task;
    }
    shoot(&w.window, "start-page.png");

    // A task button triggers the menu's action: Size a model opens the sizing window.
    child<QPushButton>(start, "startSizing")->click();
    QWidget* sizing = nullptr;
    EXPECT_TRUE(waitFor([&] {
        for (auto* top : QApplication::topLevelWidgets())
            if (top->isVisible() && top->windowTitle().startsWith(QStringLiteral("Sizing model")))
                sizing = top;
        return sizing != nullptr;
    }));
    if (sizing)
        sizing->close();

    w.importSamples();
    QSignalSpy charts(&w.window, &rl::MainWindow::chartsShown);
    w.window.sessionBrowser()->selectFirst(1);
    ASSERT_TRUE(charts.wait(15000));
    EXPECT_EQ(w.views()->currentWidget(), w.window.chartArea());
    w.window.sessionBrowser()->selectSessions({});
    EXPECT_TRUE(waitFor([&] { return w.views()->currentWidget() == start; }));

    // A recent workspace opens with one click.
    const QString other = w.env.dir.filePath(QStringLiteral("other.db"));
    w.settings.addRecentWorkspace(other);
    ASSERT_EQ(recent->item(0)->data(Qt::UserRole).toString(), QFileInfo(other).absoluteFilePath());
    QSignalSpy shown(&w.window, &rl::MainWindow::sessionsShown);
    QTest::mouseClick(recent->viewport(), Qt::LeftButton, {}, recent->visualItemRect(recent->item(0)).center());
    ASSERT_TRUE(shown.wait(15000));
    EXPECT_EQ(w.window.workspacePath(), QFileInfo(other).absoluteFilePath());
}

// "Open the sample data": a workspace of its own under the user data folder, filled from the
// bundled samples the first time, its newest sessions selected (the charts show data).
TEST(GuiStartPage, OpenTheSampleDataImportsTheSamplesIntoTheirOwnWorkspace)
{
    Window w;
    QSignalSpy imported(&w.window, &rl::MainWindow::importDone);
    QSignalSpy charts(&w.window, &rl::MainWindow::chartsShown);
    child<QPushButton>(w.window.startPage(), "openSampleData")->click();
    ASSERT_TRUE(imported.wait(120000));
    EXPECT_TRUE(w.window.workspacePath().endsWith(QStringLiteral("/data/ridgeline/samples.db")))
        << w.window.workspacePath().toStdString();
    EXPECT_TRUE(waitFor([&] { return w.window.sessionBrowser()->model()->sessionCount() > 3; }, 60000));
    EXPECT_TRUE(waitFor([&] { return !w.window.sessionBrowser()->selectedIds().empty(); }, 30000));
    EXPECT_NE(w.views()->currentWidget(), w.window.startPage());
}
