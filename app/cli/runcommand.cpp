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

void emit(nlohmann::json j, std::int64_t sessionId)
{
    j["session_id"] = sessionId;
    std::cout << j.dump() << std::endl; // flushed at once: the GUI draws points as they come
}

struct RunArgs
{
    int np = 2;
    std::string hostfile, templ, mpirun = "mpirun", bench, title;
    std::vector<std::string> mpirunArgs;
    int nodes = 1, ppn = 1;
    bool dryRun = false;
    std::vector<std::string> benchArgs;
};

// Creates the session, runs argv, stores every record as it arrives (one transaction each: a
// killed run keeps what it finished) and echoes it with the session id. Returns the exit code.
int runAndStore(const CliContext& ctx, Session s, const std::vector<std::string>& argv)
{
    store::Workspace ws(ctx.workspacePath());
    s.created = nowIso8601();
    s.host = hostName();
    s.tool = "ridgeline-bench";
    s.toolVersion = RIDGELINE_VERSION;
    s.commandLine = displayCommand(argv);
    s.status = SessionStatus::Running;
    s.writerPid = getpid();
    const std::int64_t id = ws.createSession(s);
    emit(wire::toJson(s), id);

    std::optional<wire::End> end;
    int points = 0;
    Launcher launcher;
    ChildResult child;
    const auto store = [&](const auto& insert) {
        store::Transaction t(ws.database());
        insert(ws.database());
        t.commit();
        ++points;
    };
    try {
        child = launcher.run(argv, [&](const std::string& line) {
            std::optional<wire::Record> rec;
            try {
                rec = wire::parseLine(line);
            } catch (const std::exception&) {
                std::cerr << line << '\n'; // not ours (launcher chatter): pass it on
                return;
            }
            if (!rec)
                return;
            if (auto* h = std::get_if<wire::SessionHeader>(&*rec)) {
                nlohmann::json params = s.params;
                params["runner"] = h->session.params;
                params["runner_host"] = h->session.host;
                ws.setParams(id, params);
                Session shown = s;
                shown.params = params;
                emit(wire::toJson(shown), id); // again, with what the runner knows (expected points)
            } else if (auto* p = std::get_if<CollectivePoint>(&*rec)) {
                ws.addCollectivePoint(id, *p);
                ++points;
                emit(wire::toJson(*p), id);
            } else if (auto* g = std::get_if<GemmPoint>(&*rec)) {
                store([&](store::Database& db) { store::insertGemm(db, id, *g); });
                emit(wire::toJson(*g), id);
            } else if (auto* m = std::get_if<MemBwPoint>(&*rec)) {
                store([&](store::Database& db) { store::insertMemBw(db, id, *m); });
                emit(wire::toJson(*m), id);
            } else if (auto* c = std::get_if<MemCeiling>(&*rec)) {
                store([&](store::Database& db) { store::insertMemCeiling(db, id, *c); });
                --points; // a ceiling is derived from the points, not a point of its own
                emit(wire::toJson(*c), id);
            } else if (auto* f = std::get_if<PeakFlopsPoint>(&*rec)) {
                store([&](store::Database& db) { store::insertPeakFlops(db, id, *f); });
                emit(wire::toJson(*f), id);
            } else if (auto* pp = std::get_if<PairPoint>(&*rec)) {
                store([&](store::Database& db) { store::insertPair(db, id, *pp); });
                emit(wire::toJson(*pp), id);
            } else if (auto* st = std::get_if<StoragePoint>(&*rec)) {
                store([&](store::Database& db) { store::insertStorage(db, id, *st); });
                emit(wire::toJson(*st), id);
            } else if (auto* e = std::get_if<wire::End>(&*rec)) {
                end = *e;
            }
        });
    } catch (const std::exception& e) {
        ws.setStatus(id, SessionStatus::Failed);
        ws.setNotes(id, e.what());
        emit(wire::endRecord(SessionStatus::Failed, e.what()), id);
        return 1;
    }

    SessionStatus status = SessionStatus::Complete;
    std::string message;
    if (child.interrupted || (end && end->status == SessionStatus::Cancelled)) {
        status = SessionStatus::Cancelled;
        message = "cancelled after " + std::to_string(points) + " points";
    } else if (end && child.exitCode == 0) {
        status = end->status;
        message = end->message;
    } else {
        status = SessionStatus::Failed;
        message = child.signal ? "runner killed by signal " + std::to_string(child.signal)
                               : "runner exited with code " + std::to_string(child.exitCode);
        if (!child.stderrTail.empty())
            message += ": " + child.stderrTail.substr(child.stderrTail.size() > 2000 ? child.stderrTail.size() - 2000 : 0);
    }
    ws.setStatus(id, status);
    if (status != SessionStatus::Complete && !message.empty())
        ws.setNotes(id, message);
    emit(wire::endRecord(status, message), id);
    if (status == SessionStatus::Cancelled)
        return 130;
    return status == SessionStatus::Complete ? 0 : 1;
}

// An MPI benchmark of ridgeline-bench (collectives, pairs, io) under the launcher the arguments ask for.
int runMpiBenchmark(const CliContext& ctx, const std::string& sessionKind, const std::string& subcommand,
                    const RunArgs& a)
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
    spec.bench = a.bench.empty() ? findBench() : a.bench;
    spec.subcommand = subcommand;
    spec.benchArgs = a.benchArgs;
    const auto argv = buildLaunchCommand(spec);
    if (a.dryRun) {
        std::cout << displayCommand(argv) << '\n';
        return 0;
    }
    if (geteuid() == 0) { // Open MPI refuses root without these; MPICH ignores them
        setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 0);
        setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 0);
    }
    Session s;
    s.kind = sessionKind;
    s.title = a.title.empty() ? (sessionKind == kind::Storage ? std::string("storage I/O") : sessionKind) + ", " +
                                    std::to_string(a.np) + " ranks"
                              : a.title;
    s.params = {{"launcher", spec.kind == LaunchSpec::Kind::Template ? "template"
                             : spec.kind == LaunchSpec::Kind::Hostfile ? "hostfile" : "mpirun"},
                {"np", a.np}, {"runner_args", a.benchArgs}};
    return runAndStore(ctx, std::move(s), argv);
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
    coll->add_option("-n,--np", a->np, "Number of ranks")->capture_default_str()->check(CLI::PositiveNumber);
    coll->add_option("--hostfile", a->hostfile, "Launch with mpirun -hostfile FILE");
    coll->add_option("--launcher", a->templ,
                     "Launcher template, e.g. 'srun -N {nodes} --ntasks-per-node {ppn} {bench}' "
                     "(placeholders: {bench} {np} {nodes} {ppn} {hostfile})");
    coll->add_option("--nodes", a->nodes, "Nodes, for {nodes}")->capture_default_str();
    coll->add_option("--ppn", a->ppn, "Processes per node, for {ppn}")->capture_default_str();
    coll->add_option("--mpirun", a->mpirun, "mpirun to use")->capture_default_str();
    coll->add_option("--mpirun-arg", a->mpirunArgs, "Extra mpirun argument (repeatable), e.g. --oversubscribe")
        ->allow_extra_args(false);
    coll->add_option("--bench", a->bench, "Path of ridgeline-bench (default: next to ridgeline-cli)");
    coll->add_option("--title", a->title, "Session title");
    coll->add_flag("--dry-run", a->dryRun, "Print the launch command and exit");
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
}
const bool registered = registerCommand(&addRunCommand);
} // namespace
} // namespace rl::cli
