#include "toolrun.h"

#include <iostream>

#include "launcher.h"
#include "runsession.h"
#include "sbatchrun.h"

namespace rl::cli {

std::vector<std::string> withProgram(const std::string& program, std::vector<std::string> args)
{
    args.insert(args.begin(), program);
    return args;
}

tools::FoundTool locateTool(const std::string& id, const runs::RunRequest& a)
{
    const std::string& toolDir = a.program;
    tools::ToolSettings settings = tools::ToolSettings::load(tools::ToolSettings::defaultPath());
    if (!toolDir.empty())
        settings.folders.insert(settings.folders.begin(), toolDir);
    const tools::ToolKind* kind = tools::toolKind(id);
    auto found = tools::findTool(*kind, settings);
    if (!found || (!toolDir.empty() && found->folder != toolDir && found->folder + "/" != toolDir))
        throw std::runtime_error(kind->name + " not found" + (toolDir.empty() ? "" : " in " + toolDir) +
                                 ": pass --tool-dir (e.g. an nccl-tests build/ folder) or add it with "
                                 "`ridgeline-cli tools --add-folder DIR`");
    if (!kind->collectives && found->versionSource.empty())
        tools::askVersion(*found, settings, 20000); // cheap for the GEMM benches; nccl-tests says it in its header
    return *found;
}

nlohmann::json toolLaunchParams(const runs::RunRequest& a, const tools::FoundTool& tool)
{
    nlohmann::json env = nlohmann::json::object();
    for (const auto& [name, value] : a.environment())
        env[name] = value;
    return {{"launcher", runs::modeName(a.launch.mode)}, {"np", a.launch.np}, {"tool_args", a.args},
            {"environment", env}, {"tool_folder", tool.folder}, {"request", runs::toJson(a.canonical())}};
}

std::optional<int> endOnToolFailure(RunSession& run, const std::string& program, const ChildResult& child,
                                    int idleTimeoutMs, const FirstFailureLine& failure)
{
    if (child.interrupted)
        return run.end(SessionStatus::Cancelled, "cancelled after " + std::to_string(run.points()) + " points");
    if (child.idleTimedOut || child.exitCode != 0)
        return run.end(SessionStatus::Failed, childFailure(program, child, idleTimeoutMs, failure.line));
    if (!failure.line.empty())
        return run.end(SessionStatus::Failed, program + " reported a failure: " + failure.line);
    return std::nullopt;
}

int runToolOnce(const CliContext& ctx, const runs::RunRequest& a, bool dryRun, const tools::FoundTool& tool,
                const std::string& program, Session s,
                const std::function<void(RunSession& run, const std::string& line, std::int64_t lineNo)>& onLine,
                const std::function<ToolRunOutcome(RunSession& run)>& finish)
{
    const auto argv = launchArgv(a, withProgram(tool.path(program), a.args));
    if (dryRun) {
        std::cout << displayCommand(argv) << '\n';
        return 0;
    }
    exportEnvironment(a);
    s.toolVersion = s.toolVersion.empty() ? tool.version : s.toolVersion;
    if (!a.title.empty())
        s.title = a.title;
    nlohmann::json params = toolLaunchParams(a, tool);
    params.update(s.params);
    s.params = params;
    RunSession run(ctx, s, argv);
    std::int64_t lineNo = 0;
    FirstFailureLine failure;
    const int timeoutMs = static_cast<int>(a.pointTimeout() * 1000);
    ChildResult child;
    try {
        child = runLocallyOrAsJob(a.launch.sbatch, a.launch.np, program, argv, [&](const std::string& line) {
            failure.see(line);
            onLine(run, line, ++lineNo);
        }, timeoutMs, [&](const std::string& job, const std::string& script) { run.noteJob(job, script); },
           [&](const std::string& line) { failure.see(line); });
    } catch (const std::exception& e) {
        return run.end(SessionStatus::Failed, e.what());
    }
    if (const auto rc = endOnToolFailure(run, program, child, timeoutMs, failure))
        return *rc;
    const ToolRunOutcome outcome = finish(run);
    return run.end(outcome.status, outcome.message);
}
} // namespace rl::cli
