#pragma once
// The translucent band areas of a size chart (a --split session's groups, slowest to fastest), drawn
// as one layer under the series instead of one QAreaSeries each (issue 26 item 11): QtCharts fills
// every area on each paint, and 40 overlapping translucent fills of a 3,240-curve selection were
// 40-50 ms of the GUI thread's longest block. On screen the layer draws one image of all bands,
// rendered on a worker for the plot's size and the axes' ranges; until it arrives the last image is
// drawn moved to the new ranges (zoom, resize) or nothing (a new selection). Rendered without a
// widget (export to PNG, SVG, PDF) the bands are filled as vector paths at once, so exports are
// exact. Hovering a band says which one it is; hiding its median hides it.
#include <cstdint>
#include <optional>
#include <vector>

#include <QColor>
#include <QGraphicsObject>
#include <QImage>
#include <QList>
#include <QPainterPath>
#include <QPointF>
#include <QRectF>

QT_BEGIN_NAMESPACE
class QAbstractSeries;
class QChart;
QT_END_NAMESPACE

namespace rl {
class JobTracker;
}

namespace rl::charts {

class BandLayer : public QGraphicsObject
{
    Q_OBJECT
public:
    struct Band
    {
        QColor color;             // the fill, with its alpha
        QList<QPointF> upper;     // in plotted values, by increasing x
        QList<QPointF> lower;     // the same x as upper
        bool visible = true;
    };

    // reference: a series on the axes the bands are drawn on (maps values to the plot).
    BandLayer(QChart* chart, QAbstractSeries* reference, std::vector<Band> bands);
    ~BandLayer() override;

    const std::vector<Band>& bands() const { return m_bands; }
    void setBandVisible(std::size_t band, bool visible);
    // Whether the image on screen is the one for the plot's current size and ranges.
    bool isRendered() const;
    // The band under a plotted value (the last drawn, which is on top), or -1.
    int bandAt(QPointF value) const;

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

Q_SIGNALS:
    void hovered(int band, QPointF value, bool state);
    // The image for the plot's current size and ranges has arrived (and is drawn with the next paint).
    void rendered();

protected:
    void hoverMoveEvent(QGraphicsSceneHoverEvent* event) override;
    void hoverLeaveEvent(QGraphicsSceneHoverEvent* event) override;

private:
    // Where the plot is and how values map to it: two reference values' positions fix each axis'
    // scale and offset (linear in log2 bytes on x, linear or log on y).
    struct Placement
    {
        QRectF plot;
        QPointF a, b; // positions of m_refA and m_refB
        friend bool operator==(const Placement&, const Placement&) = default;
    };
    Placement placement() const;
    QPainterPath path(const Band& band) const; // in the chart's coordinates, as placed now
    void render(const Placement& at, double dpr); // starts the worker for an image placed so

    QChart* m_chart;
    QAbstractSeries* m_reference;
    std::vector<Band> m_bands;
    QPointF m_refA, m_refB;
    QImage m_image;
    Placement m_imagePlacement;
    std::optional<Placement> m_requested; // of the image being rendered
    JobTracker* m_jobs;
    int m_hoveredBand = -1;
};
} // namespace rl::charts
