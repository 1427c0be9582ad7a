#pragma once
// What the storage charts show, computed from stored points (Qt-free, unit-tested): aggregate
// bandwidth against file size per rank (one line per op, access, ranks and block size) and against
// the number of ranks (one line per op, access, file and block size); and the CSV behind both.
#include <string>
#include <utility>
#include <vector>

#include "records/storagepoint.h"

namespace rl::storage {

enum class StorageAxis { FileSize, Ranks };

struct StorageSeries
{
    std::string label;                          // "write fpp 4 ranks 1 MiB blocks"
    std::string op;
    std::vector<std::pair<double, double>> xy;  // (bytes or ranks, aggregate GB/s), sorted by x
};

struct StorageSessionPoints
{
    std::string title;
    std::vector<StoragePoint> points;
};

// Series with at least one point; several sessions are told apart by their title in the label.
std::vector<StorageSeries> storageSeries(const std::vector<StorageSessionPoints>& sessions, StorageAxis axis);
// "series,x,aggregate_gbs" rows of the chart.
std::string storageSeriesCsv(const std::vector<StorageSeries>& series, StorageAxis axis);
} // namespace rl::storage
