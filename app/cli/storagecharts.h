#pragma once
// The resilience charts of `ridgeline-cli checkpoint -o FILE.png|svg|pdf` (storagecharts.cpp).
#include <string>

#include "resilience/resilienceplan.h"

namespace rl::cli {
// Goodput vs checkpoint interval with the optimum marked, or (vsNodes) goodput vs nodes. Throws
// std::runtime_error with the writer's message.
void writeGoodputChart(const resilience::ResiliencePlan& plan, bool vsNodes, const std::string& title,
                       const std::string& path);
} // namespace rl::cli
