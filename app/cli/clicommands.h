#pragma once
// Subcommands of ridgeline-cli register themselves here, each from its own file:
//   static const bool registered = rl::cli::registerCommand(&addMyCommand);
// Every command gets the global options (--db, --json) through CliContext.
#include <cstdint>
#include <stdexcept>
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
    // The workspace file. Only the commands that store something new (import, run, config save)
    // create a --db's missing folders; for the others a --db in a folder that does not exist is a
    // typo, said as an error, rather than an empty workspace made up in new folders.
    enum class Access { Existing, Create };
    std::string workspacePath(Access access = Access::Existing) const;
};
using CommandAdder = void (*)(CLI::App& app, CliContext& ctx);
bool registerCommand(CommandAdder adder);
const std::vector<CommandAdder>& registeredCommands();

// The session of that id, or std::runtime_error "no session ID in WORKSPACE" and how to list them.
Session requireSession(store::Workspace& ws, std::int64_t id);
// "`ridgeline-cli sessions [--db WORKSPACE]` lists them": the next step after a wrong session id.
std::string listSessionsHint(const store::Workspace& ws);

// A missing or malformed argument a command finds itself (CLI11 finds the others): exit 2, as
// documented in --help, with the message and the command's --help.
struct UsageError : std::runtime_error
{
    using std::runtime_error::runtime_error;
};

// Thrown by a command to end the program with a given exit code after it printed its message.
struct ExitCode
{
    int code;
};
} // namespace rl::cli
