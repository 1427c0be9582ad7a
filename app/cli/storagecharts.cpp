// `ridgeline-cli export SESSION... --chart storage-size|storage-ranks`: aggregate bandwidth of storage
// sessions against file size per rank and against ranks (log axes), or their data as CSV. The
// series come from analysis/storage/storagechartdata.h. (The goodput charts of `checkpoint -o` are
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
} // namespace rl::cli
