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

// `inference.tp` is taken from the parallel layout. Throws std::invalid_argument when the layout
// does not fit the model (checkParallel's message).
SizingReport evaluateSizing(const ModelConfig& c, const ParallelConfig& p, const DeviceRates& r,
                            const GemmTiming& timing, const CollectiveTimeSource& collectives,
                            InferenceOptions inference);
} // namespace rl::model
