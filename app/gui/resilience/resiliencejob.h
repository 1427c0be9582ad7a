#pragma once
// The Resilience view's computation as plain values, so it runs on a worker: the inputs as the form
// holds them in, the plan, the reshape plan and, for each input that is wrong, why (shown next to
// that field). Storage and MTBF sources are resolved by analysis/resilience/inputsources.h, the
// same code ridgeline-cli's `checkpoint` and `reshape` use, so the view's numbers are the CLI's.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/modelconfig.h"
#include "model/parallelconfig.h"
#include "records/session.h"
#include "resilience/reshape.h"
#include "resilience/resilienceplan.h"

namespace rl {

struct ResilienceRequest
{
    std::string workspace;                   // for storage and training-log sessions
    std::optional<model::ModelConfig> config; // none: the model field says why (configError)
    std::string configError;
    std::string parallel = "dp=8";
    int zero = 1;
    resilience::CheckpointContents contents;
    std::int64_t storageSession = 0;         // 0: typed rates
    std::string typedRates = "10:20";        // write[:read] aggregate GB/s
    std::string perRankRates;                // optional per-rank limit
    enum class Mtbf { Typed, Table, Log } mtbf = Mtbf::Table;
    std::string typedMtbfHours;
    std::string tableName = "llama3-405b";
    std::int64_t logSession = 0;
    int logNodes = 0;                        // 0: the planned job's
    int gpusPerNode = 8;
    double relaunchS = 300;
    bool relaunchFromLog = true;             // with a training log: its mean restart gap
    bool async = false;
    double snapshotGBs = 25;
    std::string reshapeTo;                   // empty: no reshape
    int reshapeZero = 1;
    double networkGBs = 0;
};

struct ResilienceOutcome
{
    std::optional<resilience::ResiliencePlan> plan;
    resilience::ResilienceInputs inputs;     // as resolved: rates, MTBF and their sources
    model::ParallelConfig layout;
    std::string subject;                     // "llama-3-8b, tp=2 pp=2 dp=4"
    std::optional<resilience::ReshapePlan> reshape;
    model::ParallelConfig reshapeLayout;
    // Why an input is wrong, by field; empty when it is fine.
    std::string configError, layoutError, storageError, mtbfError, reshapeError, planError;
};

ResilienceOutcome computeResilience(const ResilienceRequest& request);

// The sessions the view offers as sources, newest first.
struct ResilienceSources
{
    std::vector<Session> storage;
    std::vector<Session> trainingLogs;
    std::string error;
};
ResilienceSources readResilienceSources(const std::string& workspace);
} // namespace rl
