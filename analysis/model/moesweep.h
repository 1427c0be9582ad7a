#pragma once
// MoE trade-off sweep: experts x top-k x shared experts (x expert width), holding active
// parameters, total parameters or FLOPs per token at the base config's value by solving for the
// expert width (rounded to widthMultiple). Per config: training throughput and MFU, decode
// latency, parameters and memory per GPU; then the exact Pareto front (max throughput, min latency).
// The per-config evaluation is closed-form and allocation-free; see tests/benchmarks/bench_model.cpp.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "model/inference.h"
#include "model/memorymodel.h"
#include "model/trainingstep.h"

namespace rl::model {

enum class SweepHold { ActiveParams, TotalParams, FlopsPerToken, None };
const char* toString(SweepHold h);

struct MoeSweepSpec
{
    ModelConfig base;
    std::vector<int> experts{8, 16, 32, 64, 128, 256};
    std::vector<int> topK{1, 2, 4, 8};
    std::vector<int> sharedExperts{0, 1};
    std::vector<int> expertWidths; // only for SweepHold::None
    SweepHold hold = SweepHold::ActiveParams;
    int widthMultiple = 64;
    ParallelConfig parallel;
    InferenceOptions decode;
    GemmTiming timing;
};

struct MoeSweepRow
{
    int experts = 0, topK = 0, sharedExperts = 0, expertWidth = 0;
    double totalParams = 0, activeParams = 0, flopsPerToken = 0; // forward FLOPs per token
    double memoryPerGpuBytes = 0;
    double stepSeconds = 0, tokensPerSecond = 0, mfu = 0;
    double decodeSecondsPerToken = 0;
    // The shape's own dimensions, set by the shape search (plan/shapesearch.h) for every row, 0 in
    // runMoeSweep's rows (they keep the base's); a dense row has experts == 0.
    int dModel = 0, ffnWidth = 0, layers = 0, heads = 0, kvHeads = 0;
    bool isDenseShape() const { return experts == 0 && dModel > 0; }
    bool fits = true;   // the training step fits the device with headroom (StepEstimate::fitsMemory; true when capacity is unknown)
    bool pareto = false; // never set on a row that does not fit: it cannot be run as swept
};

struct MoeSweepResult
{
    std::vector<MoeSweepRow> rows;
    double heldValue = 0; // the base config's value of the held quantity
    double deviceMemoryBytes = 0; // HBM per GPU the rows were checked against; 0 = unknown
    bool cancelled = false;
};

// The configurations a sweep visits, in its order: every experts x top-k x shared (x width) of the
// axes, the expert width solved for the held quantity (rounded to widthMultiple), impossible ones
// (top-k above the experts, a width of 0) left out. Throws std::invalid_argument for a dense base.
std::vector<ModelConfig> moeSweepShapes(const MoeSweepSpec& spec);
// The base config's value of the held quantity (0 for SweepHold::None).
double sweepHeldValue(const MoeSweepSpec& spec);

// progress(done, total) every few thousand configs; return false to cancel.
using SweepProgress = std::function<bool(std::size_t done, std::size_t total)>;

MoeSweepResult runMoeSweep(const MoeSweepSpec& spec, const DeviceRates& rates, const CollectiveTimeSource& coll,
                           const SweepProgress& progress = {});

// The hot path: evaluates `work` (a MoE config) in place; no allocation.
MoeSweepRow evaluateMoeConfig(const ModelConfig& work, const ParallelConfig& p, const InferenceOptions& decode,
                              const DeviceRates& rates, const GemmTiming& timing, const CollectiveTimeSource& coll);

// Marks rows not dominated in (tokensPerSecond up, decodeSecondsPerToken down) among the rows that
// fit the device; exact, O(n log n).
void markParetoFront(std::vector<MoeSweepRow>& rows);

// One line per row; rows that are all dense shapes (experts 0, dModel set) give hidden, ffn_width,
// layers, heads and kv_heads in place of the four MoE columns.
std::string toCsv(const MoeSweepResult& r);
// Whether rows are a dense shape search's (every one a dense shape; none: false).
bool allDenseShapes(const std::vector<MoeSweepRow>& rows);

// One sweep axis as typed by a user: "8,16,32", ranges "512:4096:256" (kernels/sizelist.h) or a
// mix; every value in 0..1,000,000. Throws std::invalid_argument naming `what` and the bad item.
std::vector<int> parseSweepValues(std::string_view text, const std::string& what);
} // namespace rl::model
