// The real ridgeline-bench under the real launcher FindMPI found (Open MPI's mpirun or MPICH's
// mpiexec): every op, in and out of place, 2 and 4 ranks, nccl table output, cancel, bad arguments.
#include <algorithm>
#include <gtest/gtest.h>

#include <csignal>
#include <cstdio>
#include <dirent.h>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <unistd.h>

#include "benchlaunch.h"
#include "childprocess.h"
#include "collectives/collectivesweep.h"
#include "collectives/routingmatrix.h"
#include "io/linereader.h"
#include "records/wireformat.h"
#include "tempdir.h"
#include "views/chartdata.h"

using namespace rl;

namespace {
using test::haveLauncher;
using test::launch;

using BenchOutput = test::BenchRun<CollectivePoint>;
BenchOutput parse(const std::string& out) { return test::parseBenchRun<CollectivePoint>(out); }

std::int64_t expectedBytes(const std::string& op, std::int64_t requested, int elem, int n)
{
    const std::int64_t count = requested / elem;
    if (op == "all_reduce" || op == "broadcast")
        return count * elem;
    return count / n * n * elem;
}

// The checks every JSON run must pass, whatever the op list.
void checkRun(const BenchOutput& run, int nranks, const std::vector<std::string>& ops, const std::vector<std::int64_t>& sizes,
              const std::vector<std::string>& dtypes, const std::vector<std::string>& redops)
{
    EXPECT_TRUE(run.badLines.empty()) << run.badLines.front();
    ASSERT_TRUE(run.header);
    EXPECT_EQ(run.header->kind, "collectives");
    EXPECT_EQ(run.header->tool, "ridgeline-bench");
    EXPECT_FALSE(run.header->toolVersion.empty());
    EXPECT_NE(run.header->commandLine.find("collectives"), std::string::npos);
    EXPECT_EQ(run.header->params.value("nranks", 0), nranks);
    EXPECT_FALSE(run.header->params.value("mpi_library", std::string{}).empty());
    ASSERT_TRUE(run.end);
    EXPECT_EQ(run.end->status, SessionStatus::Complete) << run.end->message;

    std::map<std::string, std::multiset<std::string>> seen; // op -> "dtype redop bytes inplace"
    for (const auto& p : run.points) {
        EXPECT_EQ(p.wrong, 0) << p.op << ' ' << p.bytes << ' ' << p.dtype << ' ' << p.redop;
        EXPECT_EQ(p.nranks, nranks);
        EXPECT_GT(p.timeUs, 0.0);
        const auto op = collectiveOpFromString(p.op);
        ASSERT_TRUE(op) << p.op;
        EXPECT_NEAR(p.busbwGBs, p.algbwGBs * busFactor(*op, nranks), 1e-9 * (1 + p.algbwGBs));
        EXPECT_NEAR(p.algbwGBs, double(p.bytes) / p.timeUs / 1e3, 1e-9 * (1 + p.algbwGBs));
        EXPECT_EQ(p.root, *op == CollectiveOp::Broadcast ? 0 : -1);
        EXPECT_EQ(p.redop.empty(), !hasReduction(*op));
        seen[p.op].insert(p.dtype + ' ' + p.redop + ' ' + std::to_string(p.bytes) + (p.inPlace ? " ip" : " oop"));
    }
    for (const auto& op : ops) {
        std::multiset<std::string> want;
        const bool reduces = hasReduction(*collectiveOpFromString(op));
        for (const auto& dtype : dtypes)
            for (const auto& redop : reduces ? redops : std::vector<std::string>{""})
                for (auto s : sizes)
                    for (const char* v : {" oop", " ip"})
                        want.insert(dtype + ' ' + redop + ' ' +
                                    std::to_string(expectedBytes(op, s, dtype == "float64" ? 8 : 4, nranks)) + v);
        EXPECT_EQ(seen[op], want) << op;
    }
    EXPECT_EQ(seen.size(), ops.size());
}

const std::vector<std::string> kAllOps{"all_reduce", "reduce_scatter", "all_gather", "broadcast", "all_to_all"};
} // namespace

class BenchCollectives : public ::testing::Test
{
protected:
    void SetUp() override
    {
        if (!haveLauncher())
            GTEST_SKIP() << "no MPI launcher at " << RIDGELINE_MPIEXEC;
    }
};

TEST_F(BenchCollectives, EveryOpOnTwoRanksIsCorrectAndComplete)
{
    const auto r = test::runToEnd(launch(2, {"collectives", "-b", "8", "-e", "64K", "-f", "4", "-w", "1", "-n", "3"}));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const BenchOutput run = parse(r.out);
    checkRun(run, 2, kAllOps, {8, 32, 128, 512, 2048, 8192, 32768}, {"float32"}, {"sum"});
    EXPECT_EQ(run.points.size(), 5u * 7u * 2u);
}

TEST_F(BenchCollectives, FourRanksOversubscribedWithSeveralTypesAndReductions)
{
    const auto r = test::runToEnd(launch(4, {"collectives", "--ops", "all", "-b", "8", "-e", "16K", "-f", "8", "-d",
                                             "float32,float64,int32", "-o", "sum,max,min", "--root", "3", "-w", "1",
                                             "-n", "2"}));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    BenchOutput run = parse(r.out);
    for (auto& p : run.points) {
        if (p.op == "broadcast") {
            EXPECT_EQ(p.root, 3);
            p.root = 0; // checkRun expects the default root
        }
    }
    checkRun(run, 4, kAllOps, {8, 64, 512, 4096}, {"float32", "float64", "int32"}, {"sum", "max", "min"});
}

TEST_F(BenchCollectives, InPlaceOnlyAndOpSubset)
{
    const auto r = test::runToEnd(launch(2, {"collectives", "--ops", "allgather,alltoall", "--inplace", "1", "-b",
                                             "1K", "-e", "4K", "-f", "2", "-n", "2", "-w", "0"}));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const BenchOutput run = parse(r.out);
    ASSERT_EQ(run.points.size(), 2u * 3u);
    for (const auto& p : run.points) {
        EXPECT_TRUE(p.inPlace);
        EXPECT_EQ(p.wrong, 0);
        EXPECT_TRUE(p.op == "all_gather" || p.op == "all_to_all") << p.op;
    }
}

TEST_F(BenchCollectives, NcclFormatParsesAsATable)
{
    const auto r = test::runToEnd(
        launch(2, {"collectives", "--format", "nccl", "--ops", "all_reduce,all_gather", "-b", "8", "-e", "8K", "-f",
                   "4", "-w", "1", "-n", "2"}));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    std::istringstream in(r.out);
    std::string line;
    int rows = 0, okSummaries = 0, headers = 0;
    std::set<std::int64_t> allGatherSizes;
    while (std::getline(in, line)) {
        if (line.starts_with("#")) {
            okSummaries += line.starts_with("# Out of bounds values : 0 OK");
            headers += line.find("size         count      type   redop    root     time   algbw   busbw #wrong") !=
                       std::string::npos;
            continue;
        }
        const auto cells = io::splitWhitespace(line);
        ASSERT_EQ(cells.size(), 13u) << line;
        ++rows;
        const std::string type(cells[2]), redop(cells[3]);
        EXPECT_EQ(type, "float");
        EXPECT_TRUE(redop == "sum" || redop == "none") << line;
        EXPECT_EQ(cells[4], "-1");
        EXPECT_EQ(cells[8], "0") << line;  // out-of-place #wrong
        EXPECT_EQ(cells[12], "0") << line; // in-place #wrong
        for (int c : {5, 6, 7, 9, 10, 11})
            EXPECT_NO_THROW((void)std::stod(std::string(cells[std::size_t(c)]))) << line;
        if (redop == "none")
            allGatherSizes.insert(std::stoll(std::string(cells[0])));
    }
    EXPECT_EQ(rows, 2 * 6); // 8, 32, 128, 512, 2048, 8192 B for each op
    EXPECT_EQ(headers, 2);
    EXPECT_EQ(okSummaries, 2);
    EXPECT_EQ(allGatherSizes, (std::set<std::int64_t>{8, 32, 128, 512, 2048, 8192}));
}

namespace {
// Starts a long sweep, waits for a few points, signals, and returns what came out.
struct Cancelled
{
    BenchOutput run;
    int exitCode = 0;
    std::string err; // the launcher's and the ranks' stderr
};

// The ridgeline-bench processes started under a launcher: Open MPI puts each rank in its own
// process group and hydra runs them under a proxy, so walk the parent links.
std::vector<pid_t> benchRanks(pid_t launcher)
{
    std::map<pid_t, pid_t> parent;
    std::map<pid_t, std::string> name;
    DIR* dir = opendir("/proc");
    while (dirent* e = dir ? readdir(dir) : nullptr) {
        const pid_t pid = static_cast<pid_t>(std::atoi(e->d_name));
        if (pid <= 0)
            continue;
        std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
        std::string line;
        std::getline(stat, line);
        const auto open = line.find('('), close = line.rfind(')');
        if (open == std::string::npos || close == std::string::npos)
            continue;
        std::istringstream rest(line.substr(close + 2));
        std::string state;
        long ppid = 0;
        rest >> state >> ppid;
        parent[pid] = static_cast<pid_t>(ppid);
        name[pid] = line.substr(open + 1, close - open - 1);
    }
    if (dir)
        closedir(dir);
    std::vector<pid_t> pids;
    for (const auto& [pid, n] : name) {
        if (n != "ridgeline-bench")
            continue;
        for (pid_t p = parent[pid]; p > 1; p = parent.count(p) ? parent[p] : 0)
            if (p == launcher) {
                pids.push_back(pid);
                break;
            }
    }
    return pids;
}

Cancelled cancelMidSweep(int sig, bool wholeGroup)
{
    test::TempDir dir;
    const std::string errPath = (dir.path / "cancel.err").string();
    test::Running proc(launch(2, {"collectives", "--ops", "all_reduce", "-b", "1K", "-e", "64M", "-i", "256K", "-w",
                                  "2", "-n", "50"}),
                       errPath);
    std::string out, line;
    int points = 0;
    // 40 points in, the launcher has settled: Open MPI 4.1.4's mpirun, signalled as its ranks printed
    // their third point (0.1-0.15 s after the start on a fast VM), let them run ~40 more points and
    // then killed them without passing SIGTERM on, so no end record came (5 of 5 runs; at 0.25 s it
    // passes it on). That early window is mpirun's, and stays noted in the issue.
    while (points < 40 && proc.readLine(line, 60)) {
        out += line + '\n';
        points += line.find("\"record\":\"collective\"") != std::string::npos;
    }
    if (wholeGroup) {
        proc.signalGroup(sig); // what ridgeline-cli does: the launcher's group (it forwards to the ranks)
    } else {
        // What Slurm's scancel does: the ranks get the signal, the launcher does not.
        const auto ranks = benchRanks(proc.pid());
        EXPECT_EQ(ranks.size(), 2u);
        for (pid_t pid : ranks)
            kill(pid, sig);
    }
    while (proc.readLine(line, 60))
        out += line + '\n';
    Cancelled c;
    c.exitCode = proc.wait();
    c.run = parse(out);
    std::ifstream errFile(errPath);
    c.err.assign(std::istreambuf_iterator<char>(errFile), {});
    std::cerr << c.err; // as before: the run's stderr in the test's output
    return c;
}

void checkCancelled(const Cancelled& c, int expectedCode, const char* signalName)
{
    EXPECT_TRUE(c.run.header);
    EXPECT_GE(c.run.points.size(), 3u);
    EXPECT_LT(c.run.points.size(), 2u * 256u); // far from the whole sweep
    for (const auto& p : c.run.points) {
        EXPECT_EQ(p.wrong, 0);
    }
    ASSERT_TRUE(c.run.end) << "no end record after " << c.run.points.size() << " points";
    EXPECT_EQ(c.run.end->status, SessionStatus::Cancelled);
    EXPECT_NE(c.run.end->message.find(signalName), std::string::npos) << c.run.end->message;
    EXPECT_EQ(c.exitCode, expectedCode);
}
} // namespace

TEST_F(BenchCollectives, SigtermToTheRanksCancelsBetweenPoints)
{
    checkCancelled(cancelMidSweep(SIGTERM, false), 143, "SIGTERM");
}

TEST_F(BenchCollectives, SigintToTheRanksExitsWith130)
{
    checkCancelled(cancelMidSweep(SIGINT, false), 130, "SIGINT");
}

TEST_F(BenchCollectives, SigtermToTheLauncherGroupCancelsBetweenPoints)
{
    const Cancelled c = cancelMidSweep(SIGTERM, true);
    // Open MPI's mpirun itself sometimes dies of SIGSEGV in its own PMIx finalize after forwarding
    // the signal (seen here about 1 run in 20; open-mpi/ompi#13650 reports the same for mpirun hit
    // with TERM), taking the forwarded output it had not written yet, the end record among it.
    // ridgeline-cli still records the session cancelled, from its own signal (runcommand.cpp).
    // What the ranks did must still hold; the launcher's crash is not ours to test.
    if (c.exitCode == 128 + SIGSEGV && c.err.find("PMIx_server_finalize") != std::string::npos &&
        c.err.find("mpiexec") != std::string::npos && !c.run.end) {
        EXPECT_TRUE(c.run.header);
        EXPECT_GE(c.run.points.size(), 3u);
        for (const auto& p : c.run.points)
            EXPECT_EQ(p.wrong, 0);
        GTEST_SKIP() << "mpiexec crashed in PMIx_server_finalize after forwarding SIGTERM (Open MPI's, not ours)";
    }
    // The launcher decides its own status when it is signalled itself: Open MPI's mpirun exits 1,
    // MPICH's hydra passes the ranks' 143 on or, when its own SIGTERM wins the race, exits 0 (seen
    // in CI). The cancelled end record is what ridgeline-cli goes by (runcommand.cpp), so that is
    // what must hold; the status only has to be one of the launcher's known answers.
    const std::vector<int> launcherCodes{0, 1, 143};
    EXPECT_NE(std::find(launcherCodes.begin(), launcherCodes.end(), c.exitCode), launcherCodes.end()) << c.exitCode;
    checkCancelled(c, c.exitCode, "SIGTERM");
}

TEST_F(BenchCollectives, DefaultPolicyTimesManyCallsAtSmallSizesWithStatistics)
{
    // No -n/-w: the time budget picks the counts (capped at --max-iters), warm-up a tenth of them.
    const auto r = test::runToEnd(launch(2, {"collectives", "--ops", "all_reduce,all_to_all", "--inplace", "0", "-b",
                                             "8", "-e", "4M", "-f", "64", "--time-per-size", "0.05", "--max-iters",
                                             "400"}));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const BenchOutput run = parse(r.out);
    ASSERT_TRUE(run.header);
    EXPECT_EQ(run.header->params.value("iters", std::string{}), "auto");
    ASSERT_EQ(run.points.size(), 2u * 4u); // 8 B, 512 B, 32 KiB, 2 MiB
    double bestSmall = 0; // iterations over what the budget affords, at the best small point
    int grouped = 0;
    double bestSample = 0; // µs, the longest sample of grouped calls
    for (const auto& p : run.points) {
        ASSERT_TRUE(p.stats) << p.op << ' ' << p.bytes;
        const CallStats& s = *p.stats;
        EXPECT_EQ(p.wrong, 0);
        EXPECT_DOUBLE_EQ(s.meanUs, p.timeUs);
        EXPECT_GE(s.iters, 10);
        EXPECT_LE(s.iters, 400 + s.callsPerSample);
        EXPECT_GE(s.warmup, std::max(2, s.iters / 10));
        EXPECT_EQ(s.iters % s.callsPerSample, 0);
        EXPECT_GT(s.minUs, 0);
        EXPECT_LE(s.minUs, s.p50Us);
        EXPECT_LE(s.p50Us, s.p99Us);
        EXPECT_LE(s.p99Us, s.maxUs * (1 + 1e-12));
        EXPECT_LE(s.minUs, s.meanUs * (1 + 1e-12));
        EXPECT_LE(s.meanUs, s.maxUs * (1 + 1e-12));
        EXPECT_GE(s.cv, 0);
        // Small calls get as many timed calls as the 0.05 s budget allows at the time they took (400,
        // the cap, when the machine is quiet; fewer when a loaded machine made each call slow), with a
        // factor 4 of slack for the pilot's estimate against the mean. The pilot is a few calls: a
        // load spike during it (a sanitizer build on 2 cores) shrinks one point's count, so the best
        // small point is held to it, not every one.
        if (p.bytes <= 512) {
            const double affordable = std::min(400.0, 0.05e6 / s.meanUs);
            bestSmall = std::max(bestSmall, s.iters / std::min(affordable / 4, 100.0));
        }
        // Samples group short calls so that one is at least ~1 µs, by the pilot's pace: a pilot slowed
        // by a load spike groups fewer calls than the quieter loop after it needed (0.44 µs seen
        // under ctest -j2), so the best grouped point is held to it, not every one.
        if (s.callsPerSample > 1) {
            ++grouped;
            bestSample = std::max(bestSample, s.p50Us * s.callsPerSample);
        }
    }
    EXPECT_GE(bestSmall, 1.0) << "no small point got the repetitions its time budget affords";
    if (grouped > 0) {
        EXPECT_GE(bestSample, 0.5) << "no grouped sample reached half a microsecond";
    }
}

TEST_F(BenchCollectives, FixedCountsAreKeptAndOffCacheRotationStaysCorrect)
{
    const auto r = test::runToEnd(launch(4, {"collectives", "--ops", "all", "-b", "64", "-e", "64K", "-f", "32",
                                             "-n", "7", "-w", "3", "--off-cache", "1M"}));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const BenchOutput run = parse(r.out);
    checkRun(run, 4, kAllOps, {64, 2048, 65536}, {"float32"}, {"sum"});
    EXPECT_EQ(run.header->params.value("off_cache_bytes", 0), 1 << 20);
    for (const auto& p : run.points) {
        ASSERT_TRUE(p.stats);
        EXPECT_EQ(p.stats->iters, 7);
        EXPECT_EQ(p.stats->warmup, 3);
    }
}

TEST_F(BenchCollectives, AllToAllVFromAMoeRoutingRunsAtItsOwnSizeWithItsImbalance)
{
    // 8 experts over 4 ranks, top-2, 64 tokens of 32 float32, Zipf 1: expected matrix computed here.
    const auto r = test::runToEnd(launch(4, {"collectives", "--ops", "all_to_allv", "--moe-experts", "8", "--moe-topk",
                                             "2", "--moe-tokens", "64", "--moe-hidden", "32", "--moe-dtype", "float32",
                                             "--moe-skew", "zipf:1", "-n", "3", "-w", "1"}));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const BenchOutput run = parse(r.out);
    ASSERT_TRUE(run.header);
    EXPECT_NE(run.header->params.value("routing", std::string{}).find("skew=zipf:1"), std::string::npos);
    ASSERT_EQ(run.points.size(), 1u); // no -b/-e: the matrix's own size, out of place only
    const auto& p = run.points[0];
    EXPECT_EQ(p.op, "all_to_allv");
    EXPECT_EQ(p.wrong, 0);
    EXPECT_FALSE(p.inPlace);
    MoeRouting moe;
    moe.experts = 8;
    moe.topK = 2;
    moe.tokensPerRank = 64;
    moe.bytesPerToken = 32 * 4;
    parseSkew("zipf:1", moe);
    const auto m = moeRoutingMatrix(moe, 4);
    // Every rank sends all its token copies, rounded to whole elements per pair.
    EXPECT_NEAR(double(p.bytes), 64 * 2 * 32 * 4, 4 * 4);
    EXPECT_NEAR(p.imbalance, loadImbalance(m), 1e-3);
    EXPECT_GT(p.imbalance, 1.5); // experts 0 and 1 (60 % of the load at s = 1) share rank 0
    EXPECT_NEAR(p.busbwGBs, p.algbwGBs * 3 / 4, 1e-9 * (1 + p.algbwGBs));
}

TEST_F(BenchCollectives, AllToAllVFromACsvMatrixSweepsSizesAndMixesWithOtherOps)
{
    test::TempDir dir;
    const std::string csv = (dir.path / "routing-2x2.csv").string();
    {
        std::ofstream f(csv);
        f << "# rank 0 sends three times what rank 1 sends\n0,300\n100,0\n";
    }
    const auto r = test::runToEnd(launch(2, {"collectives", "--ops", "all_to_all,all_to_allv", "--routing", csv, "-b",
                                             "1K", "-e", "16K", "-f", "4", "-n", "3", "-w", "1"}));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const BenchOutput run = parse(r.out);
    int v = 0, balanced = 0;
    for (const auto& p : run.points) {
        EXPECT_EQ(p.wrong, 0) << p.op << ' ' << p.bytes;
        if (p.op == "all_to_allv") {
            ++v;
            EXPECT_FALSE(p.inPlace);
            EXPECT_DOUBLE_EQ(p.imbalance, 1.5); // 300 of a mean 200 (sizes are whole float32 multiples)
            EXPECT_NEAR(p.busbwGBs, p.algbwGBs / 2, 1e-9 * (1 + p.algbwGBs));
        } else {
            ++balanced;
            EXPECT_EQ(p.imbalance, 0);
        }
    }
    EXPECT_EQ(v, 3);        // 1, 4, 16 KiB
    EXPECT_EQ(balanced, 6); // in and out of place
    // A 2 x 2 matrix on 4 ranks fails once, before any point.
    std::ofstream(csv) << "0,300\n100,0\n";
    const auto bad = test::runToEnd(launch(4, {"collectives", "--ops", "all_to_allv", "--routing", csv}));
    EXPECT_NE(bad.exitCode, 0);
    EXPECT_NE(bad.err.find("the routing matrix is 2 x 2 but the run has 4 ranks"), std::string::npos) << bad.err;
    EXPECT_EQ(bad.out.find("\"record\":\"collective\""), std::string::npos);
}

TEST(BenchCollectivesArgs, BadArgumentsFailWithAClearMessage)
{
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
        {{"--ops", "all_reduce,sendrecv"}, "unknown op \"sendrecv\""},
        {{"-d", "bfloat16"}, "unsupported dtype \"bfloat16\""},
        {{"-o", "prod"}, "unsupported redop \"prod\""},
        {{"--inplace", "2"}, "--inplace takes 0, 1 or both"},
        {{"-b", "1M", "-e", "8"}, "below the minimum size"},
        {{"-b", "12X"}, "\"12X\" is not a size"},
        {{"-f", "2", "-i", "8"}, "excludes"},
        {{"--format", "csv"}, "--format"},
        {{"-n", "many"}, "--iters"},
        {{"-w", "0"}, "--warmup 0 needs --iters"},
        {{"--max-iters", "5"}, "--max-iters (5) is below --min-iters (10)"},
        {{"--off-cache", "lots"}, "--off-cache"},
        {{"--ops", "all_to_allv", "--routing", "/no/such.csv"}, "--routing: cannot read /no/such.csv"},
        {{"--split", "ranks:2", "--format", "nccl"}, "--split prints JSON lines only"},
    };
    for (const auto& [args, message] : cases) {
        std::vector<std::string> argv{RIDGELINE_BENCH, "collectives"};
        argv.insert(argv.end(), args.begin(), args.end());
        const auto r = test::runToEnd(argv, 60);
        EXPECT_NE(r.exitCode, 0) << args.front();
        EXPECT_NE(r.err.find(message), std::string::npos) << "stderr: " << r.err;
        EXPECT_EQ(r.out.find("\"record\""), std::string::npos) << r.out;
    }
}

TEST_F(BenchCollectives, RootOutsideTheRanksFailsOnce)
{
    const auto r = test::runToEnd(launch(2, {"collectives", "--ops", "broadcast", "--root", "2", "-e", "64"}));
    EXPECT_NE(r.exitCode, 0);
    const auto first = r.err.find("--root 2 is outside the 2 ranks");
    ASSERT_NE(first, std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("--root 2 is outside", first + 1), std::string::npos) << "printed by every rank: " << r.err;
    EXPECT_EQ(r.out.find("\"record\""), std::string::npos);
}

TEST(BenchCollectivesArgs, HelpDocumentsEveryOptionWithUnitsAndDefaults)
{
    const auto r = test::runToEnd({RIDGELINE_BENCH, "collectives", "--help"}, 60);
    EXPECT_EQ(r.exitCode, 0);
    for (const char* opt : {"--ops", "--minbytes", "--maxbytes", "--stepfactor", "--stepbytes", "--dtype", "--redop",
                            "--inplace", "--warmup", "--iters", "--root", "--format", "bytes", "GB/s", "256M",
                            "--time-per-size", "--time-budget", "--min-iters", "--max-iters", "--off-cache", "p99",
                            "--split", "nodes:K", "ranks:K"})
        EXPECT_NE(r.out.find(opt), std::string::npos) << opt;
}

namespace {
// The points of one group as a run of their own: each group of a split sweeps like a whole run of
// its rank count would.
BenchOutput groupRun(const BenchOutput& run, const std::string& group, int nranks)
{
    BenchOutput g = run;
    g.points.clear();
    for (const auto& p : run.points)
        if (p.group == group)
            g.points.push_back(p);
    g.header->params["nranks"] = nranks;
    return g;
}
} // namespace

TEST_F(BenchCollectives, SplitIntoRankPairsSweepsBothGroupsAtEverySize)
{
    const auto r = test::runToEnd(launch(4, {"collectives", "--split", "ranks:2", "--ops", "all_reduce,all_gather", "-b",
                                             "8", "-e", "4K", "-f", "8", "-w", "1", "-n", "3"}));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const BenchOutput run = parse(r.out);
    ASSERT_TRUE(run.header);
    EXPECT_EQ(run.header->params.value("split", std::string{}), "ranks:2");
    EXPECT_EQ(run.header->params.value("nranks", 0), 4);
    EXPECT_NE(run.header->title.find("split ranks:2"), std::string::npos) << run.header->title;
    std::map<std::string, std::set<std::string>> groupsAt; // "op bytes ip" -> groups
    for (const auto& p : run.points) {
        EXPECT_EQ(p.nranks, 2);
        groupsAt[p.op + ' ' + std::to_string(p.bytes) + (p.inPlace ? " ip" : " oop")].insert(p.group);
    }
    for (const auto& [point, groups] : groupsAt)
        EXPECT_EQ(groups, (std::set<std::string>{"ranks 0-1", "ranks 2-3"})) << point;
    for (const char* group : {"ranks 0-1", "ranks 2-3"})
        checkRun(groupRun(run, group, 2), 2, {"all_reduce", "all_gather"}, {8, 64, 512, 4096}, {"float32"}, {"sum"});
    EXPECT_EQ(run.points.size(), 2u * 2u * 4u * 2u);
    EXPECT_EQ(run.end->message, "32 of 32 points");
}

TEST_F(BenchCollectives, SplitWithTheWorldLevelGivesThreeCurvesPerOp)
{
    const auto r = test::runToEnd(launch(4, {"collectives", "--split", "ranks:2,world", "--ops", "all_reduce",
                                             "--inplace", "0", "-b", "1K", "-e", "16K", "-f", "4", "-w", "1", "-n", "3"}));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const BenchOutput run = parse(r.out);
    ASSERT_TRUE(run.header);
    charts::SessionCurves s{*run.header, run.points};
    const auto curves = charts::collectCurves({s});
    ASSERT_EQ(curves.size(), 3u);
    EXPECT_EQ(curves[0].key.group, "ranks 0-1");
    EXPECT_EQ(curves[1].key.group, "ranks 2-3");
    EXPECT_EQ(curves[2].key.group, "world");
    for (const auto& c : curves) {
        EXPECT_EQ(c.points.size(), 3u) << c.name;
        for (const auto& p : c.points) {
            EXPECT_EQ(p.nranks, c.key.group == "world" ? 4 : 2);
            EXPECT_EQ(p.wrong, 0);
        }
    }
    const auto groups = run.header->params.at("split_groups");
    ASSERT_EQ(groups.size(), 3u);
    EXPECT_EQ(groups[2].value("level", std::string{}), "world");
    EXPECT_EQ(groups[1].at("ranks"), nlohmann::json({2, 3}));
    EXPECT_EQ(groups[1].at("nodes"), 1); // all four ranks on this host: each group's tier is one node
    EXPECT_EQ(groups[2].at("nodes"), 1);
}

TEST_F(BenchCollectives, BadSplitSpecsFailOnceWithAClearMessage)
{
    const std::vector<std::pair<std::string, std::string>> cases{
        {"ranks:3", "--split ranks:3: 3 does not divide the 4 ranks into equal groups"},
        {"nodes:0", "--split: \"nodes:0\" needs a group size of at least 1"},
        {"foo", "--split: \"foo\" is not a level: use node, nodes:K, ranks:K or world"},
        {"nodes:2", "--split nodes:2: 2 does not divide the 1 node into equal groups"},
    };
    for (const auto& [spec, message] : cases) {
        const auto r = test::runToEnd(launch(4, {"collectives", "--split", spec, "-e", "64"}));
        EXPECT_NE(r.exitCode, 0) << spec;
        const auto first = r.err.find(message);
        ASSERT_NE(first, std::string::npos) << spec << ": " << r.err;
        EXPECT_EQ(r.err.find(message, first + 1), std::string::npos) << "printed by every rank: " << r.err;
        EXPECT_EQ(r.out.find("\"record\""), std::string::npos) << r.out;
    }
}

// The runner's own benchmark end to end: one row per size with the calls the policy chose, the
// rounds, both times, their ratio and a verdict; rounds are added (up to 101) until the bare loop has
// run --min-bare-seconds, far more than 5 calls take here; the summary counts the sizes outside the
// tolerance.
TEST_F(BenchCollectives, CollectivesVsMpiPrintsARowPerSizeWithTheRatio)
{
    const auto r = test::runToEnd(launch(2, {"collectives-vs-mpi", "-b", "8", "-e", "64K", "-f", "8", "--rounds", "2",
                                             "--bare-iters", "5", "--bare-warmup", "2", "--time-per-size", "0.002",
                                             "--min-bare-seconds", "30"}));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    std::istringstream in(r.out);
    std::string line;
    std::vector<std::string> sizes;
    std::vector<int> rounds;
    std::vector<double> ratios;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#')
            continue;
        std::istringstream row(line);
        std::string number, unit, calls, runnerValue, runnerUnit, bareValue, bareUnit, verdict;
        int n = 0;
        double ratio = 0;
        row >> number >> unit >> calls >> n >> runnerValue >> runnerUnit >> bareValue >> bareUnit >> ratio >> verdict;
        ASSERT_TRUE(row) << line;
        sizes.push_back(number + " " + unit);
        rounds.push_back(n);
        EXPECT_GT(ratio, 0.0) << line;
        ratios.push_back(ratio);
        EXPECT_TRUE(verdict == "PASS" || verdict == "FAIL") << line;
    }
    // The same MPI_Allreduce on the same buffers: never far apart. On the median of the sizes, as one
    // microsecond-scale size can swing several-fold when the machine is busy (a 6x row was seen under
    // ASan with a build running beside it); a runner that is systematically slow moves the median.
    ASSERT_FALSE(ratios.empty());
    std::sort(ratios.begin(), ratios.end());
    const double median = ratios[ratios.size() / 2];
    EXPECT_GT(median, 0.2) << r.out;
    EXPECT_LT(median, 5.0) << r.out;
    EXPECT_EQ(sizes, (std::vector<std::string>{"8 B", "64 B", "512 B", "4 KiB", "32 KiB"}));
    EXPECT_EQ(rounds, std::vector<int>(5, 101));
    EXPECT_NE(r.out.find("size(s) differ from the bare loop by more than 5 %"), std::string::npos) << r.out;
}
