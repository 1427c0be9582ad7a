#pragma once
// Run calibration (model/runcalibration.h) from a trace or training log stored in the workspace: the
// request's model and device, the run's own layout, micro-batch, batch and sequence where the run
// states them (the request's otherwise, reported as assumed). Reading the store and fitting are
// apart, so the GUI reads in a worker and fits as the form changes.
#include <cstdint>
#include <string>
#include <vector>

#include "model/measuredrun.h"
#include "model/predictedvsmeasured.h"
#include "model/runcalibration.h"
#include "model/sizingrequest.h"

namespace rl::store {
class Workspace;
}

namespace rl::model {

// What a stored run measured and states about itself.
struct StoredRun
{
    std::int64_t session = 0;
    std::string title;
    MeasuredStep measured;
    MeasuredRun run;
};
// Throws std::runtime_error naming the session when it is missing, not a trace or training log, or
// has no timed steps.
StoredRun readStoredRun(store::Workspace& ws, std::int64_t session);

struct StoredRunCalibration
{
    RunRates rates;
    ParallelConfig runLayout;          // the configuration that ran, as predicted
    std::vector<std::string> taken;    // what the run stated ("layout dp=2, tp=8 (Megatron-LM arguments)")
    std::vector<std::string> assumed;  // what it did not ("ZeRO stage 1", "the model ...")
};

// Throws std::runtime_error when the run is another model (by the shape it states) or ran on another
// device than `req`.
StoredRunCalibration calibrateFromRun(const StoredRun& run, const SizingRequest& req, const Calibration& cal);
// readStoredRun and calibrateFromRun.
StoredRunCalibration calibrateFromStoredRun(store::Workspace& ws, std::int64_t session, const SizingRequest& req,
                                            const Calibration& cal);
} // namespace rl::model
