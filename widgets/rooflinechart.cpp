#include "rooflinechart.h"

#include <cmath>

#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPen>
#include <QScatterSeries>

#include "callout.h"
#include "chartexport.h"
#include "niceticks.h"
#include "textconv.h"

namespace rl::charts {
namespace {
const QColor kMeasuredRoof(0x20, 0x20, 0x20);
const QColor kProfileRoof(0x80, 0x80, 0x80);
const QColor kSecondProfileRoof(0x4a, 0x6f, 0xa5);
const QColor kSlopeColors[] = {QColor(0xd6, 0x27, 0x28), QColor(0xff, 0x7f, 0x0e), QColor(0x8c, 0x56, 0x4b),
                               QColor(0xe3, 0x77, 0xc2)};
// Points are coloured by source (a family each, shades for several sets of one source) and shaped
// by source, so "measured vs imported vs trace vs model" reads at a glance.
struct SourceStyle
{
    QColor colors[3];
    QScatterSeries::MarkerShape shape;
    const char* prefix;
};
const SourceStyle kSourceStyles[] = {
    {{QColor(0x1f, 0x77, 0xb4), QColor(0x17, 0xbe, 0xcf), QColor(0x39, 0x3b, 0x79)},
     QScatterSeries::MarkerShapeCircle, "measured"},
    {{QColor(0x2c, 0xa0, 0x2c), QColor(0xbc, 0xbd, 0x22), QColor(0x63, 0x79, 0x39)},
     QScatterSeries::MarkerShapeRectangle, "imported"},
    {{QColor(0x94, 0x67, 0xbd), QColor(0xe3, 0x77, 0xc2), QColor(0x7b, 0x41, 0x73)},
     QScatterSeries::MarkerShapeTriangle, "trace kernels"},
    {{QColor(0xff, 0x7f, 0x0e), QColor(0xd6, 0x27, 0x28), QColor(0xe7, 0xba, 0x52)},
     QScatterSeries::MarkerShapeStar, "predicted"},
};

Qt::PenStyle penFor(CeilingOrigin o)
{
    return o == CeilingOrigin::Measured ? Qt::SolidLine : o == CeilingOrigin::Profile ? Qt::DashLine : Qt::DotLine;
}

// x at fraction f of the log range [a, b].
double logAt(double a, double b, double f)
{
    return a * std::pow(b / a, f);
}

// QScatterSeries puts a point label's baseline markerSize / 2 + pen width + 2 px above the point.
constexpr double kLabelLift = 3.5;

} // namespace

namespace {
QLogValueAxis* logAxis(const QString& title, double lo, double hi)
{
    auto* a = new QLogValueAxis;
    a->setBase(10);
    a->setTitleText(title);
    a->setLabelFormat(logTickFormat(lo, hi));
    a->setRange(lo, hi);
    a->setMinorTickCount(8);
    return a;
}

QString describe(const KernelChartData& data, const RooflineOptions& o, const RooflineGeometry& g)
{
    QString d = QStringLiteral("Ridgeline ") % QStringLiteral(RIDGELINE_VERSION) % QStringLiteral(" roofline chart");
    d += QStringLiteral("; hardware profile: ") % (o.hardware ? qs(o.hardware->id) : QStringLiteral("none"));
    if (o.compareHardware)
        d += QStringLiteral("; compared with: ") % qs(o.compareHardware->id);
    if (o.predicted)
        d += QStringLiteral("; sizing model: ") % qs(o.predicted->name);
    d += QStringLiteral("; %1 compute ceilings, %2 bandwidth ceilings, %3 ridge points")
             .arg(g.compute.size())
             .arg(g.bandwidth.size())
             .arg(g.ridges.size());
    if (g.gemmWithoutIntensity > 0)
        d += QStringLiteral("; %1 GEMM points without intensity left out").arg(g.gemmWithoutIntensity);
    d += QStringLiteral("; sessions:");
    for (const auto& s : data.sessions)
        d += QStringLiteral(" [") % QString::number(s.session.id) % QStringLiteral("] ") % qs(s.session.title)
            % QStringLiteral(" (") % qs(s.session.kind)
            % (s.session.host.empty() ? QString() : QStringLiteral(", ") % qs(s.session.host)) % QStringLiteral(")");
    return d;
}
} // namespace

QString RooflineChart::populate(QChart* chart, const KernelChartData& data, const RooflineOptions& o)
{
    clearChart(chart);
    auto& drawn = freshDrawn<RooflineDrawn>(chart);
    const RooflineGeometry g = rooflineGeometry(data, o);
    auto* x = logAxis(QStringLiteral("Arithmetic intensity (FLOP/byte)"), g.xMin, g.xMax);
    auto* y = logAxis(QStringLiteral("Performance (GFLOP/s)"), g.yMin, g.yMax);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    softenMinorGrid(chart, x);
    softenMinorGrid(chart, y);

    const auto topPeak = [&](CeilingOrigin origin) {
        double v = 0;
        for (const auto& c : g.compute)
            if (c.origin == origin)
                v = std::max(v, c.gflops);
        return v;
    };
    const auto topBandwidth = [&](CeilingOrigin origin) {
        double v = 0;
        for (const auto& b : g.bandwidth)
            if (b.origin == origin)
                v = std::max(v, b.gbs);
        return v;
    };

    // Roofs: flat from where the fastest slope of their origin reaches them to the right edge.
    for (const auto& c : g.compute) {
        const double bw = topBandwidth(c.origin);
        const double start = bw > 0 ? std::max(g.xMin, c.gflops / bw) : g.xMin;
        const QColor color = legibleOn(chart, c.origin == CeilingOrigin::Measured ? kMeasuredRoof
                                              : c.origin == CeilingOrigin::Profile ? kProfileRoof
                                                                                    : kSecondProfileRoof);
        auto* line = new QLineSeries;
        line->setName(chartText(c.label));
        line->setPen(QPen(color, 2, penFor(c.origin)));
        line->replace({QPointF(start, c.gflops), QPointF(g.xMax, c.gflops)});
        attachSeries(chart, line, x, y);
        hideFromLegend(chart, line);
        auto* label = addChartLabel(chart, x, y, QPointF(logAt(start, g.xMax, 0.5), c.gflops), qs(c.label), color);
        drawn.labels.push_back({label, RooflineLabel::Roof, start, g.xMax, c.gflops});
    }

    // Slopes: from the left edge up to the highest roof of their origin (or the top edge).
    std::size_t slopeIndex = 0;
    for (const auto& b : g.bandwidth) {
        const double peak = topPeak(b.origin);
        const double end = std::min(g.xMax, (peak > 0 ? peak : g.yMax) / b.gbs);
        const double start = std::max(g.xMin, g.yMin / b.gbs);
        const QColor color = kSlopeColors[slopeIndex++ % std::size(kSlopeColors)];
        auto* line = new QLineSeries;
        line->setName(chartText(b.label));
        line->setPen(QPen(color, 2, penFor(b.origin)));
        line->replace({QPointF(start, b.gbs * start), QPointF(end, b.gbs * end)});
        attachSeries(chart, line, x, y);
        hideFromLegend(chart, line);
        const double at = logAt(start, end, 0.3);
        auto* label = addChartLabel(chart, x, y, QPointF(at, b.gbs * at), qs(b.label), color);
        drawn.labels.push_back({label, RooflineLabel::Slope, start, end, b.gbs});
    }

    if (!g.ridges.empty()) {
        auto* ridges = new QScatterSeries;
        ridges->setName(QStringLiteral("Ridge points"));
        ridges->setMarkerShape(QScatterSeries::MarkerShapeRotatedRectangle);
        ridges->setMarkerSize(11);
        ridges->setColor(plotBackground(chart)); // hollow: the plot shows through (a gradient in exports)
        ridges->setBorderColor(legibleOn(chart, Qt::black));
        QList<QPointF> points;
        for (const auto& r : g.ridges)
            points << QPointF(r.intensity, r.gflops);
        ridges->replace(points);
        attachSeries(chart, ridges, x, y);
        for (const auto& r : g.ridges) {
            auto* label = addChartLabel(chart, x, y, QPointF(r.intensity, r.gflops),
                                        QString::number(r.intensity, 'g', 3) % QStringLiteral(" FLOP/B"),
                                        QColor(0x40, 0x40, 0x40));
            drawn.labels.push_back({label, RooflineLabel::Ridge, r.intensity, r.intensity, r.gflops});
        }
    }

    std::size_t index = 0;
    int shade[std::size(kSourceStyles)] = {};
    for (const auto& s : g.gemm) {
        const auto& style = kSourceStyles[static_cast<int>(s.source)];
        const QColor color = style.colors[shade[static_cast<int>(s.source)]++ % std::size(style.colors)];
        auto* scatter = new QScatterSeries;
        scatter->setName(QLatin1String(style.prefix) % QStringLiteral(": ") % chartText(s.name)
                         % QStringLiteral(" (%1 %2)")
                               .arg(s.points.size())
                               .arg(s.source == PointSource::Trace ? QStringLiteral("kernels") : QStringLiteral("GEMMs")));
        scatter->setMarkerShape(style.shape);
        scatter->setMarkerSize(s.source == PointSource::Predicted ? 13 : 10);
        scatter->setColor(color);
        scatter->setBorderColor(color.darker(140));
        QList<QPointF> points;
        for (const auto& p : s.points)
            points << QPointF(p.intensity, p.gflops);
        scatter->replace(points);
        attachSeries(chart, scatter, x, y);
        drawn.gemm.emplace_back(scatter, index);
        ++index;
    }

    QString title = QStringLiteral("Roofline");
    if (!g.gemm.empty()) {
        title += QStringLiteral(" — ");
        for (std::size_t i = 0; i < g.gemm.size(); ++i)
            title += (i ? QStringLiteral(", ") : QString()) % qs(g.gemm[i].name);
    }
    if (o.hardware)
        title += QStringLiteral(" vs ") % qs(o.hardware->name);
    if (o.compareHardware)
        title += (o.hardware ? QStringLiteral(" and ") : QStringLiteral(" vs ")) % qs(o.compareHardware->name);
    if (g.compute.empty() && g.bandwidth.empty())
        title += QStringLiteral(" — no ceilings: ") % qs(o.noCeilingsHint);
    else if (g.compute.empty()) // the slope alone climbs past any real chip: say why there is no roof
        title += QStringLiteral(" — no compute ceiling: ") % qs(o.noComputeHint);
    chart->setTitle(chartText(o.title.empty() ? title : qs(o.title)));
    chart->legend()->setVisible(true);
    chart->legend()->setAlignment(Qt::AlignBottom);
    // The label layout needs the plot area in pixels: lay the chart out now (exports render at once).
    if (chart->layout())
        chart->layout()->activate();
    layoutRooflineLabels(chart);
    return describe(data, o, g);
}

void layoutRooflineLabels(QChart* chart)
{
    auto* xAxis = qobject_cast<QLogValueAxis*>(chart->axes(Qt::Horizontal).value(0));
    auto* yAxis = qobject_cast<QLogValueAxis*>(chart->axes(Qt::Vertical).value(0));
    if (!xAxis || !yAxis || !(xAxis->min() > 0) || !(yAxis->min() > 0))
        return;
    QRectF plot = chart->plotArea();
    if (plot.width() < 100 || plot.height() < 100) { // not laid out yet: the default export size
        const QSizeF size = chart->size().width() >= 200 ? chart->size() : QSizeF(1200, 800);
        plot = QRectF(80, 60, size.width() - 120, size.height() - 200);
    }
    const double lx = std::log(xAxis->max() / xAxis->min()), ly = std::log(yAxis->max() / yAxis->min());
    const auto toPixel = [&](double xv, double yv) {
        return QPointF(plot.left() + plot.width() * std::log(xv / xAxis->min()) / lx,
                       plot.bottom() - plot.height() * std::log(yv / yAxis->min()) / ly);
    };
    const auto toValue = [&](QPointF p) {
        return QPointF(xAxis->min() * std::exp((p.x() - plot.left()) / plot.width() * lx),
                       yAxis->min() * std::exp((plot.bottom() - p.y()) / plot.height() * ly));
    };

    const auto* drawn = drawnOn<RooflineDrawn>(chart);
    if (!drawn)
        return;
    std::vector<QRectF> taken; // placed labels and ridge markers, in pixels
    for (const auto& label : drawn->labels)
        if (label.kind == RooflineLabel::Ridge) {
            const QPointF r = toPixel(label.a, label.c);
            taken.push_back(QRectF(r.x() - 7, r.y() - 7, 14, 14));
        }
    // Roofs first, then slopes, then ridges: the order decides who moves when two want one place.
    std::vector<RooflineLabel> labels = drawn->labels;
    std::stable_sort(labels.begin(), labels.end(), [](const auto& l, const auto& r) { return l.kind < r.kind; });

    for (const auto& label : labels) {
        QScatterSeries* s = label.series;
        const auto kind = label.kind;
        const double a = label.a, b = label.b, c = label.c;
        const QFontMetricsF fm(s->pointLabelsFont());
        const QSizeF size(fm.horizontalAdvance(s->pointLabelsFormat()), fm.ascent() + fm.descent());
        // Candidate boxes (top-left corners), most natural first.
        std::vector<QPointF> corners;
        const double fractions[] = {0.5, 0.35, 0.65, 0.2, 0.8, 0.1, 0.9, 0.05};
        if (kind == RooflineLabel::Roof) {
            const double x0 = toPixel(a, c).x(), x1 = toPixel(b, c).x(), yy = toPixel(a, c).y();
            // On the line (above, then below); where roofs lie a few pixels apart (two profiles'
            // peaks and max-achievable rates) one or two label heights further out, still in colour.
            for (const double away : {0.0, 1.0, 2.0})
                for (const double above : {1.0, 0.0})
                    for (const double f : fractions)
                        corners.emplace_back(x0 + f * (x1 - x0) - size.width() / 2,
                                             above > 0 ? yy - 2 - size.height() * (1 + away) : yy + 2 + size.height() * away);
        } else if (kind == RooflineLabel::Slope) {
            // Above-left of the rising line (its bottom-right corner on it), else below-right.
            const double slopeFractions[] = {0.3, 0.2, 0.4, 0.1, 0.5, 0.6, 0.7, 0.05, 0.8};
            for (const double above : {1.0, 0.0})
                for (const double f : slopeFractions) {
                    const double xv = logAt(a, b, f);
                    const QPointF p = toPixel(xv, c * xv);
                    corners.push_back(above > 0 ? QPointF(p.x() - 2 - size.width(), p.y() - 2 - size.height())
                                                : QPointF(p.x() + 4, p.y() + 2));
                }
        } else {
            // Above the slope and left of the marker, where no line of this roof runs and no other
            // roof lies nearer (below-right sat between this roof and the next lower one, and read
            // as that roof's); below-right only when the space above is taken.
            const QPointF r = toPixel(a, c);
            const double w = size.width(), h = size.height();
            corners = {QPointF(r.x() - 7 - w, r.y() - 5 - h), QPointF(r.x() - 7 - w, r.y() - 5 - 2 * h),
                       QPointF(r.x() - w / 2, r.y() - 9 - h),  QPointF(r.x() + 8, r.y() + 6),
                       QPointF(r.x() - 8 - w, r.y() + 6),      QPointF(r.x() + 8, r.y() + 6 + h)};
        }
        // The first candidate inside the plot that touches nothing placed; ceilings must be named,
        // so they take the least overlapping one when none is free, ridge values are left out.
        double bestOverlap = INFINITY;
        QRectF best;
        for (const auto& corner : corners) {
            const QRectF box(corner, size);
            if (!plot.contains(box))
                continue;
            double overlap = 0;
            for (const auto& t : taken)
                if (const QRectF i = box.adjusted(-2, -2, 2, 2).intersected(t); !i.isEmpty())
                    overlap += i.width() * i.height();
            if (overlap < bestOverlap) {
                bestOverlap = overlap;
                best = box;
            }
            if (overlap == 0)
                break;
        }
        const bool show = !best.isNull() && (bestOverlap == 0 || kind != RooflineLabel::Ridge);
        s->setPointLabelsVisible(show);
        if (!show)
            continue;
        taken.push_back(best);
        // Qt draws a point label centred on the point with its baseline kLabelLift px above it.
        const QPointF anchor(best.center().x(), best.top() + fm.ascent() + kLabelLift);
        s->replace({toValue(anchor)});
    }
}

bool RooflineChart::exportChart(const KernelChartData& data, const RooflineOptions& options, QSize size,
                                const QString& path, QString* error)
{
    return exportChartFile([&](QChart* chart) { return populate(chart, data, options); },
                           [&] { return rooflineCsv(data, options); }, size, path, error);
}

RooflineChart::RooflineChart(QWidget* parent)
    : ChartFrame(parent)
{
    view()->setObjectName(QStringLiteral("rooflineView"));
    view()->setToolTip(tr("Drag to zoom, right-click to zoom out; hover a point for its GEMM"));
    // Label collisions depend on the size in pixels.
    connect(chart(), &QChart::plotAreaChanged, this, [this] { layoutRooflineLabels(chart()); });
    rebuild();
}

RooflineChart::~RooflineChart() = default;

void RooflineChart::setData(const KernelChartData& data)
{
    m_data = data;
    rebuild();
}

void RooflineChart::setHardwareProfile(const std::optional<HardwareProfile>& profile)
{
    m_options.hardware = profile;
    rebuild();
}

void RooflineChart::setCompareProfile(const std::optional<HardwareProfile>& profile)
{
    m_options.compareHardware = profile;
    rebuild();
}

void RooflineChart::setPredictedGemms(const std::optional<GemmScatter>& predicted)
{
    m_options.predicted = predicted;
    rebuild();
}

void RooflineChart::setTitle(const std::string& title)
{
    m_options.title = title;
    rebuild();
}

void RooflineChart::rebuild()
{
    callout()->hide();
    chart()->zoomReset();
    m_geometry = rooflineGeometry(m_data, m_options);
    populate(chart(), m_data, m_options);
    for (const auto& [scatter, index] : drawnOn<RooflineDrawn>(chart())->gemm)
        answerHover(scatter, [this, index = index](QPointF pointer) -> std::optional<HoverHit> {
            if (index >= m_geometry.gemm.size())
                return std::nullopt;
            // The nearest point in log space: the series gives the hovered value, not its index.
            const auto& set = m_geometry.gemm[index];
            std::size_t best = set.points.size();
            double bestDistance = INFINITY;
            for (std::size_t i = 0; i < set.points.size(); ++i) {
                const auto& p = set.points[i];
                const double d = std::hypot(std::log(p.intensity / pointer.x()), std::log(p.gflops / pointer.y()));
                if (d < bestDistance) {
                    bestDistance = d;
                    best = i;
                }
            }
            if (best == set.points.size())
                return std::nullopt;
            return HoverHit{qs(set.name) % QLatin1Char('\n') % qs(describeScatterPoint(set, best)),
                            QPointF(set.points[best].intensity, set.points[best].gflops)};
        });
}

} // namespace rl::charts
