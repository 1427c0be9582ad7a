// `ridgeline-cli export SESSION... --chart storage-size|storage-ranks`: aggregate bandwidth of storage
// sessions against file size per rank and against ranks, drawn by the GUI's own chart
// (widgets/storagechart.h), or their data as CSV. (The goodput charts of `checkpoint -o` are
// widgets/goodputchart.h, shared with the GUI's Resilience view.)
#include <cmath>
#include <stdexcept>

#include <QChart>
#include <QLineSeries>
#include <QLogValueAxis>

#include "chartexport.h"
#include "chartexporters.h"
#include "chartimages.h"
#include "chartimage.h"
#include "storagechart.h"
#include "views/storagechartdata.h"
#include "store/storageresults.h"
#include "store/workspace.h"

namespace rl::cli {
namespace {
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
    drawChart(r.path, [&](const QString& path, QString* error) {
        return charts::StorageChart::exportChart(sessions, o, QSize(r.width, r.height), path, error);
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
} // namespace rl::cli
