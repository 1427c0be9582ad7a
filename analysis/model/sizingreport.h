#pragma once
// Everything the sizing model says about one configuration, computed in one place for the CLI's
// `size` command and the GUI's config editor: parameters, FLOPs, the training step (memory, time,
// MFU), prefill and decode, and the sizing-rule findings. Closed-form: microseconds per call.
#include <vector>

#include "model/collectivetimesource.h"
#include "model/devicerates.h"
#include "model/gemmlist.h"
#include "model/inference.h"
#include "model/modelcounts.h"
#include "model/parallelconfig.h"
#include "model/sizingrules.h"
#include "model/trainingstep.h"

namespace rl::model {

// What needs no hardware: what the model is (parameters, FLOPs per token), what one GPU holds for
// training under the layout, and the shape rules (the wave-quantization rule only with a known
// compute-unit count: computeUnits 0 leaves it out). `ridgeline-cli size` without a device
// prints this much.
struct ModelSizing
{
    ParamCounts params;
    FlopCounts forward;
    TrainingFlops training;
    TrainingMemory memory; // per GPU
    std::vector<RuleFinding> findings;
};

// Throws std::invalid_argument when the layout does not fit the model (checkParallel's message).
ModelSizing evaluateModelSizing(const ModelConfig& c, const ParallelConfig& p, int computeUnits = 0);

struct SizingReport
{
    ParamCounts params;
    FlopCounts forward;
    TrainingFlops training;
    StepEstimate step;
    InferenceOptions inference;
    double prefillSeconds = 0;
    DecodeEstimate decode;
    std::vector<RuleFinding> findings;
};

// The "memory" rule: passes with the GB used of the GB usable, or warns that the layout cannot run
// (memoryFitProblem's figures), so a layout that does not fit never reads "ok" in every rule.
RuleFinding memoryFinding(const StepEstimate& step);

// The above plus what the device decides (the step, prefill, decode); `inference.tp` is taken
// from the parallel layout. With a known device memory the findings start with memoryFinding.
// Throws std::invalid_argument when the layout does not fit the model.
SizingReport evaluateSizing(const ModelConfig& c, const ParallelConfig& p, const DeviceRates& r,
                            const GemmTiming& timing, const CollectiveTimeSource& collectives,
                            InferenceOptions inference);
} // namespace rl::model
