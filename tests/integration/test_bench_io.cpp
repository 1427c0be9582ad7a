// `ridgeline-bench io` under the real launcher: file-per-process and shared-file sweeps on 2 ranks in
// a temporary folder, the fsync/O_DIRECT options, cancel by SIGTERM, and a full file system (a small
// tmpfs mounted for the test): a clear error and no files left behind in every case.
#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <sys/mount.h>
#include <unistd.h>

#include "benchlaunch.h"
#include "tempdir.h"
#include "records/wireformat.h"

using namespace rl;
namespace fs = std::filesystem;

namespace {
using test::haveLauncher;

std::vector<std::string> launch(int np, std::vector<std::string> ioArgs)
{
    ioArgs.insert(ioArgs.begin(), "io");
    return test::launch(np, ioArgs);
}

using IoRun = test::BenchRun<StoragePoint>;
IoRun parse(const std::string& out) { return test::parseBenchRun<StoragePoint>(out); }

using test::TempDir;

std::vector<std::string> entries(const TempDir& dir)
{
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir.path))
        out.push_back(e.path().filename().string());
    return out;
}
} // namespace

class BenchIo : public ::testing::Test
{
protected:
    void SetUp() override
    {
        if (!haveLauncher())
            GTEST_SKIP() << "no MPI launcher at " << RIDGELINE_MPIEXEC;
    }
    TempDir dir;
};

TEST_F(BenchIo, FilePerProcessAndSharedFileOnTwoRanks)
{
    const auto r = test::runToEnd(launch(2, {"--dir", dir.path.string(), "--sizes", "1M,4M", "--blocks", "256K,1M",
                                             "--access", "both"}));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto run = parse(r.out);
    EXPECT_TRUE(run.badLines.empty()) << run.badLines.front();
    ASSERT_TRUE(run.header);
    EXPECT_EQ(run.header->kind, "storage");
    EXPECT_EQ(run.header->params.value("nranks", 0), 2);
    EXPECT_EQ(run.header->params["rank_counts"], nlohmann::json::array({1, 2})); // powers of two, then all
    EXPECT_EQ(run.header->params.value("expected_points", 0), 32);
    ASSERT_TRUE(run.end);
    EXPECT_EQ(run.end->status, SessionStatus::Complete) << run.end->message;
    // 2 access modes x 2 rank counts x 4 (size, block) pairs, a write and a read each.
    ASSERT_EQ(run.points.size(), 32u);
    std::map<std::string, int> seen;
    for (std::size_t i = 0; i < run.points.size(); ++i) {
        const auto& p = run.points[i];
        EXPECT_EQ(p.op, i % 2 ? "read" : "write");
        EXPECT_GT(p.aggregateGBs, 0);
        ASSERT_EQ(p.rankGBs.size(), std::size_t(p.nranks));
        for (double g : p.rankGBs)
            EXPECT_GT(g, 0);
        EXPECT_GE(p.slowestRank, 0);
        EXPECT_LT(p.slowestRank, p.nranks);
        EXPECT_DOUBLE_EQ(p.rankGBs[std::size_t(p.slowestRank)], p.minRankGBs);
        // All bytes over the slowest rank's time: never above the per-rank sum.
        EXPECT_NEAR(p.aggregateGBs, double(p.fileBytes) * p.nranks / p.timeS / 1e9, 1e-9 * p.aggregateGBs);
        EXPECT_LE(p.aggregateGBs, p.meanRankGBs * p.nranks * (1 + 1e-9));
        EXPECT_GT(p.firstByteUs, 0);
        EXPECT_LE(p.firstByteUs, p.timeS * 1e6);
        EXPECT_FALSE(p.fsync);
        ++seen[p.access + ' ' + std::to_string(p.nranks) + ' ' + std::to_string(p.fileBytes) + ' ' +
               std::to_string(p.blockBytes)];
    }
    EXPECT_EQ(seen.size(), 16u);
    EXPECT_EQ(seen["shared-file 2 4194304 1048576"], 2);
    EXPECT_TRUE(entries(dir).empty()) << entries(dir).front();
}

TEST_F(BenchIo, FsyncAndDirectAreRecorded)
{
    const auto r = test::runToEnd(launch(2, {"--dir", dir.path.string(), "--sizes", "2M", "--blocks", "512K",
                                             "--ranks", "2", "--fsync", "--direct", "--repeats", "3"}));
    if (r.exitCode != 0 && r.err.find("O_DIRECT") != std::string::npos)
        GTEST_SKIP() << "O_DIRECT not supported in " << dir.path << ": " << r.err;
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto run = parse(r.out);
    ASSERT_EQ(run.points.size(), 2u);
    EXPECT_TRUE(run.points[0].fsync && run.points[0].direct);
    EXPECT_TRUE(!run.points[1].fsync && run.points[1].direct);
    EXPECT_EQ(run.points[0].repeats, 3);
    EXPECT_TRUE(run.header->params.value("fsync", false));
    EXPECT_TRUE(entries(dir).empty());
}

TEST_F(BenchIo, SigtermMidSweepCancelsAndRemovesTheFiles)
{
    test::Running proc(launch(2, {"--dir", dir.path.string(), "--sizes", "32M", "--blocks",
                                  "64K,128K,256K,512K,1M,2M,4M,8M", "--access", "both", "--repeats", "2"}));
    std::string out, line;
    int points = 0;
    while (points < 2 && proc.readLine(line, 120)) {
        out += line + '\n';
        points += line.find("\"record\":\"storage\"") != std::string::npos;
    }
    ASSERT_EQ(points, 2);
    proc.signalGroup(SIGTERM);
    while (proc.readLine(line, 120))
        out += line + '\n';
    proc.wait();
    const auto run = parse(out);
    ASSERT_TRUE(run.end);
    EXPECT_EQ(run.end->status, SessionStatus::Cancelled) << run.end->message;
    EXPECT_NE(run.end->message.find("files removed"), std::string::npos);
    EXPECT_LT(run.points.size(), 64u);
    EXPECT_TRUE(entries(dir).empty()) << entries(dir).front();
}

TEST_F(BenchIo, FullFileSystemIsAClearErrorAndLeavesNothing)
{
    if (geteuid() != 0)
        GTEST_SKIP() << "mounting a small tmpfs needs root";
    const fs::path mnt = dir.path / "small";
    fs::create_directory(mnt);
    if (::mount("tmpfs", mnt.c_str(), "tmpfs", 0, "size=8M") != 0)
        GTEST_SKIP() << "cannot mount a tmpfs here: " << std::strerror(errno);
    struct Unmount
    {
        fs::path p;
        ~Unmount() { ::umount2(p.c_str(), MNT_DETACH); }
    } unmount{mnt};
    // 2 ranks x 16 MiB on 8 MiB: the first write case cannot fit.
    const auto r = test::runToEnd(launch(2, {"--dir", mnt.string(), "--sizes", "16M", "--blocks", "1M", "--ranks", "2"}));
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(mnt.string() + "/ridgeline-io."), std::string::npos) << r.err; // names the file
    EXPECT_NE(r.err.find("warning: the largest case writes 32 MiB"), std::string::npos) << r.err;
    const auto run = parse(r.out);
    ASSERT_TRUE(run.end);
    EXPECT_EQ(run.end->status, SessionStatus::Failed);
    EXPECT_NE(run.end->message.find("No space left on device"), std::string::npos) << run.end->message;
    EXPECT_NE(run.end->message.find("files removed"), std::string::npos) << run.end->message;
    EXPECT_TRUE(run.points.empty());
    std::vector<std::string> left;
    for (const auto& e : fs::directory_iterator(mnt))
        left.push_back(e.path().filename().string());
    EXPECT_TRUE(left.empty()) << left.front();
}

TEST_F(BenchIo, BadArgumentsFailOnceWithTheReason)
{
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
        {{"--dir", "/nonexistent-ridgeline"}, "--dir /nonexistent-ridgeline is not a writable folder"},
        {{"--dir", "/tmp", "--ranks", "3"}, "--ranks 3 is outside 1..2"},
        {{"--dir", "/tmp", "--access", "striped"}, "unknown access \"striped\""},
        {{"--dir", "/tmp", "--sizes", "1M", "--blocks", "4M"}, "every block size is larger"},
    };
    for (const auto& [args, message] : cases) {
        const auto r = test::runToEnd(launch(2, args));
        EXPECT_NE(r.exitCode, 0) << args.back();
        const auto at = r.err.find(message);
        ASSERT_NE(at, std::string::npos) << r.err;
        EXPECT_EQ(r.err.find(message, at + 1), std::string::npos) << "printed by every rank: " << r.err;
        EXPECT_EQ(r.out.find("\"record\":\"storage\""), std::string::npos);
    }
}

// The fio comparison end to end on a small file: fio's JSON is read for both directions, every round
// is printed with its ratio, and neither tool's file is left behind. (The ratio itself is the
// benchmark's business: `ridgeline-bench io --compare-fio` on a real disk, see the README.)
TEST(BenchIoCompareFio, PrintsBothDirectionsPerRoundAndLeavesNothing)
{
    if (std::system("command -v fio > /dev/null 2>&1") != 0)
        GTEST_SKIP() << "fio is not installed (.ci/install-deps installs it)";
    TempDir dir;
    const auto r = test::runToEnd({RIDGELINE_BENCH, "io", "--compare-fio", "--dir", dir.path.string(), "--sizes", "4M",
                                   "--blocks", "1M", "--rounds", "2", "--settle", "0"});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    for (const char* line : {"round 1: write fio ", "round 2: write fio ", "median write: fio ", "median read:  fio ",
                             "within 10 % (geometric mean of the rounds' ratios): "})
        EXPECT_NE(r.out.find(line), std::string::npos) << line << " in\n" << r.out;
    EXPECT_EQ(r.out.find("0.00 GB/s"), std::string::npos) << r.out; // every run moved its 4 MiB
    EXPECT_TRUE(entries(dir).empty());
}
