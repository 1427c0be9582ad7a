#pragma once
// fio's JSON output (--output-format=json) as storage points: shared by the fio importer and
// `ridgeline-bench io --compare-fio`.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "records/storagepoint.h"

namespace rl {
// One point per reporting group and direction with bytes moved. Jobs of one group are its ranks:
// aggregate = the group's bytes / its longest job runtime; with group_reporting fio prints one
// entry for numjobs jobs (per-rank figures unknown). notes receives what could not be mapped
// (random access, mixed workloads, job errors). Throws std::runtime_error when there is no "jobs".
std::vector<StoragePoint> fioStoragePoints(const nlohmann::json& doc, std::vector<std::string>* notes = nullptr);
} // namespace rl
