#pragma once
// The sizing part of a report, the same for `ridgeline-cli report --hardware --model --parallel`
// and the GUI's File > Report…: the device the percentages and roofline ceilings are of, the
// chosen model sized on it (with its GEMMs for the roofline), and predicted vs measured for the
// trace and training-log sessions in their own layouts (as `ridgeline-cli vs-measured`).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/calibration.h"
#include "model/parallelconfig.h"
#include "report/report.h"
#include "views/kernelchartdata.h"

namespace rl::store {
class Workspace;
}

namespace rl::report {

// `ridgeline-cli size`'s defaults: what a report sizes with when nothing else is chosen.
model::ParallelConfig defaultRecipe();

struct SizingChoice
{
    std::string hardware;             // profile id or file; empty: each session's own device
    std::string model;                // config.json, a config saved in the workspace or a preset; empty: no sizing
    std::string parallel = "dp=8";    // the layout the model is sized in
    // The training recipe it is sized with: GEMM dtype, sequence length, micro-batches, ZeRO stage,
    // recompute, SP, overlaps, dispatcher (the degrees come from `parallel`). A run that states its
    // own keeps those. Default: `ridgeline-cli size`'s (ZeRO 1, bf16, one 4096-token sequence).
    model::ParallelConfig recipe = defaultRecipe();
    std::string attention;            // fused attention kernel of the profile; empty: timed as GEMMs by shape
    model::CalibrationChoice calibration; // default: the datasheet's figures
    // How the user gave each choice, for messages ("--parallel dp8: ...; e.g. --parallel dp=8,...").
    std::string parallelField = "--parallel";
    std::string hardwareField = "--hardware";
};

// Fills options.hardware, options.sizing and options.runs (one per trace / training-log session
// among ids) from `choice`; returns the sizing's GEMMs of one step for the roofline (nullopt
// without a model). Throws (std::runtime_error, std::invalid_argument, ProfileError) naming the
// problem: an unknown profile or model, a layout that does not parse or fit, a model without a
// device, a profile that cannot time the step.
std::optional<charts::GemmScatter> applySizing(store::Workspace& ws, const std::vector<std::int64_t>& ids,
                                               const SizingChoice& choice, Options& options);
} // namespace rl::report
