#include "pointcloud.h"

#include <cmath>

#include <QAbstractSeries>
#include <QChart>
#include <QLogValueAxis>
#include <QPainter>
#include <QValueAxis>

namespace rl::charts {

PointCloud::PointCloud(QChart* chart, QAbstractSeries* anchor, std::vector<Style> styles, std::vector<Point> points)
    : QGraphicsObject(chart), m_chart(chart), m_anchor(anchor), m_styles(std::move(styles)),
      m_points(std::move(points))
{
    setObjectName(QStringLiteral("rl_pointcloud"));
    // Above the grid, below the series drawn on top (the Pareto front, labels, callouts).
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

PointCloud* PointCloud::of(const QChart* chart)
{
    for (auto* item : chart->childItems())
        if (auto* o = item->toGraphicsObject(); o && o->objectName() == QLatin1String("rl_pointcloud"))
            return static_cast<PointCloud*>(o);
    return nullptr;
}

QRectF PointCloud::boundingRect() const
{
    return m_chart->plotArea();
}

QPointF PointCloud::positionOf(std::size_t index) const
{
    return m_chart->mapToPosition(m_points.at(index).value, m_anchor);
}

void PointCloud::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    const QRectF area = m_chart->plotArea();
    painter->save();
    painter->setClipRect(area);
    painter->setRenderHint(QPainter::Antialiasing);
    // Style by style, so the pen and brush change a handful of times, not per point.
    for (std::size_t s = 0; s < m_styles.size(); ++s) {
        const auto& style = m_styles[s];
        painter->setBrush(style.fill);
        painter->setPen(QPen(style.fill.darker(130), 1));
        const double r = style.diameter / 2;
        for (const auto& p : m_points) {
            if (p.style != static_cast<int>(s))
                continue;
            const QPointF at = m_chart->mapToPosition(p.value, m_anchor);
            if (at.x() >= area.left() - r && at.x() <= area.right() + r && at.y() >= area.top() - r &&
                at.y() <= area.bottom() + r)
                painter->drawEllipse(at, r, r);
        }
    }
    painter->restore();
}

long PointCloud::pointAt(QPointF chartPos) const
{
    if (!m_chart->plotArea().contains(chartPos))
        return -1;
    long best = -1;
    double bestDistance = INFINITY;
    for (std::size_t i = 0; i < m_points.size(); ++i) {
        const QPointF at = positionOf(i);
        const double d = std::hypot(at.x() - chartPos.x(), at.y() - chartPos.y());
        const int style = m_points[i].style;
        const double radius = style >= 0 && style < int(m_styles.size()) ? m_styles[std::size_t(style)].diameter / 2 : 4;
        if (d <= std::max(radius, 3.0) && d < bestDistance) {
            bestDistance = d;
            best = static_cast<long>(i);
        }
    }
    return best;
}
} // namespace rl::charts
