#pragma once
// Failures and the checkpoint interval: MTBF per node from a typed value, a training log (its
// restarts over its wall time) or published failure rates; job MTBF = node MTBF / nodes
// (independent exponential failures); Young's and Daly's optimum interval; expected goodput.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace rl::resilience {

// One published large-run failure record. Node MTBF = days x 24 x nodes / interruptions.
struct FailureRate
{
    std::string name;          // "llama3-405b"
    std::string description;   // what was run, on what
    int gpus = 0;
    int gpusPerNode = 8;
    double days = 0;           // observation window
    int interruptions = 0;     // failures (or restarts) in it
    std::string source;        // citation
    std::string note;          // caveats (e.g. "manual restarts only: a lower bound")
    double nodeMtbfHours() const;
    double gpuMtbfHours() const;
};
const std::vector<FailureRate>& publishedFailureRates();
// The same table as JSON (to edit and pass back with loadFailureRates).
nlohmann::json toJson(const std::vector<FailureRate>& table);
// Throws std::runtime_error naming the bad entry.
std::vector<FailureRate> failureRatesFromJson(const nlohmann::json& j);

// Node MTBF from a job that ran `nodes` nodes for wallHours with `restarts` restarts (a training
// log's figures). Throws std::invalid_argument when restarts < 1 (no failure seen: no estimate).
double nodeMtbfFromRestarts(double wallHours, int restarts, int nodes);
// Job MTBF of `nodes` nodes, each failing independently with nodeMtbf.
double jobMtbf(double nodeMtbf, int nodes);

// Young (1974): sqrt(2 C M).
double youngInterval(double checkpointCost, double mtbf);
// Daly (2006), the higher-order estimate: sqrt(2CM)[1 + (1/3)sqrt(C/2M) + (1/9)(C/2M)] - C for
// C < 2M, else M. The interval is compute time between the ends of two checkpoints' blocking part.
double dalyInterval(double checkpointCost, double mtbf);
// Daly's expected wall-clock model with exponential failures: goodput = useful / wall =
// tau / (M e^(R/M) (e^((tau + C)/M) - 1)), tau the compute interval, C the checkpoint cost, R the
// restart time (relaunch + load). 1 when M is infinite; 0 when tau <= 0.
double expectedGoodput(double interval, double checkpointCost, double restartTime, double mtbf);

struct GoodputCurvePoint
{
    double x = 0;
    double goodput = 0;
};
// Goodput over intervals from lo to hi (log-spaced, n points).
std::vector<GoodputCurvePoint> goodputVsInterval(double checkpointCost, double restartTime, double mtbf, double lo,
                                                 double hi, int n);
} // namespace rl::resilience
