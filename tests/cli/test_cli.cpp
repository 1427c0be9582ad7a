// The real ridgeline-cli binary against real workspaces; runs use real mpirun + ridgeline-bench.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <tuple>
#include <cstring>
#include <sys/resource.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "childprocess.h"
#include "tempdir.h"
#include "model/gemmlist.h"
#include "model/modelconfig.h"
#include "model/parallelconfig.h"
#include "records/wireformat.h"
#include "store/workspace.h"

using namespace rl;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {
using test::TempDir;

std::vector<std::string> cli(const fs::path& db, std::vector<std::string> args, bool jsonOut = false)
{
    std::vector<std::string> argv{RIDGELINE_CLI, "--db", db.string()};
    if (jsonOut)
        argv.push_back("--json");
    argv.insert(argv.end(), args.begin(), args.end());
    return argv;
}

// A small run in our own wire format, as ridgeline-bench prints it.
void writeRunFile(const fs::path& file)
{
    Session s;
    s.tool = "ridgeline-bench";
    s.title = "fixture";
    std::ofstream out(file);
    out << wire::toJson(s).dump() << '\n';
    for (std::int64_t bytes = 1024; bytes <= (1 << 24); bytes *= 4) {
        CollectivePoint p{"all_reduce", 4, "float32", "sum", bytes, bytes / 4, false, -1, 0, 0, 0, 0};
        p.timeUs = 10.0 + double(bytes) / 20e3; // alpha 10 µs, beta 20 GB/s
        p.algbwGBs = double(bytes) / p.timeUs / 1e3;
        p.busbwGBs = p.algbwGBs * 1.5;
        out << wire::toJson(p).dump() << '\n';
    }
    out << wire::endRecord(SessionStatus::Complete).dump() << '\n';
}

bool mpiAvailable() { return fs::exists(RIDGELINE_MPIEXEC) && fs::exists(RIDGELINE_BENCH); }

std::vector<std::string> runArgs(const fs::path& db, int np, std::vector<std::string> runner)
{
    std::vector<std::string> a{"run", "collectives", "-np", std::to_string(np), "--mpirun", RIDGELINE_MPIEXEC,
                               "--bench", RIDGELINE_BENCH};
    if (std::string(RIDGELINE_MPIEXEC).find("openmpi") != std::string::npos ||
        fs::path(RIDGELINE_MPIEXEC).filename() == "mpirun" || fs::path(RIDGELINE_MPIEXEC).filename() == "mpiexec") {
        // Open MPI on a VM: shared memory transport only (the default tries every NIC).
        for (const char* x : {"--mca", "pml", "ob1", "--mca", "btl", "self,vader", "--oversubscribe"}) {
            a.push_back("--mpirun-arg");
            a.push_back(x);
        }
    }
    a.push_back("--");
    a.insert(a.end(), runner.begin(), runner.end());
    return cli(db, a);
}

// ---- Issue 26, "jobs always stop": the launched group never outlives ridgeline-cli, a failed
// write stops the job first, and a rank that stops fails the run naming the rank and the point.

// A process as /proc/PID/stat tells it.
struct Proc
{
    pid_t pid = 0, ppid = 0, pgrp = 0;
    char state = '?';
    std::string comm;
};

std::vector<Proc> processes()
{
    std::vector<Proc> out;
    for (const auto& e : fs::directory_iterator("/proc")) {
        const std::string name = e.path().filename().string();
        if (name.empty() || !std::isdigit(static_cast<unsigned char>(name[0])))
            continue;
        std::ifstream in(e.path() / "stat");
        std::string text;
        if (!std::getline(in, text))
            continue;
        const auto open = text.find('('), close = text.rfind(')');
        if (open == std::string::npos || close == std::string::npos)
            continue;
        Proc p;
        p.pid = std::stoi(text.substr(0, open));
        p.comm = text.substr(open + 1, close - open - 1);
        std::istringstream rest(text.substr(close + 2));
        rest >> p.state >> p.ppid >> p.pgrp;
        out.push_back(p);
    }
    return out;
}

// What the CLI launched: mpirun and every rank (each rank in a process group of its own under
// Open MPI 4), found through their parents while the CLI is alive; its own watcher is left out.
std::vector<Proc> launchedBy(pid_t cli)
{
    const auto all = processes();
    std::vector<Proc> out;
    for (const auto& p : all) {
        if (p.comm == "ridgeline-cli" || p.comm == "ridgeline-watch")
            continue;
        for (pid_t up = p.ppid; up > 1;) {
            if (up == cli) {
                out.push_back(p);
                break;
            }
            const auto parent = std::find_if(all.begin(), all.end(), [&](const Proc& q) { return q.pid == up; });
            up = parent == all.end() ? 0 : parent->ppid;
        }
    }
    return out;
}

// Those of `procs` still alive (not zombies) after up to `seconds`, checking as it goes.
std::vector<Proc> aliveAfter(const std::vector<Proc>& procs, int seconds)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    for (;;) {
        std::vector<Proc> live;
        for (const auto& p : processes())
            if (p.state != 'Z' && p.state != 'X' &&
                std::any_of(procs.begin(), procs.end(), [&](const Proc& q) { return q.pid == p.pid; }))
                live.push_back(p);
        if (live.empty() || std::chrono::steady_clock::now() > deadline)
            return live;
        usleep(100 * 1000); // polling /proc: there is no signal to wait on for strangers' exits
    }
}

std::string describe(const std::vector<Proc>& procs)
{
    std::string s;
    for (const auto& p : procs)
        s += std::to_string(p.pid) + " " + p.comm + " (" + p.state + ")\n";
    return s;
}

// The rank of a ridgeline-bench process, from the environment its launcher gave it.
int rankOf(pid_t pid)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/environ");
    std::string var;
    while (std::getline(in, var, '\0'))
        for (const char* key : {"OMPI_COMM_WORLD_RANK=", "PMI_RANK="})
            if (var.rfind(key, 0) == 0)
                return std::stoi(var.substr(std::strlen(key)));
    return -1;
}

// Reads the run's stdout until `n` collective points have been printed.
bool readPoints(test::Running& run, int n)
{
    std::string line;
    int points = 0;
    while (points < n && run.readLine(line, 60))
        if (line.find("\"record\":\"collective\"") != std::string::npos)
            ++points;
    return points == n;
}
} // namespace

TEST(Cli, ImportListsResultsFitsAndDetectsReimport)
{
    TempDir dir;
    const auto db = dir.path / "w.db";
    const auto run = dir.path / "run.jsonl";
    writeRunFile(run);
    auto first = test::runToEnd(cli(db, {"import", run.string()}, true));
    ASSERT_EQ(first.exitCode, 0) << first.err;
    const auto report = json::parse(first.out);
    ASSERT_EQ(report.size(), 1u);
    EXPECT_TRUE(report[0]["ok"]);
    EXPECT_FALSE(report[0]["already_imported"]);
    const auto id = report[0]["session_ids"][0].get<std::int64_t>();

    auto again = test::runToEnd(cli(db, {"import", run.string()}));
    EXPECT_EQ(again.exitCode, 0);
    EXPECT_NE(again.out.find("already imported as session " + std::to_string(id)), std::string::npos) << again.out;

    auto sessions = json::parse(test::runToEnd(cli(db, {"sessions"}, true)).out);
    ASSERT_EQ(sessions.size(), 1u);
    EXPECT_EQ(sessions[0]["title"], "fixture");

    auto results = json::parse(test::runToEnd(cli(db, {"results", std::to_string(id)}, true)).out);
    EXPECT_EQ(results.size(), 8u); // 1 KiB .. 16 MiB by 4x
    EXPECT_EQ(results[0]["op"], "all_reduce");

    auto fit = json::parse(test::runToEnd(cli(db, {"fit", std::to_string(id)}, true)).out);
    ASSERT_EQ(fit.size(), 1u);
    EXPECT_NEAR(fit[0]["alpha_us"].get<double>(), 10.0, 1e-6);
    EXPECT_NEAR(fit[0]["beta_gbs"].get<double>(), 20.0, 1e-6);

    auto table = test::runToEnd(cli(db, {"results", std::to_string(id)}));
    EXPECT_NE(table.out.find("16 MiB"), std::string::npos) << table.out;
    EXPECT_NE(table.out.find("GB/s"), std::string::npos);
}

TEST(Cli, BrokenFileNamesFileAndLineAndStoresNothing)
{
    TempDir dir;
    const auto db = dir.path / "w.db";
    const auto good = dir.path / "good.jsonl";
    writeRunFile(good);
    ASSERT_EQ(test::runToEnd(cli(db, {"import", good.string()})).exitCode, 0);
    const auto junk = dir.path / "junk.bin";
    std::ofstream(junk, std::ios::binary).write("\x00\x01\x02\xff\xfe", 5);
    const auto empty = dir.path / "empty.txt";
    std::ofstream{empty};
    auto r = test::runToEnd(cli(db, {"import", junk.string(), empty.string(), (dir.path / "missing").string()}));
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find(junk.string() + ": binary"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(empty.string() + ": file is empty"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("missing"), std::string::npos) << r.err;
    store::Workspace ws(db.string());
    EXPECT_EQ(ws.sessions().size(), 1u);
}

TEST(Cli, UnknownSessionAndBadArgumentsFailClearly)
{
    TempDir dir;
    const auto db = dir.path / "w.db";
    auto r = test::runToEnd(cli(db, {"results", "42"}));
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.err.find("no session 42"), std::string::npos) << r.err;
    auto bad = test::runToEnd(cli(db, {"fit", "1", "--min-size", "12Q"}));
    EXPECT_NE(bad.exitCode, 0);
    auto notDb = dir.path / "text.db";
    std::ofstream(notDb) << "hello, this is not a database at all, but it is long enough\n";
    auto r2 = test::runToEnd(cli(notDb, {"sessions"}));
    EXPECT_NE(r2.exitCode, 0);
    EXPECT_NE(r2.err.find(notDb.string()), std::string::npos) << r2.err;
}

TEST(CliRun, StoresEveryPointOfARealMpiRun)
{
    if (!mpiAvailable())
        GTEST_SKIP() << "mpirun or ridgeline-bench not available";
    TempDir dir;
    const auto db = dir.path / "w.db";
    auto r = test::runToEnd(runArgs(db, 2, {"--ops", "all_reduce,all_gather", "-b", "8", "-e", "64K", "-f", "8",
                                            "-n", "5", "-w", "1", "--inplace", "0"}));
    ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
    store::Workspace ws(db.string());
    const auto sessions = ws.sessions();
    ASSERT_EQ(sessions.size(), 1u);
    EXPECT_EQ(sessions[0].status, SessionStatus::Complete);
    EXPECT_NE(sessions[0].commandLine.find("collectives"), std::string::npos);
    const auto points = ws.collectivePoints(sessions[0].id);
    // 8 B .. 64 KiB by 8x = 5 sizes (8, 64, 512, 4K, 32K), two ops, out-of-place only
    EXPECT_EQ(points.size(), 10u);
    for (const auto& p : points) {
        EXPECT_EQ(p.wrong, 0);
        EXPECT_EQ(p.nranks, 2);
    }
}

TEST(CliRun, SigkillMidSweepKeepsFinishedPointsAndAHealthyDatabase)
{
    if (!mpiAvailable())
        GTEST_SKIP() << "mpirun or ridgeline-bench not available";
    TempDir dir;
    const auto db = dir.path / "w.db";
    test::Running run(
        runArgs(db, 2, {"--ops", "all_reduce", "-b", "8", "-e", "512M", "-f", "2", "-n", "20", "--inplace", "0"}));
    std::string line;
    std::vector<json> printed;
    while (printed.size() < 4 && run.readLine(line, 60)) {
        auto j = json::parse(line, nullptr, false);
        if (j.is_object() && j.value("record", "") == "collective")
            printed.push_back(j);
    }
    ASSERT_EQ(printed.size(), 4u) << "the run did not produce points";
    run.signalGroup(SIGKILL); // the writer dies without any chance to clean up
    run.wait();

    store::Workspace ws(db.string());
    store::Statement check(ws.database(), "PRAGMA integrity_check");
    ASSERT_TRUE(check.step());
    EXPECT_EQ(check.text(0), "ok");
    const auto sessions = ws.sessions();
    ASSERT_EQ(sessions.size(), 1u);
    const auto points = ws.collectivePoints(sessions[0].id);
    EXPECT_GE(points.size(), printed.size());
    for (std::size_t i = 0; i < printed.size(); ++i)
        EXPECT_EQ(points[i].bytes, printed[i]["bytes"].get<std::int64_t>());
    EXPECT_EQ(ws.markOrphanedRuns(), 1);
    EXPECT_EQ(ws.session(sessions[0].id)->status, SessionStatus::Incomplete);
}

TEST(CliRun, SigtermCancelsAllRanksAndMarksTheSessionCancelled)
{
    if (!mpiAvailable())
        GTEST_SKIP() << "mpirun or ridgeline-bench not available";
    TempDir dir;
    const auto db = dir.path / "w.db";
    test::Running run(runArgs(db, 2, {"--ops", "all_reduce", "-b", "8", "-e", "512M", "-f", "2", "-n", "20"}));
    std::string line;
    int points = 0;
    while (points < 2 && run.readLine(line, 60))
        if (line.find("\"record\":\"collective\"") != std::string::npos)
            ++points;
    ASSERT_EQ(points, 2);
    kill(run.pid(), SIGTERM); // the CLI only, as the GUI's Cancel does
    std::string last;
    while (run.readLine(line, 60))
        last = line;
    EXPECT_EQ(run.wait(), 130);
    EXPECT_NE(last.find("\"status\":\"cancelled\""), std::string::npos) << last;
    store::Workspace ws(db.string());
    EXPECT_EQ(ws.sessions()[0].status, SessionStatus::Cancelled);
}

TEST(CliRun, SigkillOfTheCliAloneStopsMpirunAndEveryRank)
{
    if (!mpiAvailable())
        GTEST_SKIP() << "mpirun or ridgeline-bench not available";
    TempDir dir;
    const auto db = dir.path / "w.db";
    // Rank 1 sleeps 4 s before every call: the first point is half a minute away, so mpirun has
    // nothing to write (a write to a dead reader would end it anyway) and lives on unless stopped.
    test::Running run(runArgs(db, 2, {"--ops", "all_reduce", "-b", "8", "-e", "8", "-n", "5", "-w", "1",
                                      "--delay-rank", "1", "--delay-us", "4000000"}));
    std::string header;
    ASSERT_TRUE(run.readLine(header, 60));
    ASSERT_NE(header.find("\"record\":\"session\""), std::string::npos) << header;
    // The header came from rank 0; wait for both ranks to show below the launcher (mpirun, and
    // under MPICH its hydra_pmi_proxy too).
    const auto ranksIn = [](const std::vector<Proc>& procs) {
        return std::count_if(procs.begin(), procs.end(), [](const Proc& p) { return p.comm == "ridgeline-bench"; });
    };
    std::vector<Proc> job;
    for (int tries = 0; tries < 100 && ranksIn(job) < 2; ++tries, usleep(50 * 1000))
        job = launchedBy(run.pid());
    ASSERT_EQ(ranksIn(job), 2) << describe(job);
    kill(run.pid(), SIGKILL); // the CLI alone, as the OOM killer or `kill -9 PID` would
    run.wait();
    const auto left = aliveAfter(job, 10);
    EXPECT_TRUE(left.empty()) << "still running 10 s after the CLI died:\n" << describe(left);
    // The next reader sees the run as incomplete.
    auto r = test::runToEnd(cli(db, {"sessions"}, true));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = json::parse(r.out);
    ASSERT_EQ(j.size(), 1u);
    EXPECT_EQ(j[0]["status"], "incomplete") << r.out;
}

TEST(CliRun, AStoppedRankFailsTheRunNamingTheRankAndThePoint)
{
    if (!mpiAvailable())
        GTEST_SKIP() << "mpirun or ridgeline-bench not available";
    TempDir dir;
    const auto db = dir.path / "w.db";
    auto args = runArgs(db, 2, {"--ops", "all_reduce", "-b", "8", "-e", "512M", "-f", "2", "-n", "20"});
    args.insert(std::find(args.begin(), args.end(), "--"), {"--point-timeout", "2"});
    test::Running run(args);
    ASSERT_TRUE(readPoints(run, 2));
    const auto job = launchedBy(run.pid());
    pid_t rank1 = 0;
    for (const auto& p : job)
        if (p.comm == "ridgeline-bench" && rankOf(p.pid) == 1)
            rank1 = p.pid;
    ASSERT_GT(rank1, 0) << "rank 1 not found in:\n" << describe(job);
    kill(rank1, SIGSTOP);
    std::string line, last;
    while (run.readLine(line, 60))
        last = line;
    EXPECT_EQ(run.wait(), 1);
    EXPECT_NE(last.find("\"status\":\"failed\""), std::string::npos) << last;
    store::Workspace ws(db.string());
    const auto s = ws.sessions().at(0);
    EXPECT_EQ(s.status, SessionStatus::Failed);
    EXPECT_NE(s.notes.find("all_reduce "), std::string::npos) << s.notes;
    EXPECT_NE(s.notes.find(" ran over 2 s (--point-timeout): rank 0 waited in it; no word from rank 1"),
              std::string::npos)
        << s.notes;
    EXPECT_GE(ws.collectivePoints(s.id).size(), 2u);
    const auto left = aliveAfter(job, 0);
    EXPECT_TRUE(left.empty()) << "the stopped rank outlived the run:\n" << describe(left);
}

TEST(CliRun, AFailedWriteStopsTheJobBeforeTheCliExits)
{
    if (!mpiAvailable())
        GTEST_SKIP() << "mpirun or ridgeline-bench not available";
    TempDir dir;
    const auto db = dir.path / "w.db";
    test::Running run(runArgs(db, 2, {"--ops", "all_reduce", "-b", "8", "-e", "512M", "-f", "2", "-n", "20"}));
    ASSERT_TRUE(readPoints(run, 2));
    const auto job = launchedBy(run.pid());
    ASSERT_FALSE(job.empty());
    // The disk is full from now on, for the CLI alone: no file of its may grow past its size now.
    std::error_code ec;
    const auto wal = fs::file_size(db.string() + "-wal", ec);
    const rlimit full{static_cast<rlim_t>(ec ? 0 : wal), static_cast<rlim_t>(ec ? 0 : wal)};
    ASSERT_EQ(prlimit(run.pid(), RLIMIT_FSIZE, &full, nullptr), 0) << std::strerror(errno);
    std::string line;
    while (run.readLine(line, 120)) {
    }
    EXPECT_EQ(run.wait(), 1);
    // The CLI has exited: its job is gone already (the launcher waited for it), nothing measures on.
    const auto left = aliveAfter(job, 0);
    EXPECT_TRUE(left.empty()) << "running after the CLI failed:\n" << describe(left);
    store::Workspace ws(db.string());
    EXPECT_EQ(ws.markOrphanedRuns(), 1);
    const auto s = ws.sessions().at(0);
    EXPECT_EQ(s.status, SessionStatus::Incomplete);
    EXPECT_GE(ws.collectivePoints(s.id).size(), 2u);
}

TEST(Cli, VsMeasuredComparesATraceAndALogWithThePrediction)
{
    TempDir dir;
    const auto db = dir.path / "w.db";
    auto imp = test::runToEnd(cli(db, {"import", RIDGELINE_TEST_DATA "/traces/ranks",
                                       RIDGELINE_TEST_DATA "/logs/megatron_lm_restart.log",
                                       RIDGELINE_TEST_DATA "/collectives/nccl_2.13_allreduce_8xh100.txt"}));
    ASSERT_EQ(imp.exitCode, 0) << imp.err;
    // Session 1: the two-rank trace (one session for the folder); 2: the log; 3: a benchmark.
    auto r = test::runToEnd(
        cli(db, {"vs-measured", "1", "llama-3-8b", "--hardware", "h100-sxm", "--parallel", "dp=2"}, true));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = json::parse(r.out);
    EXPECT_NE(j["measured_source"].get<std::string>().find("2 rank(s)"), std::string::npos);
    // Six rows, then from a trace compute's two parts by kernel class, which the gaps give instead of compute.
    ASSERT_EQ(j["rows"].size(), 8u);
    EXPECT_EQ(j["rows"][0]["quantity"], "step time");
    EXPECT_GT(j["rows"][0]["predicted"].get<double>(), 0);
    EXPECT_GT(j["rows"][0]["measured"].get<double>(), 0);
    EXPECT_EQ(j["rows"][6]["quantity"], "compute: GEMM and attention");
    EXPECT_EQ(j["rows"][7]["quantity"], "compute: element-wise, optimizer and other kernels");
    EXPECT_NEAR(j["rows"][6]["predicted"].get<double>() + j["rows"][7]["predicted"].get<double>(),
                j["rows"][1]["predicted"].get<double>(), 1e-9);
    EXPECT_EQ(j["largest_gaps"].size(), 4u);

    auto log = test::runToEnd(cli(db, {"vs-measured", "2", "llama-3-8b", "--hardware", "mi300x"}));
    ASSERT_EQ(log.exitCode, 0) << log.err;
    EXPECT_NE(log.out.find("training log: median over"), std::string::npos) << log.out;
    EXPECT_NE(log.out.find("MFU"), std::string::npos);
    // The log states world size 16 = dp 2 x tp 8 and a global batch of 128: the prediction models
    // that run and says so; the device was given, so it is reported as given.
    EXPECT_NE(log.out.find("taken from the measurement: layout dp=2,tp=8 (Megatron-LM arguments)"), std::string::npos)
        << log.out;
    EXPECT_NE(log.out.find("global batch 128"), std::string::npos) << log.out;
    EXPECT_NE(log.out.find("assumed: model llama-3-8b (given)"), std::string::npos) << log.out;
    EXPECT_NE(log.out.find("hardware mi300x (given)"), std::string::npos) << log.out;

    auto wrong = test::runToEnd(cli(db, {"vs-measured", "3", "llama-3-8b", "--hardware", "mi300x"}));
    EXPECT_NE(wrong.exitCode, 0);
    EXPECT_NE(wrong.err.find("needs a trace or a training log"), std::string::npos) << wrong.err;
}

TEST(Cli, TraceCollectivesAgainstABenchmarkSession)
{
    TempDir dir;
    const auto db = dir.path / "w.db";
    ASSERT_EQ(test::runToEnd(cli(db, {"import", RIDGELINE_TEST_DATA "/traces/handmade_two_steps.json",
                                      RIDGELINE_TEST_DATA "/collectives/nccl_2.13_allreduce_8xh100.txt"}))
                  .exitCode,
              0);
    auto r = test::runToEnd(cli(db, {"trace-collectives", "1", "--against", "2"}, true));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = json::parse(r.out);
    ASSERT_EQ(j.size(), 1u);
    EXPECT_EQ(j[0]["op"], "all_reduce");
    // nccl-tests printed 178.00 GB/s at 2 MiB out-of-place; the importer recomputes it from size and time.
    EXPECT_NEAR(j[0]["benchmark_busbw_gbs"].get<double>(), 178.00, 0.05);
    EXPECT_LT(j[0]["mean_efficiency"].get<double>(), 1.0);
    auto wrong = test::runToEnd(cli(db, {"trace-collectives", "2"}));
    EXPECT_NE(wrong.exitCode, 0);
    EXPECT_NE(wrong.err.find("not a trace session"), std::string::npos) << wrong.err;
}

// "This machine (measured)": a real (short) peakflops run and a recorded membw sweep become a
// profile, saved with the user's profiles and then found by --hardware like a vendor one.
TEST(Cli, MeasuredProfileFromBenchmarksIsSavedAndUsable)
{
    TempDir dir;
    const auto db = dir.path / "w.db";
    const auto peak = dir.path / "peak.jsonl";
    {
        auto bench = test::runToEnd({RIDGELINE_BENCH, "peakflops", "--threads", "1", "--seconds", "0.05",
                                     "--repeats", "1"});
        ASSERT_EQ(bench.exitCode, 0) << bench.err;
        std::ofstream(peak) << bench.out;
    }
    ASSERT_EQ(test::runToEnd(cli(db, {"import", peak.string(),
                                      RIDGELINE_TEST_DATA "/kernels/membw-zen5-2cpu-kvm.jsonl"}))
                  .exitCode,
              0);
    const std::string home = (dir.path / "data").string();
    setenv("XDG_DATA_HOME", home.c_str(), 1); // inherited by the CLI processes below
    auto r = test::runToEnd(cli(db, {"profile", "measured", "--peakflops", "1", "--membw", "2", "--save"}));
    unsetenv("XDG_DATA_HOME");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = json::parse(r.out);
    EXPECT_EQ(j["id"], "this-machine");
    EXPECT_TRUE(j["measured"].get<bool>());
    EXPECT_GT(j["peak_tflops"]["fp64"]["value"].get<double>(), 0);
    EXPECT_TRUE(fs::exists(dir.path / "data/ridgeline/hardware/this-machine.json"));

    setenv("XDG_DATA_HOME", home.c_str(), 1);
    auto list = test::runToEnd(cli(db, {"profile", "list"}));
    auto bad = test::runToEnd(cli(db, {"profile", "show", "no-such-gpu"}));
    unsetenv("XDG_DATA_HOME");
    EXPECT_NE(list.out.find("this-machine"), std::string::npos) << list.out;
    EXPECT_NE(list.out.find("mi300x"), std::string::npos);
    EXPECT_NE(bad.exitCode, 0);
    EXPECT_NE(bad.err.find("known: "), std::string::npos) << bad.err;
}

TEST(Cli, FastWidthRanksCandidatesByPredictedOrMeasuredEfficiency)
{
    TempDir dir;
    const auto db = dir.path / "w.db";
    auto r = test::runToEnd(cli(db, {"fast-width", "llama-3-8b", "--hardware", "mi300x", "--range", "256"}, true));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = json::parse(r.out);
    ASSERT_FALSE(j.empty());
    double previous = 2;
    for (const auto& c : j) {
        const int w = c["width"].get<int>();
        EXPECT_EQ(w % 64, 0) << w;
        EXPECT_LE(std::abs(w - 14336), 256) << w;
        EXPECT_LE(c["efficiency"].get<double>(), previous);
        previous = c["efficiency"].get<double>();
        EXPECT_FALSE(c["measured"].get<bool>());
    }
    // A real (small) GEMM sweep: its points carry the efficiency against the measured peak.
    const auto sweep = dir.path / "gemm.jsonl";
    {
        auto bench = test::runToEnd({RIDGELINE_BENCH, "gemm", "-m", "128,256,512", "--dtypes", "float32", "--repeats",
                                     "1", "--budget", "0.2"});
        ASSERT_EQ(bench.exitCode, 0) << bench.err;
        std::ofstream(sweep) << bench.out;
    }
    ASSERT_EQ(test::runToEnd(cli(db, {"import", sweep.string()})).exitCode, 0);
    auto m = test::runToEnd(cli(db, {"fast-width", "llama-3-8b", "--hardware", "mi300x", "--gemm-session", "1"}, true));
    ASSERT_EQ(m.exitCode, 0) << m.err;
    const auto jm = json::parse(m.out);
    ASSERT_FALSE(jm.empty());
    EXPECT_TRUE(jm[0]["measured"].get<bool>());
}

TEST(Cli, SizeTimesGemmsWithAMeasuredSweepWhenGiven)
{
    TempDir dir;
    const auto db = dir.path / "w.db";
    const auto sweep = dir.path / "gemm.jsonl";
    {
        auto bench = test::runToEnd({RIDGELINE_BENCH, "gemm", "-m", "256,1024", "--dtypes", "float32", "--repeats",
                                     "1", "--budget", "0.2"});
        ASSERT_EQ(bench.exitCode, 0) << bench.err;
        std::ofstream(sweep) << bench.out;
    }
    ASSERT_EQ(test::runToEnd(cli(db, {"import", sweep.string()})).exitCode, 0);
    auto plain = test::runToEnd(cli(db, {"size", "llama-3-8b", "--hardware", "mi300x"}, true));
    auto measured = test::runToEnd(cli(db, {"size", "llama-3-8b", "--hardware", "mi300x", "--gemm-session", "1"}, true));
    ASSERT_EQ(plain.exitCode, 0) << plain.err;
    ASSERT_EQ(measured.exitCode, 0) << measured.err;
    const double a = json::parse(plain.out)["step"]["compute_s"].get<double>();
    const double b = json::parse(measured.out)["step"]["compute_s"].get<double>();
    EXPECT_GT(a, 0);
    EXPECT_NE(a, b) << "the measured efficiencies (a CPU's, far from the by-shape default) must change the GEMM time";
    auto bad = test::runToEnd(cli(db, {"size", "llama-3-8b", "--hardware", "mi300x", "--gemm-session", "99"}));
    EXPECT_NE(bad.exitCode, 0);
    EXPECT_NE(bad.err.find("session 99"), std::string::npos) << bad.err;
}

TEST(Cli, SizeTimesAttentionWithTheNamedKernelAndSaysSo)
{
    TempDir dir;
    const auto db = dir.path / "w.db";
    const std::vector<std::string> base{"size", "llama-3-8b", "--hardware", "h100-sxm", "--seq", "8192"};
    auto with = [&](std::vector<std::string> extra, bool json) {
        auto args = base;
        args.insert(args.end(), extra.begin(), extra.end());
        return test::runToEnd(cli(db, args, json));
    };
    auto fa2 = with({"--attention", "fa2"}, true);
    auto fa3 = with({"--attention", "fa3"}, true);
    ASSERT_EQ(fa2.exitCode, 0) << fa2.err;
    ASSERT_EQ(fa3.exitCode, 0) << fa3.err;
    // FA3 runs the same attention faster than FA2 on an H100 (Figures 5 and 6 of its paper).
    EXPECT_LT(json::parse(fa3.out)["step"]["compute_s"].get<double>(), json::parse(fa2.out)["step"]["compute_s"].get<double>());
    EXPECT_NE(json::parse(fa2.out)["step"]["attention"].get<std::string>().find("fa2, measured at head dim 128"),
              std::string::npos);
    auto text = with({"--attention", "cudnn"}, false);
    ASSERT_EQ(text.exitCode, 0) << text.err;
    // The row says the kernel; its citation is footnote [3], so the value column stays narrow (the
    // citation in the cell once pushed every value 400 columns to the right).
    EXPECT_NE(text.out.find("cudnn, measured at head dim 128 [3]\n"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("\n[3] Shah, Bikshandi"), std::string::npos) << text.out;
    std::istringstream lines(text.out);
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("step time ", 0) == 0) {
            EXPECT_LT(line.size(), 130u) << line;
        }
    }
    auto none = with({}, false);
    EXPECT_NE(none.out.find("fused, timed as GEMMs by shape (no kernel named)"), std::string::npos) << none.out;
    auto bad = with({"--attention", "fa9"}, false);
    EXPECT_EQ(bad.exitCode, 1);
    EXPECT_NE(bad.err.find("no measured rates for attention kernel 'fa9' (it has: cudnn, fa2, fa3, triton)"),
              std::string::npos)
        << bad.err;
}

TEST(Cli, ValidatePrintsEveryPublishedRunAndTheErrorBand)
{
    TempDir dir;
    const auto db = dir.path / "w.db";
    auto run = test::runToEnd(cli(db, {"validate"}, true));
    ASSERT_EQ(run.exitCode, 0) << run.err;
    const auto j = json::parse(run.out);
    ASSERT_EQ(j["rows"].size(), 18u);
    EXPECT_EQ(j["refused"], 0);
    EXPECT_EQ(j["above_max_achievable"], 0);
    for (const auto& r : j["rows"]) {
        EXPECT_GT(r["predicted_step_s"].get<double>(), 0) << r["id"];
        EXPECT_NEAR(r["error"].get<double>(), r["predicted_step_s"].get<double>() / r["measured_step_s"].get<double>() - 1,
                    1e-12);
    }
    EXPECT_LE(j["median_abs_error"].get<double>(), j["max_abs_error"].get<double>());
    // `size` states the band of the published runs of its kind (both tables, MoE apart from dense)
    // next to its prediction, and whether the step fits.
    auto holdout = test::runToEnd(cli(db, {"validate", "--table", "holdout"}, true));
    ASSERT_EQ(holdout.exitCode, 0) << holdout.err;
    std::vector<double> moeErrors;
    for (const auto& table : {j, json::parse(holdout.out)})
        for (const auto& r : table["rows"])
            if (r["moe"].get<bool>())
                moeErrors.push_back(std::abs(r["error"].get<double>()));
    ASSERT_GT(moeErrors.size(), 5u);
    auto size = test::runToEnd(cli(db, {"size", "mixtral-8x7b", "--hardware", "mi300x", "--parallel", "dp=8,ep=8"}, true));
    ASSERT_EQ(size.exitCode, 0) << size.err;
    const auto s = json::parse(size.out);
    EXPECT_EQ(s["expected_error"]["kind"], "moe");
    EXPECT_EQ(s["expected_error"]["validation_rows"].get<std::size_t>(), moeErrors.size());
    EXPECT_DOUBLE_EQ(s["expected_error"]["max"].get<double>(), *std::max_element(moeErrors.begin(), moeErrors.end()));
    EXPECT_EQ(s["expected_error"]["device"], "") << "no published MoE run on an MI300X: the band is every device's";
    EXPECT_EQ(s["expected_error"]["rows_on_this_device"], 0);
    EXPECT_TRUE(s["memory_per_gpu_bytes"].contains("fits"));
    EXPECT_LT(s["step"]["tflops_per_gpu"].get<double>(), 708); // AMD's max-achievable BF16 rate
    // On a device with published runs of the kind, the band and its bias are that device's own.
    std::vector<double> h100Dense;
    for (const auto& table : {j, json::parse(holdout.out)})
        for (const auto& r : table["rows"])
            if (!r["moe"].get<bool>() && r["hardware"] == "h100-sxm" && r["framework"] == "megatron")
                h100Dense.push_back(r["error"].get<double>()); // a Megatron layout's band: Megatron runs
    ASSERT_GE(h100Dense.size(), 5u);
    auto h100 = test::runToEnd(cli(db, {"size", "llama-3-8b", "--hardware", "h100-sxm"}, true));
    ASSERT_EQ(h100.exitCode, 0) << h100.err;
    const auto band = json::parse(h100.out)["expected_error"];
    EXPECT_EQ(band["device"], "h100-sxm");
    EXPECT_EQ(band["validation_rows"].get<std::size_t>(), h100Dense.size());
    double mean = 0, worst = 0;
    for (double e : h100Dense)
        mean += e / double(h100Dense.size()), worst = std::max(worst, std::abs(e));
    EXPECT_NEAR(band["mean_signed"].get<double>(), mean, 1e-12);
    EXPECT_DOUBLE_EQ(band["max"].get<double>(), worst);
    auto h100Text = test::runToEnd(cli(db, {"size", "llama-3-8b", "--hardware", "h100-sxm"}));
    EXPECT_NE(h100Text.out.find("published dense runs of Megatron-Core on h100-sxm\n"), std::string::npos)
        << h100Text.out;
    EXPECT_NE(h100Text.out.find("mean error over those runs"), std::string::npos) << h100Text.out;
    auto text = test::runToEnd(cli(db, {"validate"}));
    EXPECT_NE(text.out.find("median |error|"), std::string::npos) << text.out;
}

TEST(Cli, ConfigsSavedInTheWorkspaceAreUsableByName)
{
    TempDir dir;
    const auto db = dir.path / "w.db";
    // A candidate: Llama-3-8B with 40 layers, written as a Ridgeline config file.
    auto shown = test::runToEnd(cli(db, {"size", "llama-3-8b", "--hardware", "mi300x"}, true));
    ASSERT_EQ(shown.exitCode, 0) << shown.err;
    auto model = json::parse(shown.out)["model"];
    model["name"] = "llama-40l";
    model["layers"] = 40;
    const auto file = dir.path / "llama-40l.json";
    std::ofstream(file) << model.dump();

    auto saved = test::runToEnd(cli(db, {"config", "save", "candidate-a", file.string()}));
    ASSERT_EQ(saved.exitCode, 0) << saved.err;
    auto list = test::runToEnd(cli(db, {"config", "list"}, true));
    ASSERT_EQ(list.exitCode, 0) << list.err;
    ASSERT_EQ(json::parse(list.out).size(), 1u);
    EXPECT_EQ(json::parse(list.out)[0]["name"], "candidate-a");

    auto sized = test::runToEnd(cli(db, {"size", "candidate-a", "--hardware", "mi300x"}, true));
    ASSERT_EQ(sized.exitCode, 0) << sized.err;
    const auto j = json::parse(sized.out);
    EXPECT_EQ(j["model"]["layers"], 40);
    EXPECT_GT(j["params"]["total"].get<double>(), json::parse(shown.out)["params"]["total"].get<double>());

    auto missing = test::runToEnd(cli(db, {"config", "show", "nope"}));
    EXPECT_NE(missing.exitCode, 0);
    EXPECT_NE(missing.err.find("no saved config 'nope'"), std::string::npos) << missing.err;
}

// ridgeline-bench gemm --model: the shapes measured are exactly the distinct GEMMs the sizing
// model times for that config and layout.
TEST(BenchGemm, ModelConfigGemmsAreTheSizingModelsShapes)
{
    auto r = test::runToEnd({RIDGELINE_BENCH, "gemm", "--model", "llama-3-8b", "--parallel", "tp=8", "--seq", "256",
                             "--dtypes", "float32", "--repeats", "1", "--budget", "0.02", "--no-peak", "--threads", "1"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    std::set<std::tuple<std::int64_t, std::int64_t, std::int64_t>> measured;
    std::istringstream lines(r.out);
    std::string line;
    while (std::getline(lines, line)) {
        const auto j = json::parse(line, nullptr, false);
        if (j.is_object() && j.value("record", "") == "gemm")
            measured.insert({j["m"].get<std::int64_t>(), j["n"].get<std::int64_t>(), j["k"].get<std::int64_t>()});
    }
    model::ParallelConfig p;
    model::parseParallelSpec("tp=8", p);
    p.seqLen = 256;
    std::set<std::tuple<std::int64_t, std::int64_t, std::int64_t>> expected;
    for (const auto& g : model::stepGemms(model::loadPreset("llama-3-8b"), p))
        expected.insert({std::llround(g.m), std::llround(g.n), std::llround(g.k)});
    EXPECT_EQ(measured, expected);
    EXPECT_TRUE(measured.count({256, (32 + 2 * 8) * 128 / 8, 4096})) << "the QKV projection, split over 8 TP ranks";

    auto bad = test::runToEnd({RIDGELINE_BENCH, "gemm", "--model", "no-such-model"});
    EXPECT_NE(bad.exitCode, 0);
    EXPECT_NE(bad.err.find("no-such-model"), std::string::npos) << bad.err;
}

// `results` prints what the session's kind holds: a trace's per-step breakdown and top kernels, a
// training log's steps, events and goodput, a STREAM run's points; --json the same records.
TEST(Cli, ResultsOfATraceALogAndAKernelRunShowTheirOwnRecords)
{
    TempDir dir;
    const auto db = dir.path / "w.db";
    auto imp = test::runToEnd(cli(db, {"import", RIDGELINE_TEST_DATA "/traces/handmade_two_steps.json",
                                       RIDGELINE_TEST_DATA "/logs/megatron_lm_restart.log",
                                       RIDGELINE_TEST_DATA "/kernels/stream-5.10-2threads.txt"}));
    ASSERT_EQ(imp.exitCode, 0) << imp.err;

    // 1: the hand-built trace (TraceBreakdown.HandBuiltTwoStepTrace has its numbers).
    const auto trace = json::parse(test::runToEnd(cli(db, {"results", "1"}, true)).out);
    ASSERT_EQ(trace["steps"].size(), 2u);
    EXPECT_EQ(trace["steps"][0]["rank"], 3);
    EXPECT_DOUBLE_EQ(trace["steps"][0]["step_us"].get<double>(), 1000);
    EXPECT_DOUBLE_EQ(trace["steps"][0]["gemm_us"].get<double>(), 300);
    EXPECT_DOUBLE_EQ(trace["steps"][0]["exposed_communication_us"].get<double>(), 150);
    EXPECT_DOUBLE_EQ(trace["steps"][0]["idle_us"].get<double>(), 350);
    ASSERT_FALSE(trace["kernels"].empty());
    const auto traceTable = test::runToEnd(cli(db, {"results", "1"})).out;
    EXPECT_NE(traceTable.find("exposed comm"), std::string::npos) << traceTable;
    EXPECT_NE(traceTable.find("350 µs"), std::string::npos) << traceTable;
    EXPECT_NE(traceTable.find("top kernels by total time"), std::string::npos);
    EXPECT_NE(traceTable.find("ncclDevKernel_AllReduce"), std::string::npos);

    // 2: the Megatron log with a skipped interval, a stall and a restart.
    const auto log = json::parse(test::runToEnd(cli(db, {"results", "2"}, true)).out);
    EXPECT_EQ(log["steps"].size(), 6u);
    std::set<std::string> kinds;
    for (const auto& e : log["events"])
        kinds.insert(e["kind"].get<std::string>());
    EXPECT_EQ(kinds, (std::set<std::string>{"skipped", "stall", "restart", "gap"}));
    EXPECT_EQ(log["summary"]["restarts"], 1);
    const auto logTable = test::runToEnd(cli(db, {"results", "2"})).out;
    EXPECT_NE(logTable.find("goodput 18 %"), std::string::npos) << logTable;
    EXPECT_NE(logTable.find("(redone)"), std::string::npos) << logTable;

    // 3: STREAM's four kernels.
    const auto stream = json::parse(test::runToEnd(cli(db, {"results", "3"}, true)).out);
    ASSERT_EQ(stream.size(), 4u);
    EXPECT_EQ(stream[3]["kernel"], "triad");
    const auto streamTable = test::runToEnd(cli(db, {"results", "3"})).out;
    EXPECT_NE(streamTable.find("triad"), std::string::npos) << streamTable;
    EXPECT_NE(streamTable.find("41.0 GB/s"), std::string::npos) << streamTable;
    EXPECT_EQ(streamTable.find("busbw"), std::string::npos) << "not a collective table";
}

// "Is this number good?": a real two-node nccl-tests run is put against its tier's ceiling (the
// profile its devices name), in the table, the summary, the JSON and the fit; a run that names no
// device says what to pass instead.
TEST(Cli, ResultsAndFitSayHowFarBelowTheTierPeakASessionIs)
{
    TempDir dir;
    const auto db = dir.path / "w.db";
    const std::string samples = std::string(RIDGELINE_TEST_DATA) + "/../../sample_data/";
    const auto imported = test::runToEnd(cli(db, {"import", samples + "nccl-tests_2node_16xH100_all_reduce.txt"}, true));
    ASSERT_EQ(imported.exitCode, 0) << imported.err;
    const auto id = std::to_string(json::parse(imported.out)[0]["session_ids"][0].get<std::int64_t>());

    const auto table = test::runToEnd(cli(db, {"results", id}));
    ASSERT_EQ(table.exitCode, 0) << table.err;
    EXPECT_NE(table.out.find("all_reduce over 2 nodes is bounded by 8 x 400 Gb/s NICs = 400 GB/s per node"),
              std::string::npos) << table.out;
    EXPECT_NE(table.out.find("% of it (at 8 GiB)"), std::string::npos) << table.out;

    const auto points = json::parse(test::runToEnd(cli(db, {"results", id}, true)).out);
    ASSERT_FALSE(points.empty());
    for (const auto& p : points) {
        EXPECT_EQ(p["tier"], "inter-node");
        EXPECT_DOUBLE_EQ(p["tier_peak_busbw_gbs"].get<double>(), 400);
        EXPECT_NEAR(p["busbw_percent_of_tier_peak"].get<double>(), p["busbw_gbs"].get<double>() / 4, 1e-9);
    }
    // Named as one node of MI300X instead: the ceiling is the xGMI links.
    const auto asMi300x = json::parse(test::runToEnd(cli(db, {"results", id, "--hardware", "mi300x", "--nodes", "1"}, true)).out);
    EXPECT_DOUBLE_EQ(asMi300x[0]["tier_peak_busbw_gbs"].get<double>(), 448);

    const auto fit = json::parse(test::runToEnd(cli(db, {"fit", id, "--min-size", "1M"}, true)).out);
    ASSERT_FALSE(fit.empty());
    // beta is algbw; as busbw on 16 ranks it is 2 x 15 / 16 of it.
    EXPECT_NEAR(fit[0]["beta_busbw_gbs"].get<double>(), fit[0]["beta_gbs"].get<double>() * 30 / 16, 1e-9);
    EXPECT_NEAR(fit[0]["beta_percent_of_tier_peak"].get<double>(), fit[0]["beta_busbw_gbs"].get<double>() / 4, 1e-9);

    // Against itself nothing is below; against the one-node 8xH100 run every point is.
    const auto self = test::runToEnd(cli(db, {"results", id, "--reference", id}));
    EXPECT_NE(self.out.find("0 of 62 points below 90 %"), std::string::npos) << self.out;
    const auto node = test::runToEnd(cli(db, {"import", samples + "nccl-tests_8xH100_all_collectives.txt"}, true));
    ASSERT_EQ(node.exitCode, 0) << node.err;
    const auto nodeIds = json::parse(node.out)[0]["session_ids"];
    std::string allReduce;
    for (const auto& sid : nodeIds) {
        const auto pts = json::parse(test::runToEnd(cli(db, {"results", std::to_string(sid.get<std::int64_t>())}, true)).out);
        if (!pts.empty() && pts[0]["op"] == "all_reduce")
            allReduce = std::to_string(sid.get<std::int64_t>());
    }
    ASSERT_FALSE(allReduce.empty());
    const auto vsNode = json::parse(test::runToEnd(cli(db, {"results", id, "--reference", allReduce}, true)).out);
    EXPECT_TRUE(vsNode.back()["below_reference"].get<bool>()); // 188 GB/s over the NICs vs ~465 on NVLink

    const auto imb = test::runToEnd(cli(db, {"import", samples + "imb_mpi1_allreduce_allgather_pingpong.txt"}, true));
    ASSERT_EQ(imb.exitCode, 0) << imb.err;
    const auto imbId = std::to_string(json::parse(imb.out)[0]["session_ids"][1].get<std::int64_t>());
    const auto noDevice = test::runToEnd(cli(db, {"results", imbId}));
    EXPECT_NE(noDevice.out.find("pass --hardware PROFILE"), std::string::npos) << noDevice.out;
}
