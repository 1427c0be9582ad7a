#include "pointcloud.h"

#include <cmath>

#include <QChart>
#include <QPainter>

namespace rl::charts {

PointCloud::PointCloud(QChart* chart, QAbstractSeries* anchor, std::vector<Style> styles, std::vector<Point> points)
    : ChartOverlay(chart, anchor), m_styles(std::move(styles)),
      m_points(std::move(points))
{
}

PointCloud* PointCloud::of(const QChart* chart)
{
    return ChartOverlay::find<PointCloud>(chart);
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
        painter->setPen(style.outline.isValid() ? QPen(style.outline, 2) : QPen(style.fill.darker(130), 1));
        const double r = style.diameter / 2;
        for (const auto& p : m_points) {
            if (p.style != static_cast<int>(s))
                continue;
            const QPointF at = position(p.value);
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
