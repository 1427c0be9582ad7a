// ridgeline-cli validate: the sizing model, uncalibrated, against the bundled table of published
// measured training runs (resources/validation/published_runs.json): predicted vs measured step
// time per row, the error, and the median and maximum absolute error.
#include <algorithm>
#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>

#include "clicommands.h"
#include "model/validation.h"
#include "plan/publishedrank.h"
#include "texttable.h"
#include "units/units.h"

namespace rl::cli {
namespace {
using namespace rl::model;

std::string fmt(const char* f, double v)
{
    char b[48];
    std::snprintf(b, sizeof b, f, v);
    return b;
}

std::string layout(const ParallelConfig& p)
{
    std::string s = "tp" + std::to_string(p.tp) + " pp" + std::to_string(p.pp) + " dp" + std::to_string(p.dp);
    if (p.vpp > 1)
        s += " vpp" + std::to_string(p.vpp);
    if (p.cp > 1)
        s += " cp" + std::to_string(p.cp);
    if (p.ep > 1)
        s += " ep" + std::to_string(p.ep);
    s += " mb" + std::to_string(p.microBatch) + "x" + std::to_string(p.effectiveMicroBatches());
    s += std::string(" ") + toString(p.recompute);
    if (p.sequenceParallel)
        s += "+sp";
    return s;
}

// validate --plan: each row's published layout placed in the search over its own cluster.
void printPlanRanks(const CliContext& ctx, const std::string& path, const std::vector<std::string>& only)
{
    auto runs = loadValidationRuns(path);
    if (!only.empty()) {
        std::erase_if(runs, [&](const auto& r) { return std::find(only.begin(), only.end(), r.id) == only.end(); });
        if (runs.empty())
            throw UsageError("--row: no row of " + path + " has that id (`ridgeline-cli validate` lists them)");
    }
    std::vector<plan::PublishedRank> ranks;
    for (const auto& run : runs) {
        if (!ctx.json)
            std::fprintf(stderr, "validate --plan: %s (%d GPUs)\n", run.id.c_str(), run.parallel.worldSize());
        ranks.push_back(plan::rankPublishedLayout(run));
    }
    int first = 0, tied = 0, placed = 0;
    for (const auto& r : ranks) {
        placed += r.rank > 0;
        first += r.rank == 1;
        tied += r.rank > 0 && r.tieWithBest;
    }
    if (ctx.json) {
        nlohmann::json rows = nlohmann::json::array();
        for (const auto& r : ranks) {
            nlohmann::json j{{"id", r.id}, {"published", r.published}, {"refused", r.refused}, {"layouts_ranked", r.ranked},
                             {"rank", r.rank > 0 ? nlohmann::json(r.rank) : nlohmann::json()},
                             {"gap_to_best", r.rank > 0 ? nlohmann::json(r.gapToBest) : nlohmann::json()},
                             {"tie_with_best", r.tieWithBest}, {"best", r.best}, {"seconds", r.seconds}};
            if (!r.why.empty())
                j["why"] = r.why;
            rows.push_back(j);
        }
        std::cout << nlohmann::json{{"table", path}, {"rows", rows}, {"ranked_first", first},
                                    {"within_band_of_first", tied}, {"placed", placed}}
                         .dump(2)
                  << '\n';
        return;
    }
    TextTable t({"run", "layouts ranked", "published rank", "gap to #1", "#1 (predicted)", "search"});
    for (const auto& r : ranks) {
        std::string rank = r.refused ? "refused" : r.rank > 0 ? "#" + std::to_string(r.rank) : "left out";
        t.addRow({r.id, fmt("%.0f", r.ranked), rank,
                  r.rank > 0 ? units::formatPercent(r.gapToBest, 1) + (r.tieWithBest ? " (tie)" : "") : r.why,
                  r.bestDegrees, fmt("%.2f s", r.seconds)});
    }
    t.print(std::cout);
    std::cout << '\n' << placed << " of " << ranks.size() << " published layouts ranked; " << first
              << " ranked #1, " << tied << " within the error band's median of #1 (a tie the model cannot break).\n"
              << "The published layout is what its team chose, often under constraints the search does not see "
                 "(memory reserve, software of the day): a large gap is a question for the model or the recipe.\n";
}

void addValidateCommand(CLI::App& app, CliContext& ctx)
{
    auto* cmd = app.add_subcommand("validate", "Run the sizing model over published measured training runs");
    auto table = std::make_shared<std::string>();
    auto verbose = std::make_shared<bool>(false);
    cmd->add_option("--table", *table,
                    "Validation table: a file, or 'holdout' for the bundled runs kept apart (default: the bundled "
                    "published_runs.json)");
    cmd->add_flag("--sources", *verbose, "Also print every row's source (paper, table, row)");
    auto plan = std::make_shared<bool>(false);
    auto only = std::make_shared<std::vector<std::string>>();
    cmd->add_flag("--plan", *plan,
                  "Search every layout of each row's model on its cluster, batch and sequence (ridgeline-cli plan) and "
                  "print where the published layout ranks and its predicted gap to #1");
    cmd->add_option("--row", *only, "Only these rows (ids, comma-separated)")->delimiter(',');
    cmd->callback([&ctx, table, verbose, plan, only] {
        std::string path = table->empty() ? validationTablePath() : *table;
        if (*table == "holdout") // the bundled runs kept apart from the table
            path = holdoutTablePath();
        if (*plan) {
            printPlanRanks(ctx, path, *only);
            return;
        }
        const auto s = runValidation(loadValidationRuns(path));
        if (ctx.json) {
            nlohmann::json rows = nlohmann::json::array();
            for (const auto& r : s.rows) {
                nlohmann::json j{{"id", r.run.id}, {"source", r.run.source}, {"hardware", r.run.hardware},
                                 {"dtype", r.run.dtype}, {"gpus", r.run.parallel.worldSize()}, {"moe", r.run.model.isMoe()},
                                 {"layout", layout(r.run.parallel)}, {"measured_step_s", r.run.measuredStepSeconds},
                                 {"measured_how", r.run.measuredHow}, {"refused", r.refused},
                                 {"attention", r.attentionBasis}};
                if (r.refused)
                    j["why"] = r.why;
                else
                    j.update({{"predicted_step_s", r.predictedStepSeconds}, {"error", r.error},
                              {"predicted_hardware_tflops_per_gpu", r.predictedTflopsPerGpu},
                              {"max_achievable_tflops", r.maxAchievableTflops},
                              {"above_max_achievable", r.aboveMaxAchievable}, {"memory_bytes", r.memoryBytes},
                              {"fits_memory", r.fitsMemory},
                              {"breakdown_s", {{"gemm", r.gemmSeconds}, {"elementwise", r.elementwiseSeconds},
                                               {"recompute", r.recomputeSeconds}, {"bubble", r.bubbleSeconds},
                                               {"comm", r.commSeconds}, {"exposed_comm", r.exposedCommSeconds},
                                               {"optimizer", r.optimizerSeconds}}}});
                rows.push_back(j);
            }
            std::cout << nlohmann::json{{"table", path},
                                        {"rows", rows},
                                        {"median_abs_error", s.medianAbsError},
                                        {"max_abs_error", s.maxAbsError},
                                        {"mean_signed_error", s.meanSignedError},
                                        {"worst_row", s.worstRow},
                                        {"refused", s.refused},
                                        {"above_max_achievable", s.aboveMaxAchievable}}
                             .dump(2)
                      << '\n';
            return;
        }
        TextTable t({"run", "device", "GPUs", "layout", "measured", "predicted", "error", "TFLOP/s (max)", "memory"});
        for (const auto& r : s.rows) {
            if (r.refused) {
                t.addRow({r.run.id, r.run.hardware, std::to_string(r.run.parallel.worldSize()), layout(r.run.parallel),
                          fmt("%.3f s", r.run.measuredStepSeconds), "refused", r.why, "", ""});
                continue;
            }
            t.addRow({r.run.id, r.run.hardware, std::to_string(r.run.parallel.worldSize()), layout(r.run.parallel),
                      fmt("%.3f s", r.run.measuredStepSeconds), fmt("%.3f s", r.predictedStepSeconds),
                      units::formatPercent(r.error, 1, true),
                      fmt("%.0f", r.predictedTflopsPerGpu) + " (" + fmt("%.0f", r.maxAchievableTflops) + ")",
                      fmt("%.1f GB", r.memoryBytes / 1e9) + (r.fitsMemory ? "" : " (does not fit)")});
        }
        t.print(std::cout);
        std::cout << '\n'
                  << s.rows.size() - s.refused << " of " << s.rows.size() << " rows predicted, " << s.refused
                  << " refused; median |error| " << units::formatPercent(s.medianAbsError, 1) << ", max |error| "
                  << units::formatPercent(s.maxAbsError, 1) << " (" << s.worstRow << "), mean signed error "
                  << units::formatPercent(s.meanSignedError, 1, true) << "; " << s.aboveMaxAchievable
                  << " predictions above max-achievable\n"
                  << "Uncalibrated: GEMM efficiency by shape, collectives from the hardware profiles. Table: " << path
                  << '\n';
        if (*verbose) {
            std::cout << '\n';
            for (const auto& r : s.rows)
                std::cout << r.run.id << ": " << r.run.source << " [" << r.run.measuredHow << "]\n";
        }
    });
}

static const bool registered = registerCommand(&addValidateCommand);
} // namespace
} // namespace rl::cli
