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

#include "callout.h"
#include "chartimage.h"
#include "textconv.h"
#include "views/validationchartdata.h"

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
    if (const auto* drawn = drawnOn<ValidationDrawn>(chart()))
        for (const auto* s : drawn->runs)
            n += static_cast<int>(s->count());
    return n;
}

QString ValidationChart::populate(QChart* chart, const model::ValidationSummary& summary, bool* logOut)
{
    clearChart(chart);
    auto& drawn = freshDrawn<ValidationDrawn>(chart);
    chart->setTitle(tr("Sizing model vs published runs: step time (uncalibrated)"));
    const auto d = views::validationChartData(summary);
    if (logOut)
        *logOut = d.log;
    auto* x = timeAxis(d.log, d.lo, d.hi, tr("Measured step time (s)"));
    auto* y = timeAxis(d.log, d.lo, d.hi, tr("Predicted step time (s)"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);

    addBand(chart, x, y, d.lo, d.hi, 0.25, tr("±25 %"), QColor(0xf2, 0xd4, 0x92, 140));
    addBand(chart, x, y, d.lo, d.hi, 0.10, tr("±10 %"), QColor(0x9c, 0xd3, 0x8e, 170));
    auto* diagonal = new QLineSeries;
    diagonal->setName(tr("predicted = measured"));
    diagonal->append({QPointF(d.lo, d.lo), QPointF(d.hi, d.hi)});
    diagonal->setPen(QPen(QColor(0x40, 0x40, 0x40), 1.5));
    attachSeries(chart, diagonal, x, y);

    for (std::size_t i = 0; i < d.series.size(); ++i) {
        auto* s = new QScatterSeries;
        s->setName(chartText(d.series[i].device));
        s->setColor(kDeviceColours[i % std::size(kDeviceColours)]);
        s->setMarkerSize(9);
        s->setBorderColor(Qt::white);
        for (const std::size_t row : d.series[i].rows)
            s->append(summary.rows[row].run.measuredStepSeconds, summary.rows[row].predictedStepSeconds);
        attachSeries(chart, s, x, y);
        drawn.runs.push_back(s);
    }
    return qs(d.description);
}

void ValidationChart::rebuild()
{
    callout()->hide();
    chart()->zoomReset();
    populate(chart(), m_summary, &m_log);
    setEmptyText(m_summary.rows.empty() ? tr("Run the validation to see predicted against measured step times.")
                                        : QString());
    for (auto* scatter : drawnOn<ValidationDrawn>(chart())->runs)
        answerHover(scatter, [this, scatter](QPointF pointer) -> std::optional<HoverHit> {
            // The row nearest the hovered value (in log space: the axes may be logarithmic).
            const model::ValidationRow* best = nullptr;
            double bestDistance = INFINITY;
            for (const auto& r : m_summary.rows) {
                if (!views::isDrawn(r) || chartText(r.run.hardware) != scatter->name())
                    continue;
                const double d = std::hypot(std::log(r.run.measuredStepSeconds / pointer.x()),
                                            std::log(r.predictedStepSeconds / pointer.y()));
                if (d < bestDistance)
                    bestDistance = d, best = &r;
            }
            if (!best)
                return std::nullopt;
            return HoverHit{qs(views::validationPointText(*best)),
                            QPointF(best->run.measuredStepSeconds, best->predictedStepSeconds)};
        });
}
} // namespace rl::charts
