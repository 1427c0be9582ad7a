#pragma once
// Subcommands of ridgeline-cli register themselves here, each from its own file:
//   static const bool registered = rl::cli::registerCommand(&addMyCommand);
// Every command gets the global options (--db, --json) through CliContext.
#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace rl {
struct Session;
namespace store {
class Workspace;
}
} // namespace rl

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

// The session of that id, or std::runtime_error "no session ID in WORKSPACE" and how to list them.
Session requireSession(store::Workspace& ws, std::int64_t id);
// "`ridgeline-cli sessions [--db WORKSPACE]` lists them": the next step after a wrong session id.
std::string listSessionsHint(const store::Workspace& ws);

// Thrown by a command to end the program with a given exit code after it printed its message.
struct ExitCode
{
    int code;
};
} // namespace rl::cli
