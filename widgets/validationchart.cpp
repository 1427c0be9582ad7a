#include "validationchart.h"

#include <QAreaSeries>
#include <QChart>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPen>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "callout.h"
#include "chartimage.h"
#include "io/csv.h"
#include "textconv.h"
#include "units/units.h"

namespace rl::charts {
namespace {
const QColor kDeviceColours[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xd6, 0x27, 0x28), QColor(0x2c, 0xa0, 0x2c),
                                 QColor(0x94, 0x67, 0xbd), QColor(0xff, 0x7f, 0x0e)};

// The band y = (1 ± f) x between lo and hi, filled lightly, on the two axes.
void addBand(QChart* chart, QAbstractAxis* x, QAbstractAxis* y, double lo, double hi, double f, const QString& name,
             QColor fill)
{
    auto* upper = new QLineSeries;
    auto* lower = new QLineSeries;
    upper->append({QPointF(lo, lo * (1 + f)), QPointF(hi, hi * (1 + f))});
    lower->append({QPointF(lo, lo * (1 - f)), QPointF(hi, hi * (1 - f))});
    auto* area = new QAreaSeries(upper, lower);
    area->setName(name);
    area->setBrush(fill);
    QPen edge(fill.darker(130));
    edge.setStyle(Qt::DashLine);
    area->setPen(edge);
    attachSeries(chart, area, x, y);
}

QAbstractAxis* timeAxis(bool log, double lo, double hi, const QString& title)
{
    if (log) {
        auto* a = new QLogValueAxis;
        a->setBase(10);
        a->setLabelFormat(QStringLiteral("%g"));
        a->setMinorTickCount(8);
        a->setRange(lo, hi);
        a->setTitleText(title);
        return a;
    }
    auto* a = new QValueAxis;
    a->setLabelFormat(QStringLiteral("%.3g"));
    a->setRange(lo, hi);
    a->setTitleText(title);
    return a;
}

QString pointText(const model::ValidationRow& r)
{
    return ValidationChart::tr("%1 (%2)\nmeasured %3, predicted %4\nerror %5")
        .arg(qs(r.run.id), qs(r.run.hardware), qs(units::formatTime(r.run.measuredStepSeconds * 1e6)),
             qs(units::formatTime(r.predictedStepSeconds * 1e6)), qs(units::formatPercent(r.error, 1, true)));
}
} // namespace

ValidationChart::ValidationChart(QWidget* parent) : ChartFrame(parent)
{
    chart()->legend()->setAlignment(Qt::AlignRight);
    view()->setToolTip(tr("Each point is one published run: measured against predicted step time; drag to zoom"));
    rebuild();
}

void ValidationChart::setSummary(model::ValidationSummary summary, const QString& tablePath)
{
    m_summary = std::move(summary);
    m_tablePath = tablePath;
    rebuild();
}

int ValidationChart::pointCount() const
{
    int n = 0;
    for (const auto* s : chart()->series())
        if (s->property("rl_role").toString() == QLatin1String("run"))
            n += static_cast<int>(static_cast<const QScatterSeries*>(s)->count());
    return n;
}

QString ValidationChart::populate(QChart* chart, const model::ValidationSummary& summary, bool* logOut)
{
    clearChart(chart);
    chart->setTitle(tr("Sizing model vs published runs: step time (uncalibrated)"));
    double lo = INFINITY, hi = 0;
    int predicted = 0;
    for (const auto& r : summary.rows) {
        if (r.refused || r.predictedStepSeconds <= 0 || r.run.measuredStepSeconds <= 0)
            continue;
        ++predicted;
        for (const double v : {r.predictedStepSeconds, r.run.measuredStepSeconds})
            lo = std::min(lo, v), hi = std::max(hi, v);
    }
    if (predicted == 0)
        lo = 0.1, hi = 1;
    // Room for the bands at both ends; the same range on both axes keeps y = x the diagonal.
    const bool log = hi / lo >= 10;
    if (log) {
        lo /= 1.4; // the ±25 % band and a margin; decades are labelled wherever the range ends
        hi *= 1.4;
    } else {
        const double pad = (hi - lo) * 0.1 + hi * 0.05;
        lo = std::max(0.0, lo - pad);
        hi = hi + pad;
    }
    if (logOut)
        *logOut = log;
    auto* x = timeAxis(log, lo, hi, tr("Measured step time (s)"));
    auto* y = timeAxis(log, lo, hi, tr("Predicted step time (s)"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);

    addBand(chart, x, y, lo, hi, 0.25, tr("±25 %"), QColor(0xf2, 0xd4, 0x92, 140));
    addBand(chart, x, y, lo, hi, 0.10, tr("±10 %"), QColor(0x9c, 0xd3, 0x8e, 170));
    auto* diagonal = new QLineSeries;
    diagonal->setName(tr("predicted = measured"));
    diagonal->append({QPointF(lo, lo), QPointF(hi, hi)});
    diagonal->setPen(QPen(QColor(0x40, 0x40, 0x40), 1.5));
    attachSeries(chart, diagonal, x, y);

    std::map<std::string, QScatterSeries*> byDevice;
    for (std::size_t i = 0; i < summary.rows.size(); ++i) {
        const auto& r = summary.rows[i];
        if (r.refused || r.predictedStepSeconds <= 0 || r.run.measuredStepSeconds <= 0)
            continue;
        auto& s = byDevice[r.run.hardware];
        if (!s) {
            s = new QScatterSeries;
            s->setName(qs(r.run.hardware));
            s->setColor(kDeviceColours[(byDevice.size() - 1) % std::size(kDeviceColours)]);
            s->setMarkerSize(9);
            s->setBorderColor(Qt::white);
            s->setProperty("rl_role", QStringLiteral("run"));
        }
        s->append(r.run.measuredStepSeconds, r.predictedStepSeconds);
    }
    for (auto& [device, s] : byDevice)
        attachSeries(chart, s, x, y);
    return tr("%1 of %2 runs predicted; median |error| %3, max %4")
        .arg(predicted)
        .arg(summary.rows.size())
        .arg(qs(units::formatPercent(summary.medianAbsError, 1)), qs(units::formatPercent(summary.maxAbsError, 1)));
}

std::string ValidationChart::csv(const model::ValidationSummary& summary)
{
    std::ostringstream out;
    io::writeCsvRow(out, {"run", "source", "hardware", "gpus", "measured_step_s", "predicted_step_s", "error",
                          "expected_median_abs_error", "expected_max_abs_error", "refused"});
    for (const auto& r : summary.rows) {
        const auto& band = model::modelErrorBand(r.run.model.isMoe());
        io::writeCsvRow(out, {r.run.id, r.run.source, r.run.hardware, std::to_string(r.run.parallel.worldSize()),
                              io::csvNumber(r.run.measuredStepSeconds),
                              r.refused ? std::string() : io::csvNumber(r.predictedStepSeconds),
                              r.refused ? std::string() : io::csvNumber(r.error), io::csvNumber(band.median),
                              io::csvNumber(band.max), r.refused ? r.why : std::string()});
    }
    return out.str();
}

void ValidationChart::rebuild()
{
    callout()->hide();
    chart()->zoomReset();
    populate(chart(), m_summary, &m_log);
    setEmptyText(m_summary.rows.empty() ? tr("Run the validation to see predicted against measured step times.")
                                        : QString());
    for (auto* series : chart()->series()) {
        if (series->property("rl_role").toString() != QLatin1String("run"))
            continue;
        auto* scatter = static_cast<QScatterSeries*>(series);
        connect(scatter, &QScatterSeries::hovered, this, [this, scatter](QPointF point, bool state) {
            if (!state) {
                callout()->hide();
                return;
            }
            // The row nearest the hovered value (in log space: the axes may be logarithmic).
            const model::ValidationRow* best = nullptr;
            double bestDistance = INFINITY;
            for (const auto& r : m_summary.rows) {
                if (r.refused || r.predictedStepSeconds <= 0 || qs(r.run.hardware) != scatter->name())
                    continue;
                const double d = std::hypot(std::log(r.run.measuredStepSeconds / point.x()),
                                            std::log(r.predictedStepSeconds / point.y()));
                if (d < bestDistance)
                    bestDistance = d, best = &r;
            }
            if (best)
                callout()->show(pointText(*best), QPointF(best->run.measuredStepSeconds, best->predictedStepSeconds),
                                scatter);
        });
    }
}
} // namespace rl::charts
