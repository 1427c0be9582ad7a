#pragma once
// How long the main window takes to show a selection, and how long its GUI thread went without
// getting back to its event loop meanwhile (issue 26 item 11): test_gui_scale's 3,240 curves and
// bench_gui_session's one long session measure the same way.
//
// The heartbeat: a 5 ms timer; a gap between two ticks is how long the thread was busy. The whole
// measurement runs in one QEventLoop, as the application's own loop would: QSignalSpy::wait then
// QTest::qWaitFor counted the test's own steps as a block (qWaitFor sleeps 10 ms between its
// passes, and leaving the spy's loop ran the next pass without a timer in between).
#include <algorithm>
#include <cstdint>
#include <vector>

#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>

#include "chartcontent.h"
#include "collectivechart.h"
#include "gui/window/chartarea.h"
#include "gui/window/mainwindow.h"
#include "gui/window/sessionbrowser.h"

namespace rl::testing {

struct SelectionTiming
{
    qint64 shownMs = -1;   // the charts handed to the window (MainWindow::chartsShown); -1: never
    qint64 drawnMs = -1;   // and laid out, painted and (with bands) their areas rendered
    // With everyPoint: every point in the results table (MainWindow::everyPointShown: later than
    // the charts for a long session drawn from its outline), laid out and painted.
    qint64 everyPointMs = -1;
    qint64 longestBlockMs = 0, longestBlockEndMs = 0;
};

// Selects `ids` and waits (at most timeoutMs) until the charts are shown and drawn: 100 ms without
// a gap of over 15 ms after the handover, and, when `bands` is set, the bands' areas rendered on
// their worker (BandLayer); with `everyPoint`, then until every point is in the table, the same way.
// The longest block is over the whole wait.
inline SelectionTiming timeSelection(MainWindow& window, const std::vector<std::int64_t>& ids, bool bands,
                                     int timeoutMs = 600000, bool everyPoint = false)
{
    SelectionTiming t;
    QElapsedTimer clock;
    qint64 last = 0, busyUntil = 0, bandsAt = -1, everyAt = -1;
    int quiet = 0;
    QEventLoop loop;
    QTimer beat;
    beat.setInterval(5);
    QObject::connect(&beat, &QTimer::timeout, [&] {
        const qint64 now = clock.elapsed();
        if (now - last > t.longestBlockMs) {
            t.longestBlockMs = now - last;
            t.longestBlockEndMs = now;
        }
        // What follows the handover (the chart's layout, the paint, work split into later turns)
        // is part of the measurement.
        if (now - last > 15) {
            busyUntil = now;
            quiet = 0;
        } else if (t.shownMs >= 0 && ++quiet >= 20 && (!bands || bandsAt >= 0)) {
            if (t.drawnMs < 0)
                t.drawnMs = std::max({t.shownMs, busyUntil, bandsAt});
            if (!everyPoint)
                loop.quit();
            else if (everyAt >= 0) {
                t.everyPointMs = std::max(everyAt, busyUntil);
                loop.quit();
            }
        }
        last = now;
    });
    QObject::connect(&window, &MainWindow::chartsShown, &loop, [&] {
        if (t.shownMs >= 0)
            return; // the second handover of a long session: every point, after its outline
        t.shownMs = clock.elapsed();
        if (!bands)
            return;
        if (auto* c = window.chartArea()->currentChart())
            if (auto* content = c->findChild<charts::ChartContent*>())
                QObject::connect(content, &charts::ChartContent::bandsRendered, &loop,
                                 [&] { bandsAt = clock.elapsed(); }, Qt::SingleShotConnection);
    });
    QObject::connect(&window, &MainWindow::everyPointShown, &loop, [&] { everyAt = clock.elapsed(); });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    clock.start();
    beat.start();
    window.sessionBrowser()->selectSessions(ids);
    loop.exec();
    beat.stop();
    return t;
}
} // namespace rl::testing
