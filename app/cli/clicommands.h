#pragma once
// Subcommands of ridgeline-cli register themselves here, each from its own file:
//   static const bool registered = rl::cli::registerCommand(&addMyCommand);
// Every command gets the global options (--db, --json) through CliContext.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace rl::cli {
struct CliContext
{
    std::string dbPath; // empty: the per-user default workspace
    bool json = false;  // machine-readable output
    std::string workspacePath() const;
};
using CommandAdder = void (*)(CLI::App& app, CliContext& ctx);
bool registerCommand(CommandAdder adder);
const std::vector<CommandAdder>& registeredCommands();

// Thrown by a command to end the program with a given exit code after it printed its message.
struct ExitCode
{
    int code;
};
} // namespace rl::cli
