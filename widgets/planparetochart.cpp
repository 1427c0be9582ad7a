#include "planparetochart.h"
#include "niceticks.h"

#include <QChart>
#include <QLineSeries>
#include <QScatterSeries>
#include <QLogValueAxis>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include "callout.h"
#include "chartexport.h"
#include "chartimage.h"
#include "plan/layout.h"
#include "textconv.h"
#include "units/units.h"
#include "units/memory.h"

namespace rl::charts {
namespace {
const QColor kRanked(0x1f, 0x77, 0xb4);
const QColor kTie(0x2c, 0xa0, 0x2c);
const QColor kFront(0xd6, 0x27, 0x28);
const QColor kCapacity(0x7f, 0x7f, 0x7f);

double gib(double bytes) { return bytes / (units::kKiB * units::kKiB * units::kKiB); }

// Axis bounds with a margin, rounded by applyNiceNumbers.
void fit(QValueAxis* axis, double lo, double hi, bool fromZero)
{
    if (!(lo <= hi)) {
        axis->setRange(0, 1);
        return;
    }
    const double pad = std::max((hi - lo) * 0.08, hi * 0.02);
    axis->setRange(fromZero ? 0.0 : std::max(0.0, lo - pad), hi > 0 ? hi + pad : 1);
    axis->applyNiceNumbers();
}
} // namespace

PlanParetoChart::PlanParetoChart(QWidget* parent) : ChartFrame(parent)
{
    chart()->legend()->setAlignment(Qt::AlignBottom);
    view()->setToolTip(tr("Each point is one ranked layout (green: a tie with #1, within the error band); the red "
                          "line is the Pareto front (no layout both faster and smaller); the dashed line is the "
                          "device's memory less what the framework keeps (its context and allocator slack). Drag to zoom, click a point "
                          "to select its row"));
    callout()->hide();
    rebuild();
}

PlanParetoChart::~PlanParetoChart() = default;

void PlanParetoChart::setResult(plan::PlanResult result)
{
    m_result = std::move(result);
    rebuild();
}

void PlanParetoChart::clear() { setResult({}); }

int PlanParetoChart::pointCount() const { return int(m_result.top.size()); }
int PlanParetoChart::frontCount() const { return int(m_result.pareto.size()); }

double PlanParetoChart::usableBytes(const plan::PlanResult& r)
{
    const auto& rows = r.top.empty() ? r.pareto : r.top;
    if (rows.empty() || rows.front().step.memoryCapacity <= 0)
        return 0;
    const auto& s = rows.front().step;
    return s.usableMemory();
}

QString PlanParetoChart::describe(const plan::PlanRow& r)
{
    const auto& s = r.step;
    QString text = tr("#%1%2 %3\nstep %4 · %5 tokens/s · MFU %6\nmemory %7 per GPU\n")
                       .arg(r.rank)
                       .arg(r.tieWithBest ? tr(" (tie with #1)") : QString())
                       .arg(qs(plan::degreesText(r.layout, r.parallel.dp)))
                       .arg(qs(units::formatTime(s.stepSeconds * 1e6)), qs(units::formatCount(s.tokensPerSecond)),
                            qs(units::formatPercent(s.mfu, 1)), qs(units::formatMemory(s.memory.total())));
    text += tr("micro-batch %1 x %2, recompute %3, ZeRO %4, %5")
                .arg(r.layout.microBatch)
                .arg(r.parallel.effectiveMicroBatches())
                .arg(QLatin1String(model::toString(r.layout.recompute)))
                .arg(r.layout.zero)
                .arg(qs(r.layout.dtype));
    if (r.rank > 1)
        text += tr("\n+%1 vs #1").arg(qs(units::formatPercent(r.gapToBest, 1)));
    return text;
}

QString PlanParetoChart::exportProblem(bool) const
{
    return m_result.top.empty() && m_result.pareto.empty() ? tr("There is no search to export: run one first.")
                                                           : QString();
}

QString PlanParetoChart::populate(QChart* chart, const plan::PlanResult& r)
{
    clearChart(chart);
    auto& drawn = freshDrawn<PlanParetoDrawn>(chart);
    chart->setTitle(tr("Step time against memory per GPU (%1 ranked layouts shown, Pareto front of %2)")
                        .arg(r.top.size())
                        .arg(r.pareto.size()));
    // Before a search the frame shows why there is no plot (rebuild's empty text), and there are
    // no axes: axes without a series, laid out in the frame's first small size and removed by the
    // next fill, left their ticks, grid and "…" labels behind (QtCharts 6.4) as a stray box by the
    // y axis's top label.
    if (r.top.empty() && r.pareto.empty())
        return {};
    auto* x = new QValueAxis;
    x->setTitleText(tr("Memory per GPU (GiB)"));
    x->setLabelFormat(QStringLiteral("%.3g"));
    chart->addAxis(x, Qt::AlignBottom);
    double yLo = std::numeric_limits<double>::max(), yHi = 0;
    for (const auto* rows : {&r.top, &r.pareto})
        for (const auto& row : *rows) {
            yLo = std::min(yLo, row.step.stepSeconds);
            yHi = std::max(yHi, row.step.stepSeconds);
        }
    // The front's low-memory end is often ten times slower than #1 (full recompute, deep pipelines):
    // on a linear axis the ranked layouts would be one flat line at the bottom.
    QAbstractAxis* y = nullptr;
    if (yLo > 0 && yHi / yLo > 10) {
        auto* logAxis = new QLogValueAxis;
        logAxis->setBase(10);
        logAxis->setMinorTickCount(8);
        // From the decade below #1, so the axis has a labelled tick under the ranked layouts.
        logAxis->setRange(std::pow(10.0, std::floor(std::log10(yLo / 1.05))), yHi * 1.3);
        logAxis->setLabelFormat(logTickFormat(logAxis->min(), logAxis->max()));
        y = logAxis;
    } else {
        auto* linear = new QValueAxis;
        linear->setLabelFormat(QStringLiteral("%.3g"));
        fit(linear, yLo, yHi, false);
        y = linear;
    }
    y->setTitleText(tr("Step time (s)"));
    chart->addAxis(y, Qt::AlignLeft);
    const auto yRange = [y] {
        if (auto* l = qobject_cast<QLogValueAxis*>(y))
            return std::pair{l->min(), l->max()};
        auto* v = static_cast<QValueAxis*>(y);
        return std::pair{v->min(), v->max()};
    }();

    double xMax = 0;
    const auto extend = [&](const plan::PlanRow& row) { xMax = std::max(xMax, gib(row.step.memory.total())); };
    auto* ranked = new QScatterSeries;
    ranked->setName(tr("ranked"));
    auto* ties = new QScatterSeries;
    ties->setName(tr("tie with #1"));
    std::vector<std::size_t> rankedRows, tieRows;
    for (std::size_t i = 0; i < r.top.size(); ++i) {
        const auto& row = r.top[i];
        extend(row);
        auto* s = row.tieWithBest ? ties : ranked;
        s->append(gib(row.step.memory.total()), row.step.stepSeconds);
        (row.tieWithBest ? tieRows : rankedRows).push_back(i);
    }
    for (auto [s, colour, rows] : {std::tuple{ranked, kRanked, rankedRows}, std::tuple{ties, kTie, tieRows}}) {
        s->setColor(colour);
        s->setBorderColor(colour.darker(130));
        s->setMarkerSize(9);
        attachSeries(chart, s, x, y);
        drawn.sets.push_back({s, true, rows});
    }
    for (auto* s : {ranked, ties})
        if (s->count() == 0)
            hideFromLegend(chart, s);

    // The front in memory order: from the least memory (slowest) to the fastest.
    std::vector<std::size_t> order(r.pareto.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return r.pareto[a].step.memory.total() < r.pareto[b].step.memory.total();
    });
    auto* front = new QLineSeries;
    front->setName(tr("Pareto front (%1)").arg(r.pareto.size()));
    front->setPointsVisible(true);
    QPen pen(kFront);
    pen.setWidthF(2);
    front->setPen(pen);
    std::vector<std::size_t> frontRows;
    for (auto i : order) {
        extend(r.pareto[i]);
        front->append(gib(r.pareto[i].step.memory.total()), r.pareto[i].step.stepSeconds);
        frontRows.push_back(i);
    }
    attachSeries(chart, front, x, y);
    drawn.sets.push_back({front, false, frontRows});

    const double usable = gib(usableBytes(r));
    fit(x, 0, std::max(xMax, usable), true);
    if (usable > 0) {
        auto* cap = new QLineSeries;
        // Short: four legend entries share the chart's width (the chart's tooltip says the rest).
        cap->setName(tr("usable memory %1").arg(qs(units::formatMemory(usableBytes(r)))));
        QPen dashed(kCapacity);
        dashed.setStyle(Qt::DashLine);
        dashed.setWidthF(1.5);
        cap->setPen(dashed);
        cap->append(usable, yRange.first);
        cap->append(usable, yRange.second);
        attachSeries(chart, cap, x, y);
    }
    return tr("plan: %1 ranked layouts shown, Pareto front of %2, usable memory %3")
        .arg(r.top.size())
        .arg(r.pareto.size())
        .arg(qs(units::formatMemory(usableBytes(r))));
}

const plan::PlanRow* PlanParetoChart::rowOf(const PlanParetoDrawn::Layouts& layouts, int point) const
{
    if (point < 0 || std::size_t(point) >= layouts.rows.size())
        return nullptr;
    const auto& rows = layouts.top ? m_result.top : m_result.pareto;
    const std::size_t i = layouts.rows[std::size_t(point)];
    return i < rows.size() ? &rows[i] : nullptr;
}

void PlanParetoChart::rebuild()
{
    callout()->hide();
    populate(chart(), m_result);
    setEmptyText(m_result.top.empty() && m_result.pareto.empty()
                     ? tr("No layouts yet: run a search to plot each ranked layout's step time against its memory per "
                          "GPU, with the Pareto front and the device's usable memory.")
                     : QString());
    for (const auto& layouts : drawnOn<PlanParetoDrawn>(chart())->sets) {
        auto* xy = layouts.series;
        // The point nearest the pointer in screen terms (the axes differ by orders of magnitude).
        const auto nearest = [this, xy](QPointF value) {
            const QPointF at = chart()->mapToPosition(value, xy);
            int best = -1;
            double bestDistance = std::numeric_limits<double>::max();
            for (int i = 0; i < xy->count(); ++i) {
                const QPointF d = chart()->mapToPosition(xy->at(i), xy) - at;
                const double distance = d.x() * d.x() + d.y() * d.y();
                if (distance < bestDistance) {
                    bestDistance = distance;
                    best = i;
                }
            }
            return bestDistance <= 12.0 * 12.0 ? best : -1;
        };
        answerHover(xy, [this, xy, nearest, layouts](QPointF pointer) -> std::optional<HoverHit> {
            const int i = nearest(pointer);
            if (const auto* row = rowOf(layouts, i))
                return HoverHit{describe(*row), xy->at(i)};
            return std::nullopt;
        });
        connect(xy, &QXYSeries::clicked, this, [this, nearest, layouts](QPointF value) {
            if (const auto* row = rowOf(layouts, nearest(value)))
                Q_EMIT rowClicked(row->rank);
        });
    }
}

bool PlanParetoChart::exportChart(const plan::PlanResult& result, QSize size, const QString& path, QString* error)
{
    return exportChartFile([&](QChart* chart) { return populate(chart, result); }, [&] { return plan::toCsv(result); },
                           size, path, error);
}
} // namespace rl::charts
