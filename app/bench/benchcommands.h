#pragma once
// Subcommands of ridgeline-bench register themselves here, each from its own file:
//   static const bool registered = rl::bench::registerCommand(&addMyCommand);
// The program is an executable (not a library), so these static registrations always run.
#include <functional>
#include <vector>

#include <CLI/CLI.hpp>

namespace rl::bench {
using CommandAdder = void (*)(CLI::App& app);
bool registerCommand(CommandAdder adder);
const std::vector<CommandAdder>& registeredCommands();
} // namespace rl::bench
