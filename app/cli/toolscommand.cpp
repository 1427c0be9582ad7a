// ridgeline-cli tools [--add-folder DIR] [--remove-folder DIR] [--refresh] [--json]
// The GPU benchmark tools Ridgeline can launch: where each was found, what it can run and its
// version. Folders are kept in tools.json in the user data dir (the GUI's Settings use the same).
#include <algorithm>
#include <filesystem>
#include <iostream>

#include <nlohmann/json.hpp>

#include "clicommands.h"
#include "texttable.h"
#include "tools/gputools.h"

namespace rl::cli {
namespace {

struct ToolsArgs
{
    std::vector<std::string> add, remove;
    bool refresh = false;
};

void runTools(const CliContext& ctx, const ToolsArgs& a)
{
    const std::string file = tools::ToolSettings::defaultPath();
    tools::ToolSettings settings = tools::ToolSettings::load(file);
    bool changed = false;
    for (const auto& f : a.add) {
        std::error_code ec;
        if (!std::filesystem::is_directory(f, ec))
            throw std::invalid_argument("--add-folder " + f + ": not a folder");
        const std::string abs = std::filesystem::absolute(f).lexically_normal().string();
        if (std::find(settings.folders.begin(), settings.folders.end(), abs) == settings.folders.end()) {
            settings.folders.push_back(abs);
            changed = true;
        }
    }
    for (const auto& f : a.remove) {
        const std::string abs = std::filesystem::absolute(f).lexically_normal().string();
        const auto before = settings.folders.size();
        std::erase_if(settings.folders, [&](const std::string& x) { return x == abs || x == f; });
        if (settings.folders.size() == before)
            throw std::invalid_argument("--remove-folder " + f + ": not in the list (" + file + ")");
        changed = true;
    }
    nlohmann::json out = nlohmann::json::array();
    TextTable table({"tool", "found in", "version", "can run"});
    for (const auto& kind : tools::knownTools()) {
        auto found = tools::findTool(kind, settings);
        if (found && (a.refresh || found->versionSource.empty())) {
            tools::askVersion(*found, settings);
            changed = true;
        }
        std::string runs;
        if (found)
            for (const auto& p : found->programs)
                runs += (runs.empty() ? "" : " ") + p;
        const std::string name = found && !found->flavor.empty() ? found->flavor : kind.id;
        out.push_back({{"id", kind.id}, {"name", name}, {"found", bool(found)},
                       {"folder", found ? found->folder : ""}, {"programs", found ? found->programs : std::vector<std::string>{}},
                       {"version", found ? found->version : ""}, {"version_source", found ? found->versionSource : ""}});
        table.addRow({name, found ? found->folder : "not found",
                      !found ? "" : found->version.empty() ? "unknown (" + found->versionSource + ")" : found->version + " (" + found->versionSource + ")",
                      runs});
    }
    if (changed)
        settings.save(file);
    if (ctx.json) {
        std::cout << nlohmann::json{{"settings", file}, {"folders", settings.folders}, {"tools", out}}.dump(2) << '\n';
        return;
    }
    table.print(std::cout);
    std::cout << "\nSearched: " << (settings.folders.empty() ? std::string("PATH, /opt/rocm/bin")
                                                              : std::to_string(settings.folders.size()) + " folder(s) of " + file + ", then PATH, /opt/rocm/bin")
              << "\nAdd a folder (e.g. an nccl-tests build/): ridgeline-cli tools --add-folder DIR\n";
}

void addToolsCommand(CLI::App& app, CliContext& ctx)
{
    auto* cmd = app.add_subcommand("tools", "The GPU benchmark tools Ridgeline can run (nccl-tests, rccl-tests, "
                                            "hipblaslt-bench, rocblas-bench, cutlass_profiler, BabelStream, "
                                            "nvbandwidth): where, which version, what they run");
    auto a = std::make_shared<ToolsArgs>();
    cmd->add_option("--add-folder", a->add, "Search this folder first (repeatable), e.g. ~/nccl-tests/build")
        ->allow_extra_args(false);
    cmd->add_option("--remove-folder", a->remove, "Stop searching this folder")->allow_extra_args(false);
    cmd->add_flag("--refresh", a->refresh, "Ask every tool for its version again");
    cmd->callback([&ctx, a] { runTools(ctx, *a); });
}
const bool registered = registerCommand(&addToolsCommand);
} // namespace
} // namespace rl::cli
