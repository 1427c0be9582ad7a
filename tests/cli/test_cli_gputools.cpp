// Issue 12 through the real ridgeline-cli and the GPU tools' stand-ins (tests/standins, real
// output layouts under the real program names): `run nccl-tests` locally and under mpirun -np 2,
// `run hipblaslt` / `run rocblas` over shape recipes; points stored and echoed as the tool prints;
// wrong results, a failing tool, a hung tool and a cancel each end the session with the reason and
// keep the points printed so far.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "childprocess.h"
#include "gputoolcli.h"
#include "store/collectiveoutline.h"
#include "store/kernelresults.h"
#include "store/workspace.h"

using namespace rl;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {
class CliGpuTools : public test::GpuToolCli
{
protected:
    std::vector<std::string> nccl(std::vector<std::string> extra, std::vector<std::string> toolArgs) const
    {
        std::vector<std::string> a{"run", "nccl-tests", "--tool-dir", RIDGELINE_STANDIN_BIN};
        a.insert(a.end(), extra.begin(), extra.end());
        a.push_back("--");
        a.insert(a.end(), toolArgs.begin(), toolArgs.end());
        return cli(a);
    }
};

int pointLines(const std::string& out)
{
    int n = 0;
    std::size_t at = 0;
    while ((at = out.find("\"record\":\"", at)) != std::string::npos) {
        at += 10;
        n += out.compare(at, 11, "collective\"") == 0 || out.compare(at, 5, "gemm\"") == 0;
    }
    return n;
}
} // namespace

TEST_F(CliGpuTools, NcclTestsTwoOpsLocallyGiveOneSessionEachWithEveryRowStored)
{
    // -b 8 -e 512K -f 4: 8, 32, ..., 512K = 9 sizes, out-of-place and in-place.
    const auto r = test::runToEnd(nccl({"--op", "all_reduce,all_gather", "--env", "NCCL_ALGO=Ring"},
                                       {"-b", "8", "-e", "512K", "-f", "4", "-g", "2", "-d", "bfloat16"}));
    ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
    EXPECT_EQ(pointLines(r.out), 36);
    auto all = sessions();
    ASSERT_EQ(all.size(), 2u);
    store::Workspace ws(db.string());
    for (const auto& s : all) {
        EXPECT_EQ(s.status, SessionStatus::Complete) << s.notes;
        EXPECT_EQ(s.kind, "collectives");
        EXPECT_EQ(s.tool, "nccl-tests");
        EXPECT_EQ(s.toolVersion, "2.17.1"); // from the tool's own header line
        EXPECT_EQ(s.params["environment"]["NCCL_ALGO"], "Ring");
        EXPECT_EQ(s.params["nranks"], 2);
        EXPECT_NE(s.commandLine.find("_perf -b 8 -e 512K"), std::string::npos) << s.commandLine;
        const auto points = ws.collectivePoints(s.id);
        ASSERT_EQ(points.size(), 18u);
        EXPECT_EQ(points.front().dtype, "bfloat16");
        EXPECT_EQ(points.back().bytes, 512 * 1024);
        for (const auto& p : points) {
            EXPECT_EQ(p.nranks, 2);
            EXPECT_GT(p.busbwGBs, 0);
        }
    }
    EXPECT_TRUE(all[0].title.find("all_gather_perf") != std::string::npos ||
                all[1].title.find("all_gather_perf") != std::string::npos);
}

TEST_F(CliGpuTools, PointsArriveWhileTheToolRuns)
{
    setenv("STANDIN_DELAY_MS", "150", 1);
    using Clock = std::chrono::steady_clock;
    test::Running run(nccl({}, {"-b", "1K", "-e", "64K", "-f", "2"})); // 7 rows, ~1 s
    std::string line;
    Clock::time_point firstPoint{}, end{};
    while (run.readLine(line, 30)) {
        if (line.find("\"record\":\"collective\"") != std::string::npos && firstPoint == Clock::time_point{})
            firstPoint = Clock::now();
        if (line.find("\"record\":\"end\"") != std::string::npos)
            end = Clock::now();
    }
    EXPECT_EQ(run.wait(), 0);
    ASSERT_NE(firstPoint, Clock::time_point{});
    ASSERT_NE(end, Clock::time_point{});
    EXPECT_GT(end - firstPoint, std::chrono::milliseconds(500)) << "the first point came only at the end";
}

TEST_F(CliGpuTools, NcclTestsUnderMpirunCountsEveryProcessAsARank)
{
    if (!fs::exists(RIDGELINE_MPIEXEC))
        GTEST_SKIP() << "no mpirun at " << RIDGELINE_MPIEXEC;
    std::vector<std::string> extra{"-np", "2", "--mpirun", RIDGELINE_MPIEXEC};
    for (const char* x : {"--oversubscribe", "--mca", "pml", "ob1", "--mca", "btl", "self,vader"}) {
        extra.push_back("--mpirun-arg");
        extra.push_back(x);
    }
    const auto r = test::runToEnd(nccl(extra, {"-b", "1M", "-e", "4M", "-f", "2"}));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto all = sessions();
    ASSERT_EQ(all.size(), 1u);
    EXPECT_EQ(all[0].params["launcher"], "mpirun");
    EXPECT_EQ(all[0].params["nranks"], 2);
    EXPECT_NE(all[0].commandLine.find("-np 2"), std::string::npos);
    store::Workspace ws(db.string());
    EXPECT_EQ(ws.collectivePoints(all[0].id).size(), 6u);
}

TEST_F(CliGpuTools, WrongResultsFailTheSessionButKeepThePoints)
{
    setenv("STANDIN_WRONG_ROW", "2", 1);
    const auto r = test::runToEnd(nccl({}, {"-b", "8", "-e", "128", "-f", "2"})); // 5 rows
    EXPECT_EQ(r.exitCode, 1);
    const auto all = sessions();
    ASSERT_EQ(all.size(), 1u);
    EXPECT_EQ(all[0].status, SessionStatus::Failed);
    EXPECT_NE(all[0].notes.find("5 wrong elements at 32 B"), std::string::npos) << all[0].notes;
    store::Workspace ws(db.string());
    EXPECT_EQ(ws.collectivePoints(all[0].id).size(), 10u);
}

TEST_F(CliGpuTools, AFailingToolEndsTheSessionWithItsFailureAndKeepsEarlierRows)
{
    setenv("STANDIN_FAIL_AFTER", "3", 1);
    const auto r = test::runToEnd(nccl({}, {"-b", "8", "-e", "1K", "-f", "2"}));
    EXPECT_EQ(r.exitCode, 1);
    const auto all = sessions();
    ASSERT_EQ(all.size(), 1u);
    EXPECT_EQ(all[0].status, SessionStatus::Failed);
    // The tool's own line is the cause, with how it ended.
    EXPECT_NE(all[0].notes.find("all_reduce_perf reported: "), std::string::npos) << all[0].notes;
    EXPECT_NE(all[0].notes.find("Test NCCL failure common.cu:1090 'unhandled cuda error"), std::string::npos)
        << all[0].notes;
    EXPECT_NE(all[0].notes.find("(exited with code 3)"), std::string::npos) << all[0].notes;
    store::Workspace ws(db.string());
    EXPECT_EQ(ws.collectivePoints(all[0].id).size(), 6u);
}

// Issue 26 item 4: builds that print the failure on stderr and call MPI_Abort bury it under a banner
// from every rank; the session keeps the failure line, not only the banner's tail.
TEST_F(CliGpuTools, AFailureLineOnStderrIsStoredAsTheCause)
{
    setenv("STANDIN_FAIL_AFTER", "2", 1);
    setenv("STANDIN_FAIL_ON_STDERR", "1", 1);
    const auto r = test::runToEnd(nccl({}, {"-b", "8", "-e", "1K", "-f", "2"}));
    unsetenv("STANDIN_FAIL_ON_STDERR");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("MPI_ABORT was invoked on rank 7"), std::string::npos) << "the banner is still echoed";
    const auto all = sessions();
    ASSERT_EQ(all.size(), 1u);
    EXPECT_EQ(all[0].status, SessionStatus::Failed);
    EXPECT_EQ(all[0].notes.rfind("all_reduce_perf reported: ", 0), 0u) << all[0].notes;
    EXPECT_NE(all[0].notes.find("'unhandled cuda error (run with NCCL_DEBUG=INFO for details)'"), std::string::npos)
        << all[0].notes;
    store::Workspace ws(db.string());
    EXPECT_EQ(ws.collectivePoints(all[0].id).size(), 4u);
}

TEST_F(CliGpuTools, AToolThatStopsPrintingIsStoppedAfterThePointTimeout)
{
    setenv("STANDIN_HANG_AFTER", "2", 1);
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = test::runToEnd(nccl({"--point-timeout", "1"}, {"-b", "8", "-e", "1K", "-f", "2"}), 60);
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(20));
    EXPECT_EQ(r.exitCode, 1);
    const auto all = sessions();
    ASSERT_EQ(all.size(), 1u);
    EXPECT_EQ(all[0].status, SessionStatus::Failed);
    EXPECT_NE(all[0].notes.find("printed nothing for 1 s"), std::string::npos) << all[0].notes;
    store::Workspace ws(db.string());
    EXPECT_EQ(ws.collectivePoints(all[0].id).size(), 4u);
}

TEST_F(CliGpuTools, CancelMidSweepKeepsThePointsAndSaysCancelled)
{
    setenv("STANDIN_DELAY_MS", "200", 1);
    test::Running run(nccl({"--op", "all_reduce,broadcast"}, {"-b", "8", "-e", "1G", "-f", "2"}));
    std::string line;
    int points = 0;
    while (points < 2 && run.readLine(line, 30))
        points += line.find("\"record\":\"collective\"") != std::string::npos;
    ASSERT_EQ(points, 2);
    run.signalGroup(SIGTERM);
    while (run.readLine(line, 30)) {
    }
    EXPECT_EQ(run.wait(), 130);
    const auto all = sessions();
    ASSERT_EQ(all.size(), 1u) << "the second op must not start after a cancel";
    EXPECT_EQ(all[0].status, SessionStatus::Cancelled);
    store::Workspace ws(db.string());
    EXPECT_GE(ws.collectivePoints(all[0].id).size(), 2u);
}

TEST_F(CliGpuTools, HipblasltOverGivenShapesAndTheMaxAchievableRecipe)
{
    const auto r = test::runToEnd(cli({"run", "hipblaslt", "--tool-dir", RIDGELINE_STANDIN_BIN, "--shape",
                                       "1024x1024x1024,4096x2048x8192xNT", "--recipe", "max-achievable", "--cus", "304",
                                       "--dtype", "bf16"}));
    ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
    EXPECT_EQ(pointLines(r.out), 5);
    const auto all = sessions();
    ASSERT_EQ(all.size(), 1u);
    EXPECT_EQ(all[0].kind, "gemm");
    EXPECT_EQ(all[0].tool, "hipblaslt-bench");
    EXPECT_EQ(all[0].params["recipe"], "max-achievable");
    store::Workspace ws(db.string());
    const auto gemms = store::gemmPoints(ws.database(), all[0].id);
    ASSERT_EQ(gemms.size(), 5u);
    EXPECT_EQ(gemms[1].transA, "N");
    EXPECT_EQ(gemms[1].transB, "T");
    EXPECT_EQ(gemms[1].k, 8192);
    EXPECT_EQ(gemms[0].dtype, "bfloat16");
    // 304 CUs = 16 x 19 tiles of 256: one wave is 4864 x 4096 with K = 8192.
    EXPECT_EQ(gemms[2].m, 4864);
    EXPECT_EQ(gemms[2].n, 4096);
    for (const auto& g : gemms)
        EXPECT_GT(g.gflops, 0);
}

TEST_F(CliGpuTools, RocblasSquareSweepAndAFailingShapeEndsTheSession)
{
    auto r = test::runToEnd(cli({"run", "rocblas", "--tool-dir", RIDGELINE_STANDIN_BIN, "--square", "256:1024"}));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(pointLines(r.out), 3);
    setenv("STANDIN_FAIL_AFTER", "0", 1);
    r = test::runToEnd(cli({"run", "rocblas", "--tool-dir", RIDGELINE_STANDIN_BIN, "--shape", "512x512x512"}));
    EXPECT_EQ(r.exitCode, 1);
    const auto all = sessions();
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(all[0].status, SessionStatus::Failed); // newest first
    EXPECT_NE(all[0].notes.find("at 512x512x512: rocblas-bench reported: "), std::string::npos) << all[0].notes;
}

TEST_F(CliGpuTools, AMissingToolOrBadOptionSaysWhatToDo)
{
    auto r = test::runToEnd(cli({"run", "nccl-tests", "--tool-dir", (dir.path / "nothing").string(), "--", "-b", "8"}));
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.err.find("not found"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--tool-dir"), std::string::npos) << r.err;
    r = test::runToEnd(cli({"run", "nccl-tests", "--tool-dir", RIDGELINE_STANDIN_BIN, "--op", "all_sum"}));
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.err.find("--op all_sum"), std::string::npos) << r.err;
    r = test::runToEnd(cli({"run", "hipblaslt", "--tool-dir", RIDGELINE_STANDIN_BIN, "--recipe", "max-achievable"}));
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.err.find("--cus"), std::string::npos) << r.err;
    EXPECT_TRUE(sessions().empty());
}

TEST_F(CliGpuTools, ToolsListsWhereEachToolIsItsVersionAndRemembersFolders)
{
    auto r = test::runToEnd(cli({"--json", "tools", "--add-folder", RIDGELINE_STANDIN_BIN}));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const json j = json::parse(r.out);
    ASSERT_EQ(j["tools"].size(), 6u); // nccl-tests, hipblaslt-bench, rocblas-bench, cutlass_profiler, babelstream, nvbandwidth
    for (const auto& t : j["tools"]) {
        EXPECT_TRUE(t["found"].get<bool>()) << t.dump();
        EXPECT_EQ(t["folder"], RIDGELINE_STANDIN_BIN);
    }
    EXPECT_EQ(j["tools"][0]["name"], "nccl-tests"); // from the header the tool printed
    EXPECT_EQ(j["tools"][0]["version"], "2.17.1");
    EXPECT_EQ(j["tools"][0]["version_source"], "output header");
    EXPECT_EQ(j["tools"][1]["version"], "0.12.0-standin");
    EXPECT_EQ(j["tools"][1]["version_source"], "--version");
    // The folder is remembered: a run finds the tools without --tool-dir.
    r = test::runToEnd(cli({"run", "nccl-tests", "--", "-b", "8", "-e", "16", "-f", "2"}));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    r = test::runToEnd(cli({"tools", "--remove-folder", (dir.path / "elsewhere").string()}));
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.err.find("not in the list"), std::string::npos) << r.err;
}

// Every op the tools have, each its own session with the op, bus factor and rank count of its table;
// the rccl-tests flavour (AMD devices, rccl header) is recorded as rccl-tests.
TEST_F(CliGpuTools, EveryOpRunsEndToEndAndRcclIsNamedAsSuch)
{
    setenv("STANDIN_FLAVOR", "rccl", 1);
    const std::vector<std::string> ops{"all_reduce", "reduce_scatter", "all_gather", "broadcast", "alltoall", "sendrecv",
                                       "alltoallv"};
    std::string list;
    for (const auto& op : ops)
        list += (list.empty() ? "" : ",") + op;
    const auto r = test::runToEnd(nccl({"--op", list}, {"-b", "64K", "-e", "256K", "-f", "2", "-g", "4"}));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto all = sessions();
    ASSERT_EQ(all.size(), ops.size());
    store::Workspace ws(db.string());
    std::set<std::string> seen;
    for (const auto& s : all) {
        EXPECT_EQ(s.tool, "rccl-tests");
        EXPECT_EQ(s.status, SessionStatus::Complete) << s.title << ": " << s.notes;
        const auto points = ws.collectivePoints(s.id);
        ASSERT_EQ(points.size(), 6u) << s.title;
        seen.insert(points.front().op);
        for (const auto& p : points) {
            EXPECT_EQ(p.nranks, 4);
            EXPECT_GT(p.busbwGBs, 0) << p.op;
        }
    }
    EXPECT_EQ(seen.size(), ops.size());
}

// Issue 26 item 11: a long run ends with the outline an import stores (store/collectiveoutline.h),
// so the GUI draws it without reading every point first. nccl-tests -N repeats the sweep: 400
// cycles of 21 sizes, out-of-place and in-place, are 16,800 points.
TEST_F(CliGpuTools, ALongRunEndsWithItsOutlineStored)
{
    setenv("STANDIN_DELAY_MS", "0", 1);
    const auto r = test::runToEnd(nccl({"--op", "all_reduce"}, {"-b", "8", "-e", "8M", "-f", "2", "-N", "400"}));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto all = sessions();
    ASSERT_EQ(all.size(), 1u);
    EXPECT_EQ(all[0].status, SessionStatus::Complete) << all[0].notes;
    store::Workspace ws(db.string());
    EXPECT_EQ(ws.collectivePointCount(all[0].id), 16800);
    const auto outline = store::readCollectiveOutline(ws.database(), all[0].id);
    ASSERT_TRUE(outline) << "the run stored no outline";
    EXPECT_EQ(outline->covers, 16800);
    EXPECT_EQ(outline->sums.size(), 42u); // 21 sizes, out-of-place and in-place
    EXPECT_LE(outline->points.size(), 16800u / 4);

    // Its chart image is drawn from the outline, byte for byte the one every point draws (the outline
    // dropped: read whole); its data is every point.
    const std::string id = std::to_string(all[0].id);
    const auto svg = [&](const std::string& name) {
        const auto path = (dir.path / name).string();
        const auto e = test::runToEnd(cli({"export", id, "--chart", "bandwidth", "-o", path}));
        EXPECT_EQ(e.exitCode, 0) << e.err;
        std::ifstream in(path, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), {});
    };
    const std::string fromOutline = svg("outline.svg");
    EXPECT_NE(fromOutline.find("16800 points"), std::string::npos) << "the description counts the session's points";
    ws.database().exec("DELETE FROM collective_outlines");
    EXPECT_EQ(fromOutline, svg("every.svg"));
    const auto csv = (dir.path / "points.csv").string();
    ASSERT_EQ(test::runToEnd(cli({"export", id, "--chart", "bandwidth", "-o", csv})).exitCode, 0);
    std::ifstream in(csv);
    int lines = 0;
    for (std::string line; std::getline(in, line);)
        lines += line.find(",all_reduce,") != std::string::npos && std::count(line.begin(), line.end(), ',') == 12; // a point row, not a fit
    EXPECT_EQ(lines, 16800);
}
