#pragma once
// What a chart's plot area looks like on screen: the share of a grid of pixels inside it that are
// dark, read from the view as it is drawn (off the tick fractions, so grid lines are few samples).
#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QImage>

namespace rl::testing {

inline double darkShareOfPlot(QChartView* view)
{
    // The axes a rebuild replaced leave with the next event loop turn, as they would on screen.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    QCoreApplication::processEvents();
    const QImage image = view->viewport()->grab().toImage();
    const QRectF plot = view->chart()->plotArea();
    int dark = 0, all = 0;
    for (int i = 0; i < 10; ++i)
        for (int j = 0; j < 10; ++j) {
            const QPoint at = view->mapFromScene(QPointF(plot.left() + plot.width() * (i + 0.37) / 10.5,
                                                         plot.top() + plot.height() * (j + 0.41) / 10.5));
            if (!image.rect().contains(at))
                continue;
            ++all;
            dark += QColor(image.pixel(at)).lightness() < 100 ? 1 : 0;
        }
    return all ? double(dark) / all : 0.0;
}
} // namespace rl::testing
