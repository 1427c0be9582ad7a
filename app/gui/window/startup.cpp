#include "gui/window/startup.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QTabWidget>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string_view>

#include "io/resourcedirs.h"
#include "gui/window/mainwindow.h"
#include "gui/window/sessionbrowser.h"
#include "store/workspace.h"

namespace rl {

void setApplicationNames()
{
    QCoreApplication::setOrganizationName(QStringLiteral("ridgeline"));
    QCoreApplication::setApplicationName(QStringLiteral("ridgeline"));
    QCoreApplication::setApplicationVersion(QStringLiteral(RIDGELINE_VERSION));
}

void prepareStartup(int argc, char** argv)
{
    bool info = false, screenshot = false;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a == "--")
            break;
        info = info || a == "-h" || a == "--help" || a == "--help-all" || a == "-v" || a == "--version";
        screenshot = screenshot || a.starts_with("--screenshot");
    }
    if (info) {
        QCoreApplication core(argc, argv);
        setApplicationNames();
        parseStartup(QCoreApplication::arguments(), {}); // prints and exits
    }
    const auto unset = [](const char* name) { return qEnvironmentVariableIsEmpty(name); };
    if (screenshot && unset("QT_QPA_PLATFORM") && unset("DISPLAY") && unset("WAYLAND_DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
}

StartupOptions parseStartup(const QStringList& arguments, const QString& lastWorkspace)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate(
        "main", "Ridgeline: benchmark, import, model and chart large-model training clusters."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption db(QStringLiteral("db"),
                                QCoreApplication::translate("main", "Workspace file (default: the last one used, "
                                                                    "or the per-user workspace)."),
                                QStringLiteral("FILE"));
    const QCommandLineOption shot(QStringLiteral("screenshot"),
                                  QCoreApplication::translate("main", "Render the main window to a PNG and quit."),
                                  QStringLiteral("FILE.png"));
    const QCommandLineOption select(QStringLiteral("select"),
                                    QCoreApplication::translate("main", "Session ids to show first, e.g. 3,5."),
                                    QStringLiteral("IDS"));
    parser.addOption(db);
    parser.addOption(shot);
    const QCommandLineOption tab(QStringLiteral("tab"),
                                 QCoreApplication::translate("main", "Bring the tab with this title to the front "
                                                                     "(repeatable), e.g. --tab Timeline."),
                                 QStringLiteral("TITLE"));
    parser.addOption(select);
    parser.addOption(tab);
    parser.addPositionalArgument(QStringLiteral("paths"),
                                 QCoreApplication::translate("main", "Files or folders to import."),
                                 QStringLiteral("[PATHS...]"));
    parser.process(arguments);

    StartupOptions o;
    o.workspace = parser.value(db);
    if (o.workspace.isEmpty())
        o.workspace = !lastWorkspace.isEmpty() && QFileInfo::exists(lastWorkspace)
                          ? lastWorkspace
                          : QString::fromStdString(store::Workspace::defaultPath());
    o.workspace = QFileInfo(o.workspace).absoluteFilePath();
    o.firstStart = !QFileInfo::exists(o.workspace);
    o.screenshot = parser.value(shot);
    o.tabs = parser.values(tab);
    for (const auto& id : parser.value(select).split(u',', Qt::SkipEmptyParts)) {
        bool ok = false;
        const qlonglong v = id.trimmed().toLongLong(&ok);
        if (!ok || v <= 0) {
            std::fprintf(stderr, "ridgeline: --select takes session ids like 3,5, not '%s'\n", qPrintable(id));
            std::exit(2);
        }
        o.select.push_back(v);
    }
    for (const auto& p : parser.positionalArguments())
        o.paths << QFileInfo(p).absoluteFilePath();
    return o;
}

QString sampleDataDir()
{
    for (const auto& dir : io::resourceDirCandidates()) {
        // In the source tree the samples sit beside resources/, installed they sit inside it.
        for (const auto& c : {dir / "sample_data", dir / ".." / "sample_data"}) {
            const QString path = QString::fromStdString(c.lexically_normal().string());
            if (QFileInfo(path).isDir() && !QDir(path).isEmpty(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot))
                return QDir::cleanPath(path);
        }
    }
    return {};
}

void startWindow(MainWindow& window, const StartupOptions& options, const QStringList& imports)
{
    // --select names the sessions; else the last selection in this workspace comes back, and
    // only a first start (the samples just imported) selects the newest two.
    const int firstN = options.select.empty() && !window.remembersSelection(options.workspace) ? 2 : 0;
    window.selectFirstOnLoad(firstN);
    window.openWorkspace(options.workspace);
    if (!imports.isEmpty()) {
        QObject::connect(&window, &MainWindow::sessionsShown, &window,
                         [&window, imports] { window.importPaths(imports); }, Qt::SingleShotConnection);
        // Only the start-up import selects the newest sessions: a later import, above all a failed
        // one, must leave the user's selection alone.
        QObject::connect(&window, &MainWindow::importDone, &window,
                         [&window, firstN] { window.selectFirstOnLoad(firstN); }, Qt::SingleShotConnection);
    }
    if (!options.select.empty()) {
        // Once the imports are stored and the list shows them, select the named sessions once.
        auto done = std::make_shared<bool>(false);
        auto waitImports = std::make_shared<bool>(!imports.isEmpty());
        const auto select = options.select;
        QObject::connect(&window, &MainWindow::importDone, &window, [waitImports] { *waitImports = false; });
        QObject::connect(&window, &MainWindow::sessionsShown, &window, [&window, select, done, waitImports](int) {
            if (*done || *waitImports)
                return;
            *done = true;
            window.sessionBrowser()->selectSessions(select);
        });
    }
    if (!options.tabs.isEmpty()) {
        // Each time the charts are shown (the view for the selection is in front by then).
        QObject::connect(&window, &MainWindow::chartsShown, &window, [&window, tabs = options.tabs](int) {
            for (auto* tabWidget : window.findChildren<QTabWidget*>())
                for (int i = 0; i < tabWidget->count(); ++i)
                    for (const auto& wanted : tabs)
                        if (tabWidget->tabText(i).remove(u'&').compare(wanted, Qt::CaseInsensitive) == 0)
                            tabWidget->setCurrentIndex(i);
        });
    }
}
} // namespace rl
