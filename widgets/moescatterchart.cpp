#include "moescatterchart.h"

#include <QChart>
#include <QChartView>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMouseEvent>
#include <QScatterSeries>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "callout.h"
#include "chartexport.h"
#include "chartimage.h"
#include "pointcloud.h"
#include "units/units.h"
#include "textconv.h"

namespace rl::charts {
namespace {
constexpr int kColourBands = 5;
constexpr int kSizeBands = 3;
const QColor kBandColours[kColourBands] = {QColor(0x44, 0x01, 0x54), QColor(0x3b, 0x52, 0x8b), QColor(0x21, 0x90, 0x8d),
                                           QColor(0x5d, 0xc8, 0x63), QColor(0xfd, 0xe7, 0x25)}; // viridis
constexpr double kMarkerSizes[kSizeBands] = {6, 10, 15};
// Configurations that need more memory per GPU than the device has: grey, red outline, off the front.
const QColor kNoFitFill(0xc8, 0xc8, 0xc8);
const QColor kNoFitOutline(0xd0, 0x10, 0x10);

// Band edges at the quantiles of `values`, so every band holds about the same number of points.
std::vector<double> quantileEdges(std::vector<double> values, int bands)
{
    std::sort(values.begin(), values.end());
    std::vector<double> edges;
    for (int b = 1; b < bands; ++b)
        edges.push_back(values.empty() ? 0 : values[values.size() * static_cast<std::size_t>(b) / bands]);
    return edges;
}

int bandOf(double v, const std::vector<double>& edges)
{
    return static_cast<int>(std::upper_bound(edges.begin(), edges.end(), v) - edges.begin());
}
} // namespace

MoeScatterChart::MoeScatterChart(QWidget* parent)
    : ChartFrame(parent)
{
    chart()->legend()->setAlignment(Qt::AlignRight);
    view()->setToolTip(tr("Each point is one MoE configuration; drag to zoom, click a point to load it"));
    callout()->hide();
    view()->viewport()->setMouseTracking(true);
    view()->viewport()->installEventFilter(this);
    rebuild();
}

MoeScatterChart::~MoeScatterChart() = default;

void MoeScatterChart::setRows(std::vector<model::MoeSweepRow> rows, double deviceMemoryBytes)
{
    model::MoeSweepResult result;
    result.rows = std::move(rows);
    result.deviceMemoryBytes = deviceMemoryBytes;
    setResult(std::move(result));
}

void MoeScatterChart::setResult(model::MoeSweepResult result)
{
    m_result = std::move(result);
    rebuild();
}

void MoeScatterChart::setThroughput(MoeThroughput metric)
{
    if (metric == m_metric)
        return;
    m_metric = metric;
    rebuild();
}

QString MoeScatterChart::describe(const model::MoeSweepRow& r, double deviceMemoryBytes)
{
    // Memory in decimal GB, the unit HBM capacities are quoted in and ridgeline-cli prints.
    QString fit;
    if (!r.fits)
        fit = QStringLiteral(" · ") +
              (deviceMemoryBytes > 0 ? qs(model::memoryFitProblem(r.memoryPerGpuBytes, deviceMemoryBytes))
                                     : tr("does not fit the device's memory"));
    return tr("%1 experts, top-%2, %3 shared, width %4 · %5 total / %6 active params · %7 per GPU · "
              "%8 tokens/s, MFU %9 · decode %10/token")
        .arg(r.experts)
        .arg(r.topK)
        .arg(r.sharedExperts)
        .arg(r.expertWidth)
        .arg(qs(units::formatCount(r.totalParams)), qs(units::formatCount(r.activeParams)),
             qs(units::formatMemoryGB(r.memoryPerGpuBytes)), qs(units::formatCount(r.tokensPerSecond)))
        .arg(qs(units::formatPercent(r.mfu, 1)), qs(units::formatTime(r.decodeSecondsPerToken * 1e6))) + fit;
}

const model::MoeSweepRow* MoeScatterChart::rowAtPosition(QPointF chartPos) const
{
    const auto* cloud = PointCloud::of(chart());
    const long i = cloud ? cloud->pointAt(chartPos) : -1;
    return i >= 0 && static_cast<std::size_t>(i) < m_result.rows.size() ? &m_result.rows[static_cast<std::size_t>(i)] : nullptr;
}

bool MoeScatterChart::eventFilter(QObject* watched, QEvent* event)
{
    if (watched != view()->viewport())
        return ChartFrame::eventFilter(watched, event);
    const bool move = event->type() == QEvent::MouseMove;
    const bool press = event->type() == QEvent::MouseButtonPress;
    if (!move && !press)
        return false;
    auto* e = static_cast<QMouseEvent*>(event);
    const QPointF chartPos = chart()->mapFromScene(view()->mapToScene(e->position().toPoint()));
    const auto* row = rowAtPosition(chartPos);
    if (move) {
        auto* cloud = PointCloud::of(chart());
        if (row && cloud)
            // One figure per line: a single line of this length ran past the plot area.
            callout()->show(describe(*row, m_result.deviceMemoryBytes).replace(QStringLiteral(" · "), QStringLiteral("\n")),
                            cloud->points()[static_cast<std::size_t>(row - m_result.rows.data())].value,
                            cloud->anchor());
        else
            callout()->hide();
        return false; // the rubber band still follows the pointer
    }
    if (row && e->button() == Qt::LeftButton) {
        Q_EMIT configClicked(*row);
        return true; // a click on a point selects it; it does not start a zoom
    }
    return false;
}

QString MoeScatterChart::populate(QChart* chart, const std::vector<model::MoeSweepRow>& rows, MoeThroughput metric,
                                  std::vector<std::size_t>* paretoOut, double deviceMemoryBytes)
{
    delete PointCloud::of(chart);
    clearChart(chart);
    std::vector<std::size_t> pareto;
    const auto yValue = [metric](const model::MoeSweepRow& r) {
        return metric == MoeThroughput::Mfu ? r.mfu * 100 : r.tokensPerSecond;
    };

    const QString yTitle = metric == MoeThroughput::Mfu ? tr("MFU (%)") : tr("Training throughput (tokens/s)");
    chart->setTitle(tr("MoE trade-off: %1 vs decode latency · colour: total parameters · marker size: memory "
                         "per GPU")
                          .arg(metric == MoeThroughput::Mfu ? tr("MFU") : tr("tokens/s")));
    // Decode latency can span decades (batch, top-k, expert count): a log axis then, a linear one
    // when the sweep stays within a decade (a log axis would label nothing in between).
    double lo = INFINITY, hi = 0;
    for (const auto& r : rows)
        if (r.decodeSecondsPerToken > 0)
            lo = std::min(lo, r.decodeSecondsPerToken), hi = std::max(hi, r.decodeSecondsPerToken);
    QAbstractAxis* x = nullptr;
    if (hi > 0 && hi / lo >= 10) {
        auto* logAxis = new QLogValueAxis;
        logAxis->setBase(10);
        logAxis->setLabelFormat(QStringLiteral("%g"));
        logAxis->setMinorTickCount(8);
        x = logAxis;
    } else {
        auto* linear = new QValueAxis;
        linear->setLabelFormat(QStringLiteral("%.3g"));
        x = linear;
    }
    x->setTitleText(tr("Decode latency per token (ms)"));
    auto* y = new QValueAxis;
    y->setTitleText(yTitle);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    if (rows.empty()) {
        x->setRange(0, 1);
        y->setRange(0, 1);
        return {};
    }

    std::vector<double> params, memory;
    for (const auto& r : rows)
        params.push_back(r.totalParams), memory.push_back(r.memoryPerGpuBytes);
    const auto paramEdges = quantileEdges(params, kColourBands);
    const auto memEdges = quantileEdges(memory, kSizeBands);
    const double pMin = *std::min_element(params.begin(), params.end());
    const double pMax = *std::max_element(params.begin(), params.end());

    // One legend entry per colour band (an empty series of the middle marker size; sizes are named
    // in the title); the points themselves go to one PointCloud, styled by colour x size band.
    std::vector<PointCloud::Style> styles;
    for (int c = 0; c < kColourBands; ++c) {
        auto* s = new QScatterSeries;
        const double lo = c == 0 ? pMin : paramEdges[static_cast<std::size_t>(c - 1)];
        const double hi = c == kColourBands - 1 ? pMax : paramEdges[static_cast<std::size_t>(c)];
        s->setName(tr("%1 – %2 params").arg(qs(units::formatCount(lo)), qs(units::formatCount(hi))));
        s->setColor(kBandColours[c]);
        s->setBorderColor(kBandColours[c].darker(130));
        s->setMarkerSize(kMarkerSizes[1]);
        attachSeries(chart, s, x, y);
        for (int m = 0; m < kSizeBands; ++m)
            styles.push_back({kBandColours[c], kMarkerSizes[m], {}});
    }
    const int noFitStyle = static_cast<int>(styles.size());
    for (int m = 0; m < kSizeBands; ++m)
        styles.push_back({kNoFitFill, kMarkerSizes[m], kNoFitOutline});
    const auto noFit = static_cast<std::size_t>(std::count_if(rows.begin(), rows.end(), [](const auto& r) { return !r.fits; }));
    if (noFit > 0) {
        auto* s = new QScatterSeries;
        s->setName(deviceMemoryBytes > 0
                       ? tr("does not fit %1 per GPU (%2, not on the front)")
                             .arg(qs(units::formatMemoryGB(deviceMemoryBytes)))
                             .arg(noFit)
                       : tr("does not fit the device's memory (%1, not on the front)").arg(noFit));
        s->setColor(kNoFitFill);
        s->setBorderColor(kNoFitOutline);
        s->setMarkerSize(kMarkerSizes[1]);
        attachSeries(chart, s, x, y);
    }
    std::vector<PointCloud::Point> points;
    points.reserve(rows.size());
    double xMin = INFINITY, xMax = 0, yMax = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const double ms = rows[i].decodeSecondsPerToken * 1e3;
        const int sizeBand = bandOf(memory[i], memEdges);
        points.push_back({{ms, yValue(rows[i])},
                          rows[i].fits ? bandOf(params[i], paramEdges) * kSizeBands + sizeBand : noFitStyle + sizeBand});
        if (ms > 0)
            xMin = std::min(xMin, ms), xMax = std::max(xMax, ms);
        yMax = std::max(yMax, yValue(rows[i]));
    }

    for (std::size_t i = 0; i < rows.size(); ++i)
        if (rows[i].pareto)
            pareto.push_back(i);
    std::sort(pareto.begin(), pareto.end(), [&rows](std::size_t a, std::size_t b) {
        return rows[a].decodeSecondsPerToken < rows[b].decodeSecondsPerToken;
    });
    auto* front = new QLineSeries;
    front->setName(pareto.size() == 1 ? tr("Pareto front (1 config)")
                                      : tr("Pareto front (%1 configs)").arg(pareto.size()));
    front->setPointsVisible(true); // a front of one configuration is a point, not a line
    QPen pen(QColor(0xd6, 0x27, 0x28));
    pen.setWidthF(2);
    front->setPen(pen);
    for (auto i : pareto)
        front->append(rows[i].decodeSecondsPerToken * 1e3, yValue(rows[i]));
    attachSeries(chart, front, x, y);
    new PointCloud(chart, front, std::move(styles), std::move(points)); // a child item of chart

    // The axes follow the data with a margin: a sweep that holds active parameters often spans
    // only a narrow band of latency, which decade-rounded bounds would squeeze into one column.
    if (!(xMin <= xMax))
        xMin = xMax = 1;
    if (qobject_cast<QLogValueAxis*>(x))
        x->setRange(xMin / 1.3, xMax * 1.3);
    else {
        const double xPad = std::max((xMax - xMin) * 0.08, xMax * 0.05);
        x->setRange(std::max(0.0, xMin - xPad), xMax + xPad);
        static_cast<QValueAxis*>(x)->applyNiceNumbers(); // round tick values
    }
    double yMin = INFINITY;
    for (const auto& r : rows)
        yMin = std::min(yMin, yValue(r));
    const double pad = std::max((yMax - yMin) * 0.08, yMax * 0.02);
    y->setRange(std::max(0.0, yMin - pad), yMax > 0 ? yMax + pad : 1);
    y->applyNiceNumbers();
    y->setLabelFormat(metric == MoeThroughput::Mfu || yMax < 100 ? QStringLiteral("%.3g") : QStringLiteral("%.0f"));
    const QString description = QStringLiteral("MoE sweep: %1 configurations, %2 on the Pareto front; y: %3")
                                    .arg(rows.size())
                                    .arg(pareto.size())
                                    .arg(yTitle);
    if (paretoOut)
        *paretoOut = std::move(pareto);
    return description;
}

void MoeScatterChart::rebuild()
{
    callout()->hide();
    populate(chart(), m_result.rows, m_metric, &m_pareto, m_result.deviceMemoryBytes);
}

bool MoeScatterChart::exportChart(const std::vector<model::MoeSweepRow>& rows, MoeThroughput metric, QSize size,
                                  const QString& path, QString* error, double deviceMemoryBytes)
{
    model::MoeSweepResult result;
    result.rows = rows;
    result.deviceMemoryBytes = deviceMemoryBytes;
    return exportChartFile([&](QChart* chart) { return populate(chart, rows, metric, nullptr, deviceMemoryBytes); },
                           [&] { return model::toCsv(result); }, size, path, error);
}
} // namespace rl::charts
