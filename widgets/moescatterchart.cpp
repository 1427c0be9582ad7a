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
#include "niceticks.h"
#include "pointcloud.h"
#include "units/units.h"
#include "views/moescatterdata.h"
#include "textconv.h"
#include "units/memory.h"

namespace rl::charts {
namespace {
const QColor kBandColours[views::kMoeColourBands] = {QColor(0x44, 0x01, 0x54), QColor(0x3b, 0x52, 0x8b), QColor(0x21, 0x90, 0x8d),
                                           QColor(0x5d, 0xc8, 0x63), QColor(0xfd, 0xe7, 0x25)}; // viridis
constexpr double kMarkerSizes[views::kMoeSizeBands] = {6, 10, 15};
// Configurations that need more memory per GPU than the device has: grey, red outline, off the front.
const QColor kNoFitFill(0xc8, 0xc8, 0xc8);
const QColor kNoFitOutline(0xd0, 0x10, 0x10);
// The base shape of a shape search: a ring around its point, wider than the largest marker.
constexpr double kBaseRing = 24;
const auto kBaseSeriesName = "moeBaseShape";

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

void MoeScatterChart::setResult(model::MoeSweepResult result, MoeMarks marks)
{
    m_result = std::move(result);
    m_marks = std::move(marks);
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
    return qs(views::describeMoeRow(r, deviceMemoryBytes));
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
    if (event->type() == QEvent::Leave) {
        callout()->hide(); // the pointer left the plot: a label of the last point hovered would linger
        return false;
    }
    const bool move = event->type() == QEvent::MouseMove;
    const bool press = event->type() == QEvent::MouseButtonPress;
    if (!move && !press)
        return false;
    auto* e = static_cast<QMouseEvent*>(event);
    const QPointF chartPos = chart()->mapFromScene(view()->mapToScene(e->position().toPoint()));
    const auto* row = rowAtPosition(chartPos);
    if (move) {
        auto* cloud = PointCloud::of(chart());
        if (row && cloud) {
            const auto i = static_cast<std::size_t>(row - m_result.rows.data());
            // One figure per line: a single line of this length ran past the plot area.
            QString text = describe(*row, m_result.deviceMemoryBytes).replace(QStringLiteral(" · "), QStringLiteral("\n"));
            if (i < m_marks.notes.size() && !m_marks.notes[i].isEmpty())
                text += QLatin1Char('\n') + m_marks.notes[i];
            callout()->show(text, cloud->points()[i].value, cloud->anchor());
        } else
            callout()->hide();
        return false; // the rubber band still follows the pointer
    }
    if (row && e->button() == Qt::LeftButton) {
        Q_EMIT configClicked(*row);
        return true; // a click on a point selects it; it does not start a zoom
    }
    return false;
}

QScatterSeries* MoeScatterChart::baseSeries(const QChart* chart)
{
    for (auto* s : chart->series())
        if (s->objectName() == QLatin1String(kBaseSeriesName))
            return qobject_cast<QScatterSeries*>(s);
    return nullptr;
}

QString MoeScatterChart::populate(QChart* chart, const std::vector<model::MoeSweepRow>& rows, MoeThroughput metric,
                                  std::vector<std::size_t>* paretoOut, double deviceMemoryBytes, const MoeMarks& marks)
{
    delete PointCloud::of(chart);
    clearChart(chart);
    auto d = views::moeScatterData(rows, metric);
    // A cluster's throughput runs to tens of millions of tokens/s: ticks in M, not 8 digits.
    if (metric == MoeThroughput::TokensPerSecond && d.yMax >= 1e6) {
        for (auto& p : d.points)
            p.y *= 1e-6;
        d.yMin *= 1e-6;
        d.yMax *= 1e-6;
        if (const auto at = d.yTitle.find("(tokens/s)"); at != std::string::npos)
            d.yTitle.replace(at, 10, "(M tokens/s)");
    }
    chart->setTitle(chartText(d.title));
    // Before a sweep the frame says what will be here, with no axes: axes without a series, laid out
    // at the frame's first size and removed by the next fill, leave their ticks and cut labels
    // behind in QtCharts 6.4 (the Plan chart's stray box, planparetochart.cpp).
    if (rows.empty())
        return {};
    QAbstractAxis* x = nullptr;
    if (d.logX) {
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
    x->setTitleText(chartText(d.xTitle));
    auto* y = new QValueAxis;
    y->setTitleText(chartText(d.yTitle));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);

    // One legend entry per colour band (an empty series of the middle marker size; sizes are named
    // in the title); the points themselves go to one PointCloud, styled by colour x size band.
    // A band no fitting point falls in (quantiles of few distinct values repeat an edge) has no
    // legend entry: "8.03 B – 8.03 B" twice said nothing.
    bool used[views::kMoeColourBands] = {};
    for (const auto& p : d.points)
        if (p.fits && p.colourBand >= 0 && p.colourBand < views::kMoeColourBands)
            used[p.colourBand] = true;
    std::vector<PointCloud::Style> styles;
    for (int c = 0; c < views::kMoeColourBands; ++c) {
        auto* s = new QScatterSeries;
        s->setName(chartText(d.colourBands[static_cast<std::size_t>(c)].label));
        s->setColor(kBandColours[c]);
        s->setBorderColor(kBandColours[c].darker(130));
        s->setMarkerSize(kMarkerSizes[1]);
        attachSeries(chart, s, x, y);
        for (QLegendMarker* m : chart->legend()->markers(s))
            m->setVisible(used[c]);
        for (int m = 0; m < views::kMoeSizeBands; ++m)
            styles.push_back({kBandColours[c], kMarkerSizes[m], {}});
    }
    const int noFitStyle = static_cast<int>(styles.size());
    for (int m = 0; m < views::kMoeSizeBands; ++m)
        styles.push_back({kNoFitFill, kMarkerSizes[m], kNoFitOutline});
    if (d.noFit > 0) {
        auto* s = new QScatterSeries;
        s->setName(deviceMemoryBytes > 0
                       ? tr("does not fit %1 per GPU (%2, not on the front)")
                             .arg(qs(units::formatMemory(deviceMemoryBytes)))
                             .arg(d.noFit)
                       : tr("does not fit the device's memory (%1, not on the front)").arg(d.noFit));
        s->setColor(kNoFitFill);
        s->setBorderColor(kNoFitOutline);
        s->setMarkerSize(kMarkerSizes[1]);
        attachSeries(chart, s, x, y);
    }
    std::vector<PointCloud::Point> points;
    points.reserve(d.points.size());
    for (const auto& p : d.points)
        points.push_back({{p.decodeMs, p.y},
                          p.fits ? p.colourBand * views::kMoeSizeBands + p.sizeBand : noFitStyle + p.sizeBand});

    auto* front = new QLineSeries;
    front->setName(d.pareto.size() == 1 ? tr("Pareto front (1 config)")
                                        : tr("Pareto front (%1 configs)").arg(d.pareto.size()));
    front->setPointsVisible(true); // a front of one configuration is a point, not a line
    QPen pen(QColor(0xd6, 0x27, 0x28));
    pen.setWidthF(2);
    front->setPen(pen);
    for (auto i : d.pareto)
        front->append(d.points[i].decodeMs, d.points[i].y);
    attachSeries(chart, front, x, y);
    if (marks.base >= 0 && static_cast<std::size_t>(marks.base) < d.points.size()) {
        // A hollow ring: the point keeps its colour and size bands, the ring says which one is the base.
        const auto& p = d.points[static_cast<std::size_t>(marks.base)];
        auto* base = new QScatterSeries;
        base->setObjectName(QLatin1String(kBaseSeriesName));
        base->setName(chartText(QStringLiteral("base (%1)").arg(marks.baseName)));
        base->setMarkerShape(QScatterSeries::MarkerShapeCircle);
        base->setMarkerSize(kBaseRing);
        base->setColor(Qt::transparent);
        QPen ring(QColor(0xe0, 0x40, 0x00));
        ring.setWidthF(3);
        base->setPen(ring);
        base->append(p.decodeMs, p.y);
        attachSeries(chart, base, x, y);
        for (auto* m : chart->legend()->markers(base)) { // a ring in the legend too, not a filled square
            m->setShape(QLegend::MarkerShapeCircle);
            m->setPen(ring);
            m->setBrush(Qt::NoBrush);
        }
    }
    new PointCloud(chart, front, std::move(styles), std::move(points)); // a child item of chart

    // The axes follow the data with a margin: a sweep that holds active parameters often spans
    // only a narrow band of latency, which decade-rounded bounds would squeeze into one column.
    double xMin = d.xMin, xMax = d.xMax;
    if (!(xMin <= xMax) || xMax <= 0)
        xMin = xMax = 1;
    if (d.logX) {
        x->setRange(xMin / 1.3, xMax * 1.3);
        static_cast<QLogValueAxis*>(x)->setLabelFormat(logTickFormat(xMin / 1.3, xMax * 1.3));
    } else {
        // Padded by the spread, not by a share of the value: shapes holding their active parameters
        // decode within a fraction of a percent of each other, and 5 % either side stacked them in
        // one column. Round ticks with as many decimals as their step needs.
        const double xPad = std::max((xMax - xMin) * 0.08, xMax * 0.001);
        setNiceRange(static_cast<QValueAxis*>(x), std::max(0.0, xMin - xPad), xMax + xPad);
    }
    const double pad = std::max((d.yMax - d.yMin) * 0.08, d.yMax * 0.02);
    y->setRange(std::max(0.0, d.yMin - pad), d.yMax > 0 ? d.yMax + pad : 1);
    y->applyNiceNumbers();
    y->setLabelFormat(metric == MoeThroughput::Mfu || d.yMax < 100 ? QStringLiteral("%.3g") : QStringLiteral("%.0f"));
    if (paretoOut)
        *paretoOut = std::move(d.pareto);
    return qs(d.description);
}

void MoeScatterChart::rebuild()
{
    callout()->hide();
    populate(chart(), m_result.rows, m_metric, &m_pareto, m_result.deviceMemoryBytes, m_marks);
    // Not empty axes from 0 to 1 before the first sweep: say what will be here.
    setEmptyText(m_result.rows.empty() ? tr("No configurations yet: run a sweep to plot each one's training throughput "
                                            "against its decode latency per token.")
                                       : QString());
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
