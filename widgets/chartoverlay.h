#pragma once
// Base of the items that paint many marks over a QChart's plot area in one pass (PointCloud,
// SpanCloud): QtCharts builds one graphics item per point or bar, which takes seconds at tens of
// thousands. An overlay maps axis values through an anchor series attached to the chart's axes
// (log axes and zoom are honoured), repaints when the plot area or an axis range changes, and is
// found again on a chart by its type.
#include <QGraphicsObject>

QT_BEGIN_NAMESPACE
class QAbstractSeries;
class QChart;
QT_END_NAMESPACE

namespace rl::charts {

class ChartOverlay : public QGraphicsObject
{
public:
    // Becomes a child item of chart; anchor must stay attached to the x and y axes.
    ChartOverlay(QChart* chart, QAbstractSeries* anchor);

    QAbstractSeries* anchor() const { return m_anchor; }
    QPointF position(QPointF value) const; // chart item coordinates
    QRectF boundingRect() const override;

    // The overlay of type T on chart, or nullptr.
    template <class T>
    static T* find(const QChart* chart)
    {
        for (auto* item : childItemsOf(chart))
            if (auto* o = dynamic_cast<T*>(item))
                return o;
        return nullptr;
    }

protected:
    QChart* m_chart;
    QAbstractSeries* m_anchor;

private:
    static QList<QGraphicsItem*> childItemsOf(const QChart* chart); // QChart is incomplete here
};
} // namespace rl::charts
