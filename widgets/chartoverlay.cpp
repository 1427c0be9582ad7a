#include "chartoverlay.h"

#include <QAbstractSeries>
#include <QChart>
#include <QLogValueAxis>
#include <QValueAxis>

namespace rl::charts {

ChartOverlay::ChartOverlay(QChart* chart, QAbstractSeries* anchor, const QString& name)
    : QGraphicsObject(chart), m_chart(chart), m_anchor(anchor)
{
    setObjectName(name);
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

ChartOverlay* ChartOverlay::find(const QChart* chart, const QString& name)
{
    for (auto* item : chart->childItems())
        if (auto* o = item->toGraphicsObject(); o && o->objectName() == name)
            return static_cast<ChartOverlay*>(o);
    return nullptr;
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
