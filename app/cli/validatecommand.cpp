// ridgeline-cli validate: the sizing model, uncalibrated, against the bundled table of published
// measured training runs (resources/validation/published_runs.json): predicted vs measured step
// time per row, the error, and the median and maximum absolute error.
#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>

#include "clicommands.h"
#include "model/validation.h"
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

void addValidateCommand(CLI::App& app, CliContext& ctx)
{
    auto* cmd = app.add_subcommand("validate", "Run the sizing model over published measured training runs");
    auto table = std::make_shared<std::string>();
    auto verbose = std::make_shared<bool>(false);
    cmd->add_option("--table", *table,
                    "Validation table: a file, or 'holdout' for the bundled runs kept apart (default: the bundled "
                    "published_runs.json)");
    cmd->add_flag("--sources", *verbose, "Also print every row's source (paper, table, row)");
    cmd->callback([&ctx, table, verbose] {
        std::string path = table->empty() ? validationTablePath() : *table;
        if (*table == "holdout") // the bundled runs kept apart from the table
            path = holdoutTablePath();
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
