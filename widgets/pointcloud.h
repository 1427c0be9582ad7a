#pragma once
// Tens of thousands of scatter markers on a QChart, drawn by one overlay item in one pass
// (QScatterSeries would build an item per point: seconds at 50,000, tests/benchmarks/
// bench_moe_redraw): filled circles of a few styles, clipped to the plot area, and the point
// under the pointer.
#include <cstddef>
#include <vector>

#include <QColor>

#include "chartoverlay.h"

namespace rl::charts {

class PointCloud : public ChartOverlay
{
public:
    struct Style
    {
        QColor fill;
        double diameter = 8; // px
        QColor outline;      // invalid: fill.darker(130), 1 px; valid: this colour, 2 px (a marked point)
    };
    struct Point
    {
        QPointF value; // axis values
        int style = 0;
    };

    // Becomes a child item of chart; anchor must stay attached to the x and y axes.
    PointCloud(QChart* chart, QAbstractSeries* anchor, std::vector<Style> styles, std::vector<Point> points);

    const std::vector<Point>& points() const { return m_points; }
    // The index of the point whose marker covers `chartPos` (chart item coordinates), the nearest
    // of several; -1 when none does.
    long pointAt(QPointF chartPos) const;
    QPointF positionOf(std::size_t index) const { return position(m_points.at(index).value); }

    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    // The cloud a populate function put on chart, or nullptr.
    static PointCloud* of(const QChart* chart);

private:
    std::vector<Style> m_styles;
    std::vector<Point> m_points;
};
} // namespace rl::charts
