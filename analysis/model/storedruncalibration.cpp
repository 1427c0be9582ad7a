#include "model/storedruncalibration.h"

#include <stdexcept>

#include "model/hardwareprofileloader.h"
#include "store/traceresults.h"
#include "store/workspace.h"

namespace rl::model {
namespace {
// "session 7: " before what is wrong with it (the CLI's --calibrate-from and the GUI's picker alike).
std::string named(std::int64_t id) { return "measured run, session " + std::to_string(id) + ": "; }
} // namespace

StoredRun readStoredRun(store::Workspace& ws, std::int64_t id)
{
    const auto s = ws.session(id);
    if (!s)
        throw std::runtime_error(named(id) + "not in " + ws.path() + " (`ridgeline-cli sessions` lists them)");
    StoredRun out;
    out.session = id;
    out.title = s->title;
    try {
        out.measured = measuredFromSession(*s, store::stepBreakdowns(ws.database(), id), store::trainSteps(ws.database(), id));
    } catch (const std::invalid_argument& e) {
        throw std::runtime_error(named(id) + e.what());
    }
    out.run = storedMeasuredRun(ws, *s);
    return out;
}

StoredRunCalibration calibrateFromRun(const StoredRun& stored, const SizingRequest& req, const Calibration& cal)
{
    const std::int64_t id = stored.session;
    const MeasuredRun& run = stored.run;
    StoredRunCalibration out;
    const std::string mismatch = modelMismatch(run, req.model);
    if (!mismatch.empty()) {
        if (run.layers > 0 || run.hidden > 0 || run.heads > 0) // it states a shape, and not this one
            throw std::runtime_error(named(id) + mismatch);
        out.assumed.push_back("the run's model is " + req.model.name + " (" + mismatch + ")");
    }
    std::vector<std::string> profileIds;
    for (const auto& hw : availableHardwareProfiles())
        profileIds.push_back(hw.id);
    const RunInputs inputs = applyMeasuredRun(run, req.layout, req.hardware.id, profileIds);
    if (!inputs.hardware.empty() && !req.hardware.id.empty() && inputs.hardware != req.hardware.id)
        throw std::runtime_error(named(id) + "the run was on " + inputs.hardware + ", the prediction is for " +
                                 req.hardware.id + ": calibrate from a run on the same device");
    out.taken = inputs.taken;
    for (const auto& a : inputs.assumed)
        out.assumed.push_back(a);
    out.runLayout = parallelLayout(req.model, parallelSpec(inputs.parallel), inputs.parallel);
    SizingRequest ran = req;
    ran.layout = out.runLayout;
    const auto predicted = evaluate(ran, cal);
    out.rates = fitRunRates(predicted.report.step, stored.measured,
                            "session " + std::to_string(id) + " (" + stored.title + "), " + stored.measured.source,
                            predicted.rates);
    return out;
}

StoredRunCalibration calibrateFromStoredRun(store::Workspace& ws, std::int64_t id, const SizingRequest& req,
                                            const Calibration& cal)
{
    return calibrateFromRun(readStoredRun(ws, id), req, cal);
}
} // namespace rl::model
