#pragma once
// Tens of thousands of scatter markers on a QChart, drawn by one graphics item in one pass.
// QScatterSeries gives every point a QGraphicsItem of its own, which at 50,000 points takes
// seconds to build and lay out (tests/benchmarks/bench_moe_redraw). This item maps values through
// an anchor series attached to the chart's axes (so log axes and zoom are honoured), paints filled
// circles of a few styles clipped to the plot area, and finds the point under the pointer.
#include <cstddef>
#include <vector>

#include <QColor>
#include <QGraphicsObject>

QT_BEGIN_NAMESPACE
class QAbstractSeries;
class QChart;
QT_END_NAMESPACE

namespace rl::charts {

class PointCloud : public QGraphicsObject
{
public:
    struct Style
    {
        QColor fill;
        double diameter = 8; // px
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
    QPointF positionOf(std::size_t index) const; // chart item coordinates
    QAbstractSeries* anchor() const { return m_anchor; }

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    // The cloud a populate function put on chart, or nullptr.
    static PointCloud* of(const QChart* chart);

private:
    QChart* m_chart;
    QAbstractSeries* m_anchor;
    std::vector<Style> m_styles;
    std::vector<Point> m_points;
};
} // namespace rl::charts
