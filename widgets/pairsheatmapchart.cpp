#include "pairsheatmapchart.h"

#include <algorithm>
#include <cmath>

#include <QCategoryAxis>
#include <QChart>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGraphicsLayout>
#include <QLabel>
#include <QLegend>
#include <QPen>
#include <QScatterSeries>
#include <QSignalBlocker>

#include "callout.h"
#include "chartexport.h"
#include "textconv.h"
#include "units/units.h"

namespace rl::charts {
namespace {
// Viridis from yellow (lowest) to purple (highest): perceptually even and readable without
// colour vision; the red outline of a slow pair stands out on every step.
const QColor kScale[] = {QColor(0xfd, 0xe7, 0x25), QColor(0x5e, 0xc9, 0x62), QColor(0x21, 0x91, 0x8c),
                         QColor(0x3b, 0x52, 0x8b), QColor(0x44, 0x01, 0x54)};
const QColor kSlow(0xe4, 0x1a, 0x1c);
// Markers are sized in pixels: a cell fills its share of the plot area, whatever the export size.
// The axes span the plot's longer side in cell units too, so the cells abut as in a matrix (with
// the matrix centred) instead of leaving gaps along that side.
void fitCellsToPlotArea(QChart* chart)
{
    const auto* drawn = drawnOn<PairsHeatmapDrawn>(chart);
    const int n = drawn ? drawn->positions : 0;
    if (n <= 0)
        return;
    const QRectF area = chart->plotArea();
    const double cell = std::max(2.0, std::min(area.width(), area.height()) / n);
    for (auto* axis : chart->axes()) {
        const double span = (axis->orientation() == Qt::Horizontal ? area.width() : area.height()) / cell;
        const double pad = std::max(0.0, span - n) / 2;
        axis->setRange(-0.5 - pad, n - 0.5 + pad);
    }
    for (auto* cells : drawn->bins)
        cells->setMarkerSize(cell * 0.97);
    if (drawn->self)
        drawn->self->setMarkerSize(cell * 0.97);
    if (drawn->slow)
        drawn->slow->setMarkerSize(cell * 0.86); // inside the cell it outlines
}

QCategoryAxis* positionAxis(const views::PairsHeatmap& h, const QString& title)
{
    auto* axis = new QCategoryAxis;
    const int n = int(h.labels.size());
    axis->setRange(-0.5, n - 0.5);
    axis->setStartValue(-0.5);
    axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    axis->setGridLineVisible(false);
    const int step = std::max(1, (n + 31) / 32); // at most ~32 labels; every rank stays in the hover
    for (int i = 0; i < n; i += step)
        axis->append(chartText(h.labels[std::size_t(i)]), i);
    axis->setTitleText(title);
    return axis;
}
} // namespace

QColor heatmapBinColor(int bin, int binCount)
{
    const int stops = int(std::size(kScale));
    if (binCount <= 1)
        return kScale[stops / 2];
    const double t = double(bin) / (binCount - 1) * (stops - 1);
    const int i = std::clamp(int(std::floor(t)), 0, stops - 2);
    const double f = t - i;
    const QColor a = kScale[i], b = kScale[i + 1];
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * f), float(a.greenF() + (b.greenF() - a.greenF()) * f),
                            float(a.blueF() + (b.blueF() - a.blueF()) * f));
}

QString PairsHeatmapChart::populate(QChart* chart, const PairsSessionData& data, const views::PairsHeatmap& h,
                                    const PairsHeatmapOptions& o)
{
    clearChart(chart);
    const QString axisTitle = h.byHost ? QStringLiteral("host (one rank each)") : QStringLiteral("rank");
    auto* x = positionAxis(h, axisTitle);
    auto* y = positionAxis(h, axisTitle);
    y->setReverse(true); // rank 0 at the top left, as a matrix is read
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    auto& drawn = freshDrawn<PairsHeatmapDrawn>(chart);
    drawn.positions = int(h.labels.size());

    const auto cellSeries = [&](const QString& name) {
        auto* s = new QScatterSeries;
        s->setName(name);
        s->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
        return s;
    };
    // The diagonal (a rank with itself) is not measured: grey, so the matrix reads as one.
    if (!h.labels.empty()) {
        auto* self = cellSeries(QStringLiteral("not measured (same rank)"));
        drawn.self = self;
        QList<QPointF> diagonal;
        for (int i = 0; i < int(h.labels.size()); ++i)
            diagonal << QPointF(i, i);
        self->replace(diagonal);
        self->setColor(QColor(0xe0, 0xe0, 0xe0));
        self->setBorderColor(Qt::white);
        attachSeries(chart, self, x, y);
        hideFromLegend(chart, self);
    }
    for (std::size_t b = 0; b < h.bins.size(); ++b) {
        auto* s = cellSeries(qs(h.bins[b].label));
        drawn.bins.push_back(s);
        QList<QPointF> cells;
        for (const auto& c : h.cells)
            if (c.bin == int(b))
                cells << QPointF(c.column, c.row);
        s->replace(cells);
        s->setColor(heatmapBinColor(int(b), int(h.bins.size())));
        s->setBorderColor(Qt::white);
        attachSeries(chart, s, x, y);
    }
    QList<QPointF> slowCells;
    for (const auto& c : h.cells)
        if (c.flagged)
            slowCells << QPointF(c.column, c.row);
    if (!slowCells.isEmpty()) {
        auto* slow = cellSeries(QStringLiteral("slow pair (below %1 of median)").arg(qs(units::formatPercent(h.fraction, 0))));
        drawn.slow = slow;
        slow->replace(slowCells);
        slow->setColor(Qt::transparent);
        slow->setPen(QPen(kSlow, 3));
        attachSeries(chart, slow, x, y);
    }

    const bool bandwidth = h.metric == views::PairMetric::Bandwidth;
    std::int64_t bytes = 0;
    int iters = 0;
    for (const auto& p : data.pairs) {
        bytes = bandwidth ? p.bandwidthBytes : p.latencyBytes;
        iters = p.iters;
    }
    QString title = QStringLiteral("Point-to-point ") % (bandwidth ? QStringLiteral("bandwidth, ") : QStringLiteral("latency, "))
        % qs(h.unit);
    if (bytes > 0)
        title += QStringLiteral(" (") % qs(units::formatBytes(double(bytes))) % QStringLiteral(" messages)");
    if (!data.session.title.empty())
        title += QStringLiteral(" — ") % qs(data.session.title);
    chart->setTitle(chartText(o.title.empty() ? title : qs(o.title)));
    chart->legend()->setVisible(true);
    chart->legend()->setAlignment(Qt::AlignRight);

    chart->layout()->activate(); // the markers follow the laid-out plot area
    fitCellsToPlotArea(chart);
    struct FitsOnResize {};
    if (!drawnOn<FitsOnResize>(chart)) { // once per chart, however often it is refilled
        freshDrawn<FitsOnResize>(chart);
        QObject::connect(chart, &QChart::plotAreaChanged, chart, [chart] { fitCellsToPlotArea(chart); });
    }

    QString d = QStringLiteral("Ridgeline ") % QStringLiteral(RIDGELINE_VERSION)
        % QStringLiteral(" pairs heatmap of session [%1] %2; %3 per pair, colour bins %4; %5; %6 timed round trips per size")
              .arg(data.session.id)
              .arg(qs(data.session.title), QString::fromLatin1(views::metricName(h.metric)),
                   h.logBins ? QStringLiteral("on a log scale") : QStringLiteral("of equal width"), qs(views::slowRule(h)))
              .arg(iters);
    return d;
}

bool PairsHeatmapChart::exportChart(const PairsSessionData& data, const PairsHeatmapOptions& options, QSize size,
                                    const QString& path, QString* error)
{
    const auto heatmap = views::pairsHeatmap(data.pairs, options.metric, options.fraction);
    return exportChartFile([&](QChart* chart) { return populate(chart, data, heatmap, options); },
                           [&] { return views::pairsHeatmapCsv(heatmap); }, size, path, error);
}

PairsHeatmapChart::PairsHeatmapChart(QWidget* parent)
    : ChartFrame(parent)
    , m_metric(new QComboBox(this))
    , m_fraction(new QDoubleSpinBox(this))
{
    view()->setObjectName(QStringLiteral("pairsHeatmapView"));
    setZoomable(false); // a cell matrix: zoom would cut cells, the hover gives exact values
    m_metric->setObjectName(QStringLiteral("pairsMetric"));
    m_metric->addItem(tr("Bandwidth"), int(views::PairMetric::Bandwidth));
    m_metric->addItem(tr("Latency (µs)"), int(views::PairMetric::Latency));
    m_metric->setToolTip(tr("Colour the cells by large-message bandwidth or small-message latency"));
    m_fraction->setObjectName(QStringLiteral("slowFraction"));
    m_fraction->setRange(1, 100);
    m_fraction->setDecimals(0);
    m_fraction->setSingleStep(5);
    m_fraction->setSuffix(tr(" % of median"));
    m_fraction->setValue(m_options.fraction * 100);
    m_fraction->setToolTip(tr("A pair is slow when its bandwidth is below this share of the median bandwidth, or "
                              "its latency above the median latency divided by it"));
    auto* label = new QLabel(tr("Slow below"), this);
    label->setBuddy(m_fraction);
    addToolbarWidget(m_metric);
    addToolbarSpacing(12);
    addToolbarWidget(label);
    addToolbarWidget(m_fraction);
    connect(m_metric, &QComboBox::currentIndexChanged, this,
            [this] { setMetric(views::PairMetric(m_metric->currentData().toInt())); });
    connect(m_fraction, &QDoubleSpinBox::valueChanged, this, [this](double percent) { setFraction(percent / 100); });
    rebuild();
}

PairsHeatmapChart::~PairsHeatmapChart() = default;

void PairsHeatmapChart::setData(PairsSessionData data)
{
    m_data = std::move(data);
    rebuild();
}

void PairsHeatmapChart::setMetric(views::PairMetric metric)
{
    if (metric == m_options.metric)
        return;
    m_options.metric = metric;
    const QSignalBlocker quiet(m_metric);
    m_metric->setCurrentIndex(m_metric->findData(int(metric)));
    rebuild();
}

void PairsHeatmapChart::setFraction(double fraction)
{
    if (std::abs(fraction - m_options.fraction) < 1e-9)
        return;
    m_options.fraction = fraction;
    const QSignalBlocker quiet(m_fraction);
    m_fraction->setValue(fraction * 100);
    rebuild();
}

void PairsHeatmapChart::rebuild()
{
    callout()->hide();
    m_heatmap = views::pairsHeatmap(m_data.pairs, m_options.metric, m_options.fraction);
    setEmptyText(m_data.session.id == 0 ? QString()
                 : m_data.pairs.empty()
                     ? tr("This pairs session has no measured pairs (a run with --per-node on one host, or one "
                          "that stopped before its first pair).")
                     : QString());
    populate(chart(), m_data, m_heatmap, m_options);
    const auto& drawn = *drawnOn<PairsHeatmapDrawn>(chart());
    std::vector<QScatterSeries*> hovered = drawn.bins;
    if (drawn.slow)
        hovered.push_back(drawn.slow);
    for (auto* cells : hovered)
        answerHover(cells, [this](QPointF pointer) -> std::optional<HoverHit> {
            const int column = qRound(pointer.x()), row = qRound(pointer.y());
            const auto cell = std::find_if(m_heatmap.cells.begin(), m_heatmap.cells.end(),
                                           [&](const auto& c) { return c.column == column && c.row == row; });
            if (cell == m_heatmap.cells.end())
                return std::nullopt;
            return HoverHit{qs(cell->hover), QPointF(column, row)};
        });
    Q_EMIT heatmapChanged();
}
} // namespace rl::charts
