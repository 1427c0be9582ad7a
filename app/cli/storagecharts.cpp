// `ridgeline-cli export SESSION... --chart storage-size|storage-ranks`: aggregate bandwidth of storage
// sessions against file size per rank and against ranks: the data as CSV from
// analysis/views/storagechartdata.h in any build, the image by the GUI's own chart code
// (chartimages.h). (The goodput charts of `checkpoint -o` are widgets/goodputchart.h, shared with
// the GUI's Resilience view.)
#include <stdexcept>

#include "chartexporters.h"
#include "chartimages.h"
#include "chartoutput.h"
#include "views/storagechartdata.h"

namespace rl::cli {
namespace {
void exportStorage(const ChartExportRequest& r, storage::StorageAxis axis)
{
    const auto sessions = storage::loadStorageSessions(r.workspace, r.sessions);
    bool anyPoint = false;
    for (const auto& s : sessions) {
        if (s.session.kind != kind::Storage)
            throw std::runtime_error("session " + std::to_string(s.session.id) + " is not a storage session");
        anyPoint = anyPoint || !s.points.empty();
    }
    if (!anyPoint)
        throw std::runtime_error("the sessions have no storage points");
    writeChartOutput(r.path, [&] { return storage::storageChartCsv(sessions, axis); },
                     [&] { writeStorageImage(r, sessions, axis); });
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
