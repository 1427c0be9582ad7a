#pragma once
// The seed paper's question, answered with the layout search: MoE shapes (expert count, top-k,
// shared experts, and the expert width solved for a held active or total parameter budget, or given)
// or dense shapes (hidden x FFN width, the layer count or FFN width solved: model/densesweep.h)
// each at its own best layout on the cluster, with training tokens/s against decode latency per
// token (at the batch and context the user chooses) and the exact Pareto front of the two. The base
// model's own shape is always evaluated, so the answer says whether it sits on the front. The two
// kinds differ only in their shape list; every row carries the shape's dimensions either way.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "model/densesweep.h"
#include "model/moesweep.h"
#include "plan/plansearch.h"

namespace rl::plan {

struct ShapeSearchRequest
{
    model::MoeSweepSpec sweep; // base, axes, hold, decode options (parallel and timing unused)
    // A dense base's axes: when set, its shapes (its base and hold) are searched instead of sweep's
    // experts x top-k x shared; sweep still gives the decode options and the decode dtype.
    std::optional<model::DenseSweepSpec> dense;
    PlanRequest plan;          // cluster, recipe, calibration, allowances (space and model: per shape)
    std::string fix;           // --fix applied to every shape's layout space
};

struct ShapeRow
{
    model::MoeSweepRow row;     // tokens/s, MFU, step and memory at the best layout; decode latency
    bool base = false;          // the base model's own shape
    std::optional<PlanRow> best; // the best layout (none when no layout fits)
    double ranked = 0;          // layouts ranked for this shape
};

struct ShapeSearchResult
{
    std::vector<ShapeRow> rows; // the sweep's order; the base shape first
    double heldValue = 0;
    model::ErrorBand band;
    double seconds = 0;
    bool cancelled = false;
};

// progress(shapes done, shapes) after each shape; false cancels.
using ShapeProgress = std::function<bool(std::size_t done, std::size_t total)>;
// The device is req.plan.base.hardware.
ShapeSearchResult runShapeSearch(const ShapeSearchRequest& req, const model::Calibration& cal,
                                 const ShapeProgress& progress = {});

// What a row's shape is: "64 experts top-2 (width 512)", or for a dense row "hidden 4096, FFN
// 14336, 32 layers, 32/8 heads".
std::string describeShape(const model::MoeSweepRow& r);

// Why the base shape is or is not on the front: "on the Pareto front", or "dominated by 64 experts
// top-2 (width 512): 1.8x the tokens/s at 0.9x the decode latency", or why it has no layout.
std::string placeBase(const ShapeSearchResult& r);
} // namespace rl::plan
