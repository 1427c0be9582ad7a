// `ridgeline-bench pairs` under the real launcher: every pair once, one JSON line each, and a rank
// slowed on purpose (the stand-in delay) shows up in every slow pair.
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "benchlaunch.h"
#include "collectives/pairs.h"
#include "records/wireformat.h"

using namespace rl;

namespace {
using PairsOutput = test::BenchRun<PairPoint>;
PairsOutput parse(const std::string& out) { return test::parseBenchRun<PairPoint>(out); }

class BenchPairs : public ::testing::Test
{
protected:
    void SetUp() override
    {
        if (!test::haveLauncher())
            GTEST_SKIP() << "no MPI launcher at " << RIDGELINE_MPIEXEC;
    }
};
} // namespace

TEST_F(BenchPairs, TwoRanksGiveOnePairWithLatencyAndBandwidth)
{
    const auto r = test::runToEnd(test::launch(2, {"pairs", "--bandwidth-bytes", "64K", "--latency-iters", "20",
                                                   "--bandwidth-iters", "5"}));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const PairsOutput run = parse(r.out);
    EXPECT_TRUE(run.badLines.empty()) << run.badLines.front();
    ASSERT_TRUE(run.header);
    EXPECT_EQ(run.header->kind, "pairs");
    EXPECT_EQ(run.header->params.value("nranks", 0), 2);
    ASSERT_EQ(run.points.size(), 1u);
    const PairPoint& p = run.points[0];
    EXPECT_EQ(p.rankA, 0);
    EXPECT_EQ(p.rankB, 1);
    EXPECT_FALSE(p.hostA.empty());
    EXPECT_EQ(p.latencyBytes, 8);
    EXPECT_EQ(p.bandwidthBytes, 65536);
    EXPECT_GT(p.latencyUs, 0);
    EXPECT_GT(p.bandwidthGBs, 0);
    ASSERT_TRUE(run.end);
    EXPECT_EQ(run.end->status, SessionStatus::Complete);
}

TEST_F(BenchPairs, ARankSlowedOnPurposeIsInEverySlowPair)
{
    // 4 ranks, rank 2 sleeps 20 ms before every send: its three pairs take ~10 ms per one-way trip
    // where the others take microseconds, or a few ms when the waiting ranks' polling starves them
    // on an oversubscribed 2-core machine (a scheduler slice is ~3 ms). Half the pairs are slow, so
    // the median falls between the groups; the slow ones stay above 1.25x it while the fast ones
    // stay under 0.6x the slow ones. One pair at a time keeps concurrent pairs from sharing a core.
    const auto r = test::runToEnd(test::launch(4, {"pairs", "--bandwidth-bytes", "256K", "--latency-iters", "10",
                                                   "--bandwidth-iters", "5", "-w", "2", "--delay-rank", "2",
                                                   "--delay-us", "20000", "--one-pair-at-a-time"}));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const PairsOutput run = parse(r.out);
    ASSERT_EQ(run.points.size(), 6u);
    std::set<std::pair<int, int>> seen;
    for (const auto& p : run.points)
        seen.insert({p.rankA, p.rankB});
    EXPECT_EQ(seen.size(), 6u);
    EXPECT_EQ(run.header->params.at("stand_in_delay").value("rank", -1), 2);
    const PairReport report = findSlowPairs(run.points, 0.8);
    std::set<std::pair<int, int>> slow;
    for (const auto& s : report.slow)
        slow.insert({s.pair.rankA, s.pair.rankB});
    EXPECT_EQ(slow, (std::set<std::pair<int, int>>{{0, 2}, {1, 2}, {2, 3}})) << r.out;
    ASSERT_FALSE(report.suspects.empty());
    EXPECT_EQ(report.suspects.front(), std::make_pair(2, 3));
}

TEST_F(BenchPairs, PerNodeOnOneHostMeasuresNothingAndSaysSo)
{
    const auto r = test::runToEnd(test::launch(2, {"pairs", "--per-node", "--bandwidth-bytes", "4K"}));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const PairsOutput run = parse(r.out);
    ASSERT_TRUE(run.header);
    EXPECT_TRUE(run.header->params.value("per_node", false));
    EXPECT_EQ(run.header->params.value("measured_ranks", 0), 1);
    EXPECT_TRUE(run.points.empty());
    ASSERT_TRUE(run.end);
    EXPECT_EQ(run.end->message, "0 of 0 pairs");
}
