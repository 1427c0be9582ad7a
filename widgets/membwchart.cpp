#include "membwchart.h"

#include <algorithm>
#include <cmath>

#include <QAreaSeries>
#include <QCategoryAxis>
#include <QChart>
#include <QLegend>
#include <QLineSeries>
#include <QPen>
#include <QValueAxis>

#include "callout.h"
#include "chartexport.h"
#include "log2axis.h"
#include "textconv.h"
#include "units/units.h"

namespace rl::charts {
namespace {
// Kernels by hue, thread counts by shade: the lighter line is the lower thread count.
const QColor kKernelColors[] = {QColor(0x1f, 0x77, 0xb4), QColor(0x2c, 0xa0, 0x2c), QColor(0xff, 0x7f, 0x0e),
                                QColor(0xd6, 0x27, 0x28), QColor(0x94, 0x67, 0xbd)};
const QColor kBandColors[] = {QColor(0x1f, 0x77, 0xb4), QColor(0x2c, 0xa0, 0x2c), QColor(0xff, 0x7f, 0x0e),
                              QColor(0x7f, 0x7f, 0x7f)};

int kernelIndex(const std::string& k)
{
    static const char* order[] = {"copy", "scale", "add", "triad"};
    for (int i = 0; i < 4; ++i)
        if (k == order[i])
            return i;
    return 4;
}
} // namespace

QString MemBwChart::populate(QChart* chart, const KernelChartData& data, const MemBwOptions& o)
{
    clearChart(chart);
    auto& drawn = freshDrawn<MemBwDrawn>(chart);
    const auto curves = memBwCurves(data);
    const auto bands = o.showCeilings ? memBwBands(data) : std::vector<MemBwBand>{};
    double xLo = INFINITY, xHi = -INFINITY, yHi = 0;
    int maxThreads = 1;
    for (const auto& c : curves) {
        maxThreads = std::max(maxThreads, c.threads);
        for (const auto& p : c.points)
            if (p.bytes > 0) {
                xLo = std::min(xLo, std::log2(double(p.bytes)));
                xHi = std::max(xHi, std::log2(double(p.bytes)));
                yHi = std::max(yHi, units::displayBandwidth(p.bandwidthGBs));
            }
    }
    for (const auto& b : bands) {
        yHi = std::max(yHi, units::displayBandwidth(b.ceiling.bandwidthGBs));
        if (b.ceiling.fromBytes > 0)
            xLo = std::min(xLo, std::log2(double(b.ceiling.fromBytes)));
        if (b.ceiling.toBytes > 0)
            xHi = std::max(xHi, std::log2(double(b.ceiling.toBytes)));
    }
    if (!std::isfinite(xLo)) {
        xLo = 10;
        xHi = 30;
    }
    if (!(yHi > 0))
        yHi = 1;
    // Before the first layout the chart has no size: assume the default export width.
    const int width = chart->size().width() >= 200 ? qRound(chart->size().width()) : 1200;
    auto* x = makeLog2Axis(xLo, xHi, std::max(4, width / 90), &bytesLabel);
    x->setTitleText(QStringLiteral("Working set (bytes, all arrays of the kernel)"));
    auto* y = new QValueAxis;
    y->setTitleText(qs(units::bandwidthTitle("Bandwidth")));
    y->setRange(0, yHi * 1.18); // room above the curves for the band labels
    y->applyNiceNumbers();
    y->setLabelFormat(QStringLiteral("%g"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    const double top = y->max();

    // Bands first, so the curves draw over them.
    std::size_t bandIndex = 0;
    for (const auto& b : bands) {
        const double from = std::log2(double(std::max<std::int64_t>(1, b.ceiling.fromBytes)));
        const double to = std::log2(double(std::max<std::int64_t>(1, b.ceiling.toBytes)));
        QColor color = kBandColors[bandIndex % std::size(kBandColors)];
        auto* upper = new QLineSeries;
        auto* lower = new QLineSeries;
        upper->replace({QPointF(from, top), QPointF(to, top)});
        lower->replace({QPointF(from, 0), QPointF(to, 0)});
        auto* area = new QAreaSeries(upper, lower);
        area->setName(chartText(b.label));
        QColor fill = color;
        fill.setAlpha(28);
        area->setBrush(fill);
        area->setPen(Qt::NoPen);
        attachSeries(chart, area, x, y);
        hideFromLegend(chart, area);
        auto* level = new QLineSeries;
        level->setName(chartText(b.label));
        level->setPen(QPen(color.darker(120), 1.5, Qt::DashLine));
        const double ceiling = units::displayBandwidth(b.ceiling.bandwidthGBs);
        level->replace({QPointF(from, ceiling), QPointF(to, ceiling)});
        attachSeries(chart, level, x, y);
        hideFromLegend(chart, level);
        // Alternate heights so labels of narrow neighbouring bands do not overlap.
        const double labelY = top * (bandIndex % 2 == 0 ? 0.93 : 0.86);
        addChartLabel(chart, x, y, QPointF((from + to) / 2, labelY), qs(b.label), color.darker(150));
        ++bandIndex;
    }

    // STREAM measures copy and scale at one working set and add and triad at another, with nearly
    // equal bandwidths: one marker each would hide the first under the second. A single-point
    // curve's marker grows by a ring for each later one drawn at nearly the same place, so every
    // kernel stays visible as a concentric ring.
    const auto singlePoint = [](const MemBwCurve& c, QPointF* at) {
        int n = 0;
        for (const auto& p : c.points)
            if (p.bytes > 0) {
                *at = QPointF(std::log2(double(p.bytes)), units::displayBandwidth(p.bandwidthGBs));
                ++n;
            }
        return n == 1;
    };
    std::vector<int> coveredBy(curves.size(), 0);
    for (std::size_t i = 0; i < curves.size(); ++i) {
        QPointF a, b;
        if (!singlePoint(curves[i], &a))
            continue;
        for (std::size_t j = i + 1; j < curves.size(); ++j)
            if (singlePoint(curves[j], &b) && std::abs(a.x() - b.x()) < (xHi - xLo + 1) * 0.02
                && std::abs(a.y() - b.y()) < top * 0.03)
                ++coveredBy[i];
    }

    for (std::size_t ci = 0; ci < curves.size(); ++ci) {
        const auto& c = curves[ci];
        auto* line = new QLineSeries;
        line->setName(chartText(c.name));
        QColor color = kKernelColors[kernelIndex(c.kernel)];
        if (c.threads < maxThreads)
            color = color.lighter(150);
        line->setPen(QPen(color, c.threads == maxThreads ? 2 : 1.5, c.threads == maxThreads ? Qt::SolidLine : Qt::DashLine));
        QList<QPointF> points;
        for (const auto& p : c.points)
            if (p.bytes > 0)
                points << QPointF(std::log2(double(p.bytes)), units::displayBandwidth(p.bandwidthGBs));
        line->replace(points);
        // A line through one point draws nothing: a STREAM run (one working set per kernel) would
        // leave the chart empty. Markers show every measured size, so sparse sweeps read too.
        line->setPointsVisible(true);
        line->setMarkerSize(points.size() == 1 ? 10 + 6 * coveredBy[ci] : 6);
        drawn.curves.push_back(line);
        attachSeries(chart, line, x, y);
    }

    QString title = QStringLiteral("Memory bandwidth");
    for (std::size_t i = 0; i < data.sessions.size(); ++i)
        title += (i ? QStringLiteral(", ") : QStringLiteral(" — ")) % qs(data.sessions[i].session.title);
    if (curves.empty())
        title += QStringLiteral(" — no membw points");
    chart->setTitle(chartText(o.title.empty() ? title : qs(o.title)));
    chart->legend()->setVisible(true);
    chart->legend()->setAlignment(Qt::AlignBottom);

    QString d = QStringLiteral("Ridgeline ") % QStringLiteral(RIDGELINE_VERSION)
        % QStringLiteral(" memory bandwidth chart; bytes counted as STREAM does, GB = 1e9 B; %1 curves, %2 cache levels")
              .arg(curves.size())
              .arg(bands.size());
    d += QStringLiteral("; sessions:");
    for (const auto& s : data.sessions)
        d += QStringLiteral(" [") % QString::number(s.session.id) % QStringLiteral("] ") % qs(s.session.title)
            % (s.session.host.empty() ? QString() : QStringLiteral(" (") % qs(s.session.host) % QStringLiteral(")"));
    return d;
}

bool MemBwChart::exportChart(const KernelChartData& data, const MemBwOptions& options, QSize size, const QString& path,
                             QString* error)
{
    return exportChartFile([&](QChart* chart) { return populate(chart, data, options); },
                           [&] { return memBwCsv(data); }, size, path, error);
}

MemBwChart::MemBwChart(QWidget* parent)
    : ChartFrame(parent)
{
    view()->setObjectName(QStringLiteral("membwView"));
    rebuild();
}

MemBwChart::~MemBwChart() = default;

void MemBwChart::setData(const KernelChartData& data)
{
    m_data = data;
    rebuild();
}

void MemBwChart::setShowCeilings(bool show)
{
    if (show == m_options.showCeilings)
        return;
    m_options.showCeilings = show;
    rebuild();
}

void MemBwChart::setTitle(const std::string& title)
{
    m_options.title = title;
    rebuild();
}

void MemBwChart::rebuild()
{
    callout()->hide();
    chart()->zoomReset();
    populate(chart(), m_data, m_options);
    for (auto* line : drawnOn<MemBwDrawn>(chart())->curves)
        answerHover(line, [line](QPointF pointer) -> std::optional<HoverHit> {
            if (line->count() == 0)
                return std::nullopt;
            const QPointF best = line->at(qsizetype(nearestByX(line->points(), pointer.x())));
            // The plotted y is in the display unit; formatBandwidth takes GB/s (the unit is linear).
            return HoverHit{chartPlainText(line->name()) % QLatin1Char('\n') % bytesLabel(std::exp2(best.x()))
                                % QStringLiteral(": ") % qs(units::formatBandwidth(best.y() / units::displayBandwidth(1.0))),
                            best};
        });
}
} // namespace rl::charts
