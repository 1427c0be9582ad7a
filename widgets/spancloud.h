#pragma once
// Thousands of horizontal bars on a QChart (a timeline's kernels), drawn by one overlay item in
// one pass: each bar spans [start, end] on x at a lane on y, a few styles, never thinner than a
// pixel so short kernels stay visible; and the bar under the pointer.
#include <cstddef>
#include <vector>

#include <QColor>

#include "chartoverlay.h"

namespace rl::charts {

class SpanCloud : public ChartOverlay
{
public:
    struct Span
    {
        double start = 0, end = 0; // x values
        double lane = 0;           // y value of the lane's centre
        int style = 0;             // index into the fill colours
    };

    // Becomes a child item of chart; anchor must stay attached to the x and y axes. Bars are
    // `laneHeight` y units tall (e.g. 0.8 for lanes one unit apart).
    SpanCloud(QChart* chart, QAbstractSeries* anchor, std::vector<QColor> fills, std::vector<Span> spans,
              double laneHeight = 0.8);

    const std::vector<Span>& spans() const { return m_spans; }
    QRectF rectOf(std::size_t index) const; // chart item coordinates, at least 1 px wide
    // The index of the bar under `chartPos`; the shortest of overlapping bars (the one on top).
    long spanAt(QPointF chartPos) const;

    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    static SpanCloud* of(const QChart* chart);

private:
    std::vector<QColor> m_fills;
    std::vector<Span> m_spans;
    double m_laneHeight;
};
} // namespace rl::charts
