#pragma once
// The resilience numbers for one model and layout: checkpoint size and times, job MTBF, the optimum
// interval and the goodput there, and the two curves the Resilience view charts (goodput vs
// interval with the optimum marked; goodput vs number of nodes for the same model).
#include <string>
#include <vector>

#include "resilience/checkpointsize.h"
#include "resilience/failures.h"

namespace rl::resilience {

struct ResilienceInputs
{
    CheckpointContents contents;
    StorageRates storage;
    double nodeMtbfHours = 0;
    std::string mtbfSource;       // "typed", "training log session 4 (3 restarts in 41.0 h on 16 nodes)", ...
    int gpusPerNode = 8;
    bool async = false;           // snapshot to host memory, then drain in the background
    double snapshotGBs = 25;      // device-to-host copy per GPU
    double relaunchS = 300;       // scheduler + process start + NCCL init, before loading (from logs when known)
};

struct ResiliencePlan
{
    CheckpointSize size;
    CheckpointTimes times;
    int nodes = 0;
    double jobMtbfS = 0;
    double checkpointCostS = 0;   // what training loses per checkpoint: sync save, or the async snapshot
    double restartS = 0;          // relaunch + load
    double youngS = 0, dalyS = 0; // optimum compute interval between checkpoints
    double intervalS = 0;         // the one used: Daly's, raised to the async drain time when needed
    double goodput = 0;           // at intervalS
    std::vector<GoodputCurvePoint> vsInterval; // seconds
    std::vector<GoodputCurvePoint> vsNodes;    // x = nodes; the interval re-optimised at each size
    std::vector<std::string> notes;
};

// Throws std::invalid_argument for a bad layout (model::checkParallel's reason) or missing rates.
ResiliencePlan planResilience(const model::ModelConfig& c, const model::ParallelConfig& p, const ResilienceInputs& in);
} // namespace rl::resilience
