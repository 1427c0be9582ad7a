#include "callout.h"

#include <QChart>
#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>

namespace rl::charts {

Callout::Callout(QChart* chart)
    : QGraphicsItem(chart)
    , m_chart(chart)
{
    setZValue(11);
    setVisible(false);
}

void Callout::show(const QString& text, QPointF value, QAbstractSeries* series)
{
    prepareGeometryChange();
    m_text = text;
    const QFontMetricsF fm(m_font);
    const QRectF textRect = fm.boundingRect(QRectF(0, 0, 600, 400), Qt::AlignLeft, m_text);
    const QPointF anchor = m_chart->mapToPosition(value, series);
    // Above-right of the point, flipped to stay inside the plot area near its edges.
    const QRectF area = m_chart->plotArea();
    QPointF topLeft(anchor.x() + 12, anchor.y() - textRect.height() - 20);
    if (topLeft.x() + textRect.width() + 10 > area.right())
        topLeft.setX(anchor.x() - textRect.width() - 22);
    if (topLeft.y() < area.top())
        topLeft.setY(anchor.y() + 12);
    setPos(topLeft);
    m_anchor = anchor - topLeft;
    m_box = textRect.translated(5, 5).adjusted(-5, -5, 5, 5);
    setVisible(true);
    update();
}

QRectF Callout::boundingRect() const
{
    return m_box.united(QRectF(m_anchor, QSizeF(1, 1))).adjusted(-2, -2, 2, 2);
}

void Callout::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(QPen(QColor(80, 80, 80), 1));
    // The pointer leaves from the box corner nearest to the point, whichever side the box flipped to.
    const QPointF corner(m_box.center().x() < m_anchor.x() ? m_box.right() : m_box.left(),
                         m_box.center().y() < m_anchor.y() ? m_box.bottom() : m_box.top());
    painter->drawLine(m_anchor, corner);
    painter->setBrush(QColor(255, 255, 240, 235));
    painter->drawRoundedRect(m_box, 4, 4);
    painter->setFont(m_font);
    painter->setPen(Qt::black);
    painter->drawText(m_box.adjusted(5, 5, -5, -5), Qt::AlignLeft, m_text);
}
} // namespace rl::charts
