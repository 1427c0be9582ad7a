#include "report/reportsizing.h"
#include "model/sizingrequest.h"

#include <stdexcept>

#include "model/attentionkernel.h"
#include "model/configlookup.h"
#include "model/hardwareprofileloader.h"
#include "model/inference.h"
#include "model/measuredrun.h"
#include "model/sizingreport.h"
#include "store/workspace.h"

namespace rl::report {

model::ParallelConfig defaultRecipe()
{
    model::ParallelConfig p;
    p.zeroStage = 1; // the size command's --zero default; the struct's 0 is "no ZeRO"
    return p;
}

namespace {
using namespace rl::model;

// As `ridgeline-cli vs-measured SESSION --model ... --hardware ...`: the run's own layout, batch,
// sequence length and device where the session states them, the choice's otherwise.
RunPrediction predictRun(store::Workspace& ws, const Session& s, const ModelConfig& c, const ParallelConfig& chosen,
                         const SizingChoice& choice, const Calibration& cal)
{
    std::vector<std::string> profileIds;
    for (const auto& hw : availableHardwareProfiles())
        profileIds.push_back(hw.id);
    // The chosen hardware is the cluster's device: it wins; the layout comes from the run when it says.
    const RunInputs inputs =
        applyMeasuredRun(storedMeasuredRun(ws, s), chosen, choice.hardware, profileIds, UserSet{false, false, false, true});
    const auto p = parallelLayout(c, parallelSpec(inputs.parallel), inputs.parallel);
    RunPrediction out;
    out.session = s.id;
    out.layout = parallelSpec(p);
    out.device = inputs.hardware.empty() ? choice.hardware : inputs.hardware;
    out.taken = inputs.taken;
    out.assumed = inputs.assumed;
    SizingRequest req;
    req.model = c;
    req.hardware = findHardwareProfile(out.device);
    req.layout = p;
    req.attentionKernel = choice.attention;
    req.calibration = cal.choice();
    out.sizing = evaluate(req, cal).report;
    return out;
}
} // namespace

std::optional<charts::GemmScatter> applySizing(store::Workspace& ws, const std::vector<std::int64_t>& ids,
                                               const SizingChoice& choice, Options& options)
{
    if (!choice.hardware.empty())
        options.hardware = findHardwareProfile(choice.hardware);
    if (choice.model.empty())
        return std::nullopt;
    if (!options.hardware)
        throw std::runtime_error("sizing '" + choice.model + "' needs " + choice.hardwareField +
                                 ": the device the model is sized on");
    const HardwareProfile& hw = *options.hardware;
    const auto c = findModelConfig(choice.model, &ws);
    const auto p = parallelLayoutOf(c, choice.parallel, choice.recipe, choice.parallelField);
    const Calibration cal(choice.calibration.readsStore() ? &ws : nullptr, choice.calibration);
    SizingRequest req;
    req.model = c;
    req.hardware = hw;
    req.layout = p;
    req.attentionKernel = choice.attention;
    req.calibration = choice.calibration;
    req.inference.batch = 1;
    req.inference.contextTokens = req.inference.promptTokens = 4096;
    const auto sized = evaluate(req, cal);
    const auto& r = sized.rates;
    SizingInput in;
    in.model = c.name;
    in.layout = choice.parallel;
    in.gpus = p.worldSize();
    in.device = hw.id; // the profile's id, also when it was named by its file
    in.dtype = p.dtype;
    in.framework = p.framework;
    in.recipe = recipeSummary(p) + "; attention " + attentionSummary(r, c, p);
    in.sizing = sized.report;
    options.sizing = std::move(in);
    for (auto id : ids) {
        const auto s = ws.session(id);
        if (!s || (s->kind != kind::Trace && s->kind != kind::TrainingLog))
            continue;
        if (auto why = modelMismatch(storedMeasuredRun(ws, *s), c); !why.empty()) {
            RunPrediction skipped;
            skipped.session = s->id;
            skipped.notCompared = std::move(why);
            options.runs.push_back(std::move(skipped));
            continue;
        }
        options.runs.push_back(predictRun(ws, *s, c, p, choice, cal));
    }
    return charts::predictedGemms(c, p, hw, SizingInputs(req, cal).timing());
}
} // namespace rl::report
