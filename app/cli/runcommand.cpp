// ridgeline-cli run collectives -np N [...] -- <runner args>
// ridgeline-cli run io -np N [...] -- <runner args>            (storage, ridgeline-bench io under MPI)
// ridgeline-cli run peakflops|membw|gemm -- <runner args>
// Launches ridgeline-bench (collectives under mpirun, a hostfile or a launcher template such as
// srun; kernel benchmarks directly), stores every point in the workspace as it arrives (one
// transaction each) and echoes it on stdout as a JSON line with its session id. SIGTERM/SIGINT
// cancel the run on every rank.
#include <filesystem>
#include <tuple>
#include <iostream>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "clicommands.h"
#include "runs/launch.h"
#include "runs/runrequest.h"
#include "launcher.h"
#include "runsession.h"
#include "runoptions.h"
#include "sbatchrun.h"
#include "pointtimeout.h"
#include "records/wireformat.h"
#include "store/kernelresults.h"
#include "store/pairresults.h"
#include "store/storageresults.h"
#include "store/workspace.h"

namespace rl::cli {
namespace {
namespace fs = std::filesystem;

std::string findBench() { return findSibling("ridgeline-bench", "bench"); }

// An MPI benchmark of ridgeline-bench (collectives, pairs, io) under the launcher the request asks for.
int runMpiBenchmark(const CliContext& ctx, const RunCommandLine& cl)
{
    const runs::RunRequest& r = cl.request;
    const runs::RunKindInfo& k = runs::info(r.kind);
    const double pointTimeoutS = r.pointTimeout();
    std::vector<std::string> command{r.program.empty() ? findBench() : r.program, k.program};
    const auto benchArgs = pointTimeoutS > 0 ? withRunnerPointTimeout(r.args, pointTimeoutS) : r.args;
    command.insert(command.end(), benchArgs.begin(), benchArgs.end());
    const auto argv = runs::launchCommand(r.launch, command);
    if (cl.dryRun) {
        std::cout << displayCommand(argv) << '\n';
        return 0;
    }
    allowOpenMpiAsRoot();
    Session s;
    s.kind = k.sessionKind;
    s.title = r.title.empty() ? (r.kind == runs::RunKind::Io ? std::string("storage I/O") : std::string(k.sessionKind)) +
                                    ", " + std::to_string(r.launch.np) + " ranks"
                              : r.title;
    s.params = {{"launcher", runs::modeName(r.launch.mode)}, {"np", r.launch.np}, {"runner_args", r.args}};
    s.params["point_timeout_s"] = pointTimeoutS;
    s.params["request"] = runs::toJson(r.canonical());
    return runAndStore(ctx, std::move(s), argv, r.launch.sbatch, r.launch.np, pointTimeoutS);
}

// A kernel benchmark (peakflops, membw, gemm) on this machine: no MPI, the runner directly.
int runKernelBenchmark(const CliContext& ctx, const RunCommandLine& cl)
{
    const runs::RunRequest& r = cl.request;
    const runs::RunKindInfo& k = runs::info(r.kind);
    std::vector<std::string> argv{r.program.empty() ? findBench() : r.program, k.program};
    argv.insert(argv.end(), r.args.begin(), r.args.end());
    if (cl.dryRun) {
        std::cout << displayCommand(argv) << '\n';
        return 0;
    }
    Session s;
    s.kind = k.sessionKind;
    s.title = r.title.empty() ? std::string(k.sessionKind) + " on " + hostName() : r.title;
    s.params = {{"runner_args", r.args}, {"request", runs::toJson(r.canonical())}};
    return runAndStore(ctx, std::move(s), argv);
}

void addRunCommand(CLI::App& app, CliContext& ctx)
{
    auto* run = app.add_subcommand("run", "Run a benchmark and store its points as they arrive");
    run->require_subcommand(1);
    using runs::RunKind;
    // The MPI benchmarks: the same launch options, each stored as a session of its kind.
    for (const auto& [kind, help] :
         {std::pair{RunKind::Collectives, "Collective sweep with ridgeline-bench under MPI or Slurm"},
          std::pair{RunKind::Pairs,
                    "Point-to-point latency and bandwidth of every pair of ranks (ridgeline-bench pairs) under MPI or Slurm"},
          std::pair{RunKind::Io,
                    "Storage write/read bandwidth (ridgeline-bench io) under MPI or Slurm; pass --dir after --"}})
        addRunSubcommand(run, kind, help, [&ctx](const RunCommandLine& cl) { return runMpiBenchmark(ctx, cl); });
    // The kernel benchmarks run where ridgeline-cli runs; each is stored as a session of its kind.
    for (RunKind kind : {RunKind::PeakFlops, RunKind::MemBw, RunKind::Gemm})
        addRunSubcommand(run, kind, std::string("ridgeline-bench ") + runs::info(kind).program + " on this machine, stored as it runs",
                         [&ctx](const RunCommandLine& cl) { return runKernelBenchmark(ctx, cl); });
    addToolRunCommands(run, ctx);
    addProbeRunCommand(run, ctx);
}
const bool registered = registerCommand(&addRunCommand);
} // namespace
} // namespace rl::cli
