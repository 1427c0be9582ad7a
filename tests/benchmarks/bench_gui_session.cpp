// The main window showing one long collective session (issue 26 item 11's "any selection drawn
// in under 1 s, the GUI thread never blocked over 100 ms", for the selection with the most
// points; test_gui_scale measures the one with the most curves). Not a ctest test: run by hand,
//   QT_QPA_PLATFORM=offscreen bench_gui_session [points, default 1000000] [folder, default /tmp]
// It reuses bench_scale's workspace of that many points (ridgeline-scale-N.db, made if missing),
// then, in this process:
//   scan     - the store's own row loop over the session's rows (nothing kept): the floor under
//              anything that reads every point;
//   selected - the session selected in the main window (offscreen) until its charts are shown,
//              laid out and painted (tests/widgets/selectiontiming.h): drawn from the session's
//              outline (store/collectiveoutline.h, stored with its points), with the longest time
//              the GUI thread did not get back to its event loop over the whole selection;
//   table    - until every point is in the results table (MainWindow::everyPointShown), the
//              charts drawn again from them.
// Reading, curve making, thinning and the table's sort run on the loader's worker; the window
// holds every point for the results table.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <QApplication>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>

#include "collectivechart.h"
#include "gui/window/chartarea.h"
#include "scaleworkspace.h"
#include "selectiontiming.h"
#include "settings.h"
#include "store/collectiveoutline.h"
#include "store/workspace.h"
#include "units/units.h"

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    qputenv("RIDGELINE_NO_DIALOGS", "1");
    const std::int64_t points = argc > 1 ? std::atoll(argv[1]) : 1'000'000;
    const fs::path dir = argc > 2 ? fs::path(argv[2]) : fs::temp_directory_path();
    int qtArgc = 1;
    QApplication app(qtArgc, argv);

    const std::string db = (dir / ("ridgeline-scale-" + std::to_string(points) + ".db")).string();
    const std::int64_t session = 1; // bench_scale's workspace holds that one session
    if (!fs::exists(db)) {
        std::printf("generating %lld points in %s ...\n", static_cast<long long>(points), db.c_str());
        rl::store::Workspace ws(db);
        rl::scale::LongSession spec;
        spec.points = points;
        if (rl::scale::addLongSession(ws, spec) != session)
            return 1;
    }
    std::printf("workspace %s: %lld points, %s in memory (%zu B a point)\n", db.c_str(), static_cast<long long>(points),
                rl::units::formatBytes(double(rl::scale::pointBytes(points))).c_str(), sizeof(rl::CollectivePoint));

    bool outlined = false;
    {
        rl::store::Workspace ws(db); // migrated to schema 10 here (an outline built) when made before it
        outlined = rl::store::readCollectiveOutline(ws.database(), session).has_value();
    }
    const auto t0 = Clock::now();
    std::int64_t n = 0;
    {
        rl::store::Workspace ws(db);
        ws.forEachCollectivePoint(session, [&n](const rl::CollectivePoint&) { return ++n, true; },
                                  rl::store::Workspace::PointOrder::Stored);
    }
    const double scanMs = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    if (n != points) {
        std::printf("the workspace holds %lld points, not %lld\n", static_cast<long long>(n), static_cast<long long>(points));
        return 1;
    }
    std::printf("%-10s %8.0f ms  %5.2f M points/s\n", "scan", scanMs, double(points) / scanMs / 1e3);

    QTemporaryDir home;
    rl::Settings settings{home.filePath(QStringLiteral("settings.ini"))};
    rl::MainWindow window{&settings};
    window.resize(1600, 1000);
    window.show();
    QSignalSpy listed(&window, &rl::MainWindow::sessionsShown);
    window.openWorkspace(QString::fromStdString(db));
    if (!listed.wait(60000))
        return 1;
    const auto t = rl::testing::timeSelection(window, {session}, false, 600000, true);
    if (t.shownMs < 0) {
        std::printf("the charts were never shown\n");
        return 1;
    }
    // One more paint of the chart on screen, alone: what QtCharts takes to stroke the thinned curves.
    QElapsedTimer paint;
    paint.start();
    window.chartArea()->currentChart()->grab();
    const qint64 paintMs = paint.elapsed();
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    const double peak = double(ru.ru_maxrss) * 1024.0;
    std::printf("%-10s %8lld ms  (%.2fx the scan); charts shown after %lld ms; longest GUI-thread block %lld ms "
                "(ending at %lld ms); a repaint of the chart %lld ms; %d points in the table; peak RSS %s = %.2fx the points' "
                "size\n",
                "selected", static_cast<long long>(t.drawnMs), double(t.drawnMs) / scanMs,
                static_cast<long long>(t.shownMs), static_cast<long long>(t.longestBlockMs),
                static_cast<long long>(t.longestBlockEndMs), static_cast<long long>(paintMs), window.chartArea()->pointCount(),
                rl::units::formatBytes(peak).c_str(), peak / double(rl::scale::pointBytes(points)));
    std::printf("%-10s %8lld ms  every point in the results table (%.2fx the scan); the charts came from the %s\n",
                "table", static_cast<long long>(t.everyPointMs), double(t.everyPointMs) / scanMs,
                outlined ? "session's outline" : "points");
    std::printf("drawn in under 1 s: %s; GUI thread never blocked over 100 ms: %s; memory under 3x the points: %s\n",
                t.drawnMs < 1000 ? "met" : "NOT met", t.longestBlockMs <= 100 ? "met" : "NOT met",
                peak < 3.0 * double(rl::scale::pointBytes(points)) ? "met" : "NOT met");
    return 0;
}
