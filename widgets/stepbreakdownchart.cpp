#include "stepbreakdownchart.h"

#include <algorithm>
#include <cmath>

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QLabel>
#include <QLegend>
#include <QPainter>
#include <QPixmap>
#include <QLineSeries>
#include <QPen>
#include <QScatterSeries>
#include <QStackedBarSeries>
#include <QValueAxis>

#include "chartexport.h"
#include "chartcolors.h"
#include "chartimage.h"
#include "textconv.h"
#include "units/units.h"

namespace rl::charts {
namespace {
constexpr int kSegments = static_cast<int>(StepSegment::Count);

QLineSeries* addLine(QChart* chart, const QString& name, const QList<QPointF>& points, QPen pen,
                     QBarCategoryAxis* x, QValueAxis* y)
{
    auto* line = new QLineSeries;
    line->setName(name);
    line->replace(points);
    line->setPen(pen);
    line->setPointsVisible(true); // a trace with one step has a one-point line
    chart->addSeries(line);
    line->attachAxis(x);
    line->attachAxis(y);
    return line;
}

// Communication that ran while compute ran costs no step time of its own: it is drawn as a share
// of the compute, compute-coloured with the communication colour's hatch over it.
QBrush hiddenCommBrush()
{
    QPixmap tile(8, 8);
    tile.fill(QColor(0xc6, 0xdb, 0xef));
    QPainter p(&tile);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QPen(segmentColor(StepSegment::HiddenComm), 1.6));
    // Two strokes so the hatch runs on across tile edges.
    p.drawLine(QPointF(-1, 9), QPointF(9, -1));
    p.drawLine(QPointF(-1, 1), QPointF(1, -1));
    p.drawLine(QPointF(7, 9), QPointF(9, 7));
    p.end();
    return QBrush(tile);
}

// The bars' rule as a legend entry with an invisible marker, so a reader knows the stack adds up
// (the export description and the tooltip say how the classes share the compute time).
QLineSeries* addRuleToLegend(QChart* chart, QBarCategoryAxis* x, QValueAxis* y)
{
    auto* rule = new QLineSeries;
    rule->setName(QStringLiteral("Bars add up to the step time"));
    rule->setPen(QPen(Qt::transparent));
    chart->addSeries(rule);
    rule->attachAxis(x);
    rule->attachAxis(y);
    return rule;
}

QString rankText(int rank, StepChartMode mode, const std::vector<int>& ranks)
{
    if (rank == kAllRanksMean && ranks.size() == 1) // "mean over ranks" of one rank says too much
        rank = ranks.front();
    if (rank != kAllRanksMean)
        return QStringLiteral("rank %1").arg(rank);
    return mode == StepChartMode::PerStep ? QStringLiteral("mean over ranks") : QStringLiteral("all ranks");
}

// The widest relative straggler spread over steps: (slowest - fastest) / fastest.
QString spreadText(const std::vector<StepBar>& bars)
{
    double worst = -1;
    std::int64_t at = 0;
    for (const auto& b : bars)
        if (b.ranks > 1 && b.minStepMs > 0 && (b.maxStepMs - b.minStepMs) / b.minStepMs > worst) {
            worst = (b.maxStepMs - b.minStepMs) / b.minStepMs;
            at = b.step;
        }
    if (worst < 0)
        return {};
    return QStringLiteral("straggler spread up to %1 (step %2)").arg(qs(units::formatPercent(worst, 1))).arg(at);
}
} // namespace

QString StepBreakdownChart::populate(QChart* chart, const TraceChartData& data, const StepChartOptions& o)
{
    clearChart(chart);
    auto& drawn = freshDrawn<StepBreakdownDrawn>(chart);
    const auto ranks = ranksOf(data.steps);
    auto* bars = new QStackedBarSeries;
    QBarSet* sets[kSegments];
    for (int i = 0; i < kSegments; ++i) {
        sets[i] = new QBarSet(QLatin1String(segmentName(StepSegment(i))));
        sets[i]->setColor(segmentColor(StepSegment(i)));
        sets[i]->setBorderColor(segmentColor(StepSegment(i)).darker(130));
    }
    sets[int(StepSegment::HiddenComm)]->setBrush(hiddenCommBrush());
    QStringList categories;
    QList<QPointF> stepLine, minLine, maxLine;
    double top = 0;
    QString title, yTitle;
    std::vector<StepBar> stepData;
    if (o.mode == StepChartMode::PerStep) {
        stepData = stepBars(data.steps, o.rank);
        for (const auto& b : stepData) {
            const qreal x = categories.size();
            categories << (b.step < 0 ? QStringLiteral("whole trace") : QString::number(b.step));
            double sum = 0;
            for (int i = 0; i < kSegments; ++i) {
                sets[i]->append(b.segmentsMs[i]);
                sum += b.segmentsMs[i];
            }
            stepLine << QPointF(x, b.stepMs);
            minLine << QPointF(x, b.minStepMs);
            maxLine << QPointF(x, b.maxStepMs);
            top = std::max({top, sum, b.maxStepMs});
        }
        yTitle = QStringLiteral("Time per step (ms)");
        title = qs(data.session.title) % QStringLiteral(" — step breakdown, ") % rankText(o.rank, o.mode, ranks);
        const QString spread = spreadText(stepData);
        if (!spread.isEmpty())
            title += QStringLiteral(" — ") % spread;
    } else {
        const auto totals = rankTotals(data.steps, o.rank);
        int steps = 0;
        for (const auto& t : totals) {
            const qreal x = categories.size();
            categories << QStringLiteral("rank %1").arg(t.rank);
            double sum = 0;
            for (int i = 0; i < kSegments; ++i) {
                sets[i]->append(t.segmentsMs[i]);
                sum += t.segmentsMs[i];
            }
            stepLine << QPointF(x, t.stepMs);
            top = std::max({top, sum, t.stepMs});
            steps = std::max(steps, t.steps);
        }
        yTitle = QStringLiteral("Time summed over %1 step%2 (ms)").arg(steps).arg(steps == 1 ? QString() : QStringLiteral("s"));
        title = qs(data.session.title) % QStringLiteral(" — time by class, ") % rankText(o.rank, o.mode, ranks);
    }
    for (auto* s : sets)
        bars->append(s);
    chart->addSeries(bars);

    auto* x = new QBarCategoryAxis;
    x->append(categories);
    x->setTitleText(o.mode == StepChartMode::PerStep ? QStringLiteral("Profiler step") : QStringLiteral("Rank"));
    if (categories.size() > 24) // long traces: upright labels would run into each other
        x->setLabelsAngle(-90);
    auto* y = new QValueAxis;
    y->setTitleText(yTitle);
    y->setRange(0, top > 0 ? top * 1.08 : 1);
    y->applyNiceNumbers();
    y->setLabelFormat(QStringLiteral("%.4g"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    bars->attachAxis(x);
    bars->attachAxis(y);

    QPen stepPen(Qt::black, 2);
    if (o.mode == StepChartMode::PerStep) {
        const bool single = o.rank != kAllRanksMean || ranks.size() == 1;
        addLine(chart, single ? QStringLiteral("Step time") : QStringLiteral("Step time, mean"),
                stepLine, stepPen, x, y);
        if (ranks.size() > 1) {
            QPen slow(QColor(0xb2, 0x18, 0x2b), 1.5, Qt::DashLine), fast(QColor(0x21, 0x66, 0xac), 1.5, Qt::DashLine);
            addLine(chart, QStringLiteral("Slowest rank (of %1)").arg(ranks.size()), maxLine, slow, x, y);
            addLine(chart, QStringLiteral("Fastest rank"), minLine, fast, x, y);
        }
    } else {
        // Ranks are not a sequence: marks, not a line.
        auto* marks = new QScatterSeries;
        marks->setName(QStringLiteral("Step time (sum)"));
        marks->replace(stepLine);
        marks->setColor(Qt::black);
        marks->setBorderColor(Qt::white);
        marks->setMarkerSize(12);
        chart->addSeries(marks);
        marks->attachAxis(x);
        marks->attachAxis(y);
    }

    drawn.rule = addRuleToLegend(chart, x, y);

    chart->setTitle(chartText(o.title.empty() ? title : qs(o.title)));
    chart->legend()->setVisible(true);
    chart->legend()->setAlignment(Qt::AlignRight); // a row below cuts "Exposed communication" to a few letters
    chart->legend()->setShowToolTips(true);
    if (data.steps.empty())
        chart->setTitle(chart->title() % QStringLiteral(" — no step records"));

    return QStringLiteral("Ridgeline ") % QStringLiteral(RIDGELINE_VERSION) % QStringLiteral(" trace ")
        % (o.mode == StepChartMode::PerStep ? QStringLiteral("per-step") : QStringLiteral("per-rank totals"))
        % QStringLiteral(" breakdown; ") % rankText(o.rank, o.mode, ranks) % QStringLiteral("; session [")
        % QString::number(data.session.id) % QStringLiteral("] ") % qs(data.session.title) % QStringLiteral(" (")
        % qs(data.session.tool) % QStringLiteral(", ") % qs(data.session.created) % QStringLiteral(", ")
        % QString::number(ranks.size())
        % QStringLiteral(" ranks); segments add up to the step time: compute classes share the compute busy "
                         "time (union over streams) by kernel time, compute hiding communication is the compute "
                         "time overlapping communication, memcpy counts copies under no kernel, exposed "
                         "communication and idle are the rest");
}

bool StepBreakdownChart::exportChart(const TraceChartData& data, const StepChartOptions& options, QSize size,
                                     const QString& path, QString* error)
{
    return exportChartFile([&](QChart* c) { return populate(c, data, options); }, [&] { return stepBreakdownCsv(data, options.mode, options.rank); },
                           size, path, error);
}

StepBreakdownChart::StepBreakdownChart(QWidget* parent)
    : ChartFrame(parent)
    , m_modeCombo(new QComboBox(this))
    , m_rankCombo(new QComboBox(this))
{
    view()->setObjectName(QStringLiteral("stepBreakdownView"));
    setZoomable(false); // bars over categories: a rectangle zoom would cut them in half
    view()->setToolTip(tr("Bars add up to the step time: GEMM, attention and other compute share the compute time "
                          "(union over streams) in proportion to their kernel time; hatched is compute time during "
                          "which communication also ran; memcpy counts copies under no kernel; exposed "
                          "communication and idle are the rest."));
    m_modeCombo->setObjectName(QStringLiteral("stepModeCombo"));
    m_modeCombo->addItem(tr("Per step"), int(StepChartMode::PerStep));
    m_modeCombo->addItem(tr("Summed over steps"), int(StepChartMode::Totals));
    m_rankCombo->setObjectName(QStringLiteral("stepRankCombo"));
    m_rankCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    addToolbarWidget(new QLabel(tr("View:"), this));
    addToolbarWidget(m_modeCombo);
    addToolbarWidget(new QLabel(tr("Rank:"), this));
    addToolbarWidget(m_rankCombo);

    connect(m_modeCombo, &QComboBox::activated, this,
            [this] { setMode(StepChartMode(m_modeCombo->currentData().toInt())); });
    connect(m_rankCombo, &QComboBox::activated, this, [this] { setRank(m_rankCombo->currentData().toInt()); });
    rebuild();
}

StepBreakdownChart::~StepBreakdownChart() = default;

void StepBreakdownChart::setData(const TraceChartData& data)
{
    m_data = data;
    const auto ranks = ranksOf(m_data.steps);
    if (m_options.rank != kAllRanksMean && std::find(ranks.begin(), ranks.end(), m_options.rank) == ranks.end())
        m_options.rank = kAllRanksMean;
    m_rankCombo->clear();
    m_rankCombo->addItem(tr("All (mean)"), kAllRanksMean);
    for (int r : ranks)
        m_rankCombo->addItem(tr("Rank %1").arg(r), r);
    rebuild();
}

void StepBreakdownChart::setMode(StepChartMode mode)
{
    if (mode == m_options.mode)
        return;
    m_options.mode = mode;
    rebuild();
    Q_EMIT optionsChanged();
}

void StepBreakdownChart::setRank(int rank)
{
    if (rank == m_options.rank)
        return;
    m_options.rank = rank;
    rebuild();
    Q_EMIT optionsChanged();
}

void StepBreakdownChart::rebuild()
{
    populate(chart(), m_data, m_options);
    m_modeCombo->setCurrentIndex(m_modeCombo->findData(int(m_options.mode)));
    m_rankCombo->setCurrentIndex(std::max(0, m_rankCombo->findData(m_options.rank)));
}

} // namespace rl::charts
