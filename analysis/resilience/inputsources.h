#pragma once
// Where the resilience planner's inputs come from, resolved the same way for ridgeline-cli
// (`checkpoint`, `reshape`) and the GUI's Resilience view: storage rates typed ("20GB/s:40GB/s") or
// from a stored storage session; node MTBF typed, from a published failure-rate row, or from an
// imported training log (its restarts over its wall time, and its restart gaps as relaunch time).
// Every function throws std::invalid_argument (or std::runtime_error for an unreadable file) with
// a message that starts with `what` (the option or field name), to show next to the input.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "resilience/checkpointsize.h"
#include "resilience/failures.h"

namespace rl::store {
class Workspace;
}

namespace rl::resilience {

// "20", "20GB/s", "20 GB/s" -> 20 (GB/s, 1e9 B/s); `what` names the input in the message.
double parseRate(const std::string& text, const std::string& what);
// "WRITE[:READ]" -> {write, read}; read = write when only one is given.
std::pair<double, double> parseRatePair(const std::string& text, const std::string& what);
// Typed aggregate rates (and optional per-rank limits, empty for none); source says so.
StorageRates typedRates(const std::string& aggregate, const std::string& perRank, const std::string& aggregateWhat,
                        const std::string& perRankWhat);
// The rates of a stored storage session (ratesFromPoints); throws when the id is not a storage
// session or it has no write or read points.
StorageRates storageSessionRates(store::Workspace& ws, std::int64_t sessionId, const std::string& what);

struct MtbfEstimate
{
    double nodeMtbfHours = 0;
    std::string source;                 // the basis, shown next to the figure
    std::optional<double> relaunchS;    // from a training log's restart gaps, when it has any
};
// "2000", "2000h", "90d" (days) per node.
MtbfEstimate typedMtbf(const std::string& text, const std::string& what);
MtbfEstimate tableMtbf(const std::vector<FailureRate>& table, const std::string& name, const std::string& what);
// A training-log session: node MTBF = wall time x nodes / restarts; nodesAssumed adds that the
// node count is the planned job's, not the logged one's.
MtbfEstimate trainingLogMtbf(store::Workspace& ws, std::int64_t sessionId, int nodes, bool nodesAssumed,
                             const std::string& what);
// The failure table from a JSON file (failureRatesFromJson), or the built-in one for an empty path.
std::vector<FailureRate> failureTableFrom(const std::string& jsonPath);
} // namespace rl::resilience
