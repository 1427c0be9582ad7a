#include "plan/shapesearch.h"

#include <chrono>
#include <cstdio>

#include "model/densesweep.h"
#include "model/inference.h"
#include "model/modelcounts.h"
#include "model/sizingrequest.h"

namespace rl::plan {
namespace {
bool sameShape(const model::ModelConfig& a, const model::ModelConfig& b)
{
    return a.moe.experts == b.moe.experts && a.moe.topK == b.moe.topK && a.moe.sharedExperts == b.moe.sharedExperts &&
           a.moe.expertWidth == b.moe.expertWidth && a.sharedWidth() == b.sharedWidth() && a.dModel == b.dModel &&
           a.mlpWidth == b.mlpWidth && a.layers == b.layers && a.heads == b.heads && a.kvHeads == b.kvHeads;
}

// The one place the two kinds differ: which shapes, and the base's value of what they hold.
struct ShapeList
{
    const model::ModelConfig& base;
    std::vector<model::ModelConfig> shapes;
    double heldValue = 0;
};

ShapeList shapeList(const ShapeSearchRequest& req)
{
    if (req.dense) {
        model::DenseSweepSpec dense = *req.dense;
        dense.seqLen = req.plan.cluster.seqLen; // FLOPs held at the sequence the run trains at
        return {req.dense->base, model::denseSweepShapes(dense), model::denseHeldValue(dense)};
    }
    return {req.sweep.base, model::moeSweepShapes(req.sweep), model::sweepHeldValue(req.sweep)};
}
} // namespace

std::string describeShape(const model::MoeSweepRow& r)
{
    if (r.isDenseShape())
        return model::describeDenseShape(r.dModel, r.ffnWidth, r.layers, r.heads, r.kvHeads);
    return std::to_string(r.experts) + " experts top-" + std::to_string(r.topK) +
           (r.sharedExperts > 0 ? " + " + std::to_string(r.sharedExperts) + " shared" : "") + " (width " +
           std::to_string(r.expertWidth) + ")";
}

ShapeSearchResult runShapeSearch(const ShapeSearchRequest& req, const model::Calibration& cal,
                                 const ShapeProgress& progress)
{
    const HardwareProfile& hw = req.plan.base.hardware;
    const auto started = std::chrono::steady_clock::now();
    ShapeSearchResult out;
    auto list = shapeList(req);
    auto& shapes = list.shapes;
    out.heldValue = list.heldValue;
    // The base shape first, once.
    std::erase_if(shapes, [&](const auto& s) { return sameShape(s, list.base); });
    shapes.insert(shapes.begin(), list.base);
    out.band = model::modelErrorBand(list.base.isMoe(), hw.id, req.plan.base.layout.framework);
    for (std::size_t i = 0; i < shapes.size(); ++i) {
        const auto& c = shapes[i];
        PlanRequest plan = req.plan;
        plan.base.model = c;
        plan.space = defaultSpace(c, hw, plan.cluster, plan.allow);
        applyFix(plan.space, req.fix);
        plan.top = 1;
        plan.yours.reset();
        const auto res = runPlan(plan, cal);
        ShapeRow row;
        row.base = i == 0;
        row.ranked = res.counts.ranked;
        auto& r = row.row;
        r.experts = c.moe.experts;
        r.topK = c.moe.topK;
        r.sharedExperts = c.moe.sharedExperts;
        r.expertWidth = c.moe.expertWidth;
        r.dModel = c.dModel;
        r.ffnWidth = c.mlpWidth;
        r.layers = c.layers;
        r.heads = c.heads;
        r.kvHeads = c.kvHeads;
        const auto params = model::countParams(c);
        r.totalParams = params.total();
        r.activeParams = params.active();
        r.flopsPerToken = model::forwardFlopsPerToken(c, {plan.cluster.seqLen, true}).forward();
        // Decode is the serving question: its own batch, context and TP (the sweep's), whatever the
        // training layout; timed on the sweep's dtype, as `size` times it.
        model::SizingRequest serving = plan.base;
        serving.layout.dtype = req.sweep.parallel.dtype;
        serving.attentionKernel.clear();
        const model::SizingInputs in(serving, cal);
        r.decodeSecondsPerToken = model::decodeStep(c, params, req.sweep.decode, in.rates(), in.timing()).secondsPerToken;
        if (!res.top.empty()) {
            const auto& b = res.top.front();
            row.best = b;
            r.stepSeconds = b.step.stepSeconds;
            r.tokensPerSecond = b.step.tokensPerSecond;
            r.mfu = b.step.mfu;
            r.memoryPerGpuBytes = b.step.memory.total();
            r.fits = true;
        } else {
            r.fits = false; // no layout of the space fits: off the front
        }
        out.rows.push_back(std::move(row));
        if (progress && !progress(i + 1, shapes.size())) {
            out.cancelled = true;
            break;
        }
    }
    std::vector<model::MoeSweepRow> rows;
    for (const auto& r : out.rows)
        rows.push_back(r.row);
    model::markParetoFront(rows);
    for (std::size_t i = 0; i < rows.size(); ++i)
        out.rows[i].row.pareto = rows[i].pareto;
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return out;
}

std::string placeBase(const ShapeSearchResult& r)
{
    if (r.rows.empty() || !r.rows.front().base)
        return {};
    const auto& base = r.rows.front().row;
    if (!base.fits)
        return "no layout of the space fits the base shape in memory";
    if (base.pareto)
        return "on the Pareto front";
    // The dominating shape nearest in decode latency.
    const model::MoeSweepRow* by = nullptr;
    for (const auto& s : r.rows) {
        const auto& o = s.row;
        if (!o.fits || s.base)
            continue;
        const bool dominates = o.tokensPerSecond >= base.tokensPerSecond && o.decodeSecondsPerToken <= base.decodeSecondsPerToken &&
                               (o.tokensPerSecond > base.tokensPerSecond || o.decodeSecondsPerToken < base.decodeSecondsPerToken);
        if (dominates && (!by || o.tokensPerSecond > by->tokensPerSecond))
            by = &o;
    }
    if (!by)
        return "off the front";
    char b[160];
    std::snprintf(b, sizeof b, ": %.2fx the training tokens/s at %.2fx the decode latency",
                  by->tokensPerSecond / base.tokensPerSecond, by->decodeSecondsPerToken / base.decodeSecondsPerToken);
    return "dominated by " + describeShape(*by) + b;
}
} // namespace rl::plan
