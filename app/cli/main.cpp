// ridgeline-cli: the headless twin of the GUI. Every command works on one workspace (--db FILE,
// default: the per-user workspace) and prints tables for people or JSON (--json) for scripts.
#include <algorithm>
#include <iostream>

#include <QCoreApplication>

#include "clicommands.h"
#include "store/workspace.h"

namespace rl::cli {
namespace {
std::vector<CommandAdder>& commands()
{
    static std::vector<CommandAdder> list;
    return list;
}
} // namespace
bool registerCommand(CommandAdder adder)
{
    commands().push_back(adder);
    return true;
}
const std::vector<CommandAdder>& registeredCommands() { return commands(); }
std::string CliContext::workspacePath() const { return dbPath.empty() ? store::Workspace::defaultPath() : dbPath; }
} // namespace rl::cli

int main(int argc, char** argv)
{
    // Chart export renders with Qt; it needs a platform plugin but no display.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    rl::cli::CliContext ctx;
    CLI::App app{"ridgeline-cli: import, inspect, fit, export and run benchmarks without the GUI"};
    app.set_version_flag("--version", std::string("ridgeline-cli ") + RIDGELINE_VERSION);
    app.add_option("--db", ctx.dbPath, "Workspace file (SQLite); default: the per-user workspace");
    app.add_flag("--json", ctx.json, "Machine-readable JSON output");
    app.require_subcommand(1);
    for (auto add : rl::cli::registeredCommands())
        add(app, ctx);
    // mpirun spells it "-np"; CLI11 takes single-dash names of one letter only, so map it before
    // "--" (what follows "--" belongs to the runner and is left alone).
    std::vector<std::string> args(argv + 1, argv + argc);
    for (auto& arg : args) {
        if (arg == "--")
            break;
        if (arg == "-np")
            arg = "--np";
    }
    std::reverse(args.begin(), args.end()); // CLI11 takes the vector form reversed
    try {
        app.parse(args);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    } catch (const rl::cli::ExitCode& e) {
        return e.code;
    } catch (const std::exception& e) {
        std::cerr << "ridgeline-cli: " << e.what() << '\n';
        return 1;
    }
    return 0;
}
