#pragma once
// What the Plan window writes about a search, as ridgeline-cli plan prints it: the counts line, the
// left-out breakdown, the error band sentence, and one row's breakdown and launch arguments.
#include <QString>

#include <string>

#include "model/hardwareprofile.h"
#include "plan/plansearch.h"

namespace rl::plantext {

// "1,234": a count of combinations.
QString count(double v);
// "Searched 1,234 combinations in 1.2 s on 16 threads: 1,000 illegal, 34 out of memory, 200 ranked."
QString countsLine(const plan::PlanResult& r);
// "Expected error of each step time: ...; mean ... '=' marks ...": the band and what a tie means.
QString bandSentence(const plan::PlanResult& r);
// One row's step breakdown, memory and launch arguments (Megatron-LM, torchtitan, ridgeline-cli size);
// config: how ridgeline-cli names the model (a preset, a saved configuration, a file).
QString details(const plan::PlanRow& row, const plan::PlanRow& best, const model::ModelConfig& c,
                const plan::Cluster& cl, const std::string& config, const std::string& hardware);
} // namespace rl::plantext
