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

    void show(const QString& text, QPointF value, QAbstractSeries* series);
    QString text() const { return m_text; }

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
