#include "callout.h"

#include <QChart>
#include <QEvent>
#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QGraphicsView>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <algorithm>

namespace rl::charts {
namespace {
// Swallows the view's tooltip events while a callout of its scene is visible: a chart view's
// "drag to zoom" tooltip would otherwise pop up on top of the callout (two labels at once).
class TooltipGuard : public QObject
{
public:
    explicit TooltipGuard(QGraphicsView* view) : QObject(view), m_view(view) { setObjectName(name()); }
    // Found by name: without Q_OBJECT, findChild<TooltipGuard*> matches any QObject child of the
    // view (its viewport, for one), so the guard could be taken as installed when it was not.
    static QString name() { return QStringLiteral("rl_tooltipGuard"); }

    bool eventFilter(QObject*, QEvent* event) override
    {
        if (event->type() != QEvent::ToolTip || !m_view->scene())
            return false;
        for (QGraphicsItem* item : m_view->scene()->items())
            if (item->isVisible() && dynamic_cast<Callout*>(item))
                return true;
        return false;
    }

private:
    QGraphicsView* m_view;
};

void guardTooltips(QGraphicsScene* scene)
{
    if (!scene)
        return;
    for (QGraphicsView* view : scene->views()) {
        if (view->findChild<QObject*>(TooltipGuard::name(), Qt::FindDirectChildrenOnly))
            continue; // one guard per view, whichever callout installed it
        view->viewport()->installEventFilter(new TooltipGuard(view));
    }
}
} // namespace

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
    const QRectF area = m_chart->plotArea();
    const QFontMetricsF fm(m_font);
    // Wrapped to the plot area's width, so a long description never runs past both edges.
    const qreal maxWidth = std::clamp<qreal>(area.width() - 20, 80, 600);
    const QRectF textRect = fm.boundingRect(QRectF(0, 0, maxWidth, 2000), Qt::AlignLeft | Qt::TextWordWrap, m_text);
    const QPointF anchor = m_chart->mapToPosition(value, series);
    const qreal w = textRect.width() + 10, h = textRect.height() + 10; // the box with its padding
    // Above-right of the point; flipped to the left or below near the plot area's edges, and
    // clamped into the area when neither side has the room.
    QPointF topLeft(anchor.x() + 12, anchor.y() - h - 10);
    if (topLeft.x() + w > area.right())
        topLeft.setX(anchor.x() - w - 12);
    if (topLeft.x() < area.left())
        topLeft.setX(std::max(area.left(), std::min(anchor.x() + 12, area.right() - w)));
    if (topLeft.y() < area.top())
        topLeft.setY(anchor.y() + 12);
    if (topLeft.y() + h > area.bottom())
        topLeft.setY(std::max(area.top(), area.bottom() - h));
    setPos(topLeft);
    m_anchor = anchor - topLeft;
    m_box = QRectF(0, 0, w, h);
    QToolTip::hideText(); // a tooltip already up goes; the guard keeps new ones back
    guardTooltips(scene());
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
    painter->drawText(m_box.adjusted(5, 5, -5, -5), Qt::AlignLeft | Qt::TextWordWrap, m_text);
}
} // namespace rl::charts
