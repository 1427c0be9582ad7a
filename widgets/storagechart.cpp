#include "storagechart.h"

#include <algorithm>
#include <cmath>

#include <QCategoryAxis>
#include <QChart>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPen>
#include <QValueAxis>

#include "callout.h"
#include "chartexport.h"
#include "log2axis.h"
#include "textconv.h"
#include "units/units.h"

namespace rl::charts {
namespace {
const QColor kSettingColors[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e), QColor(0x2c, 0xa0, 0x2c),
                                 QColor(0xd6, 0x27, 0x28), QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b),
                                 QColor(0xe3, 0x77, 0xc2), QColor(0x7f, 0x7f, 0x7f), QColor(0xbc, 0xbd, 0x22),
                                 QColor(0x17, 0xbe, 0xcf)};

bool bySize(const StorageChartOptions& o) { return o.axis == storage::StorageAxis::FileSize; }

// Sizes always on log2 with binary labels (a linear byte axis prints 1048576); ranks on log2 only
// when they span a decade, so a 1-2-4 rank sweep keeps its plain 1, 2, 3, 4 ticks.
bool logX(const StorageChartOptions& o, double lo, double hi) { return bySize(o) || (lo > 0 && hi / lo >= 10); }

QString xLabel(const StorageChartOptions& o, double x)
{
    return bySize(o) ? bytesLabel(x) % QStringLiteral(" per rank") : countLabel(x) % QStringLiteral(" ranks");
}
} // namespace

QString StorageChart::populate(QChart* chart, const std::vector<StorageSessionData>& sessions,
                               const StorageChartOptions& o)
{
    clearChart(chart);
    auto& drawn = freshDrawn<StorageDrawn>(chart);
    const auto all = storage::storageSeries(sessions, o.axis);
    double xLo = INFINITY, xHi = 0, yLo = INFINITY, yHi = 0;
    for (const auto& s : all)
        for (const auto& [x, gbs] : s.xy)
            if (const double y = units::displayBandwidth(gbs); x > 0 && y > 0) {
                xLo = std::min(xLo, x), xHi = std::max(xHi, x), yLo = std::min(yLo, y), yHi = std::max(yHi, y);
            }
    if (!std::isfinite(xLo)) {
        xLo = 1, xHi = bySize(o) ? 1 << 20 : 4, yLo = 0.1, yHi = 1;
    }
    const bool xLog = logX(o, xLo, xHi);
    drawn.logX = xLog;
    QAbstractAxis* x = nullptr;
    if (xLog) {
        const int width = chart->size().width() >= 200 ? qRound(chart->size().width()) : 1200;
        auto* axis = makeLog2Axis(std::log2(xLo), std::log2(xHi), std::max(4, width / 90),
                                  bySize(o) ? Log2Label(&bytesLabel) : Log2Label(&countLabel));
        x = axis;
    } else {
        auto* axis = new QValueAxis;
        axis->setRange(0, xHi + 1);
        axis->setTickType(QValueAxis::TicksDynamic);
        axis->setTickAnchor(0);
        axis->setTickInterval(std::max(1.0, std::ceil((xHi + 1) / 10)));
        axis->setLabelFormat(QStringLiteral("%d"));
        x = axis;
    }
    x->setTitleText(bySize(o) ? QStringLiteral("File size per rank (bytes, binary units)") : QStringLiteral("Ranks doing I/O at once"));
    const bool yLog = yHi / yLo >= 10;
    QAbstractAxis* y = nullptr;
    if (yLog) {
        auto* axis = new QLogValueAxis;
        axis->setBase(10);
        axis->setLabelFormat(QStringLiteral("%.3g"));
        // Whole decades, so at least three labels (0.1, 1, 10) name the scale.
        axis->setRange(std::pow(10.0, std::floor(std::log10(yLo))), std::pow(10.0, std::ceil(std::log10(yHi))));
        axis->setMinorTickCount(8);
        y = axis;
    } else {
        auto* axis = new QValueAxis;
        axis->setRange(0, yHi * 1.15);
        axis->applyNiceNumbers();
        axis->setLabelFormat(QStringLiteral("%g"));
        y = axis;
    }
    y->setTitleText(qs(units::bandwidthTitle("Aggregate bandwidth")));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);

    // One colour per setting (everything but the op), so a write and its read pair up: solid and
    // dashed lines of one colour.
    std::vector<std::string> settings;
    const auto colorOf = [&](const storage::StorageSeries& s) {
        std::string key = s.label;
        if (const auto at = key.find(s.op + ' '); at != std::string::npos)
            key.erase(at, s.op.size() + 1);
        auto it = std::find(settings.begin(), settings.end(), key);
        if (it == settings.end())
            it = settings.insert(settings.end(), key);
        return kSettingColors[std::size_t(it - settings.begin()) % std::size(kSettingColors)];
    };
    for (const auto& s : all) {
        auto* line = new QLineSeries;
        line->setName(chartText(s.label));
        QList<QPointF> points;
        for (const auto& [px, py] : s.xy)
            if (px > 0 && py > 0)
                points << QPointF(xLog ? std::log2(px) : px, units::displayBandwidth(py));
        line->replace(points);
        line->setPointsVisible(true); // a one-size run is one point: no line to see
        line->setMarkerSize(points.size() == 1 ? 10 : 7);
        attachSeries(chart, line, x, y);
        drawn.curves.push_back(line);
        line->setPen(QPen(colorOf(s), 2, s.op == "read" ? Qt::DashLine : Qt::SolidLine));
    }

    QString title = bySize(o) ? QStringLiteral("Storage bandwidth vs file size per rank")
                              : QStringLiteral("Storage bandwidth vs ranks");
    for (std::size_t i = 0; i < sessions.size(); ++i)
        title += (i ? QStringLiteral(", ") : QStringLiteral(" — ")) % qs(sessions[i].session.title);
    if (all.empty())
        title += QStringLiteral(" — no storage points");
    chart->setTitle(chartText(o.title.empty() ? title : qs(o.title)));
    chart->legend()->setVisible(true);
    // On the right: the labels are long ("storage I/O, 4 ranks: write fpp 16 MiB/rank, 1 MiB blocks")
    // and a bottom row would cut every one of them short.
    chart->legend()->setAlignment(Qt::AlignRight);

    QString d = QStringLiteral("Ridgeline ") % QStringLiteral(RIDGELINE_VERSION)
        % QStringLiteral(" storage chart; aggregate GB/s = 1e9 B/s, all ranks' bytes over the slowest rank's time; %1 "
                         "series; sessions:")
              .arg(all.size());
    for (const auto& s : sessions)
        d += QStringLiteral(" [") % QString::number(s.session.id) % QStringLiteral("] ") % qs(s.session.title);
    return d;
}

bool StorageChart::exportChart(const std::vector<StorageSessionData>& sessions, const StorageChartOptions& options,
                               QSize size, const QString& path, QString* error)
{
    return exportChartFile([&](QChart* chart) { return populate(chart, sessions, options); },
                           [&] { return storage::storageChartCsv(sessions, options.axis); },
                           size, path, error);
}

StorageChart::StorageChart(storage::StorageAxis axis, QWidget* parent)
    : ChartFrame(parent)
{
    m_options.axis = axis;
    view()->setObjectName(bySize(m_options) ? QStringLiteral("storageSizeView") : QStringLiteral("storageRanksView"));
    rebuild();
}

StorageChart::~StorageChart() = default;

QString StorageChart::exportName() const
{
    return bySize(m_options) ? QStringLiteral("storage-size") : QStringLiteral("storage-ranks");
}

std::vector<std::int64_t> StorageChart::exportSessionIds() const
{
    std::vector<std::int64_t> ids;
    for (const auto& s : m_data)
        ids.push_back(s.session.id);
    return ids;
}

void StorageChart::setData(std::vector<StorageSessionData> sessions)
{
    m_data = std::move(sessions);
    rebuild();
}

void StorageChart::rebuild()
{
    callout()->hide();
    chart()->zoomReset();
    populate(chart(), m_data, m_options);
    bool anyPoint = false;
    const auto& drawn = *drawnOn<StorageDrawn>(chart());
    for (auto* line : drawn.curves) {
        anyPoint = anyPoint || line->count() > 0;
        answerHover(line, [this, line, logX = drawn.logX](QPointF pointer) -> std::optional<HoverHit> {
            if (line->count() == 0)
                return std::nullopt;
            const QPointF best = line->at(qsizetype(nearestByX(line->points(), pointer.x())));
            const double x = logX ? std::exp2(best.x()) : best.x();
            // The plotted y is in the display unit; formatBandwidth takes GB/s (the unit is linear).
            return HoverHit{chartPlainText(line->name()) % QLatin1Char('\n') % xLabel(m_options, x) % QStringLiteral(": ")
                                % qs(units::formatBandwidth(best.y() / units::displayBandwidth(1.0)))
                                % QStringLiteral(" aggregate"),
                            best};
        });
    }
    setEmptyText(!m_data.empty() && !anyPoint
                     ? tr("The selected storage sessions have no points yet (a run that has not finished its first "
                          "size, or one that failed before it).")
                     : QString());
}
} // namespace rl::charts
