#pragma once
// A report: what a colleague needs to see of a characterisation, as data (no Qt). Sections hold
// paragraphs, charts (named by kind and sessions; the writers in widgets/reportwriter.h draw them
// with the charts' own export code) and tables; the summary is sentences with numbers and units
// generated from the stored points ("all_reduce reaches 46 % of the NIC line rate at 1 GiB").
// Every session brings its provenance: tool and version, command line, hosts, devices,
// environment (NCCL_*, library versions), when.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "collectives/tierpeak.h"
#include "fits/alphabetafit.h"
#include "model/hardwareprofile.h"
#include "model/sizingreport.h"
#include "records/collectivepoint.h"
#include "records/session.h"

namespace rl::store {
class Workspace;
}

namespace rl::report {

struct Table
{
    std::string caption;
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
};

struct Chart
{
    std::string kind;                  // "bandwidth", "latency" (collectives), "roofline", "membw"
    std::vector<std::int64_t> sessions;
    std::string caption;
    bool predictedGemms = false;       // roofline: with the sizing's GEMMs of one step (writers get them)
};

struct Section
{
    std::string heading;
    std::vector<std::string> paragraphs;
    std::vector<Chart> charts;
    std::vector<Table> tables;
};

struct Report
{
    std::string title;
    std::string generated;   // ISO 8601 UTC
    std::string generator;   // "Ridgeline 0.1.0"
    std::string hardware;    // profile id the percentages are of; empty: each session's own device
    std::vector<std::string> summary;
    std::vector<Section> sections;
};

// Provenance of a session, one (field, value) per row; empty fields are left out. params'
// "environment" (object of NAME: value), "nccl_version", "hosts", "devices" and the like are spelt
// out; other params follow as JSON.
std::vector<std::pair<std::string, std::string>> provenanceRows(const Session& s);

// The best busbw of one op on one rank count, and where.
struct OpPeak
{
    std::string op;
    int ranks = 0;
    double busbwGBs = 0;
    std::int64_t bytes = 0;
    bool inPlace = false;
    std::string group;         // a --split session: the group of the peak point (of the slowest at each size)
    bool amongGroups = false;  // its level has several groups, of which the slowest at each size counts
};
// One per (op, ranks), in op order; a --split session's groups count by their slowest at each size
// (slowestGroupAtEachSize), one peak per level.
std::vector<OpPeak> peakPerOp(const std::vector<CollectivePoint>& points);

// "all_reduce on 16 ranks peaks at a busbw of 185 GB/s at 1 GiB, 46 % of the NIC line rate
// (2 nodes, h100-sxm: 8 x 400 Gb/s NICs = 400 GB/s per node)": the tier part only with a tier.
// reasoning: the tier's reasoning in the parenthesis too (sections; the summary leaves it out).
std::string peakSentence(const OpPeak& peak, const std::optional<TierPeak>& tier, bool reasoning = true);
// "all_reduce: alpha 24.3 µs, beta 400 GB/s (alpha-beta fit over 8 B .. 8 GiB, 32 points, rms error 3.1 %)"
std::string fitSentence(const std::string& op, const fits::AlphaBeta& fit);

// The summary sentences of one collective session: the peak per op (against the tier of hw,
// when given, else of the profile the session's devices name), then the alpha-beta fit per op.
std::vector<std::string> collectiveSummary(const Session& s, const std::vector<CollectivePoint>& points,
                                           const std::optional<HardwareProfile>& hw, bool reasoning = true);

// The sizing of a model on a device, already computed by the sizing model (model/sizingreport.h).
struct SizingInput
{
    std::string model;      // config name
    std::string layout;     // "tp=8,pp=2,dp=4"
    int gpus = 0;
    std::string device;     // profile id or name
    std::string dtype = "bf16";
    std::string recipe;     // model::recipeSummary of the layout, and the attention kernel
    model::Framework framework = model::Framework::MegatronCore; // whose published runs give the error band
    model::SizingReport sizing;
};
// The prediction for one trace or training-log session, made with the run's own layout, batch,
// sequence length and device where the session states them (as `ridgeline-cli vs-measured`).
struct RunPrediction
{
    std::int64_t session = 0;
    std::string layout;              // the layout predicted ("dp=2,tp=8")
    std::string device;
    std::vector<std::string> taken;  // what came from the run
    std::vector<std::string> assumed;
    model::SizingReport sizing;
    // Not compared, and why (model::modelMismatch): the run is another model, or does not say
    // which it is. A 128-rank trace of some other network against this model's step says nothing.
    std::string notCompared;
};
Section sizingSection(const SizingInput& in);
std::string sizingSentence(const SizingInput& in);

enum class Template { Sessions, Cluster };

struct Options
{
    std::string title;
    std::optional<HardwareProfile> hardware; // --hardware: the ceilings percentages are of
    Template layout = Template::Sessions;
    // The charts of collective sessions: "bandwidth" and/or "latency", in this order.
    std::vector<std::string> collectiveCharts{"bandwidth", "latency"};
    std::optional<SizingInput> sizing;       // --model on --hardware; none: a note says how to get it
    // Predicted vs measured for the trace / training-log sessions among ids: these predictions,
    // else the sizing above.
    std::vector<RunPrediction> runs;
};

// The report of the sessions `ids` (in that order). Sessions: one section per session (chart,
// summary, table, provenance). Cluster: collectives by tier (one node / several), kernels and
// roofline, the sizing. Throws std::runtime_error for an unknown id.
Report buildReport(store::Workspace& ws, const std::vector<std::int64_t>& ids, const Options& options);
} // namespace rl::report
