#include "plan/publishedrank.h"

#include <filesystem>

#include "model/hardwareprofileloader.h"
#include "plan/layoutrules.h"

namespace rl::plan {

PublishedRank rankPublishedLayout(const model::ValidationRun& run, unsigned threads)
{
    PublishedRank out;
    out.id = run.id;
    try {
        // The shipped profile, as runValidation reads it.
        const auto hw =
            loadHardwareProfile((std::filesystem::path(hardwareProfileDir()) / (run.hardware + ".json")).string());
        PlanRequest req;
        req.cluster = {run.parallel.worldSize(), hw.gpusPerNode, run.globalBatch, run.parallel.seqLen};
        // The recipe's kernel where the profile has its rates at the model's head dim; else the attention
        // is timed by GEMM shape, as runValidation times the row.
        const LayoutRules rules(run.model, hw, req.cluster, req.allow);
        const bool measuredKernel = run.parallel.flashAttention && !run.attentionKernel.empty() &&
                                    rules.attentionRated(run.attentionKernel);
        const std::string kernel = measuredKernel ? run.attentionKernel : std::string();
        req.base.model = run.model;
        req.base.hardware = hw;
        req.base.layout = run.parallel;
        req.space = defaultSpace(run.model, hw, req.cluster, {});
        req.space.dtype = {run.dtype};
        req.space.attention = {kernel};
        req.top = 1;
        req.threads = threads;
        auto yours = fromParallel(run.parallel);
        yours.dtype = run.dtype;
        yours.attention = kernel;
        req.yours = yours;
        out.published = toSpec(yours);
        const auto res = runPlan(req, model::Calibration{});
        out.seconds = res.seconds;
        out.ranked = res.counts.ranked;
        if (!res.top.empty()) {
            out.best = toSpec(res.top.front().layout);
            const auto& b = res.top.front();
            out.bestDegrees = degreesText(b.layout, b.parallel.dp) + " mb" + std::to_string(b.layout.microBatch) + " " +
                              model::toString(b.layout.recompute) + " zero" + std::to_string(b.layout.zero);
        }
        const auto& y = *res.yours;
        if (y.row) {
            out.rank = y.row->rank;
            out.gapToBest = y.row->gapToBest;
            out.tieWithBest = y.row->tieWithBest;
        } else {
            out.why = y.explanation;
        }
    } catch (const std::exception& e) {
        out.refused = true;
        out.why = e.what();
    }
    return out;
}
} // namespace rl::plan
