#include "timelinechart.h"

#include <algorithm>
#include <map>
#include <set>

#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QMouseEvent>
#include <QScatterSeries>
#include <QValueAxis>

#include "callout.h"
#include "chartexport.h"
#include "chartimage.h"
#include "spancloud.h"
#include "chartcolors.h"
#include "units/units.h"
#include "niceticks.h"
#include "textconv.h"

namespace rl::charts {
namespace {
const char* classTitle(KernelClass c)
{
    switch (c) {
    case KernelClass::Gemm: return "GEMM";
    case KernelClass::Attention: return "Attention";
    case KernelClass::Communication: return "Communication";
    case KernelClass::Memcpy: return "Memcpy / memset";
    case KernelClass::Other: return "Other compute";
    }
    return "Other compute";
}

// The step's length for the x range: the breakdown's step time when the step is known.
double stepLengthMs(const TraceChartData& data, int rank, std::int64_t step)
{
    for (const auto& b : data.steps)
        if (b.rank == rank && b.step == step)
            return b.stepUs / 1e3;
    return 0;
}
} // namespace

QString TimelineChart::populate(QChart* chart, const TraceChartData& data, const TimelineOptions& o)
{
    delete SpanCloud::of(chart);
    clearChart(chart);
    const int rank = timelineRank(data, o.rank);
    const auto events = timelineEvents(data, rank);
    const std::int64_t step = events.empty() ? -1 : events.front()->step;

    std::set<int> streams;
    double endMs = stepLengthMs(data, rank, step);
    for (const auto* e : events) {
        streams.insert(e->stream);
        endMs = std::max(endMs, (e->startUs + e->durUs) / 1e3);
    }
    // The first stream on top: lanes count down from lanes - 1. Not QCategoryAxis::setReverse: a
    // reversed axis never shows a label again once a small layout (a hidden tab) hid it, which
    // left the top and bottom lanes without a name.
    std::map<int, int> laneOf;
    for (int s : streams)
        laneOf.emplace(s, static_cast<int>(streams.size() - 1 - laneOf.size()));
    const int lanes = std::max<int>(1, static_cast<int>(laneOf.size()));

    auto* x = new QValueAxis;
    x->setTitleText(QStringLiteral("Time from the step's start (ms)"));
    x->setRange(0, endMs > 0 ? endMs : 1);
    keepRoundTicks(x); // also when zoomed to a few microseconds
    auto* y = new QCategoryAxis;
    y->setTitleText(QStringLiteral("GPU stream"));
    y->setLabelsPosition(QCategoryAxis::AxisLabelsPositionCenter);
    y->setStartValue(-0.5);
    for (auto it = laneOf.rbegin(); it != laneOf.rend(); ++it) // categories go bottom to top
        y->append(QStringLiteral("stream %1").arg(it->first), it->second + 0.5);
    y->setRange(-0.5, lanes - 0.5);
    y->setGridLineVisible(false);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);

    // The overlay maps through an empty line series; the legend gets one entry per class drawn.
    auto* anchor = new QLineSeries;
    attachSeries(chart, anchor, x, y);
    hideFromLegend(chart, anchor);
    constexpr int kClasses = 5;
    bool used[kClasses] = {};
    std::vector<SpanCloud::Span> spans;
    spans.reserve(events.size());
    for (const auto* e : events) {
        const int c = static_cast<int>(e->kernelClass);
        used[c] = true;
        spans.push_back({e->startUs / 1e3, (e->startUs + e->durUs) / 1e3, double(laneOf[e->stream]), c});
    }
    std::vector<QColor> fills;
    for (int c = 0; c < kClasses; ++c) {
        const QColor color = segmentColor(segmentOfClass(static_cast<KernelClass>(c)));
        fills.push_back(color);
        if (!used[c])
            continue;
        auto* entry = new QScatterSeries;
        entry->setName(QLatin1String(classTitle(static_cast<KernelClass>(c))));
        entry->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
        entry->setColor(color);
        entry->setBorderColor(color.darker(140));
        attachSeries(chart, entry, x, y);
    }
    new SpanCloud(chart, anchor, std::move(fills), std::move(spans)); // a child item of chart

    QString title = o.title.empty()
                        ? QStringLiteral("%1 — rank %2, %3: %4 GPU activities on %5 stream%6")
                              .arg(qs(data.session.title))
                              .arg(rank)
                              .arg(step >= 0 ? QStringLiteral("step %1 (median duration)").arg(step)
                                             : QStringLiteral("whole trace"))
                              .arg(events.size())
                              .arg(laneOf.size())
                              .arg(laneOf.size() == 1 ? QString() : QStringLiteral("s"))
                        : qs(o.title);
    if (events.empty())
        title += data.kernels.empty()
                     ? QStringLiteral(" — the trace has no GPU activity")
                     : QStringLiteral(" — no timeline stored (imported before Ridgeline kept one; import the trace again)");
    chart->setTitle(chartText(title));
    chart->legend()->setVisible(true);
    chart->legend()->setAlignment(Qt::AlignBottom);
    return QStringLiteral("Ridgeline %1 trace timeline; session %2; rank %3; step %4; %5 events")
        .arg(QStringLiteral(RIDGELINE_VERSION))
        .arg(data.session.id)
        .arg(rank)
        .arg(step)
        .arg(events.size());
}

bool TimelineChart::exportChart(const TraceChartData& data, const TimelineOptions& options, QSize size,
                                const QString& path, QString* error)
{
    return exportChartFile([&](QChart* c) { return populate(c, data, options); },
                           [&] { return timelineCsv(data, options.rank); }, size, path, error);
}

TimelineChart::TimelineChart(QWidget* parent)
    : ChartFrame(parent)
    , m_rankCombo(new QComboBox(this))
{
    view()->setObjectName(QStringLiteral("timelineView"));
    view()->setRenderHint(QPainter::Antialiasing, false); // crisp bars
    view()->setRubberBand(QChartView::HorizontalRubberBand);
    view()->setToolTip(tr("Drag across a time range to zoom in, right-click to zoom out; hover a bar for the kernel"));
    view()->viewport()->setMouseTracking(true);
    view()->viewport()->installEventFilter(this);
    m_rankCombo->setObjectName(QStringLiteral("timelineRankCombo"));
    m_rankCombo->setToolTip(tr("The rank whose representative step is shown"));
    addToolbarWidget(new QLabel(tr("Rank:"), this));
    addToolbarWidget(m_rankCombo);
    connect(m_rankCombo, &QComboBox::activated, this, [this] { setRank(m_rankCombo->currentData().toInt()); });
    rebuild();
}

TimelineChart::~TimelineChart() = default;

void TimelineChart::setData(const TraceChartData& data)
{
    m_data = data;
    std::set<int> ranks;
    for (const auto& e : m_data.timeline)
        ranks.insert(e.rank);
    m_rankCombo->clear();
    for (int r : ranks)
        m_rankCombo->addItem(tr("Rank %1").arg(r), r);
    rebuild();
}

void TimelineChart::setRank(int rank)
{
    m_options.rank = rank;
    rebuild();
}

void TimelineChart::rebuild()
{
    callout()->hide();
    chart()->zoomReset();
    populate(chart(), m_data, m_options);
    const int rank = timelineRank(m_data, m_options.rank);
    m_shown = timelineEvents(m_data, rank);
    m_rankCombo->setCurrentIndex(std::max(0, m_rankCombo->findData(rank)));
}

bool TimelineChart::eventFilter(QObject* watched, QEvent* event)
{
    if (watched != view()->viewport() || event->type() != QEvent::MouseMove)
        return ChartFrame::eventFilter(watched, event);
    const auto* spans = SpanCloud::of(chart());
    const QPointF at = chart()->mapFromScene(view()->mapToScene(static_cast<QMouseEvent*>(event)->position().toPoint()));
    const long i = spans ? spans->spanAt(at) : -1;
    if (i < 0 || static_cast<std::size_t>(i) >= m_shown.size()) {
        callout()->hide();
        return false;
    }
    const auto* e = m_shown[static_cast<std::size_t>(i)];
    QString name = qs(e->name);
    if (name.size() > 120)
        name = name.left(117) + QStringLiteral("…");
    const auto& span = spans->spans()[static_cast<std::size_t>(i)];
    callout()->show(name % QLatin1Char('\n') % QLatin1String(classTitle(e->kernelClass))
                        % QStringLiteral(", stream %1").arg(e->stream) % QLatin1Char('\n')
                        % QStringLiteral("starts at %1 ms, lasts %2")
                              .arg(e->startUs / 1e3, 0, 'f', 3)
                              .arg(qs(units::formatTime(e->durUs))),
                    QPointF((span.start + span.end) / 2, span.lane), spans->anchor());
    return false; // the rubber band still follows the pointer
}
} // namespace rl::charts
