#pragma once
// What the storage charts show, computed from stored points (Qt-free, unit-tested): aggregate
// bandwidth against file size per rank (one line per op, access, ranks and block size) and against
// the number of ranks (one line per op, access, file and block size); and the CSV behind both.
// The GUI's Storage view and `ridgeline-cli export --chart storage-*` load and draw them alike.
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "records/session.h"
#include "records/storagepoint.h"
#include "views/chartdata.h"

namespace rl::store {
class Workspace;
}

namespace rl::storage {

enum class StorageAxis { FileSize, Ranks };

struct StorageSeries
{
    std::string label;                          // "write fpp 4 ranks 1 MiB blocks"
    std::string op;
    std::vector<std::pair<double, double>> xy;  // (bytes or ranks, aggregate GB/s), sorted by x
};

struct StorageSessionData
{
    Session session;
    std::vector<StoragePoint> points;
};

// Reads the sessions in the given order with their storage points (none for other kinds). A
// missing session throws or is left out, and cancelled is asked between sessions, as for
// charts::loadSessionCurves.
std::vector<StorageSessionData> loadStorageSessions(store::Workspace& workspace, const std::vector<std::int64_t>& ids,
                                                    charts::MissingSession missing = charts::MissingSession::Fail,
                                                    const std::function<bool()>& cancelled = {});

// Series with at least one point; several sessions are told apart by their title in the label.
std::vector<StorageSeries> storageSeries(const std::vector<StorageSessionData>& sessions, StorageAxis axis);
// "series,x,aggregate_gbs" rows of the chart.
std::string storageSeriesCsv(const std::vector<StorageSeries>& series, StorageAxis axis);
// The CSV of the chart of the sessions: storageSeriesCsv(storageSeries(...)).
std::string storageChartCsv(const std::vector<StorageSessionData>& sessions, StorageAxis axis);
} // namespace rl::storage
