// `ridgeline-cli export SESSION... --chart storage-size|storage-ranks`: aggregate bandwidth of storage
// sessions against file size per rank and against ranks (log axes), or their data as CSV; and the
// resilience charts of `ridgeline-cli checkpoint -o` (goodput vs interval with the optimum marked,
// goodput vs nodes). The series come from analysis/ (storagechartdata.h, resilienceplan.h).
// The QChart filling lives here until the charts move into widgets/ with the Resilience view.
#include <cmath>
#include <stdexcept>

#include <QChart>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QValueAxis>

#include "chartexport.h"
#include "chartexporters.h"
#include "chartimages.h"
#include "chartimage.h"
#include "resilience/resilienceplan.h"
#include "views/storagechartdata.h"
#include "store/storageresults.h"
#include "store/workspace.h"

namespace rl::cli {
namespace {
QString qs(const std::string& s) { return QString::fromStdString(s); }

void exportStorage(const ChartExportRequest& r, storage::StorageAxis axis)
{
    std::vector<storage::StorageSessionPoints> sessions;
    for (auto id : r.sessions) {
        const auto s = r.workspace.session(id);
        if (!s || s->kind != kind::Storage)
            throw std::runtime_error("session " + std::to_string(id) + " is not a storage session");
        sessions.push_back({s->title, store::storagePoints(r.workspace.database(), id)});
    }
    const auto series = storage::storageSeries(sessions, axis);
    if (series.empty())
        throw std::runtime_error("the sessions have no storage points");
    const bool bySize = axis == storage::StorageAxis::FileSize;
    const auto fill = [&](QChart* chart) {
        chart->setTitle(r.title.empty() ? (bySize ? QStringLiteral("Storage bandwidth vs file size per rank")
                                                  : QStringLiteral("Storage bandwidth vs ranks"))
                                        : qs(r.title));
        auto* x = new QLogValueAxis;
        x->setBase(2);
        x->setLabelFormat(bySize ? QStringLiteral("%.0f B") : QStringLiteral("%.0f"));
        x->setTitleText(bySize ? QStringLiteral("bytes per rank") : QStringLiteral("ranks"));
        auto* y = new QLogValueAxis;
        y->setBase(10);
        y->setLabelFormat(QStringLiteral("%.3g"));
        y->setTitleText(QStringLiteral("aggregate GB/s"));
        double xlo = INFINITY, xhi = 0, ylo = INFINITY, yhi = 0;
        for (const auto& s : series) {
            auto* line = new QLineSeries;
            line->setName(qs(s.label));
            line->setPointsVisible(true);
            for (const auto& [px, py] : s.xy) {
                if (py <= 0)
                    continue;
                line->append(px, py);
                xlo = std::min(xlo, px), xhi = std::max(xhi, px), ylo = std::min(ylo, py), yhi = std::max(yhi, py);
            }
            charts::attachSeries(chart, line, x, y);
        }
        x->setRange(xlo / 1.5, xhi * 1.5);
        y->setRange(ylo / 1.5, yhi * 1.5);
        return QStringLiteral("storage sessions; aggregate GB/s = 1e9 B/s, all ranks' bytes over the slowest rank's time");
    };
    drawChart(r.path, [&](const QString& path, QString* error) {
        return charts::exportChartFile(fill, [&] { return storage::storageSeriesCsv(series, axis); },
                                       QSize(r.width, r.height), path, error);
    });
}

const bool registered = [] {
    registerChartExporter({"storage-size", "storage sessions: aggregate GB/s vs file size per rank, per op, access, "
                                           "ranks and block size",
                           [](const ChartExportRequest& r) { exportStorage(r, storage::StorageAxis::FileSize); }});
    registerChartExporter({"storage-ranks", "storage sessions: aggregate GB/s vs number of ranks, per op, access, "
                                            "file and block size",
                           [](const ChartExportRequest& r) { exportStorage(r, storage::StorageAxis::Ranks); }});
    return true;
}();
} // namespace

void writeGoodputChart(const resilience::ResiliencePlan& plan, bool vsNodes, const std::string& title,
                       const std::string& path)
{
    chartApplication();
    const auto fill = [&](QChart* chart) {
        chart->setTitle(qs(title));
        auto* x = new QLogValueAxis;
        x->setBase(vsNodes ? 2 : 10);
        x->setLabelFormat(QStringLiteral("%.0f"));
        x->setTitleText(vsNodes ? QStringLiteral("nodes") : QStringLiteral("checkpoint interval, s"));
        auto* y = new QValueAxis;
        y->setTitleText(QStringLiteral("expected goodput (useful / wall time)"));
        y->setLabelFormat(QStringLiteral("%.2f"));
        auto* line = new QLineSeries;
        line->setName(vsNodes ? QStringLiteral("goodput at Daly's interval") : QStringLiteral("goodput"));
        const auto& curve = vsNodes ? plan.vsNodes : plan.vsInterval;
        double ylo = 1;
        for (const auto& p : curve) {
            line->append(p.x, p.goodput);
            ylo = std::min(ylo, p.goodput);
        }
        charts::attachSeries(chart, line, x, y);
        if (!vsNodes) {
            auto* opt = new QScatterSeries;
            opt->setName(QStringLiteral("optimum: %1 s, %2 %").arg(plan.intervalS, 0, 'f', 0).arg(plan.goodput * 100, 0, 'f', 2));
            opt->append(plan.intervalS, plan.goodput);
            opt->setMarkerSize(12);
            charts::attachSeries(chart, opt, x, y);
        }
        if (!curve.empty())
            x->setRange(curve.front().x, curve.back().x);
        y->setRange(std::max(0.0, ylo - 0.02), 1.0);
        return QStringLiteral("Daly's model: goodput = tau / (M e^(R/M) (e^((tau+C)/M) - 1)); C %1 s, R %2 s, M %3 s")
            .arg(plan.checkpointCostS, 0, 'f', 1).arg(plan.restartS, 0, 'f', 1).arg(plan.jobMtbfS, 0, 'f', 0);
    };
    QString error;
    if (!charts::writeChartImage(fill, QSize(1200, 800), qs(path), &error))
        throw std::runtime_error(error.toStdString());
}
} // namespace rl::cli
