// ridgeline-bench: benchmark runner for cluster nodes. No Qt. Prints one JSON object per finished
// point on stdout (analysis/records/wireformat.h); errors on stderr with a non-zero exit.
#include <cstdio>
#include <iostream>

#include "benchcommands.h"

namespace rl::bench {
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
} // namespace rl::bench

int main(int argc, char** argv)
{
    CLI::App app{"ridgeline-bench: collective and kernel benchmarks, JSON lines on stdout"};
    app.set_version_flag("--version", std::string("ridgeline-bench ") + RIDGELINE_VERSION);
    app.require_subcommand(1);
    for (auto add : rl::bench::registeredCommands())
        add(app);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    } catch (const std::exception& e) {
        std::cerr << "ridgeline-bench: " << e.what() << '\n';
        return 1;
    }
    return 0;
}
