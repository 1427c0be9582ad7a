// ridgeline-cli: the headless twin of the GUI. Every command works on one workspace (--db FILE,
// default: the per-user workspace) and prints tables for people or JSON (--json) for scripts.
#include <algorithm>
#include <csignal>
#include <filesystem>
#include <iostream>

#include "chartimages.h"
#include "clicommands.h"
#include "io/libraryversions.h"
#include "usageerror.h"
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
std::string CliContext::workspacePath(Access access) const
{
    if (dbPath.empty())
        return store::Workspace::defaultPath(); // the per-user folder is ours to create
    const auto folder = std::filesystem::path(dbPath).parent_path();
    std::error_code ec;
    if (access == Access::Existing && !folder.empty() && !std::filesystem::is_directory(folder, ec))
        throw std::runtime_error("--db " + dbPath + ": the folder " + folder.string() +
                                 " does not exist; check the path, or create the workspace there first with "
                                 "`ridgeline-cli import FILE --db " + dbPath + "` (import and run create it)");
    return dbPath;
}
} // namespace rl::cli

namespace {
// The same library list as the GUI's About box (io::libraryVersions), so a bug report pasted from
// either names the same versions.
std::string versionText()
{
    std::string text = std::string("ridgeline-cli ") + RIDGELINE_VERSION + "\n" + rl::cli::qtVersionLine();
    for (const auto& [name, version] : rl::io::libraryVersions())
        text += "\n" + name + " " + version;
    return text;
}
} // namespace

int main(int argc, char** argv)
{
    // A file-size limit (ulimit -f) fails the write with EFBIG, which is reported and stops a run's
    // job (launcher.h), instead of killing us silently in the middle of a transaction.
    std::signal(SIGXFSZ, SIG_IGN);
    rl::cli::CliContext ctx;
    CLI::App app{"ridgeline-cli: import, inspect, fit, export and run benchmarks without the GUI"};
    app.set_version_flag("--version", versionText());
    // Global options go before or after the subcommand ("import run.txt --json"): an option a
    // subcommand does not know falls through to its parent. Subcommands copy the setting when
    // they are created, so it is set before any is added.
    app.fallthrough();
    app.add_option("--db", ctx.dbPath,
                   "Workspace file (SQLite); default: the per-user workspace. import, run and config save create "
                   "it (and its folders); other commands need its folder to exist");
    app.add_flag("--json", ctx.json, "Machine-readable JSON output");
    app.require_subcommand(1);
    app.footer("--db and --json go before or after the subcommand.\n"
               "Exit codes: 0    done\n"
               "            1    failed: the message says why and what to do next\n"
               "            2    bad usage: unknown option or command, missing or malformed argument\n"
               "            130  a run was cancelled (Ctrl-C, SIGTERM)");
    // A workspace locked by another process (a run writing, a rollback-journal file being read)
    // is waited for, said once so a command that seems to hang says why.
    rl::store::LockWait lockWait;
    lockWait.onWaiting = [](const std::string& message) { std::cerr << "ridgeline-cli: " << message << '\n'; };
    rl::store::setLockWait(lockWait);
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
        // --help and --version end here too, with CLI11's success code; every other parse error
        // is a usage error, 2 as is usual for command-line tools (CLI11's own codes are 100+).
        if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success))
            return app.exit(e);
        std::cerr << "ridgeline-cli: " << rl::cli::describeParseError(app, e) << '\n';
        return 2;
    } catch (const rl::cli::UsageError& e) {
        std::cerr << "ridgeline-cli: " << e.what() << "; " << rl::cli::helpHint(app) << '\n';
        return 2;
    } catch (const rl::cli::ExitCode& e) {
        return e.code;
    } catch (const std::exception& e) {
        std::cerr << "ridgeline-cli: " << e.what() << '\n';
        return 1;
    }
    return 0;
}
