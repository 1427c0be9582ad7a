// `ridgeline-cli export SESSION... --chart storage-size|storage-ranks`: aggregate bandwidth of storage
// sessions against file size per rank and against ranks, drawn by the GUI's own chart
// (widgets/storagechart.h), or their data as CSV; and the resilience charts of
// `ridgeline-cli checkpoint -o` (goodput vs interval with the optimum marked, goodput vs nodes).
// The goodput chart's QChart filling lives here until it moves into widgets/ with the Resilience view.
#include <cmath>
#include <stdexcept>

#include <QChart>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QValueAxis>

#include "chartexport.h"
#include "chartexporters.h"
#include "chartimage.h"
#include "resilience/resilienceplan.h"
#include "storagechart.h"
#include "store/storageresults.h"
#include "store/workspace.h"
#include "storagecharts.h"

namespace rl::cli {
namespace {
QString qs(const std::string& s) { return QString::fromStdString(s); }

void exportStorage(const ChartExportRequest& r, storage::StorageAxis axis)
{
    std::vector<charts::StorageSessionData> sessions;
    bool anyPoint = false;
    for (auto id : r.sessions) {
        const auto s = r.workspace.session(id);
        if (!s || s->kind != kind::Storage)
            throw std::runtime_error("session " + std::to_string(id) + " is not a storage session");
        sessions.push_back({*s, store::storagePoints(r.workspace.database(), id)});
        anyPoint = anyPoint || !sessions.back().points.empty();
    }
    if (!anyPoint)
        throw std::runtime_error("the sessions have no storage points");
    charts::StorageChartOptions o;
    o.axis = axis;
    o.title = r.title;
    QString error;
    if (!charts::StorageChart::exportChart(sessions, o, QSize(r.width, r.height), r.path, &error))
        throw std::runtime_error(error.toStdString());
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
