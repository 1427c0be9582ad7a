#pragma once
// What every `ridgeline-cli run TOOL` of the GPU tool registry (analysis/tools/gputools.h) shares:
// finding the tool the request names, the launch facts kept with its session, and the run of one
// tool process whose stdout a parser reads line by line (BabelStream, nvbandwidth).
#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "clicommands.h"
#include "records/session.h"
#include "runs/runrequest.h"
#include "tools/gputools.h"

namespace rl::cli {
class RunSession;

std::vector<std::string> withProgram(const std::string& program, std::vector<std::string> args);
// The registry tool `id` in --tool-dir, else the folders of `ridgeline-cli tools`, else PATH; its
// version asked once when the tool answers cheaply. Throws saying what to do when it is not found.
tools::FoundTool locateTool(const std::string& id, const runs::RunRequest& a);
// Launcher, processes, the tool's arguments, environment, folder and the request.
nlohmann::json toolLaunchParams(const runs::RunRequest& a, const tools::FoundTool& tool);

// One run of `program` with the request's arguments into a session like `s`: every line of its
// stdout goes to onLine (which appends what it parses) as it prints; a failure line, a non-zero
// exit, silence past the point timeout or a cancel ends the session so. finish() says how it
// went once the tool has exited well: a status and the message to end with.
struct ToolRunOutcome
{
    SessionStatus status = SessionStatus::Complete;
    std::string message;
};
int runToolOnce(const CliContext& ctx, const runs::RunRequest& a, bool dryRun, const tools::FoundTool& tool,
                const std::string& program, Session s,
                const std::function<void(RunSession& run, const std::string& line, std::int64_t lineNo)>& onLine,
                const std::function<ToolRunOutcome(RunSession& run)>& finish);

// `run babelstream` and `run nvbandwidth` (streamtoolruns.cpp).
void addStreamToolRunCommands(CLI::App* run, CliContext& ctx);
} // namespace rl::cli
