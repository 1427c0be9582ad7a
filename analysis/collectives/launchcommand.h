#pragma once
// The command line that launches ridgeline-bench on the ranks: local mpirun, mpirun with a
// hostfile, or a user template (e.g. "srun -N {nodes} --ntasks-per-node {ppn} {bench}"). The CLI
// runs it and the GUI shows it in full before it runs, so both build it here.
#include <string>
#include <vector>

namespace rl {

struct LaunchSpec
{
    enum class Kind { LocalMpirun, Hostfile, Template } kind = Kind::LocalMpirun;
    int np = 2;
    std::string mpirun = "mpirun";
    std::vector<std::string> mpirunArgs; // extra launcher flags, e.g. --oversubscribe
    std::string hostfile;
    std::string templ;                   // placeholders {bench} {np} {nodes} {ppn} {hostfile}
    int nodes = 1;
    int ppn = 1;
    std::string bench = "ridgeline-bench";
    std::string subcommand = "collectives"; // of ridgeline-bench: "collectives", "pairs" or "io"
    std::vector<std::string> benchArgs;     // after the subcommand
};

// argv to exec; a template becomes {"/bin/sh", "-c", expanded} so users' shell syntax works.
// Throws std::invalid_argument for an empty template or one without {bench}.
std::vector<std::string> buildLaunchCommand(const LaunchSpec& spec);
// One line, shell-quoted where needed, as a person would type it.
std::string displayCommand(const std::vector<std::string>& argv);
std::string shellQuote(const std::string& arg);
} // namespace rl
