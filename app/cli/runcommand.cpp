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

// ridgeline-bench next to this binary (installed), in the build tree, or on PATH.
std::string findBench()
{
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (!ec)
        for (const auto& candidate : {self.parent_path() / "ridgeline-bench",
                                      self.parent_path().parent_path() / "bench" / "ridgeline-bench"})
            if (fs::exists(candidate, ec))
                return candidate.string();
    return "ridgeline-bench";
}

// Runs ridgeline-bench's argv into a new session: every record it prints is stored as it arrives.
// pointTimeoutS > 0 (the MPI benchmarks): the runner's ranks report a point that runs over (see
// pointtimeout.h) and the job is stopped; if none can report, silence for a while longer stops it.
int runAndStore(const CliContext& ctx, Session s, const std::vector<std::string>& argv, const runs::Sbatch& sbatch = {},
                int ranks = 1, double pointTimeoutS = 0)
{
    s.tool = "ridgeline-bench";
    s.toolVersion = RIDGELINE_VERSION;
    RunSession run(ctx, std::move(s), argv);
    std::optional<wire::End> end;
    ChildResult child;
    Launcher launcher;
    StuckRanks stuck(ranks);
    bool started = false;
    // The ranks' own reports come first; this backstop only ends a run whose ranks cannot speak.
    const int silenceMs = pointTimeoutS > 0 ? static_cast<int>((pointTimeoutS + 10) * 1000) : 0;
    try {
        child = runLocallyOrAsJob(sbatch, ranks, run.session().kind, argv, [&](const std::string& line) {
            std::optional<wire::Record> rec;
            try {
                rec = wire::parseLine(line);
            } catch (const std::exception&) {
                std::cerr << line << '\n'; // not ours (launcher chatter): pass it on
                return;
            }
            if (!rec)
                return;
            if (auto* raw = std::get_if<wire::RawRecord>(&*rec)) {
                // What the ranks said before we stopped them: a stopped rank that the stop's SIGCONT
                // wakes reports too, and must still be named as the one that did not arrive.
                if (!launcher.stopping() && stuck.take(raw->object))
                    launcher.stop(2000); // the other ranks' reports are on their way
            } else if (auto* h = std::get_if<wire::SessionHeader>(&*rec)) {
                started = true;
                nlohmann::json params = run.session().params;
                params["runner"] = h->session.params;
                params["runner_host"] = h->session.host;
                run.setParams(params);
                run.emit(wire::toJson(run.session())); // again, with what the runner knows (expected points)
            } else if (auto* p = std::get_if<CollectivePoint>(&*rec)) {
                run.addCollective(*p);
            } else if (auto* g = std::get_if<GemmPoint>(&*rec)) {
                run.store([&](store::Database& db) { store::insertGemm(db, run.id(), *g); });
                run.emit(wire::toJson(*g));
            } else if (auto* m = std::get_if<MemBwPoint>(&*rec)) {
                run.store([&](store::Database& db) { store::insertMemBw(db, run.id(), *m); });
                run.emit(wire::toJson(*m));
            } else if (auto* c = std::get_if<MemCeiling>(&*rec)) {
                // A ceiling is derived from the points, not a point of its own.
                run.store([&](store::Database& db) { store::insertMemCeiling(db, run.id(), *c); }, false);
                run.emit(wire::toJson(*c));
            } else if (auto* f = std::get_if<PeakFlopsPoint>(&*rec)) {
                run.store([&](store::Database& db) { store::insertPeakFlops(db, run.id(), *f); });
                run.emit(wire::toJson(*f));
            } else if (auto* pp = std::get_if<PairPoint>(&*rec)) {
                run.store([&](store::Database& db) { store::insertPair(db, run.id(), *pp); });
                run.emit(wire::toJson(*pp));
            } else if (auto* st = std::get_if<StoragePoint>(&*rec)) {
                run.store([&](store::Database& db) { store::insertStorage(db, run.id(), *st); });
                run.emit(wire::toJson(*st));
            } else if (auto* e = std::get_if<wire::End>(&*rec)) {
                end = *e;
            }
        }, silenceMs, [&](const std::string& job, const std::string& script) { run.noteJob(job, script); }, {},
           &launcher);
    } catch (const std::exception& e) {
        return run.end(SessionStatus::Failed, e.what());
    }
    // Our own stop (a point ran over) ends the runner as a cancel would; the session says why.
    if (stuck.any() && !child.interrupted)
        return run.end(SessionStatus::Failed, stuck.message() + "; stopped after " + std::to_string(run.points()) +
                                                  " points");
    if (child.interrupted || (end && end->status == SessionStatus::Cancelled))
        return run.end(SessionStatus::Cancelled, "cancelled after " + std::to_string(run.points()) + " points");
    if (child.idleTimedOut)
        return run.end(SessionStatus::Failed,
                       (started ? "the runner printed nothing for " + std::to_string(silenceMs / 1000) +
                                      " s and no rank reported (--point-timeout " + std::to_string(int(pointTimeoutS)) +
                                      " s): every rank is stopped or gone"
                                : "no rank of the runner started within " + std::to_string(silenceMs / 1000) +
                                      " s (--point-timeout " + std::to_string(int(pointTimeoutS)) + " s)") +
                           "; stopped after " + std::to_string(run.points()) + " points");
    if (end && child.exitCode == 0)
        return run.end(end->status, end->message);
    return run.end(SessionStatus::Failed, childFailure("runner", child, 0));
}

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
}
const bool registered = registerCommand(&addRunCommand);
} // namespace
} // namespace rl::cli
