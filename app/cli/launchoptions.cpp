#include "launchoptions.h"

#include <cstdlib>
#include <unistd.h>

namespace rl::cli {

void addLaunchOptions(CLI::App* cmd, LaunchArgs& a, const std::string& npHelp)
{
    cmd->add_option("-n,--np", a.np, npHelp)->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--hostfile", a.hostfile, "Launch with mpirun -hostfile FILE");
    cmd->add_option("--launcher", a.templ,
                    "Launcher template, e.g. 'srun -N {nodes} --ntasks-per-node {ppn} {bench}' "
                    "(placeholders: {bench} {np} {nodes} {ppn} {hostfile}; {bench} is the program with its arguments)")
        // A template without {bench} is bad usage (exit 2), said before anything starts.
        ->check([](const std::string& t) {
            return t.find("{bench}") == std::string::npos
                       ? std::string("the launcher template must contain {bench}, e.g. \"srun -N {nodes} "
                                     "--ntasks-per-node {ppn} {bench}\"")
                       : std::string();
        });
    cmd->add_option("--nodes", a.nodes, "Nodes, for {nodes}")->capture_default_str();
    cmd->add_option("--ppn", a.ppn, "Processes per node, for {ppn}")->capture_default_str();
    cmd->add_option("--mpirun", a.mpirun, "mpirun to use")->capture_default_str();
    cmd->add_option("--mpirun-arg", a.mpirunArgs, "Extra mpirun argument (repeatable), e.g. --oversubscribe")
        ->allow_extra_args(false);
    addSbatchOptions(cmd, a.sbatch);
}

LaunchSpec launchSpecOf(const LaunchArgs& a)
{
    LaunchSpec spec;
    spec.kind = !a.templ.empty() ? LaunchSpec::Kind::Template
                : !a.hostfile.empty() ? LaunchSpec::Kind::Hostfile : LaunchSpec::Kind::LocalMpirun;
    spec.np = a.np;
    spec.mpirun = a.mpirun;
    spec.mpirunArgs = a.mpirunArgs;
    spec.hostfile = a.hostfile;
    spec.templ = a.templ;
    spec.nodes = a.nodes;
    spec.ppn = a.ppn;
    return spec;
}

const char* launcherName(LaunchSpec::Kind kind)
{
    return kind == LaunchSpec::Kind::Template ? "template" : kind == LaunchSpec::Kind::Hostfile ? "hostfile" : "mpirun";
}

void allowOpenMpiAsRoot()
{
    if (geteuid() == 0) {
        setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 0);
        setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 0);
    }
}
} // namespace rl::cli
