#include "trainlogchart.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPen>
#include <QScatterSeries>
#include <QValueAxis>

#include "chartexport.h"
#include "chartimage.h"
#include "niceticks.h"
#include "textconv.h"
#include "units/units.h"

namespace rl::charts {
namespace {

QString metricName(TrainMetric m)
{
    switch (m) {
    case TrainMetric::Loss: return QStringLiteral("loss");
    case TrainMetric::StepTime: return QStringLiteral("step time");
    case TrainMetric::Throughput: return QStringLiteral("throughput");
    case TrainMetric::Tflops: return QStringLiteral("TFLOP/s per GPU");
    case TrainMetric::Mfu: return QStringLiteral("MFU");
    }
    return {};
}

// The metric at the step an event names: the record on the event's log line, else the last
// record of that step number.
double valueAt(const TraceChartData& d, const TrainEvent& e, TrainMetric m, double mfuPeak)
{
    double v = kNoValue;
    for (const auto& s : d.trainSteps) {
        if (s.line == e.line && e.line > 0)
            return trainMetricValue(s, m, mfuPeak);
        if (s.step == e.step)
            v = trainMetricValue(s, m, mfuPeak);
    }
    return v;
}

const QColor kLineColors[] = {QColor(0x1f, 0x77, 0xb4), QColor(0x2c, 0xa0, 0x2c), QColor(0x94, 0x67, 0xbd),
                              QColor(0x8c, 0x56, 0x4b), QColor(0x17, 0xbe, 0xcf)};
} // namespace

QString TrainLogChart::populate(QChart* chart, const TraceChartData& data, const TrainChartOptions& o)
{
    clearChart(chart);
    const WallUnit unit = wallUnitFor(data.trainSteps);
    // Megatron prints TFLOP/s per GPU, not MFU: over the named device's peak, said in the title.
    const MfuPeak peak = o.metric == TrainMetric::Mfu ? mfuPeakOf(data) : MfuPeak{};
    const auto segments = trainSegments(data.trainSteps, o.metric, o.xAxis, peak.tflops);
    double xLo = std::numeric_limits<double>::infinity(), xHi = -xLo, yLo = xLo, yHi = -xLo;
    for (const auto& seg : segments)
        for (const auto& p : seg.points) {
            xLo = std::min(xLo, p.x);
            xHi = std::max(xHi, p.x);
            yLo = std::min(yLo, p.y);
            yHi = std::max(yHi, p.y);
        }
    // The x range covers every logged step, also those without a value of this metric.
    for (const auto& st : data.trainSteps)
        if (const double x = trainX(st, o.xAxis, unit); std::isfinite(x)) {
            xLo = std::min(xLo, x);
            xHi = std::max(xHi, x);
        }
    for (const auto& e : data.trainEvents)
        if (const double x = eventX(e, o.xAxis, unit); std::isfinite(x)) {
            xLo = std::min(xLo, x);
            xHi = std::max(xHi, x);
        }
    if (!std::isfinite(xLo)) {
        xLo = 0;
        xHi = 1;
    }
    if (!std::isfinite(yLo)) {
        yLo = 0;
        yHi = 1;
    }
    // Loss is read by its change, so its axis hugs the data; rates and times start at zero.
    const double pad = (yHi - yLo) * 0.08 + (yHi == yLo ? std::max(1e-9, std::abs(yHi) * 0.1) : 0);
    const bool fromZero = o.metric != TrainMetric::Loss && yLo >= 0;
    auto* x = new QValueAxis;
    x->setTitleText(o.xAxis == TrainXAxis::Step ? QStringLiteral("Step")
                                                : QStringLiteral("Wall time since the first step (")
                                                      % QLatin1String(unit.name) % QStringLiteral(")"));
    // A little room on both sides so markers on the first and last step are not cut in half.
    const double xPad = xHi > xLo ? (xHi - xLo) * 0.02 : 1;
    x->setRange(xLo - xPad, xHi + xPad);
    // Ticks on round numbers without widening the range the way applyNiceNumbers() does.
    keepRoundTicks(x, 9, o.xAxis == TrainXAxis::Step ? 1 : 0);
    auto* y = new QValueAxis;
    // The basis of an MFU Ridgeline computed sits on its axis: the title has no room for it.
    y->setTitleText(qs(peak.axisTitle.empty() ? trainMetricTitle(o.metric) : peak.axisTitle));
    y->setRange(fromZero ? 0 : yLo - pad, yHi + pad);
    y->applyNiceNumbers();
    y->setLabelFormat(QStringLiteral("%.6g"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    const double bottom = y->min(), top = y->max();

    const auto attach = [&](QAbstractSeries* s) {
        chart->addSeries(s);
        s->attachAxis(x);
        s->attachAxis(y);
    };
    std::size_t index = 0;
    for (const auto& seg : segments) {
        auto* line = new QLineSeries;
        line->setName(segments.size() == 1 ? metricName(o.metric).left(1).toUpper() % metricName(o.metric).mid(1)
                      : seg.segment == 0   ? QStringLiteral("Run 1")
                                           : QStringLiteral("Run %1 (after restart)").arg(seg.segment + 1));
        QList<QPointF> points;
        points.reserve(qsizetype(seg.points.size()));
        for (const auto& p : seg.points)
            points << QPointF(p.x, p.y);
        line->replace(points);
        line->setPen(QPen(kLineColors[index++ % std::size(kLineColors)], 2));
        line->setPointsVisible(points.size() < 60);
        attach(line);
    }

    // Vertical markers: one series per event, one legend entry per kind.
    bool restartShown = false, gapShown = false;
    auto* stalls = new QScatterSeries;
    stalls->setName(QStringLiteral("Stall"));
    stalls->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
    stalls->setMarkerSize(14);
    stalls->setColor(QColor(0xff, 0x7f, 0x0e));
    stalls->setBorderColor(QColor(0x80, 0x40, 0x00));
    auto* skipped = new QScatterSeries;
    skipped->setName(QStringLiteral("Skipped / NaN iterations"));
    skipped->setMarkerShape(QScatterSeries::MarkerShapeRotatedRectangle);
    skipped->setMarkerSize(11);
    skipped->setColor(QColor(0x94, 0x67, 0xbd));
    QList<QLineSeries*> hiddenMarkers;
    for (const auto& e : data.trainEvents) {
        const double ex = eventX(e, o.xAxis, unit);
        if (!std::isfinite(ex))
            continue;
        if (e.kind == TrainEventKind::Restart || e.kind == TrainEventKind::TimeGap) {
            const bool restart = e.kind == TrainEventKind::Restart;
            auto* v = new QLineSeries;
            v->setName(restart ? QStringLiteral("Restart") : QStringLiteral("Time gap"));
            v->setPen(restart ? QPen(QColor(0xd6, 0x27, 0x28), 2, Qt::DashLine)
                              : QPen(QColor(0x60, 0x60, 0x60), 1.5, Qt::DotLine));
            v->replace({QPointF(ex, bottom), QPointF(ex, top)});
            attach(v);
            bool& shown = restart ? restartShown : gapShown;
            if (shown)
                hiddenMarkers << v;
            shown = true;
        } else if (e.kind == TrainEventKind::Stall) {
            const double v = valueAt(data, e, o.metric, peak.tflops);
            stalls->append(ex, std::isfinite(v) ? v : bottom);
        } else {
            skipped->append(ex, bottom + (top - bottom) * 0.02); // clear of the axis line
        }
    }
    if (stalls->count())
        attach(stalls);
    else
        delete stalls;
    if (skipped->count())
        attach(skipped);
    else
        delete skipped;
    for (auto* s : hiddenMarkers)
        for (auto* m : chart->legend()->markers(s))
            m->setVisible(false);

    QString title = qs(data.session.title) % QStringLiteral(" — ") % metricName(o.metric);
    if (std::isfinite(data.goodput))
        title += QStringLiteral(" — goodput %1 (%2 restart%3, %4 stall%5)")
                     .arg(qs(units::formatPercent(data.goodput, 1)))
                     .arg(data.restarts)
                     .arg(data.restarts == 1 ? QString() : QStringLiteral("s"))
                     .arg(data.stalls)
                     .arg(data.stalls == 1 ? QString() : QStringLiteral("s"));
    if (segments.empty() && o.metric == TrainMetric::Mfu)
        title += QStringLiteral(" — the log has no MFU values, nor TFLOP/s per GPU of a device with a hardware profile");
    else if (segments.empty())
        title += QStringLiteral(" — the log has no ") % metricName(o.metric) % QStringLiteral(" values");
    else if (!peak.basis.empty())
        title += QStringLiteral(" — from the log's TFLOP/s per GPU");
    chart->setTitle(chartText(o.title.empty() ? title : qs(o.title)));
    chart->legend()->setVisible(true);
    chart->legend()->setAlignment(Qt::AlignBottom);

    return QStringLiteral("Ridgeline ") % QStringLiteral(RIDGELINE_VERSION) % QStringLiteral(" training log chart; metric: ")
        % QLatin1String(toString(o.metric)) % QStringLiteral("; x: ")
        % (o.xAxis == TrainXAxis::Step ? QStringLiteral("step") : QStringLiteral("wall time"))
        % QStringLiteral("; session [") % QString::number(data.session.id) % QStringLiteral("] ")
        % qs(data.session.title) % QStringLiteral(" (") % qs(data.session.tool) % QStringLiteral(", ")
        % QString::number(data.trainSteps.size()) % QStringLiteral(" logged steps, ")
        % QString::number(data.trainEvents.size()) % QStringLiteral(" events); goodput = productive step time / wall time");
}

bool TrainLogChart::exportChart(const TraceChartData& data, const TrainChartOptions& options, QSize size,
                                const QString& path, QString* error)
{
    return exportChartFile([&](QChart* c) { return populate(c, data, options); }, [&] { return trainLogCsv(data, options.metric); },
                           size, path, error);
}

TrainLogChart::TrainLogChart(QWidget* parent)
    : ChartFrame(parent)
    , m_metricCombo(new QComboBox(this))
    , m_axisCombo(new QComboBox(this))
{
    view()->setObjectName(QStringLiteral("trainLogView"));
    m_metricCombo->setObjectName(QStringLiteral("trainMetricCombo"));
    for (auto m : {TrainMetric::Loss, TrainMetric::StepTime, TrainMetric::Throughput, TrainMetric::Tflops,
                   TrainMetric::Mfu})
        m_metricCombo->addItem(qs(trainMetricTitle(m)), int(m));
    m_axisCombo->setObjectName(QStringLiteral("trainAxisCombo"));
    m_axisCombo->addItem(tr("Step"), int(TrainXAxis::Step));
    m_axisCombo->addItem(tr("Wall time"), int(TrainXAxis::WallTime));
    addToolbarWidget(new QLabel(tr("Metric:"), this));
    addToolbarWidget(m_metricCombo);
    addToolbarWidget(new QLabel(tr("X axis:"), this));
    addToolbarWidget(m_axisCombo);

    connect(m_metricCombo, &QComboBox::activated, this,
            [this] { setMetric(TrainMetric(m_metricCombo->currentData().toInt())); });
    connect(m_axisCombo, &QComboBox::activated, this,
            [this] { setXAxis(TrainXAxis(m_axisCombo->currentData().toInt())); });
    rebuild();
}

TrainLogChart::~TrainLogChart() = default;

void TrainLogChart::setData(const TraceChartData& data)
{
    m_data = data;
    rebuild();
}

void TrainLogChart::setMetric(TrainMetric metric)
{
    if (metric == m_options.metric)
        return;
    m_options.metric = metric;
    rebuild();
    Q_EMIT optionsChanged();
}

void TrainLogChart::setXAxis(TrainXAxis axis)
{
    if (axis == m_options.xAxis)
        return;
    m_options.xAxis = axis;
    rebuild();
    Q_EMIT optionsChanged();
}

void TrainLogChart::rebuild()
{
    populate(chart(), m_data, m_options);
    m_metricCombo->setCurrentIndex(m_metricCombo->findData(int(m_options.metric)));
    m_axisCombo->setCurrentIndex(m_axisCombo->findData(int(m_options.xAxis)));
}

} // namespace rl::charts
