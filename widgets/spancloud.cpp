#include "spancloud.h"

#include <QChart>
#include <QPainter>

namespace rl::charts {

SpanCloud::SpanCloud(QChart* chart, QAbstractSeries* anchor, std::vector<QColor> fills, std::vector<Span> spans,
                     double laneHeight)
    : ChartOverlay(chart, anchor), m_fills(std::move(fills)),
      m_spans(std::move(spans)), m_laneHeight(laneHeight)
{
}

SpanCloud* SpanCloud::of(const QChart* chart)
{
    return ChartOverlay::find<SpanCloud>(chart);
}

QRectF SpanCloud::rectOf(std::size_t index) const
{
    const auto& s = m_spans.at(index);
    const QPointF a = position({s.start, s.lane + m_laneHeight / 2});
    const QPointF b = position({s.end, s.lane - m_laneHeight / 2});
    QRectF r = QRectF(a, b).normalized();
    if (r.width() < 1)
        r.setWidth(1);
    return r;
}

void SpanCloud::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    const QRectF area = m_chart->plotArea();
    painter->save();
    painter->setClipRect(area);
    // Style by style, so the brush changes a handful of times; borders only when a bar is wide
    // enough to show one (at 20,000 bars, outlines would hide the fills).
    for (std::size_t style = 0; style < m_fills.size(); ++style) {
        painter->setBrush(m_fills[style]);
        for (std::size_t i = 0; i < m_spans.size(); ++i) {
            if (m_spans[i].style != static_cast<int>(style))
                continue;
            const QRectF r = rectOf(i);
            if (!r.intersects(area))
                continue;
            painter->setPen(r.width() >= 4 ? QPen(m_fills[style].darker(140), 0.8) : QPen(Qt::NoPen));
            painter->drawRect(r);
        }
    }
    painter->restore();
}

long SpanCloud::spanAt(QPointF chartPos) const
{
    if (!m_chart->plotArea().contains(chartPos))
        return -1;
    long best = -1;
    double bestWidth = 0;
    for (std::size_t i = 0; i < m_spans.size(); ++i) {
        const QRectF r = rectOf(i).adjusted(-1, 0, 1, 0); // a 1 px kernel is hard to hit exactly
        if (r.contains(chartPos) && (best < 0 || r.width() < bestWidth)) {
            best = static_cast<long>(i);
            bestWidth = r.width();
        }
    }
    return best;
}
} // namespace rl::charts
