#pragma once
// moe-sweep --best-layout on a dense base: the dense axes (--hidden, --ffn or --ffn-mult, --layers)
// bound into model::DenseSweepSpec, and the shape search's dense rows as JSON and as a table.
// The MoE rows keep their own output in sizecommands.cpp.
#include <string>

#include <CLI/CLI.hpp>

#include "model/densesweep.h"
#include "plan/shapesearch.h"

namespace rl::cli {

struct DenseAxesArgs
{
    std::string hidden, ffn, ffnMult, layers;
};

void addDenseAxesOptions(CLI::App* cmd, DenseAxesArgs& a);
// Whether any dense axis was typed (the MoE axes of a MoE base refuse them).
bool denseAxesGiven(const CLI::App* cmd);

// The dense sweep around `base` holding `hold`; UsageError naming the option for a bad value or a
// combination that leaves nothing to solve.
model::DenseSweepSpec denseSpecOf(const DenseAxesArgs& a, const model::ModelConfig& base, model::SweepHold hold);

// Every shape ranked by training tokens/s (Pareto rows and the base marked), where the base stands
// and the expected error; `where` ("each at its best layout on 64 x h100-sxm ...") goes in the
// headline. With json: the rows and the verdict as one object; `hold` as typed.
void printDenseShapeSearch(const plan::ShapeSearchResult& res, const model::DenseSweepSpec& spec, bool json,
                           const std::string& hold, const std::string& where);
} // namespace rl::cli
