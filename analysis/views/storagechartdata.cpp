#include "views/storagechartdata.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <stdexcept>

#include "io/csv.h"
#include "store/storageresults.h"
#include "store/workspace.h"
#include "units/units.h"

namespace rl::storage {

std::vector<StorageSessionData> loadStorageSessions(store::Workspace& workspace, const std::vector<std::int64_t>& ids,
                                                    charts::MissingSession missing,
                                                    const std::function<bool()>& cancelled)
{
    std::vector<StorageSessionData> out;
    for (const auto id : ids) {
        if (cancelled && cancelled())
            break;
        auto s = workspace.session(id);
        if (!s && missing == charts::MissingSession::Skip)
            continue;
        if (!s)
            throw std::runtime_error("no session " + std::to_string(id) + " in " + workspace.path());
        out.push_back({std::move(*s), store::storagePoints(workspace.database(), id)});
    }
    return out;
}

std::vector<StorageSeries> storageSeries(const std::vector<StorageSessionData>& sessions, StorageAxis axis)
{
    std::vector<StorageSeries> out;
    for (const auto& s : sessions) {
        std::map<std::string, StorageSeries> byKey;
        std::vector<std::string> order;
        for (const auto& p : s.points) {
            const std::string access = p.access == storage_access::SharedFile ? "shared" : "fpp";
            const std::string block = p.blockBytes > 0 ? units::formatBytes(double(p.blockBytes)) + " blocks" : "";
            std::string label = p.op + " " + access + " ";
            label += axis == StorageAxis::FileSize ? std::to_string(p.nranks) + (p.nranks == 1 ? " rank" : " ranks")
                                                   : units::formatBytes(double(p.fileBytes)) + "/rank";
            if (!block.empty())
                label += ", " + block;
            if (sessions.size() > 1)
                label = s.session.title + ": " + label;
            auto [it, fresh] = byKey.try_emplace(label);
            if (fresh) {
                order.push_back(label);
                it->second.label = label;
                it->second.op = p.op;
            }
            it->second.xy.emplace_back(axis == StorageAxis::FileSize ? double(p.fileBytes) : double(p.nranks),
                                       p.aggregateGBs);
        }
        for (const auto& k : order) {
            auto& series = byKey[k];
            std::sort(series.xy.begin(), series.xy.end());
            out.push_back(std::move(series));
        }
    }
    return out;
}

std::string storageSeriesCsv(const std::vector<StorageSeries>& series, StorageAxis axis)
{
    std::ostringstream out;
    // GB/s as stored, whatever the display unit (the column name says so), as the other exports.
    out << "series," << (axis == StorageAxis::FileSize ? "file_bytes_per_rank" : "ranks") << ",aggregate_gbs\n";
    for (const auto& s : series)
        for (const auto& [x, y] : s.xy)
            out << io::csvField(io::csvText(s.label)) << ',' << x << ',' << y << '\n';
    return out.str();
}

std::string storageChartCsv(const std::vector<StorageSessionData>& sessions, StorageAxis axis)
{
    return storageSeriesCsv(storageSeries(sessions, axis), axis);
}
} // namespace rl::storage
