// ridgeline: the GUI. Opens a workspace (importing the bundled samples on first start), imports
// the paths given, and with --screenshot renders the window to a PNG and quits.
#include <algorithm>

#include <QApplication>
#include <QFileInfo>
#include <QIcon>
#include <QPixmap>
#include <QSettings>
#include <QTemporaryDir>
#include <QThreadPool>
#include <QTimer>

#include <cstdio>
#include <memory>

#include "gui/window/importcontroller.h"
#include "gui/window/mainwindow.h"
#include "gui/window/sessionbrowser.h"
#include "settings.h"
#include "gui/window/startup.h"

namespace {
// The pool's threads end before the atexit handlers run: OpenSSL's cleanup frees every thread's
// state, and a worker that touched libcrypto (the store's hashes) exiting after it frees its own
// again. Jobs were cancelled with their windows; a stuck one is not waited for past 5 s.
void joinWorkers() { QThreadPool::globalInstance()->waitForDone(5000); }
} // namespace

int main(int argc, char** argv)
{
    rl::prepareStartup(argc, argv);
    QApplication app(argc, argv);
    rl::setApplicationNames();
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/ridgeline.svg")));

    const QStringList args = QApplication::arguments();
    const bool screenshot = std::any_of(args.begin(), args.end(),
                                        [](const QString& a) { return a.startsWith(QStringLiteral("--screenshot")); });
    QTemporaryDir freshSettings;
    if (screenshot) // a screenshot shows the default layout, not this user's saved window state
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, freshSettings.path());
    rl::Settings settings;
    const rl::StartupOptions options = rl::parseStartup(QApplication::arguments(), settings.lastWorkspace());
    QStringList imports = options.paths;
    if (options.firstStart) {
        const QString samples = rl::sampleDataDir();
        const auto canonical = [](const QString& p) { return QFileInfo(p).canonicalFilePath(); };
        const bool named = std::any_of(imports.begin(), imports.end(),
                                       [&](const QString& p) { return canonical(p) == canonical(samples); });
        if (!samples.isEmpty() && !named) // `ridgeline sample_data/` on first start imports it once
            imports.prepend(samples);
    }
    if (screenshot)
        qputenv("RIDGELINE_NO_DIALOGS", "1"); // a batch render must never wait for a click

    rl::MainWindow window(&settings);
    if (screenshot)
        window.resize(1400, 850);
    window.show();
    rl::startWindow(window, options, imports);
    if (!screenshot) {
        const int rc = app.exec();
        joinWorkers();
        return rc;
    }

    // Render once the imports (if any) are stored and the first sessions' points are charted.
    int exitCode = 1;
    auto render = [&] {
        QApplication::processEvents();
        const QImage image = window.grab().toImage();
        if (image.isNull() || !image.save(options.screenshot, "PNG")) {
            std::fprintf(stderr, "ridgeline: cannot write screenshot %s\n", qPrintable(options.screenshot));
            exitCode = 1;
        } else {
            exitCode = 0;
        }
        app.quit();
    };
    auto pendingImports = std::make_shared<bool>(!imports.isEmpty());
    QObject::connect(&window, &rl::MainWindow::importDone, &window, [pendingImports] { *pendingImports = false; });
    QObject::connect(&window, &rl::MainWindow::chartsShown, &window, [pendingImports, render](int) {
        if (!*pendingImports)
            QTimer::singleShot(300, render); // let the charts lay out their axes
    });
    QObject::connect(&window, &rl::MainWindow::sessionsShown, &window, [pendingImports, render](int count) {
        if (!*pendingImports && count == 0)
            QTimer::singleShot(300, render); // nothing to chart: show the empty workspace
    });
    QTimer::singleShot(60000, &app, [&] {
        std::fprintf(stderr, "ridgeline: timed out waiting for the workspace to load\n");
        app.exit(2);
    });
    app.exec();
    joinWorkers();
    return exitCode;
}
