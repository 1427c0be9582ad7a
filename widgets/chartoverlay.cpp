#include "chartoverlay.h"

#include <QAbstractSeries>
#include <QChart>
#include <QLogValueAxis>
#include <QValueAxis>

namespace rl::charts {

ChartOverlay::ChartOverlay(QChart* chart, QAbstractSeries* anchor)
    : QGraphicsObject(chart), m_chart(chart), m_anchor(anchor)
{
    // Above the grid, below the series drawn on top (lines, labels, callouts).
    setZValue(3.5);
    connect(chart, &QChart::plotAreaChanged, this, [this] {
        prepareGeometryChange();
        update();
    });
    // Zoom changes the axes' ranges, not the plot area.
    for (auto* axis : anchor->attachedAxes()) {
        if (auto* v = qobject_cast<QValueAxis*>(axis))
            connect(v, &QValueAxis::rangeChanged, this, [this] { update(); });
        else if (auto* l = qobject_cast<QLogValueAxis*>(axis))
            connect(l, &QLogValueAxis::rangeChanged, this, [this] { update(); });
    }
}

QList<QGraphicsItem*> ChartOverlay::childItemsOf(const QChart* chart)
{
    return chart->childItems();
}

QPointF ChartOverlay::position(QPointF value) const
{
    return m_chart->mapToPosition(value, m_anchor);
}

QRectF ChartOverlay::boundingRect() const
{
    return m_chart->plotArea();
}
} // namespace rl::charts
