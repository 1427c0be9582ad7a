// ridgeline-cli validate: the sizing model, uncalibrated, against the bundled table of published
// measured training runs (resources/validation/published_runs.json): predicted vs measured step
// time per row, the error, and the median and maximum absolute error.
#include <algorithm>
#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>

#include "clicommands.h"
#include "model/calibratedvalidation.h"
#include "model/rankingvalidation.h"
#include "model/validation.h"
#include "plan/publishedrank.h"
#include "texttable.h"
#include "units/memory.h"
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

// validate --ranking: groups of one model measured under several layouts; does the model order them?
void printRanking(const CliContext& ctx, const std::string& path)
{
    const auto table = loadRankingTable(path);
    const auto s = runRankingValidation(table);
    if (ctx.json) {
        nlohmann::json groups = nlohmann::json::array();
        for (const auto& g : s.groups) {
            nlohmann::json members = nlohmann::json::array();
            for (const auto& m : g.members) {
                const auto& r = m.row;
                nlohmann::json j{{"id", r.run.id}, {"layout", layout(r.run.parallel) + " zero" + std::to_string(r.run.parallel.zeroStage)},
                                 {"ran_out_of_memory", r.run.ranOutOfMemory}, {"refused", r.refused}};
                if (!r.run.ranOutOfMemory)
                    j.update({{"measured_step_s", r.run.measuredStepSeconds}, {"measured_rank", m.measuredRank}});
                if (r.refused)
                    j["why"] = r.why;
                else
                    j.update({{"predicted_step_s", r.predictedStepSeconds}, {"predicted_rank", m.predictedRank},
                              {"predicted_fits", r.step.fitsMemory()}, {"memory_bytes", r.step.memory.total()}});
                members.push_back(j);
            }
            nlohmann::json j{{"id", g.group.id}, {"source", g.group.source}, {"members", members},
                             {"fastest_found", g.fastestFound}, {"out_of_memory", g.outOfMemory},
                             {"out_of_memory_flagged", g.outOfMemoryFlagged}, {"ran_but_predicted_out", g.ranButPredictedOut}};
            j["spearman"] = g.ran >= 2 ? nlohmann::json(g.spearman) : nlohmann::json();
            groups.push_back(j);
        }
        std::cout << nlohmann::json{{"table", path},
                                    {"groups", groups},
                                    {"median_spearman", s.medianSpearman},
                                    {"spearman_groups", s.spearmanGroups},
                                    {"fastest_found", s.fastestFound},
                                    {"fastest_scored", s.scored},
                                    {"out_of_memory", s.outOfMemory},
                                    {"out_of_memory_flagged", s.outOfMemoryFlagged},
                                    {"ran_but_predicted_out", s.ranButPredictedOut}}
                         .dump(2)
                  << '\n';
        return;
    }
    TextTable t({"group", "run", "layout", "measured", "rank", "predicted", "rank", "memory"});
    for (const auto& g : s.groups) {
        bool first = true;
        for (const auto& m : g.members) {
            const auto& r = m.row;
            std::string lay = layout(r.run.parallel);
            if (r.run.parallel.zeroStage > 0)
                lay += " zero" + std::to_string(r.run.parallel.zeroStage);
            const std::string measured = r.run.ranOutOfMemory ? "out of memory" : fmt("%.2f s", r.run.measuredStepSeconds);
            const std::string mRank = r.run.ranOutOfMemory ? "-" : "#" + std::to_string(m.measuredRank);
            const std::string predicted = r.refused ? "refused: " + r.why : fmt("%.2f s", r.predictedStepSeconds);
            const std::string pRank = r.refused || r.run.ranOutOfMemory ? "-" : "#" + std::to_string(m.predictedRank);
            const std::string memory = r.refused ? "" : units::formatMemory(r.step.memory.total()) + (r.step.fitsMemory() ? "" : " (does not fit)");
            t.addRow({first ? g.group.id : "", r.run.id, lay, measured, mRank, predicted, pRank, memory});
            first = false;
        }
        std::string verdict = g.ran >= 2 ? "Spearman " + fmt("%+.2f", g.spearman) : std::string("Spearman n/a");
        verdict += g.fastestFound ? ", fastest found" : ", fastest missed";
        if (g.outOfMemory > 0)
            verdict += ", out of memory flagged " + std::to_string(g.outOfMemoryFlagged) + "/" + std::to_string(g.outOfMemory);
        if (g.ranButPredictedOut > 0)
            verdict += ", " + std::to_string(g.ranButPredictedOut) + " that ran predicted not to fit";
        t.addRow({"", verdict, "", "", "", "", "", ""});
    }
    t.print(std::cout);
    std::cout << '\n'
              << s.groups.size() << " groups; median Spearman " << fmt("%+.2f", s.medianSpearman) << " over "
              << s.spearmanGroups << " groups with two or more layouts that ran; measured fastest predicted fastest (of "
              << "those predicted to fit) in " << s.fastestFound << " of " << s.scored << "; out of memory flagged "
              << s.outOfMemoryFlagged << " of " << s.outOfMemory << "; " << s.ranButPredictedOut
              << " layouts that ran predicted not to fit\n"
              << "Uncalibrated: GEMM efficiency by shape, collectives from the hardware profiles. Table: " << path << '\n';
}

// validate --calibrated: each row of a model calibrates the model for the other rows of that model.
void printCalibrated(const CliContext& ctx, const std::string& table)
{
    const auto runs = table.empty() ? bundledValidationRuns() : loadValidationRuns(table);
    const auto s = runCalibratedValidation(runs);
    const std::string source = table.empty() ? "the bundled tables (published, holdout, ranking)" : table;
    if (ctx.json) {
        nlohmann::json groups = nlohmann::json::array();
        for (const auto& g : s.groups) {
            nlohmann::json preds = nlohmann::json::array();
            for (const auto& p : g.predictions)
                preds.push_back({{"from", p.from}, {"to", p.to}, {"measured_step_s", p.measured},
                                 {"uncalibrated_step_s", p.uncalibrated}, {"calibrated_step_s", p.calibrated},
                                 {"uncalibrated_error", p.uncalibratedError}, {"error", p.error}});
            groups.push_back({{"group", g.key}, {"runs", g.runs}, {"predictions", preds}});
        }
        std::cout << nlohmann::json{{"tables", source}, {"groups", groups}, {"predictions", s.predictions},
                                    {"median_abs_error", s.medianError}, {"max_abs_error", s.maxError},
                                    {"median_abs_error_uncalibrated", s.medianUncalibrated}, {"worst", s.worst}}
                         .dump(2)
                  << '\n';
        return;
    }
    TextTable t({"group", "calibrated on", "predicting", "measured", "uncalibrated", "calibrated"});
    for (const auto& g : s.groups) {
        bool first = true;
        for (const auto& p : g.predictions) {
            t.addRow({first ? g.key : "", p.from, p.to, fmt("%.3f s", p.measured),
                      fmt("%.3f s", p.uncalibrated) + " (" + units::formatPercent(p.uncalibratedError, 1, true) + ")",
                      fmt("%.3f s", p.calibrated) + " (" + units::formatPercent(p.error, 1, true) + ")"});
            first = false;
        }
    }
    t.print(std::cout);
    std::cout << '\n'
              << s.groups.size() << " groups of one model on one device and dtype, " << s.predictions
              << " leave-one-out predictions: calibrated median |error| " << units::formatPercent(s.medianError, 1)
              << ", max " << units::formatPercent(s.maxError, 1) << " (" << s.worst << "); uncalibrated median "
              << units::formatPercent(s.medianUncalibrated, 1) << " on the same predictions\n"
              << "Calibrated from the step time alone (as from a training log): compute and bubble scaled, exposed "
                 "communication as modelled. Tables: "
              << source << '\n';
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
    auto ranking = std::make_shared<bool>(false);
    cmd->add_flag("--ranking", *ranking,
                  "Groups of one model measured under several layouts on one cluster (bundled ranking_groups.json, or "
                  "--table FILE): measured vs predicted order, Spearman, out-of-memory layouts flagged");
    auto calibrated = std::make_shared<bool>(false);
    cmd->add_flag("--calibrated", *calibrated,
                  "Leave-one-out run calibration: each row of a model (same device and dtype) calibrates the model "
                  "for the model's other rows; calibrated and uncalibrated errors side by side (default: every "
                  "bundled table, or --table FILE)");
    cmd->callback([&ctx, table, verbose, plan, only, ranking, calibrated] {
        if (*calibrated) {
            if (*plan || *ranking)
                throw UsageError("--calibrated, --ranking and --plan are separate checks: give one");
            printCalibrated(ctx, *table == "holdout" ? holdoutTablePath() : *table);
            return;
        }
        if (*ranking) {
            if (*plan)
                throw UsageError("--ranking and --plan are separate checks: give one");
            printRanking(ctx, table->empty() ? rankingTablePath() : *table);
            return;
        }
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
                                 {"attention", r.attentionBasis}, {"framework", toString(r.run.parallel.framework)}};
                if (r.refused)
                    j["why"] = r.why;
                else
                    j.update({{"predicted_step_s", r.predictedStepSeconds}, {"error", r.error},
                              {"predicted_hardware_tflops_per_gpu", r.predictedTflopsPerGpu},
                              {"max_achievable_tflops", r.maxAchievableTflops},
                              {"above_max_achievable", r.aboveMaxAchievable}, {"memory_bytes", r.step.memory.total()},
                              {"fits_memory", r.step.fitsMemory()},
                              {"breakdown_s", {{"gemm", r.step.gemmSeconds}, {"elementwise", r.step.elementwiseSeconds},
                                               {"recompute", r.step.recomputeSeconds}, {"bubble", r.step.bubbleSeconds},
                                               {"comm", r.step.commSeconds}, {"exposed_comm", r.step.exposedCommSeconds},
                                               {"optimizer", r.step.optimizerSeconds}}}});
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
                      units::formatMemory(r.step.memory.total()) + (r.step.fitsMemory() ? "" : " (does not fit)")});
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
