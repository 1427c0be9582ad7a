#include "bandlayer.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <QAbstractAxis>
#include <QAbstractSeries>
#include <QChart>
#include <QGraphicsSceneHoverEvent>
#include <QLogValueAxis>
#include <QPainter>
#include <QValueAxis>
#include <QWidget>

#include "jobtracker.h"

namespace rl::charts {
namespace {
// Above the grid and the axes (QtCharts' ChartPresenter: grid 2, axes 3), under the series (4),
// where QtCharts draws an area series.
constexpr qreal kZValue = 3.5;

struct Fill
{
    QPainterPath path;
    QColor color;
};

QImage renderFills(const std::vector<Fill>& fills, QRectF plot, double dpr)
{
    QImage image((plot.size() * dpr).toSize(), QImage::Format_ARGB32_Premultiplied);
    if (image.isNull())
        return image;
    image.setDevicePixelRatio(dpr);
    image.fill(Qt::transparent);
    QPainter p(&image);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(Qt::NoPen);
    p.translate(-plot.topLeft());
    for (const Fill& f : fills)
        p.fillPath(f.path, f.color);
    return image;
}
} // namespace

BandLayer::BandLayer(QChart* chart, QAbstractSeries* reference, std::vector<Band> bands)
    : QGraphicsObject(chart)
    , m_chart(chart)
    , m_reference(reference)
    , m_bands(std::move(bands))
    , m_jobs(new JobTracker(this))
{
    setZValue(kZValue);
    setAcceptHoverEvents(true);
    setAcceptedMouseButtons(Qt::NoButton); // the view's rubber band zoom takes the clicks
    // Two values spanning the bands fix where the plot puts every value (placement()).
    double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
    for (const Band& b : m_bands)
        for (const auto* edge : {&b.upper, &b.lower})
            for (const QPointF& p : *edge) {
                x0 = std::min(x0, p.x());
                x1 = std::max(x1, p.x());
                y0 = std::min(y0, p.y());
                y1 = std::max(y1, p.y());
            }
    if (!(x0 < x1))
        x0 = 0, x1 = 1;
    if (!(y0 < y1))
        y0 = y0 > 0 ? y0 : 1, y1 = y0 * 2; // positive: the latency view's axis is logarithmic
    m_refA = {x0, y0};
    m_refB = {x1, y1};
    // A zoom or a resize moves what the image shows: paint again (which asks for a new image).
    connect(m_chart, &QChart::plotAreaChanged, this, [this] { update(); });
    for (QAbstractAxis* axis : m_reference->attachedAxes()) {
        if (auto* v = qobject_cast<QValueAxis*>(axis))
            connect(v, &QValueAxis::rangeChanged, this, [this] { update(); });
        else if (auto* l = qobject_cast<QLogValueAxis*>(axis))
            connect(l, &QLogValueAxis::rangeChanged, this, [this] { update(); });
    }
}

BandLayer::~BandLayer() = default;

void BandLayer::setBandVisible(std::size_t band, bool visible)
{
    if (band >= m_bands.size() || m_bands[band].visible == visible)
        return;
    m_bands[band].visible = visible;
    m_image = QImage(); // shows a band that is hidden now: nothing until the new image
    m_requested.reset();
    update();
}

BandLayer::Placement BandLayer::placement() const
{
    Placement p;
    p.plot = m_chart->plotArea();
    p.a = m_chart->mapToPosition(m_refA, m_reference);
    p.b = m_chart->mapToPosition(m_refB, m_reference);
    return p;
}

bool BandLayer::isRendered() const
{
    return !m_image.isNull() && m_imagePlacement == placement();
}

QRectF BandLayer::boundingRect() const
{
    return m_chart->plotArea();
}

QPainterPath BandLayer::path(const Band& band) const
{
    QPainterPath path;
    if (band.upper.isEmpty())
        return path;
    path.moveTo(m_chart->mapToPosition(band.upper.front(), m_reference));
    for (qsizetype i = 1; i < band.upper.size(); ++i)
        path.lineTo(m_chart->mapToPosition(band.upper[i], m_reference));
    for (qsizetype i = band.lower.size() - 1; i >= 0; --i)
        path.lineTo(m_chart->mapToPosition(band.lower[i], m_reference));
    path.closeSubpath();
    return path;
}

void BandLayer::render(const Placement& at, double dpr)
{
    if (m_requested && *m_requested == at)
        return; // on its way
    m_requested = at;
    std::vector<Fill> fills;
    for (const Band& b : m_bands)
        if (b.visible)
            fills.push_back({path(b), b.color});
    // The paths are a few thousand points, mapped here; filling them is the worker's part.
    m_jobs->start<QImage>([fills = std::move(fills), plot = at.plot, dpr](JobControl<QImage>&) {
        return renderFills(fills, plot, dpr);
    },
                          [this, at](QImage image) {
                              m_requested.reset();
                              m_image = std::move(image);
                              m_imagePlacement = at;
                              update();
                              if (isRendered())
                                  Q_EMIT rendered();
                          });
}

void BandLayer::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget* widget)
{
    const Placement now = placement();
    if (now.plot.width() < 1 || now.plot.height() < 1)
        return;
    painter->save();
    painter->setClipRect(now.plot);
    if (!widget) {
        // An export (or any render without a view): the bands as vector paths, drawn at once.
        painter->setRenderHint(QPainter::Antialiasing);
        painter->setPen(Qt::NoPen);
        for (const Band& b : m_bands)
            if (b.visible)
                painter->fillPath(path(b), b.color);
        painter->restore();
        return;
    }
    const double dpr = painter->device()->devicePixelRatioF();
    if (!(m_imagePlacement == now) || m_image.isNull() || m_image.devicePixelRatio() != dpr)
        render(now, dpr);
    if (!m_image.isNull()) {
        // The image of other ranges moved to these: each axis maps values linearly (in log2
        // bytes, or log time) to pixels, so the old pixels go to the new ones by a scale and a shift.
        const Placement& was = m_imagePlacement;
        const double wx = was.b.x() - was.a.x(), wy = was.b.y() - was.a.y();
        if (std::fabs(wx) > 1e-9 && std::fabs(wy) > 1e-9) {
            const double sx = (now.b.x() - now.a.x()) / wx, sy = (now.b.y() - now.a.y()) / wy;
            painter->setTransform(QTransform(sx, 0, 0, sy, now.a.x() - sx * was.a.x(), now.a.y() - sy * was.a.y()),
                                  true);
            painter->drawImage(was.plot.topLeft(), m_image);
        }
    }
    painter->restore();
}

int BandLayer::bandAt(QPointF value) const
{
    const QPointF at = m_chart->mapToPosition(value, m_reference);
    for (std::size_t i = m_bands.size(); i-- > 0;)
        if (m_bands[i].visible && path(m_bands[i]).contains(at))
            return static_cast<int>(i);
    return -1;
}

void BandLayer::hoverMoveEvent(QGraphicsSceneHoverEvent* event)
{
    const QPointF value = m_chart->mapToValue(event->pos(), m_reference);
    const int band = m_chart->plotArea().contains(event->pos()) ? bandAt(value) : -1;
    if (band != m_hoveredBand && m_hoveredBand >= 0)
        Q_EMIT hovered(m_hoveredBand, value, false);
    m_hoveredBand = band;
    if (band >= 0)
        Q_EMIT hovered(band, value, true);
}

void BandLayer::hoverLeaveEvent(QGraphicsSceneHoverEvent* event)
{
    if (m_hoveredBand >= 0)
        Q_EMIT hovered(m_hoveredBand, m_chart->mapToValue(event->pos(), m_reference), false);
    m_hoveredBand = -1;
}
} // namespace rl::charts
