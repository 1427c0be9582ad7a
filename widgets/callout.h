#pragma once
// A hover label drawn inside the chart next to the point it describes (after the Qt Charts
// "callout" example), so exact values stay readable without moving the mouse to a tooltip.
#include <QFont>
#include <QGraphicsItem>
#include <QString>

QT_BEGIN_NAMESPACE
class QAbstractSeries;
class QChart;
QT_END_NAMESPACE

namespace rl::charts {

class Callout : public QGraphicsItem
{
public:
    explicit Callout(QChart* chart);

    // Shows text next to the point at `value`, kept inside the plot area (flipped to the other side
    // of the point near an edge, wrapped when wider than the area). While it is shown, the chart
    // view's own Qt tooltip is held back, so only one hover label is on screen at a time.
    void show(const QString& text, QPointF value, QAbstractSeries* series);
    QString text() const { return m_text; }
    QRectF box() const { return mapRectToParent(m_box); } // the label, in chart item coordinates

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    QChart* m_chart;
    QString m_text;
    QFont m_font;
    QRectF m_box;    // in item coordinates
    QPointF m_anchor; // in item coordinates
};
} // namespace rl::charts
