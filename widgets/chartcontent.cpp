#include "chartcontent.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include <QFont>
#include <QFontMetricsF>
#include <QCategoryAxis>
#include <QAreaSeries>
#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPen>
#include <QValueAxis>

#include "bandlayer.h"
#include "chartimage.h"
#include "log2axis.h"
#include "units/units.h"
#include "niceticks.h"
#include "textconv.h"
#include "views/collectivehover.h"

namespace rl::charts {
namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int kFitSamples = 64;

} // namespace

ChartContent::ChartContent(QChart* chart, QObject* parent)
    : QObject(parent)
    , m_chart(chart)
{
    // Names carry session, op and fit parameters: a column on the right keeps them readable (a row
    // below the plot cuts every name to a few letters); a smaller font leaves the plot its width.
    m_chart->legend()->setAlignment(Qt::AlignRight);
    QFont legendFont = m_chart->legend()->font();
    legendFont.setPointSizeF(legendFont.pointSizeF() * 0.85);
    m_chart->legend()->setFont(legendFont);
    m_chart->legend()->setShowToolTips(true);
    // Line markers show the pen, so a dashed fit entry is told apart from its data series.
    m_chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    // Label density follows the plot width, so a narrow window gets fewer size labels.
    connect(m_chart, &QChart::plotAreaChanged, this, &ChartContent::fitLabelsToPlotArea);
}

void ChartContent::fitLabelsToPlotArea()
{
    capBandLegend(); // as many band names as the laid-out legend has rows for
    if (!m_xAxis || labelBudget() == m_budget)
        return;
    m_budget = labelBudget();
    double lo = m_xMin, hi = m_xMax;
    if (lo > hi)
        lo = 3, hi = 34;
    relabelLog2Axis(m_xAxis, lo, hi, m_budget, m_kind == ChartKind::Scaling ? countLabel : bytesLabel);
}

QString ChartContent::title() const
{
    if (!m_options.title.empty())
        return qs(m_options.title);
    const QString metric = m_options.metric == BandwidthMetric::BusBw ? QStringLiteral("Bus bandwidth")
                                                                       : QStringLiteral("Algorithm bandwidth");
    switch (m_kind) {
    case ChartKind::Bandwidth: return metric % QStringLiteral(" vs message size");
    case ChartKind::Latency: return QStringLiteral("Time vs message size");
    case ChartKind::Scaling:
        return metric % QStringLiteral(" at ") % qs(units::formatBytes(static_cast<double>(m_options.scalingBytes)))
            % QStringLiteral(" vs ranks");
    case ChartKind::Compare:
        if (m_data->size() == 2)
            return metric % QStringLiteral(" ratio: ") % qs((*m_data)[1].session.title) % QStringLiteral(" / ")
                % qs((*m_data)[0].session.title);
        return QStringLiteral("Compare needs exactly two sessions");
    }
    return {};
}

QString ChartContent::emptyReason() const
{
    if (m_kind == ChartKind::Bandwidth && m_options.metric == BandwidthMetric::BusBw && !m_data->empty()) {
        // busbw = algbw x the op's bus factor, which is 0 on one rank: a flat line at 0 says nothing.
        const bool oneRank = std::all_of(m_data->begin(), m_data->end(), [](const SessionCurves& s) {
            return std::all_of(s.points.begin(), s.points.end(), [](const CollectivePoint& p) { return p.nranks <= 1; });
        });
        const bool anyPoint = std::any_of(m_data->begin(), m_data->end(), [](const SessionCurves& s) { return !s.points.empty(); });
        if (oneRank && anyPoint)
            return QStringLiteral("busbw is 0 on one rank: there is no bus to cross (busbw = algbw × the op's bus "
                                  "factor, 0 for one rank). Switch the metric to algbw to see this run's bandwidth.");
    }
    if (waitsForEveryPoint())
        return QStringLiteral("Reading every point of the selection: this view picks points by size across sessions, "
                              "which a long session's outline does not hold.");
    if (m_kind != ChartKind::Compare)
        return {};
    // B / A is a ratio of two sessions; with three or more there is no single "the other one".
    if (m_data->size() != 2)
        return m_data->empty() ? QStringLiteral("Compare: select two collective sessions to see the second over the first.")
                              : QStringLiteral("Compare shows the second session over the first: select exactly two "
                                               "collective sessions (%1 selected).")
                                    .arg(m_data->size());
    if (m_ratios.empty())
        return QStringLiteral("Compare: %1 and %2 have no op, placement and message size in common.")
            .arg(qs((*m_data)[0].session.title), qs((*m_data)[1].session.title));
    return {};
}

void ChartContent::setData(ChartKind kind, SharedSessions data, const ChartOptions& options,
                           std::optional<SizeChartData> prepared)
{
    if (!data)
        data = std::make_shared<const std::vector<SessionCurves>>();
    // A rebuild of the same data set (a hidden tab first shown, another kind or option) keeps the
    // data prepared for it: build() uses it only where it still answers the chart.
    if (prepared || data != m_data)
        m_prepared = std::move(prepared);
    m_kind = kind;
    m_data = std::move(data);
    m_options = options;
    build();
}

void ChartContent::setData(ChartKind kind, std::vector<SessionCurves> data, const ChartOptions& options)
{
    setData(kind, std::make_shared<const std::vector<SessionCurves>>(std::move(data)), options);
}

void ChartContent::setDataUndrawn(ChartKind kind, SharedSessions data, const ChartOptions& options,
                                  std::optional<SizeChartData> prepared)
{
    m_kind = kind;
    m_data = data ? std::move(data) : std::make_shared<const std::vector<SessionCurves>>();
    m_options = options;
    m_prepared = std::move(prepared);
    // The old series would describe sessions no longer in m_data.
    const bool hadFits = !m_fits.empty();
    clearChart();
    m_drawn.clear();
    m_undrawn = true;
    if (hadFits)
        Q_EMIT fitsChanged();
}

SizeChartRequest ChartContent::sizeChartRequest() const
{
    return {m_kind, m_options, units::displayBandwidthUnit(), plotPixels()};
}

void ChartContent::clearChart()
{
    delete m_bandLayer; // before the series it maps its bands through
    m_bandLayer = nullptr;
    m_bandMedians.clear();
    m_chart->removeAllSeries();
    const auto axes = m_chart->axes();
    for (QAbstractAxis* a : axes) {
        m_chart->removeAxis(a);
        delete a;
    }
    m_curves = std::make_shared<const std::vector<Curve>>();
    m_ownCurves.reset();
    m_fits.clear();
    m_scaling.clear();
    m_ratios.clear();
    m_curveSeries.clear();
    m_bands.clear();
    m_bandsNotInLegend = 0;
    m_fitSeries.clear();
    m_info.clear();
    m_xAxis = nullptr;
    m_yAxis = nullptr;
}

void ChartContent::build()
{
    m_undrawn = false;
    clearChart();
    m_drawn.clear();
    for (const auto& sc : *m_data)
        m_drawn[sc.session.id] = sc.points.size();
    m_chart->setTitle(chartText(title()));
    // From an outline (the size charts' first draw of a long session), the scaling view's point
    // nearest a size or the compare view's mean over a size's repeats would be of some points only:
    // drawn once all are read.
    if (!waitsForEveryPoint())
        switch (m_kind) {
        case ChartKind::Bandwidth:
        case ChartKind::Latency: buildSizeChart(); break;
        case ChartKind::Scaling: buildScaling(); break;
        case ChartKind::Compare: buildCompare(); break;
        }
    Q_EMIT fitsChanged();
}

bool ChartContent::waitsForEveryPoint() const
{
    return !drawnFromOutlines(m_kind) && anyOutline(*m_data);
}

int ChartContent::labelBudget() const
{
    const double w = m_chart->plotArea().width() > 50 ? m_chart->plotArea().width() : m_options.width * 0.85;
    return std::max(3, static_cast<int>(w / 80.0));
}

QLineSeries* ChartContent::addSeries(const QString& name, Role role, std::size_t index, QAbstractAxis* x,
                                     QAbstractAxis* y)
{
    auto* s = new QLineSeries;
    s->setName(chartText(name));
    m_chart->addSeries(s);
    s->attachAxis(x);
    s->attachAxis(y);
    m_info[s] = {role, index};
    connect(s, &QXYSeries::hovered, this, [this, s](const QPointF& p, bool state) {
        Q_EMIT hoverChanged(state ? describePoint(s, p) : QString(), p, s, state);
    });
    const auto markers = m_chart->legend()->markers(s);
    for (QLegendMarker* m : markers)
        connect(m, &QLegendMarker::clicked, this, &ChartContent::toggleSeries);
    return s;
}

void ChartContent::toggleSeries()
{
    auto* marker = qobject_cast<QLegendMarker*>(sender());
    if (!marker)
        return;
    QAbstractSeries* s = marker->series();
    s->setVisible(!s->isVisible());
    // Hiding a series hides its marker too; keep it so the user can click it back on, dimmed.
    marker->setVisible(true);
    const qreal alpha = s->isVisible() ? 1.0 : 0.4;
    QColor c = marker->labelBrush().color();
    c.setAlphaF(alpha);
    marker->setLabelBrush(c);
    QColor b = marker->brush().color();
    b.setAlphaF(alpha);
    marker->setBrush(b);
}

double ChartContent::plottedY(const CollectivePoint& p) const
{
    return charts::plottedY(p, m_kind, m_options.metric, units::displayBandwidthUnit());
}

int ChartContent::plotPixels() const
{
    const double w = m_chart->plotArea().width() > 50 ? m_chart->plotArea().width() : m_options.width * 0.85;
    return std::max(100, static_cast<int>(w));
}

// The points a curve is drawn with: every one while there are few, else per column of the data's
// size range (as wide as the pen: curveColumns) the first, last, lowest and highest
// (decimateToPixels), which draw the same line. A zoom into a long curve shows the decimated line; the hover still reads exact values.
QList<QPointF> ChartContent::curvePoints(const Curve& curve) const
{
    const auto thin = drawnPoints(curve, m_kind, m_options.metric, units::displayBandwidthUnit(), plotPixels());
    QList<QPointF> pts;
    pts.reserve(static_cast<qsizetype>(thin.size()));
    for (const auto& p : thin)
        pts.append({p.x, p.y});
    return pts;
}

std::vector<Curve>& ChartContent::ownCurves()
{
    if (!m_ownCurves) {
        m_ownCurves = std::make_shared<std::vector<Curve>>(*m_curves);
        m_curves = m_ownCurves;
    }
    return *m_ownCurves;
}

// A band (of a session's groups, or of sessions): its curves' slowest to fastest as a light area,
// their median as the line the legend names. The areas are one BandLayer (bandlayer.h), not a
// QAreaSeries each: QtCharts filled 40 of them on every paint of a 3,240-curve selection.
void ChartContent::addGroupBands()
{
    std::vector<BandLayer::Band> areas;
    m_bandMedians.assign(m_bands.size(), nullptr);
    for (std::size_t bi = 0; bi < m_bands.size(); ++bi) {
        const GroupBand& b = m_bands[bi];
        QLineSeries* median = addSeries(qs(b.name), Role::BandMedian, bi, m_xAxis, m_yAxis);
        QList<QPointF> mid;
        BandLayer::Band area;
        for (const auto& p : b.points) {
            mid.append({p.x, p.median});
            area.upper.append({p.x, p.max});
            area.lower.append({p.x, p.min});
            m_xMin = std::min(m_xMin, p.x);
            m_xMax = std::max(m_xMax, p.x);
            m_yMin = std::min(m_yMin, p.min);
            m_yMax = std::max(m_yMax, p.max);
        }
        median->replace(mid);
        area.color = median->color();
        area.color.setAlphaF(0.25);
        areas.push_back(std::move(area));
        m_bandMedians[bi] = median;
    }
    if (m_bands.empty())
        return;
    m_bandLayer = new BandLayer(m_chart, m_bandMedians.front(), std::move(areas));
    // Anywhere inside a band says what it holds (the median is a thin line); the callout points
    // from the band's median series, which has the band's axes.
    connect(m_bandLayer, &BandLayer::hovered, this, [this](int band, QPointF value, bool state) {
        QLineSeries* median = m_bandMedians[static_cast<std::size_t>(band)];
        Q_EMIT hoverChanged(state ? describePoint(median, value) : QString(), value, median, state);
    });
    connect(m_bandLayer, &BandLayer::rendered, this, &ChartContent::bandsRendered);
    // A median hidden from its legend entry takes its band with it.
    for (std::size_t bi = 0; bi < m_bandMedians.size(); ++bi)
        connect(m_bandMedians[bi], &QAbstractSeries::visibleChanged, m_bandLayer,
                [layer = m_bandLayer, median = m_bandMedians[bi], bi] { layer->setBandVisible(bi, median->isVisible()); });
}

// QtCharts cuts a legend taller than the chart off without a word: 40 bands of 10 --split sessions
// do not fit beside a 700-pixel plot. Name as many bands as fit and say how many more there are;
// the hover names each band. Run at build time with an estimate and again once the chart is laid
// out (fitLabelsToPlotArea): a tab built while hidden sized its legend for a chart it never had,
// and the estimate's row was 3 px short of QtCharts' (its text box has margins), so 33 names
// pushed the "… and N more" line out of sight.
void ChartContent::capBandLegend()
{
    if (m_bandMedians.empty())
        return;
    QLegend* legend = m_chart->legend();
    const auto all = m_chart->series();
    // The line the legend ends with when not every band is named: the one line series that is
    // none of this chart's curves, medians, fits or peaks.
    QLineSeries* more = nullptr;
    for (QAbstractSeries* s : all)
        if (s->type() == QAbstractSeries::SeriesTypeLine && !m_info.contains(s))
            more = static_cast<QLineSeries*>(s);
    const auto markerShown = [&](QAbstractSeries* s) {
        const auto markers = legend->markers(s);
        return !markers.isEmpty() && markers.front()->isVisible();
    };
    // Rows other than the medians' (curves drawn one by one, fits, tier peaks).
    int others = 0;
    for (QAbstractSeries* s : all)
        if (s->type() == QAbstractSeries::SeriesTypeLine && s != more && markerShown(s)) {
            const auto it = m_info.find(s);
            others += it == m_info.end() || it->second.role != Role::BandMedian;
        }
    const int wanted = others + static_cast<int>(m_bandMedians.size());
    // A row as QtCharts lays it out is at most a line of the legend's font, its text box's margins
    // (2 px a side) and the marker's (3 px a side): 20 px where the old estimate said 18.6. The
    // legend is as tall as the laid-out chart lets it be; before the first layout, the plot's height.
    const QFontMetricsF fm(legend->font());
    const double row = fm.height() + 10;
    double height = m_chart->plotArea().height() > 50 ? m_chart->plotArea().height() : m_options.height - 130.0;
    if (legend->isVisible() && legend->geometry().height() > 50)
        height = legend->geometry().height();
    const int rows = std::max(2, static_cast<int>(height / row));
    const int hide = wanted <= rows ? 0 : static_cast<int>(std::min<std::size_t>(m_bandMedians.size(), static_cast<std::size_t>(wanted - rows + 1)));
    if (hide == m_bandsNotInLegend && (hide == 0 || more))
        return; // as it is: a layout pass after this one does not change it again
    m_bandsNotInLegend = hide;
    for (std::size_t k = 0; k < m_bandMedians.size(); ++k)
        for (QLegendMarker* m : legend->markers(m_bandMedians[k]))
            m->setVisible(k + static_cast<std::size_t>(hide) < m_bandMedians.size());
    if (hide == 0) {
        if (more)
            for (QLegendMarker* m : legend->markers(more))
                m->setVisible(false);
        return;
    }
    if (!more) {
        more = new QLineSeries;
        more->setPen(Qt::NoPen);
        m_chart->addSeries(more);
        more->attachAxis(m_xAxis);
        more->attachAxis(m_yAxis);
    }
    more->setName(QStringLiteral("… and %1 more bands: hover one to name it").arg(hide));
    for (QLegendMarker* m : legend->markers(more))
        m->setVisible(true);
}

void ChartContent::buildSizeChart()
{
    // The data computed with the points off the GUI thread, when it is still what this chart
    // shows; else (another metric, a fit range, a resize) computed here.
    const SizeChartRequest wanted = sizeChartRequest();
    SizeChartData d = m_prepared && m_prepared->answers(wanted) ? std::move(*m_prepared) : sizeChartData(*m_data, wanted);
    m_prepared.reset();
    m_curves = d.curves;
    m_bands = std::move(d.bands);
    m_xMin = m_yMin = kInf;
    m_xMax = m_yMax = -kInf;
    m_budget = labelBudget();
    m_xAxis = makeLog2Axis(3, 34, m_budget, bytesLabel);
    m_xAxis->setTitleText(QStringLiteral("Message size"));
    if (m_kind == ChartKind::Latency) {
        auto* y = new QLogValueAxis;
        y->setBase(10);
        // "%g" would print 1e+06; whole microseconds read better down to 1 µs.
        y->setLabelFormat(QStringLiteral("%g"));
        y->setMinorTickCount(-1);
        y->setTitleText(QStringLiteral("Time (µs)"));
        m_yAxis = y;
    } else {
        auto* y = new QValueAxis;
        y->setTitleText(qs(metricTitle(m_options.metric)));
        m_yAxis = y;
    }
    m_chart->addAxis(m_xAxis, Qt::AlignBottom);
    m_chart->addAxis(m_yAxis, Qt::AlignLeft);
    const auto& curves = *m_curves;
    m_curveSeries.assign(curves.size(), nullptr);
    for (std::size_t i = 0; i < curves.size(); ++i) {
        if (d.banded[i])
            continue;
        QLineSeries* s = addSeries(qs(curves[i].name), Role::Curve, i, m_xAxis, m_yAxis);
        QList<QPointF> pts;
        pts.reserve(static_cast<qsizetype>(d.drawn[i].size()));
        for (const PlotPoint& p : d.drawn[i]) {
            pts.append({p.x, p.y});
            m_xMin = std::min(m_xMin, p.x);
            m_xMax = std::max(m_xMax, p.x);
            m_yMin = std::min(m_yMin, p.y);
            m_yMax = std::max(m_yMax, p.y);
        }
        s->setPointsVisible(pts.size() < plotPixels() / 4); // markers only where they stand apart
        s->replace(pts);
        m_curveSeries[i] = s;
    }
    addGroupBands();
    if (m_kind == ChartKind::Bandwidth)
        addSpreadBands(d.spreads);
    if (m_options.showFits)
        for (std::size_t i = 0; i < curves.size(); ++i)
            if (m_curveSeries[i])
                updateFit(i, d.fits[i]);
    if (m_kind == ChartKind::Bandwidth && m_options.metric == BandwidthMetric::BusBw)
        addPeakLines(std::move(d.peaks));
    capBandLegend();
    updateSizeAxes();
}

void ChartContent::addPeakLines(std::vector<PeakLine> peaks)
{
    m_peaks = std::move(peaks);
    if (m_peaks.empty() || m_xMin > m_xMax)
        return;
    for (std::size_t i = 0; i < m_peaks.size(); ++i) {
        QLineSeries* s = addSeries(qs(m_peaks[i].label), Role::Peak, i, m_xAxis, m_yAxis);
        QPen pen(QColor(0x55, 0x55, 0x55));
        pen.setStyle(Qt::DashDotLine);
        pen.setWidthF(1.5);
        s->setPen(pen);
        const double y = units::displayBandwidth(m_peaks[i].busGBs);
        s->replace(QList<QPointF>{{m_xMin, y}, {m_xMax, y}});
        m_yMax = std::max(m_yMax, y);
    }
}

namespace {
QList<QPointF> toQPoints(const std::vector<PlotPoint>& points)
{
    QList<QPointF> out;
    out.reserve(static_cast<qsizetype>(points.size()));
    for (const PlotPoint& p : points)
        out.append({p.x, p.y});
    return out;
}
} // namespace

// The spread of each point's calls (the runner's per-call statistics: fastest to slowest call) as a
// light band in the curve's colour; points of tools that report one time per size have none.
void ChartContent::addSpreadBands(const std::vector<CallSpread>& spreads)
{
    for (std::size_t i = 0; i < spreads.size() && i < m_curveSeries.size(); ++i) {
        if (!m_curveSeries[i] || spreads[i].upper.size() < 2)
            continue; // drawn in a band, or without call statistics
        auto* up = new QLineSeries;
        auto* low = new QLineSeries;
        up->replace(toQPoints(spreads[i].upper)); // the fastest call's bandwidth
        low->replace(toQPoints(spreads[i].lower)); // the slowest call's
        auto* band = new QAreaSeries(up, low);
        // The area does not own its edges; they go with it.
        up->setParent(band);
        low->setParent(band);
        band->setName(chartText(qs((*m_curves)[i].name) + QStringLiteral(": fastest to slowest call")));
        QColor c = m_curveSeries[i]->color();
        c.setAlphaF(0.18);
        band->setBrush(c);
        band->setPen(Qt::NoPen);
        m_chart->addSeries(band);
        band->attachAxis(m_xAxis);
        band->attachAxis(m_yAxis);
        m_info[band] = {Role::Spread, i};
        for (QLegendMarker* m : m_chart->legend()->markers(band))
            m->setVisible(false); // the band belongs to its curve; the hover says what it is
        for (const PlotPoint& p : spreads[i].upper)
            m_yMax = std::max(m_yMax, p.y);
    }
}

void ChartContent::updateFit(std::size_t ci)
{
    const Curve& c = (*m_curves)[ci];
    updateFit(ci, fitCurve(c, m_options.fitMinBytes, m_options.fitMaxBytes));
}

void ChartContent::updateFit(std::size_t ci, const std::optional<fits::AlphaBeta>& fit)
{
    const Curve& c = (*m_curves)[ci];
    auto it = std::find_if(m_fits.begin(), m_fits.end(), [&](const FitCurve& f) { return f.key == c.key; });
    if (!fit) {
        if (it != m_fits.end())
            m_fits.erase(it);
        if (auto s = m_fitSeries.find(ci); s != m_fitSeries.end()) {
            m_info.erase(s->second);
            m_chart->removeSeries(s->second);
            delete s->second;
            m_fitSeries.erase(s);
        }
        return;
    }
    FitCurve fc{c.key, *fit, fitName(c.name, *fit)};
    if (it != m_fits.end())
        *it = fc;
    else
        m_fits.push_back(fc);

    QLineSeries*& s = m_fitSeries[ci];
    if (!s) {
        s = addSeries(QString(), Role::Fit, ci, m_xAxis, m_yAxis);
        QPen pen(m_curveSeries[ci]->color());
        pen.setStyle(Qt::DashLine);
        pen.setWidthF(1.5);
        s->setPen(pen);
    }
    s->setName(chartText(fc.name));
    const double factor = m_options.metric == BandwidthMetric::BusBw ? busFactorOf(c) : 1.0;
    // The legend names a fit by its parameters alone: the dashed pen in the curve's colour ties it
    // to its curve, and a long "session · op" prefix would cut α and β off. β is an algbw; on a
    // busbw chart the label also gives it as busbw, with the factor the curve is drawn with, so
    // the legend and the curve's plateau agree.
    const QString legend = QStringLiteral("fit: ") +
                           qs(fitLegend(fc.fit, m_kind == ChartKind::Latency ? BandwidthMetric::AlgBw : m_options.metric,
                                        factor));
    for (QLegendMarker* m : m_chart->legend()->markers(s))
        m->setLabel(chartText(legend));
    // The model is drawn over the curve's whole size range, so extrapolation beyond the fit
    // range shows where the model stops holding.
    const double lo = std::log2(std::max<double>(1.0, static_cast<double>(c.points.front().bytes)));
    const double hi = std::log2(std::max<double>(1.0, static_cast<double>(c.points.back().bytes)));
    QList<QPointF> pts;
    for (int k = 0; k < kFitSamples; ++k) {
        const double x = lo + (hi - lo) * k / (kFitSamples - 1);
        const double bytes = std::exp2(x);
        const double t = fit->timeUs(bytes);
        const double y = m_kind == ChartKind::Latency ? t : units::displayBandwidth(bytes / t / 1e3 * factor);
        if (t > 0)
            pts.append({x, y});
    }
    s->replace(pts);
}

void ChartContent::updateSizeAxes()
{
    const bool empty = m_xMin > m_xMax;
    m_budget = labelBudget();
    relabelLog2Axis(m_xAxis, empty ? 3 : m_xMin, empty ? 34 : m_xMax, m_budget, bytesLabel);
    if (m_kind == ChartKind::Latency) {
        const double lo = empty ? 1 : std::pow(10.0, std::floor(std::log10(m_yMin)));
        double hi = empty ? 1e6 : std::pow(10.0, std::ceil(std::log10(m_yMax)));
        if (hi <= lo)
            hi = lo * 10;
        m_yAxis->setRange(lo, hi);
        static_cast<QLogValueAxis*>(m_yAxis)->setLabelFormat(logTickFormat(lo, hi));
    } else {
        setNiceRange(static_cast<QValueAxis*>(m_yAxis), 0, empty || m_yMax <= 0 ? 1.0 : m_yMax * 1.02);
    }
}

void ChartContent::buildScaling()
{
    m_scaling = scalingLines(*m_data, m_options.scalingBytes, m_options.metric);
    double xMin = kInf, xMax = -kInf, yMax = 0;
    for (const auto& l : m_scaling)
        for (const auto& p : l.points) {
            xMin = std::min(xMin, std::log2(static_cast<double>(p.nranks)));
            xMax = std::max(xMax, std::log2(static_cast<double>(p.nranks)));
            yMax = std::max(yMax, units::displayBandwidth(p.value));
        }
    if (xMin > xMax)
        xMin = 1, xMax = 3;
    m_budget = labelBudget();
    QCategoryAxis* x = makeLog2Axis(xMin, xMax, m_budget, countLabel);
    m_xAxis = x;
    m_xMin = xMin;
    m_xMax = xMax;
    x->setTitleText(QStringLiteral("Ranks"));
    auto* y = new QValueAxis;
    y->setTitleText(qs(metricTitle(m_options.metric)));
    setNiceRange(y, 0, yMax > 0 ? yMax * 1.02 : 1.0);
    m_chart->addAxis(x, Qt::AlignBottom);
    m_chart->addAxis(y, Qt::AlignLeft);
    for (std::size_t i = 0; i < m_scaling.size(); ++i) {
        QLineSeries* s = addSeries(qs(m_scaling[i].op), Role::Scaling, i, x, y);
        s->setPointsVisible(true);
        QList<QPointF> pts;
        for (const auto& p : m_scaling[i].points)
            pts.append({std::log2(static_cast<double>(p.nranks)), units::displayBandwidth(p.value)});
        s->replace(pts);
    }
}

void ChartContent::buildCompare()
{
    if (m_data->size() == 2)
        m_ratios = ratioCurves((*m_data)[0], (*m_data)[1], m_options.metric);
    if (!emptyReason().isEmpty()) {
        // No axes: empty 0.996-1.004 axes looked like a broken chart. The reason is the title
        // (what an export shows) and CollectiveChart shows it in place of the plot.
        m_chart->setTitle(chartText(emptyReason()));
        return;
    }
    double xMin = kInf, xMax = -kInf, yMin = 1.0, yMax = 1.0;
    for (const auto& c : m_ratios)
        for (const auto& p : c.points) {
            if (p.bytes <= 0)
                continue;
            xMin = std::min(xMin, std::log2(static_cast<double>(p.bytes)));
            xMax = std::max(xMax, std::log2(static_cast<double>(p.bytes)));
            yMin = std::min(yMin, p.ratio);
            yMax = std::max(yMax, p.ratio);
        }
    if (xMin > xMax)
        xMin = 3, xMax = 34;
    m_budget = labelBudget();
    QCategoryAxis* x = makeLog2Axis(xMin, xMax, m_budget, bytesLabel);
    m_xAxis = x;
    m_xMin = xMin;
    m_xMax = xMax;
    x->setTitleText(QStringLiteral("Message size"));
    auto* y = new QValueAxis;
    y->setTitleText(QStringLiteral("Ratio B / A (×)"));
    setNiceRange(y, std::max(0.0, yMin - 0.02 * (yMax - yMin + 0.2)), yMax + 0.02 * (yMax - yMin + 0.2));
    m_chart->addAxis(x, Qt::AlignBottom);
    m_chart->addAxis(y, Qt::AlignLeft);
    for (std::size_t i = 0; i < m_ratios.size(); ++i) {
        QLineSeries* s = addSeries(qs(m_ratios[i].name), Role::Ratio, i, x, y);
        s->setPointsVisible(true);
        QList<QPointF> pts;
        for (const auto& p : m_ratios[i].points)
            if (p.bytes > 0)
                pts.append({std::log2(static_cast<double>(p.bytes)), p.ratio});
        s->replace(pts);
    }
    QLineSeries* ref = addSeries(QStringLiteral("parity (1.0)"), Role::Reference, 0, x, y);
    QPen pen(Qt::gray);
    pen.setStyle(Qt::DashLine);
    pen.setWidthF(1.0);
    ref->setPen(pen);
    ref->replace({QPointF(x->min(), 1.0), QPointF(x->max(), 1.0)});
}

void ChartContent::pointsAppended(std::int64_t sessionId)
{
    const auto sit = std::find_if(m_data->begin(), m_data->end(),
                                  [&](const SessionCurves& s) { return s.session.id == sessionId; });
    if (sit == m_data->end())
        return;
    if (m_undrawn) {
        m_prepared.reset(); // computed without them
        return;             // an undrawn chart reads them with the rest when it is built
    }
    // The new points are the session's tail in the shared data set, past what this view has drawn.
    for (std::size_t k = m_drawn[sessionId]; k < sit->points.size(); ++k) {
        if (!drawAppended(sessionId, sit->points[k]))
            return; // rebuilt from the data set: every point is drawn
        m_drawn[sessionId] = k + 1;
    }
}

bool ChartContent::drawAppended(std::int64_t sessionId, const CollectivePoint& point)
{
    const CurveKey key{sessionId, point.op, point.inPlace, point.group};
    const auto& curves = *m_curves;
    const auto found = std::find_if(curves.begin(), curves.end(), [&](const Curve& c) { return c.key == key; });
    const bool sizeView = m_kind == ChartKind::Bandwidth || m_kind == ChartKind::Latency;
    if (!sizeView || found == curves.end()) {
        // A new curve changes colours and legend order; rebuilding keeps them consistent.
        build();
        return false;
    }
    const std::size_t ci = static_cast<std::size_t>(found - curves.begin());
    if (!m_curveSeries[ci]) {
        build(); // a point of a banded group moves its band
        return false;
    }
    Curve& curve = ownCurves()[ci];
    auto& pts = curve.points;
    const bool atEnd = pts.empty() || pts.back().bytes <= point.bytes;
    pts.edit([&point](std::vector<CollectivePoint>& v) {
        v.insert(std::upper_bound(v.begin(), v.end(), point,
                                  [](const CollectivePoint& a, const CollectivePoint& b) { return a.bytes < b.bytes; }),
                 point);
    });
    const double y = plottedY(point);
    if (point.bytes > 0 && (m_kind != ChartKind::Latency || y > 0)) {
        const QPointF p(std::log2(static_cast<double>(point.bytes)), y);
        if (atEnd && pts.size() <= pointsDrawnWhole(curveColumns(plotPixels())))
            m_curveSeries[ci]->append(p); // a sweep runs small to large: the common case is one append
        else
            m_curveSeries[ci]->replace(curvePoints(curve));
        const bool grows = p.x() < m_xMin || p.x() > m_xMax || p.y() < m_yMin || p.y() > m_yMax;
        m_xMin = std::min(m_xMin, p.x());
        m_xMax = std::max(m_xMax, p.x());
        m_yMin = std::min(m_yMin, p.y());
        m_yMax = std::max(m_yMax, p.y());
        if (grows)
            updateSizeAxes();
    }
    if (m_options.showFits) {
        updateFit(ci);
        Q_EMIT fitsChanged();
    }
    return true;
}

QString ChartContent::describePoint(const QAbstractSeries* series, QPointF value) const
{
    auto it = m_info.find(series);
    if (it == m_info.end())
        return {};
    const auto* xy = qobject_cast<const QXYSeries*>(series); // null for an area (a band)
    const SeriesInfo& info = it->second;
    switch (info.role) {
    case Role::Curve: {
        const Curve& c = (*m_curves)[info.index];
        // Series points skip non-positive sizes, so map back through the same filter.
        std::vector<const CollectivePoint*> shown;
        for (const auto& p : c.points) {
            const double y = plottedY(p);
            if (p.bytes > 0 && (m_kind != ChartKind::Latency || y > 0))
                shown.push_back(&p);
        }
        if (shown.empty())
            return {};
        // The series may hold a decimated copy: find its nearest drawn point, then the curve's
        // point at that spot.
        const QList<QPointF> drawn = xy ? xy->points() : QList<QPointF>();
        if (drawn.isEmpty())
            return {};
        const QPointF q = drawn[static_cast<qsizetype>(std::min<std::size_t>(nearestByX(drawn, value.x()), drawn.size() - 1))];
        const CollectivePoint* best = shown.front();
        double bestD = kInf;
        for (const CollectivePoint* c : shown) {
            const double d = std::fabs(std::log2(static_cast<double>(c->bytes)) - q.x()) * 1e9 + std::fabs(plottedY(*c) - q.y());
            if (d < bestD) {
                bestD = d;
                best = c;
            }
        }
        const CollectivePoint& p = *best;
        const SessionCurves* s = nullptr;
        for (const auto& d : *m_data)
            if (d.session.id == c.key.sessionId)
                s = &d;
        return qs(describeCurvePoint(p, s ? s->session.title : std::to_string(c.key.sessionId)));
    }
    case Role::Fit: {
        const Curve& c = (*m_curves)[info.index];
        auto f = std::find_if(m_fits.begin(), m_fits.end(), [&](const FitCurve& x) { return x.key == c.key; });
        if (f == m_fits.end())
            return {};
        return qs(describeFitAt(*f, std::exp2(value.x())));
    }
    case Role::Scaling: {
        const ScalingLine& l = m_scaling[info.index];
        if (l.points.empty())
            return {};
        // Several sessions can share a rank count: pick the nearest point in both coordinates.
        std::size_t best = 0;
        double bestD = kInf;
        for (std::size_t i = 0; i < l.points.size(); ++i) {
            const double dx = std::log2(static_cast<double>(l.points[i].nranks)) - value.x();
            const double dy = (units::displayBandwidth(l.points[i].value) - value.y()) / std::max(1.0, std::fabs(value.y()));
            if (dx * dx + dy * dy < bestD) {
                bestD = dx * dx + dy * dy;
                best = i;
            }
        }
        return qs(describeScalingPoint(l, l.points[best], m_options.metric));
    }
    case Role::Ratio: {
        const RatioCurve& c = m_ratios[info.index];
        if (c.points.empty())
            return {};
        const RatioPoint& p = c.points[std::min(nearestByX(xy ? xy->points() : QList<QPointF>(), value.x()), c.points.size() - 1)];
        return qs(describeRatioPoint(c, p));
    }
    case Role::Reference: return QStringLiteral("B / A = 1.0: both sessions equally fast");
    case Role::Peak: return qs(m_peaks[info.index].label) % QStringLiteral("\n") % qs(m_peaks[info.index].reasoning);
    case Role::Spread: return QStringLiteral("band: the fastest and the slowest call's bandwidth at each size");
    case Role::BandMedian: {
        const GroupBand& b = m_bands[info.index];
        if (b.points.empty())
            return {};
        const auto near = std::min_element(b.points.begin(), b.points.end(), [&](const BandPoint& a, const BandPoint& c) {
            return std::fabs(a.x - value.x()) < std::fabs(c.x - value.x());
        });
        // The band holds plotted values (µs, or bandwidth in the display unit); the hover gives
        // them with their unit, slowest first: the highest time, or the lowest bandwidth.
        const bool latency = m_kind == ChartKind::Latency;
        const auto fmt = [&](double v) {
            return qs(latency ? units::formatTime(v) : units::formatBandwidth(v / units::displayBandwidth(1.0)));
        };
        const QString what = latency ? QStringLiteral("time")
                                     : (m_options.metric == BandwidthMetric::BusBw ? QStringLiteral("busbw") : QStringLiteral("algbw"));
        return qs(b.name) % QStringLiteral("\nsize: ") % qs(units::formatBytes(std::exp2(near->x))) %
               QStringLiteral("\n%1 of %2 points: slowest %3, median %4, fastest %5")
                   .arg(what, QString::number(near->values), fmt(latency ? near->max : near->min), fmt(near->median),
                        fmt(latency ? near->min : near->max));
    }
    }
    return {};
}
} // namespace rl::charts
