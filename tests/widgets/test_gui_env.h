#pragma once
// Helpers for the GUI tests (the QApplication comes from widgettestmain.cpp).
#include <QChart>
#include <QChartView>
#include <QGraphicsLayout>
#include <QLegend>
#include <QTest>
#include <QWidget>

#include <gtest/gtest.h>

namespace rl::testing {
// Processes events until pred() holds or timeoutMs passes (QTRY_* for GoogleTest).
template <typename Pred>
bool waitFor(Pred pred, int timeoutMs = 15000)
{
    return QTest::qWaitFor(pred, timeoutMs);
}

// Whether a chart has laid itself out for what it shows now. QtCharts lays a changed chart out
// (plot area, axes and their labels, the legend's place) on a posted LayoutRequest, and its legend
// (the markers, hidden until then) on another; until both ran, plotArea(), mapToPosition() and the
// markers are those of before the change.
inline bool chartLaidOut(const QChart* chart)
{
    const QGraphicsLayout* layout = chart->layout();
    const QGraphicsLayout* legend = chart->legend() ? chart->legend()->layout() : nullptr;
    return (!layout || layout->isActivated()) && (!legend || legend->isActivated());
}

// Processes events until the chart has laid itself out (chartLaidOut); false after timeoutMs.
inline bool waitForLayout(const QChart* chart, int timeoutMs = 5000)
{
    return waitFor([chart] { return chartLaidOut(chart); }, timeoutMs);
}

// The same for every chart inside w.
inline bool waitForChartsLaidOut(const QWidget* w, int timeoutMs = 5000)
{
    return waitFor(
        [w] {
            for (const QChartView* v : w->findChildren<QChartView*>())
                if (v->chart() && !chartLaidOut(v->chart()))
                    return false;
            return true;
        },
        timeoutMs);
}

// Saves the widget as NAME under $RIDGELINE_TEST_SCREENSHOT_DIR when set (to look at it by eye),
// once its charts have laid out what they show now.
inline void shoot(QWidget* w, const char* name)
{
    const QByteArray d = qgetenv("RIDGELINE_TEST_SCREENSHOT_DIR");
    if (d.isEmpty())
        return;
    if (!waitForChartsLaidOut(w))
        ADD_FAILURE() << name << ": a chart in it never laid itself out";
    w->grab().save(QString::fromLocal8Bit(d) + u'/' + QString::fromLatin1(name));
}

inline QString guiData(const char* rel)
{
    return QStringLiteral(RIDGELINE_TEST_DATA "/gui/") + QString::fromLatin1(rel);
}
} // namespace rl::testing
