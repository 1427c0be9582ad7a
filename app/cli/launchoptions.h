#pragma once
// The launch options every `ridgeline-cli run ...` shares - ranks, mpirun with its arguments or a
// hostfile, a launcher template (srun ...), and --sbatch - and the LaunchSpec they describe.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "collectives/launchcommand.h"
#include "sbatchrun.h"

namespace rl::cli {

struct LaunchArgs
{
    int np = 2;
    std::string hostfile, templ, mpirun = "mpirun";
    std::vector<std::string> mpirunArgs;
    int nodes = 1, ppn = 1;
    SbatchArgs sbatch;
};
void addLaunchOptions(CLI::App* cmd, LaunchArgs& a, const std::string& npHelp);

// Everything but the program and its arguments.
LaunchSpec launchSpecOf(const LaunchArgs& a);
// "mpirun", "hostfile" or "template", as sessions record it.
const char* launcherName(LaunchSpec::Kind kind);
// Open MPI refuses root without these (containers, CI); MPICH ignores them.
void allowOpenMpiAsRoot();
} // namespace rl::cli
