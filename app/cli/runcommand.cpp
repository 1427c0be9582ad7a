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
#include "collectives/launchcommand.h"
#include "launcher.h"
#include "runsession.h"
#include "launchoptions.h"
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

struct RunArgs
{
    LaunchArgs launch;
    std::string bench, title;
    bool dryRun = false;
    PointTimeout pointTimeout;
    std::vector<std::string> benchArgs;
};

// Runs ridgeline-bench's argv into a new session: every record it prints is stored as it arrives.
// pointTimeoutS > 0 (the MPI benchmarks): the runner's ranks report a point that runs over (see
// pointtimeout.h) and the job is stopped; if none can report, silence for a while longer stops it.
int runAndStore(const CliContext& ctx, Session s, const std::vector<std::string>& argv, const SbatchArgs& sbatch = {},
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

// An MPI benchmark of ridgeline-bench (collectives, pairs, io) under the launcher the arguments ask for.
int runMpiBenchmark(const CliContext& ctx, const std::string& sessionKind, const std::string& subcommand,
                    const RunArgs& a)
{
    LaunchSpec spec = launchSpecOf(a.launch);
    spec.bench = a.bench.empty() ? findBench() : a.bench;
    spec.subcommand = subcommand;
    const double pointTimeoutS = a.pointTimeout.resolve(subcommand, a.benchArgs);
    spec.benchArgs = pointTimeoutS > 0 ? withRunnerPointTimeout(a.benchArgs, pointTimeoutS) : a.benchArgs;
    const auto argv = buildLaunchCommand(spec);
    if (a.dryRun) {
        std::cout << displayCommand(argv) << '\n';
        return 0;
    }
    allowOpenMpiAsRoot();
    Session s;
    s.kind = sessionKind;
    s.title = a.title.empty() ? (sessionKind == kind::Storage ? std::string("storage I/O") : sessionKind) + ", " +
                                    std::to_string(a.launch.np) + " ranks"
                              : a.title;
    s.params = {{"launcher", launcherName(spec.kind)}, {"np", a.launch.np}, {"runner_args", a.benchArgs}};
    s.params["point_timeout_s"] = pointTimeoutS;
    return runAndStore(ctx, std::move(s), argv, a.launch.sbatch, a.launch.np, pointTimeoutS);
}

// A kernel benchmark (peakflops, membw, gemm) on this machine: no MPI, the runner directly.
int runKernelBenchmark(const CliContext& ctx, const std::string& sessionKind, const RunArgs& a)
{
    std::vector<std::string> argv{a.bench.empty() ? findBench() : a.bench, sessionKind};
    argv.insert(argv.end(), a.benchArgs.begin(), a.benchArgs.end());
    if (a.dryRun) {
        std::cout << displayCommand(argv) << '\n';
        return 0;
    }
    Session s;
    s.kind = sessionKind;
    s.title = a.title.empty() ? sessionKind + " on " + hostName() : a.title;
    s.params = {{"runner_args", a.benchArgs}};
    return runAndStore(ctx, std::move(s), argv);
}

void addRunCommand(CLI::App& app, CliContext& ctx)
{
    auto* run = app.add_subcommand("run", "Run a benchmark and store its points as they arrive");
    run->require_subcommand(1);
    // The MPI benchmarks: the same launch options, each stored as a session of its kind.
    for (const auto& [name, sessionKind, help] :
         {std::tuple{"collectives", kind::Collectives, "Collective sweep with ridgeline-bench under MPI or Slurm"},
          std::tuple{"pairs", kind::Pairs,
                     "Point-to-point latency and bandwidth of every pair of ranks (ridgeline-bench pairs) under MPI or Slurm"},
          std::tuple{"io", kind::Storage,
                     "Storage write/read bandwidth (ridgeline-bench io) under MPI or Slurm; pass --dir after --"}}) {
    const std::string subcommand = name, sessionKindName = sessionKind;
    auto* coll = run->add_subcommand(subcommand, help);
    auto a = std::make_shared<RunArgs>();
    addLaunchOptions(coll, a->launch, "Number of ranks");
    coll->add_option("--bench", a->bench, "Path of ridgeline-bench (default: next to ridgeline-cli)");
    coll->add_option("--title", a->title, "Session title");
    coll->add_flag("--dry-run", a->dryRun, "Print the launch command and exit");
    addPointTimeoutOption(coll, a->pointTimeout);
    coll->add_option("runner_args", a->benchArgs, "Arguments for ridgeline-bench " + subcommand + " (after --)");
    coll->callback([&ctx, a, subcommand, sessionKindName] {
        const int rc = runMpiBenchmark(ctx, sessionKindName, subcommand, *a);
        if (rc != 0)
            throw ExitCode{rc};
    });
    }

    // The kernel benchmarks run where ridgeline-cli runs; each is stored as a session of its kind.
    for (const char* bench : {kind::PeakFlops, kind::MemBandwidth, kind::Gemm}) {
        const std::string name = bench;
        auto* cmd = run->add_subcommand(name, "ridgeline-bench " + name + " on this machine, stored as it runs");
        auto k = std::make_shared<RunArgs>();
        cmd->add_option("--bench", k->bench, "Path of ridgeline-bench (default: next to ridgeline-cli)");
        cmd->add_option("--title", k->title, "Session title");
        cmd->add_flag("--dry-run", k->dryRun, "Print the command and exit");
        cmd->add_option("runner_args", k->benchArgs, "Arguments for ridgeline-bench " + name + " (after --)");
        cmd->callback([&ctx, k, name] {
            const int rc = runKernelBenchmark(ctx, name, *k);
            if (rc != 0)
                throw ExitCode{rc};
        });
    }
    addToolRunCommands(run, ctx);
}
const bool registered = registerCommand(&addRunCommand);
} // namespace
} // namespace rl::cli
