#pragma once
// The layout search: every combination of a LayoutSpace for one model on one cluster, each either
// illegal (the first rule it breaks), out of memory (its largest memory component named) or timed by
// the sizing model and ranked by step time. Per search, the per-micro-batch stage costs (GEMMs,
// attention, element-wise kernels) are computed once per distinct layer shape and the collective
// times once per distinct call, and reused across the layouts that share them; every core works on
// its own share of the space. The top N come with the validation tables' error band for the model's
// kind and device, layouts within that band of #1 marked as ties with it, a Pareto front of step time
// against memory, and where a layout the user gives ("yours") stands.
#include <array>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "model/calibration.h"
#include "model/hardwareprofile.h"
#include "model/runcalibration.h"
#include "model/sizingrequest.h"
#include "model/trainingstep.h"
#include "model/validation.h"
#include "plan/layout.h"
#include "plan/layoutspace.h"

namespace rl::plan {

struct PlanRequest
{
    model::SizingRequest base; // the model, the device, the recipe the layouts start from (sequence, flash
                               // attention, dropout, gradient-accumulation fusion), the calibration choice
    Cluster cluster;
    LayoutSpace space;         // defaultSpace, narrowed by --fix
    Allowances allow;
    int top = 20;
    std::optional<Layout> yours;
    unsigned threads = 0;      // 0: every core
    bool cacheShapes = true;   // false: every layout times its GEMMs and collectives anew (the benchmark's reference)
    // Factors from a measured run of this model (--calibrate-from): every layout's step is scaled
    // by them before it is ranked.
    std::optional<model::RunRates> runRates;
};

// The first rule `l` breaks, or nullopt when it is legal on this cluster.
std::optional<Rule> checkLayout(const Layout& l, const model::ModelConfig& c, const HardwareProfile& hw,
                                const Cluster& cl, const Allowances& allow);

// Memory components, in the order out-of-memory layouts are counted by (their largest).
// In model::memoryPart order.
enum class MemoryPart : int { Weights, Gradients, Optimizer, Activations, Working, Communication, Count };
static_assert(int(MemoryPart::Count) == model::kMemoryParts);
const char* toString(MemoryPart p);
MemoryPart largestPart(const model::TrainingMemory& m);

struct PlanCounts
{
    double enumerated = 0;
    std::array<double, kRuleCount> illegal{};
    std::array<double, int(MemoryPart::Count)> outOfMemory{};
    double ranked = 0;
    double illegalTotal() const;
    double outOfMemoryTotal() const;
};

struct PlanRow
{
    Layout layout;
    model::ParallelConfig parallel; // as evaluated
    model::StepEstimate step;
    long long rank = 0;             // 1-based among the ranked layouts
    double gapToBest = 0;           // step / #1's step - 1
    bool tieWithBest = false;       // within the error band's median of #1: not told apart by the model
};

struct YourLayout
{
    Layout layout;
    std::optional<Rule> illegal;    // why it was left out
    std::string outOfMemory;        // "does not fit: ... (largest: activations 61 GB)"; empty when it fits
    std::optional<PlanRow> row;     // when it was ranked
    // "#37 of 4,210, 14 % slower than #1: pipeline bubble +9 %, exposed TP +4 %", or why it was left out.
    std::string explanation;
};

struct PlanResult
{
    PlanCounts counts;
    std::vector<PlanRow> top;    // best first
    std::vector<PlanRow> pareto; // not dominated in (step time, memory per GPU), fastest first
    std::optional<YourLayout> yours;
    model::ErrorBand band;       // the validation tables' band for this model kind on this device
    double seconds = 0;
    std::size_t distinctShapes = 0; // stage costs computed (cache entries over all threads)
    unsigned threads = 1;
    bool cancelled = false;
};

// progress(done, total) in combinations, from the calling thread about every 100 ms; false cancels.
using PlanProgress = std::function<bool(double done, double total)>;

// The device is req.base.hardware (its scale-up domain taken as req.cluster.gpusPerNode); `cal` the
// Calibration read from req.base.calibration. Throws std::invalid_argument for a request that cannot
// be searched (no GPUs, a global batch of 0, a layer count of 0).
PlanResult runPlan(const PlanRequest& req, const model::Calibration& cal, const PlanProgress& progress = {});

// What makes `row` slower than `best`, largest first: "pipeline bubble +9 %, exposed TP +4 %" (shares
// of best's step time; only the parts that grew).
std::string explainGap(const model::StepEstimate& row, const model::StepEstimate& best);

// Every ranked row of a result as CSV (the top N, then the Pareto rows not among them).
std::string toCsv(const PlanResult& r);
} // namespace rl::plan
