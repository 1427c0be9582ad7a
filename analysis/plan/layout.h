#pragma once
// One training layout as the search varies it, by its values: the degrees, the stage split, the
// micro-batch and the recipe switches. Spelled as --fix spells a space ("tp=8,pp=4,..."), which is
// what `plan --yours` takes and what plan prints for every row.
#include <string>

#include "model/modelconfig.h"
#include "model/modelcounts.h"
#include "model/parallelconfig.h"
#include "plan/layoutspace.h"

namespace rl::plan {

// One layout, by its values.
struct Layout
{
    int tp = 1, cp = 1, pp = 1, vpp = 1, ep = 1;
    int etp = 0; // 0: = tp (Megatron's default); else the expert-TP size (1: experts folded over the TP ranks)
    int microBatch = 1, zero = 1;
    StageChoice stages;
    model::Recompute recompute = model::Recompute::None;
    bool sp = false, dpOverlap = true, epOverlap = false, flexDispatch = false, tpOverlap = false;
    std::string dtype = "bf16";
    std::string attention; // "" by GEMM shape

    int dp(const Cluster& cl) const { return cl.gpus / (tp * cp * pp); }
    int etpSize() const { return etp == 0 ? tp : etp; }
};
// "tp=8,pp=4,..." in --fix syntax, every dimension: what --yours takes and plan prints.
std::string toSpec(const Layout& l);
// The degrees for a reader: "tp8 pp4 dp2", then cp, vpp, ep, etp and a stage split when not the
// default; dp is the cluster's (a layout does not hold it). What plan's table and the Plan window show.
std::string degreesText(const Layout& l, int dp);
// The communication switches that are on: "DP overlap, EP overlap", or "-" when none is.
std::string switchesText(const Layout& l);
// Parses --yours: the dimensions given, the rest from `defaults`. Throws std::invalid_argument.
Layout parseLayout(const std::string& spec, const Layout& defaults);

// A ParallelConfig's layout (a published run's, a config editor's) as the search spells it.
Layout fromParallel(const model::ParallelConfig& p);
// The ParallelConfig the sizing model evaluates for a legal layout (recipe fields from `recipe`).
model::ParallelConfig toParallel(const Layout& l, const model::ModelConfig& c, const Cluster& cl,
                                 const model::ParallelConfig& recipe);
} // namespace rl::plan
