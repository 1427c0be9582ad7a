#include "model/storedruncalibration.h"

#include <stdexcept>

#include "model/hardwareprofileloader.h"
#include "model/predictedvsmeasured.h"
#include "store/traceresults.h"
#include "store/workspace.h"

namespace rl::model {

StoredRunCalibration calibrateFromStoredRun(store::Workspace& ws, std::int64_t id, const SizingRequest& req,
                                            const Calibration& cal)
{
    const std::string name = "session " + std::to_string(id);
    const auto s = ws.session(id);
    if (!s)
        throw std::runtime_error("--calibrate-from: no " + name + " in " + ws.path());
    MeasuredStep measured;
    try {
        measured = measuredFromSession(*s, store::stepBreakdowns(ws.database(), id), store::trainSteps(ws.database(), id));
    } catch (const std::invalid_argument& e) {
        throw std::runtime_error("--calibrate-from " + std::to_string(id) + ": " + e.what());
    }
    const MeasuredRun run = storedMeasuredRun(ws, *s);
    StoredRunCalibration out;
    const std::string mismatch = modelMismatch(run, req.model);
    if (!mismatch.empty()) {
        if (run.layers > 0 || run.hidden > 0 || run.heads > 0) // it states a shape, and not this one
            throw std::runtime_error("--calibrate-from " + std::to_string(id) + ": " + mismatch);
        out.assumed.push_back("the run's model is " + req.model.name + " (" + mismatch + ")");
    }
    std::vector<std::string> profileIds;
    for (const auto& hw : availableHardwareProfiles())
        profileIds.push_back(hw.id);
    const RunInputs inputs = applyMeasuredRun(run, req.layout, req.hardware.id, profileIds);
    if (!inputs.hardware.empty() && !req.hardware.id.empty() && inputs.hardware != req.hardware.id)
        throw std::runtime_error("--calibrate-from " + std::to_string(id) + ": the run was on " + inputs.hardware +
                                 ", the prediction is for " + req.hardware.id +
                                 ": calibrate from a run on the same device");
    out.taken = inputs.taken;
    for (const auto& a : inputs.assumed)
        out.assumed.push_back(a);
    out.runLayout = parallelLayout(req.model, parallelSpec(inputs.parallel), inputs.parallel);
    SizingRequest ran = req;
    ran.layout = out.runLayout;
    const auto predicted = evaluate(ran, cal);
    out.rates = fitRunRates(predicted.report.step, measured, name + " (" + s->title + "), " + measured.source,
                            predicted.rates);
    return out;
}
} // namespace rl::model
