// The pair schedule of `ridgeline-bench pairs` and finding slow pairs in its result.
#include <gtest/gtest.h>

#include <set>

#include "collectives/pairs.h"

using namespace rl;

TEST(PairRounds, EveryPairOnceAndNoRankTwiceInARound)
{
    for (int n : {2, 3, 4, 5, 7, 8, 16}) {
        const auto rounds = pairRounds(n);
        EXPECT_EQ(rounds.size(), std::size_t(n % 2 == 0 ? n - 1 : n)) << n;
        std::set<std::pair<int, int>> seen;
        for (const auto& round : rounds) {
            std::set<int> busy;
            for (const auto& [a, b] : round) {
                EXPECT_LT(a, b);
                EXPECT_TRUE(busy.insert(a).second) << n;
                EXPECT_TRUE(busy.insert(b).second) << n;
                EXPECT_TRUE(seen.insert({a, b}).second) << n;
            }
            EXPECT_GE(busy.size(), std::size_t(n - 1)); // at most one rank sits out
        }
        EXPECT_EQ(seen.size(), std::size_t(n * (n - 1) / 2)) << n;
    }
    EXPECT_TRUE(pairRounds(1).empty());
}

TEST(PairRounds, FourRanksByHand)
{
    const auto r = pairRounds(4);
    ASSERT_EQ(r.size(), 3u);
    EXPECT_EQ(r[0], (std::vector<std::pair<int, int>>{{0, 3}, {1, 2}}));
    EXPECT_EQ(r[1], (std::vector<std::pair<int, int>>{{0, 2}, {1, 3}}));
    EXPECT_EQ(r[2], (std::vector<std::pair<int, int>>{{0, 1}, {2, 3}}));
}

namespace {
PairPoint pair(int a, int b, double lat, double bw)
{
    PairPoint p;
    p.rankA = a;
    p.rankB = b;
    p.latencyUs = lat;
    p.bandwidthGBs = bw;
    return p;
}
} // namespace

TEST(SlowPairs, ARankWithASlowLinkIsInEverySlowPair)
{
    // 5 ranks, 10 pairs; every pair with rank 3 at half bandwidth, one other at 3x latency.
    std::vector<PairPoint> pairs;
    for (int a = 0; a < 5; ++a)
        for (int b = a + 1; b < 5; ++b)
            pairs.push_back(pair(a, b, 1.0, a == 3 || b == 3 ? 5.0 : 10.0));
    pairs[0].latencyUs = 3.0; // (0, 1): fast bandwidth, slow latency
    const PairReport r = findSlowPairs(pairs, 0.8);
    EXPECT_DOUBLE_EQ(r.medianBandwidthGBs, 10.0); // 6 of 10 at 10
    EXPECT_DOUBLE_EQ(r.medianLatencyUs, 1.0);
    ASSERT_EQ(r.slow.size(), 5u);
    for (std::size_t i = 0; i < 4; ++i) {
        EXPECT_TRUE(r.slow[i].pair.rankA == 3 || r.slow[i].pair.rankB == 3);
        EXPECT_DOUBLE_EQ(r.slow[i].bandwidthFraction, 0.5);
        EXPECT_EQ(r.slow[i].why, "bandwidth 50 % of the median");
    }
    EXPECT_EQ(r.slow[4].why, "latency 3.0x the median");
    ASSERT_FALSE(r.suspects.empty());
    EXPECT_EQ(r.suspects.front(), std::make_pair(3, 4));
}

TEST(SlowPairs, UniformPairsHaveNone)
{
    std::vector<PairPoint> pairs{pair(0, 1, 1.0, 10), pair(0, 2, 1.1, 9.5), pair(1, 2, 0.95, 10.2)};
    const PairReport r = findSlowPairs(pairs, 0.8);
    EXPECT_TRUE(r.slow.empty());
    EXPECT_TRUE(r.suspects.empty());
    EXPECT_TRUE(findSlowPairs({}, 0.8).slow.empty());
}
