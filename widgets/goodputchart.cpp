#include "goodputchart.h"

#include <cmath>

#include <QCategoryAxis>
#include <QChart>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPen>
#include <QScatterSeries>
#include <QValueAxis>

#include "callout.h"
#include "chartexport.h"
#include "log2axis.h"
#include "niceticks.h"
#include "textconv.h"

namespace rl::charts {
namespace {
using views::GoodputChartData;
using views::GoodputChartKind;
using Role = views::GoodputLine::Role;

const QColor kCurve(0x1f, 0x77, 0xb4);
const QColor kOptimum(0xd6, 0x27, 0x28);
const QColor kYoung(0x2c, 0xa0, 0x2c);

// The nodes axis is a log2 category axis (labels on powers of two), so x is plotted as log2(nodes).
double plotX(const GoodputChartData& d, double x) { return d.kind == GoodputChartKind::VsNodes ? std::log2(x) : x; }
} // namespace

QString GoodputChart::populate(QChart* chart, const GoodputChartData& d)
{
    clearChart(chart);
    auto& drawn = freshDrawn<GoodputDrawn>(chart);
    chart->setTitle(chartText(d.title));
    if (d.lines.empty())
        return qs(d.description);
    QAbstractAxis* x = nullptr;
    if (d.kind == GoodputChartKind::VsNodes) {
        const int width = chart->size().width() >= 200 ? qRound(chart->size().width()) : 1200;
        x = makeLog2Axis(std::log2(d.xMin), std::log2(d.xMax), std::max(4, width / 80), &countLabel);
    } else {
        auto* lx = new QLogValueAxis;
        lx->setBase(10);
        lx->setLabelFormat(logTickFormat(d.xMin, d.xMax));
        lx->setMinorTickCount(8);
        lx->setRange(d.xMin, d.xMax);
        x = lx;
    }
    x->setTitleText(chartText(d.xTitle));
    auto* y = new QValueAxis;
    y->setTitleText(chartText(d.yTitle));
    setNiceRange(y, d.yMin, d.yMax);
    y->setMax(d.yMax); // goodput never exceeds 100 %: no empty band above it
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (std::size_t i = 0; i < d.lines.size(); ++i) {
        const auto& l = d.lines[i];
        QList<QPointF> points;
        for (const auto& p : l.points)
            points << QPointF(plotX(d, p.x), p.y);
        QXYSeries* s = nullptr;
        if (l.role == Role::Curve) {
            auto* line = new QLineSeries;
            line->setPen(QPen(kCurve, 2.5));
            line->setPointsVisible(d.kind == GoodputChartKind::VsNodes); // one node count per point
            s = line;
        } else {
            auto* marker = new QScatterSeries;
            marker->setMarkerShape(l.role == Role::Young ? QScatterSeries::MarkerShapeTriangle
                                                         : QScatterSeries::MarkerShapeCircle);
            marker->setMarkerSize(l.role == Role::Young ? 12 : 14);
            const QColor c = l.role == Role::Young ? kYoung : kOptimum;
            marker->setColor(c);
            marker->setBorderColor(c.darker(140));
            s = marker;
        }
        s->setName(chartText(l.name));
        s->replace(points);
        attachSeries(chart, s, x, y);
        drawn.lines.emplace_back(s, i);
    }
    chart->legend()->setVisible(true);
    chart->legend()->setAlignment(Qt::AlignBottom);
    return QStringLiteral("Ridgeline ") % QStringLiteral(RIDGELINE_VERSION) % QStringLiteral(" goodput chart; ")
        % qs(d.description);
}

bool GoodputChart::exportChart(const resilience::ResiliencePlan& plan, GoodputChartKind kind, const std::string& subject,
                               const std::string& basis, QSize size, const QString& path, QString* error)
{
    const auto data = views::goodputChart(plan, kind, subject, basis);
    return exportChartFile([&](QChart* chart) { return populate(chart, data); },
                           [&] { return views::goodputCsv(plan, kind); }, size, path, error);
}

GoodputChart::GoodputChart(GoodputChartKind kind, QWidget* parent) : ChartFrame(parent), m_kind(kind)
{
    view()->setObjectName(kind == GoodputChartKind::VsNodes ? QStringLiteral("goodputNodesView")
                                                            : QStringLiteral("goodputIntervalView"));
    clear(tr("No plan yet: choose a model, layout, storage and MTBF."));
}

GoodputChart::~GoodputChart() = default;

void GoodputChart::setPlan(const resilience::ResiliencePlan& plan, const std::string& subject, const std::string& basis)
{
    m_plan = plan;
    m_data = views::goodputChart(plan, m_kind, subject, basis);
    setEmptyText(qs(m_data.emptyReason));
    rebuild();
}

void GoodputChart::clear(const QString& why)
{
    m_plan.reset();
    m_data = {};
    m_data.kind = m_kind;
    setEmptyText(why);
    rebuild();
}

std::string GoodputChart::exportCsv() const { return m_plan ? views::goodputCsv(*m_plan, m_kind) : std::string(); }

QString GoodputChart::exportName() const
{
    return m_kind == GoodputChartKind::VsNodes ? QStringLiteral("goodput-nodes") : QStringLiteral("goodput-interval");
}

QString GoodputChart::exportProblem(bool) const
{
    return m_plan ? QString() : tr("There is no plan to export: the inputs are not complete.");
}

void GoodputChart::rebuild()
{
    callout()->hide();
    chart()->zoomReset();
    populate(chart(), m_data);
    for (const auto& [xy, line] : drawnOn<GoodputDrawn>(chart())->lines)
        answerHover(xy, [this, xy = xy, line = line](QPointF pointer) -> std::optional<HoverHit> {
            if (xy->count() == 0)
                return std::nullopt;
            // Nearest point in plotted x (log for both axes, so compare logs).
            qsizetype best = 0;
            const auto logOf = [](double v) { return std::log(std::max(v, 1e-12)); };
            const bool logValues = m_kind == GoodputChartKind::VsInterval;
            const auto distance = [&](qsizetype i) {
                return logValues ? std::abs(logOf(xy->at(i).x()) - logOf(pointer.x())) : std::abs(xy->at(i).x() - pointer.x());
            };
            for (qsizetype i = 1; i < xy->count(); ++i)
                if (distance(i) < distance(best))
                    best = i;
            return HoverHit{qs(views::goodputHoverText(m_data, line, std::size_t(best))), xy->at(best)};
        });
}
} // namespace rl::charts
