// ridgeline-cli fast-width CONFIG: MLP (or expert) widths near a target ranked by the efficiency of
// their GEMMs on the device: predicted from tile and wave quantisation, or interpolated from a
// stored GEMM sweep (--gemm-session).
#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>

#include "clicommands.h"
#include "model/sizingrules.h"
#include "sizingoptions.h"
#include "texttable.h"
#include "units/units.h"

namespace rl::cli {
namespace {
using namespace rl::model;

void addFastWidthCommand(CLI::App& app, CliContext& ctx)
{
    auto* cmd = app.add_subcommand("fast-width", "MLP or expert widths near a target, ranked by GEMM efficiency");
    auto a = std::make_shared<StepArgs>();
    auto d = std::make_shared<DeviceArgs>();
    struct Args
    {
        int target = 0, range = 512, top = 10;
        bool expert = false;
    };
    auto w = std::make_shared<Args>();
    addStepOptions(cmd, *a);
    addDeviceOptions(cmd, *d);
    cmd->add_option("--target", w->target, "Width to search around (default: the config's, or 8/3 d_model)");
    cmd->add_option("--range", w->range, "Search target ± range")->capture_default_str();
    cmd->add_flag("--expert", w->expert, "Search the expert width (tokens per expert, not per micro-batch)");
    cmd->add_option("--top", w->top, "Candidates to print")->capture_default_str();
    cmd->callback([&ctx, a, d, w] {
        const auto c = loadConfigFor(*a, ctx);
        const auto p = parallelOf(*a, c);
        const auto r = resolveDevice(*d, a->dtype);
        RuleOptions o;
        o.tp = p.tp;
        o.ep = p.ep;
        o.microBatch = p.microBatch;
        o.seqLen = p.seqLen;
        if (r.computeUnits > 0)
            o.computeUnits = r.computeUnits;
        const auto measured = measuredGemmsFor(*a, ctx); // --gemm-session ranks by measured GEMMs
        const auto found = findFastWidthsFor(c, w->expert, w->target, o, measured.empty() ? nullptr : &measured, w->range);
        if (ctx.json) {
            nlohmann::json out = nlohmann::json::array();
            for (const auto& f : found)
                out.push_back({{"width", f.width}, {"efficiency", f.efficiency}, {"measured", f.measured}});
            std::cout << out.dump(2) << '\n';
            return;
        }
        const int target = w->target > 0 ? w->target : w->expert && c.isMoe() ? c.moe.expertWidth : c.mlpWidth;
        std::cout << (w->expert ? "expert" : "MLP") << " widths near " << target << " for " << c.name << ", d_model "
                  << c.dModel << ", " << o.computeUnits << " CUs, tp " << o.tp << "\n";
        TextTable t({"width", "efficiency", "from", "vs target"});
        int shown = 0;
        for (const auto& f : found) {
            if (shown++ == w->top)
                break;
            t.addRow({std::to_string(f.width), units::formatPercent(f.efficiency, 1), f.measured ? "measured GEMMs" : "wave model",
                      (f.width >= target ? "+" : "") + std::to_string(f.width - target)});
        }
        t.print(std::cout);
    });
}

const bool registered = registerCommand(&addFastWidthCommand);
} // namespace
} // namespace rl::cli
