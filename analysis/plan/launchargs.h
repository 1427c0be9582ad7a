#pragma once
// A chosen layout as the frameworks spell it: Megatron-LM / Megatron-Bridge command-line arguments,
// torchtitan's TOML keys where it has them (what it has no key for is said in a comment, not left
// out silently), and the `ridgeline-cli size` command line that predicts the same step.
#include <string>
#include <vector>

#include "plan/layout.h"

namespace rl::plan {

// Megatron-LM pretrain_gpt.py arguments (names as in megatron/training/arguments.py and the
// configs it generates flags from): degrees, stage split, batch, recompute, distributed optimizer
// or Megatron FSDP, overlaps, dtype, MoE dispatcher and attention backend, and the gradients' type
// when `recipe` (the row's ParallelConfig) names one other than Megatron's default.
std::vector<std::string> megatronArgs(const model::ModelConfig& c, const Layout& l, const Cluster& cl,
                                      const model::ParallelConfig& recipe = {});
// torchtitan job config ([parallelism], [training], [activation_checkpoint]); layouts it cannot
// express (pp with uneven stages by layer count, etp = 1, the flex dispatcher, ZeRO 0-2) say so.
std::string torchtitanToml(const model::ModelConfig& c, const Layout& l, const Cluster& cl);
// ridgeline-cli size CONFIG --hardware HW --parallel ... with the recipe options, the training stack
// and the gradients' type included (`recipe`: the search's, PlanRow::parallel): the same prediction.
std::string sizeCommand(const std::string& config, const std::string& hardware, const model::ModelConfig& c,
                        const Layout& l, const Cluster& cl, const model::ParallelConfig& recipe = {});
// Arguments joined for a shell, one per line with a trailing backslash.
std::string shellLines(const std::vector<std::string>& args);
} // namespace rl::plan
