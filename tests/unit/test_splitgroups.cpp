// `collectives --split` without MPI: the spec, the groups and labels per level, the colors the
// runner splits by, and which group `ridgeline-cli results` names as the slowest.
#include <gtest/gtest.h>

#include "collectives/splitgroups.h"

using namespace rl;

namespace {
std::vector<std::string> labels(const std::vector<SplitGroup>& groups)
{
    std::vector<std::string> out;
    for (const auto& g : groups)
        out.push_back(g.label);
    return out;
}

CollectivePoint point(const std::string& group, std::int64_t bytes, double busbw, int nranks = 2)
{
    CollectivePoint p;
    p.op = "all_reduce";
    p.nranks = nranks;
    p.dtype = "float32";
    p.redop = "sum";
    p.bytes = bytes;
    p.busbwGBs = busbw;
    p.algbwGBs = busbw;
    p.group = group;
    return p;
}
} // namespace

TEST(SplitSpec, ParsesEveryLevelKindInOrder)
{
    const auto levels = parseSplitSpec("node,nodes:2,ranks:4,world");
    ASSERT_EQ(levels.size(), 4u);
    EXPECT_EQ(levels[0].kind, SplitLevel::Kind::Node);
    EXPECT_EQ(levels[1].kind, SplitLevel::Kind::Nodes);
    EXPECT_EQ(levels[1].k, 2);
    EXPECT_EQ(levels[2].kind, SplitLevel::Kind::Ranks);
    EXPECT_EQ(levels[2].k, 4);
    EXPECT_EQ(levels[3].kind, SplitLevel::Kind::World);
    std::string back;
    for (const auto& l : levels)
        back += (back.empty() ? "" : ",") + toString(l);
    EXPECT_EQ(back, "node,nodes:2,ranks:4,world");
}

TEST(SplitSpec, BadSpecsNameTheItemAndWhatIsAccepted)
{
    const std::vector<std::pair<std::string, std::string>> cases{
        {"foo", "\"foo\" is not a level: use node, nodes:K, ranks:K or world"},
        {"nodes:0", "\"nodes:0\" needs a group size of at least 1"},
        {"ranks:", "\"ranks:\" needs a group size"},
        {"ranks:x", "\"ranks:x\" needs a group size"},
        {"node:2", "\"node:2\" is not a level"},
        {"", "empty level"},
        {"node,,world", "empty level"},
    };
    for (const auto& [spec, message] : cases) {
        try {
            parseSplitSpec(spec);
            ADD_FAILURE() << spec << " was accepted";
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << spec << ": " << e.what();
        }
    }
}

TEST(SplitGroups, RankBlocksNodesAndPairsOfNodes)
{
    const std::vector<std::string> hosts{"a", "a", "b", "b", "c", "c", "d", "d"};
    const auto ranks = splitGroups({SplitLevel::Kind::Ranks, 2}, hosts);
    EXPECT_EQ(labels(ranks), (std::vector<std::string>{"ranks 0-1", "ranks 2-3", "ranks 4-5", "ranks 6-7"}));
    EXPECT_EQ(ranks[1].ranks, (std::vector<int>{2, 3}));
    EXPECT_EQ(labels(splitGroups({SplitLevel::Kind::Ranks, 1}, {"a", "a"})), (std::vector<std::string>{"rank 0", "rank 1"}));

    EXPECT_EQ(labels(splitGroups({SplitLevel::Kind::Node, 1}, hosts)),
              (std::vector<std::string>{"node a", "node b", "node c", "node d"}));
    const auto pairs = splitGroups({SplitLevel::Kind::Nodes, 2}, hosts);
    EXPECT_EQ(labels(pairs), (std::vector<std::string>{"nodes a+b", "nodes c+d"}));
    EXPECT_EQ(pairs[1].ranks, (std::vector<int>{4, 5, 6, 7}));
    EXPECT_EQ(labels(splitGroups({SplitLevel::Kind::Nodes, 4}, hosts)), (std::vector<std::string>{"nodes a..d (4)"}));
    const auto world = splitGroups({}, hosts);
    ASSERT_EQ(world.size(), 1u);
    EXPECT_EQ(world[0].label, "world");
    EXPECT_EQ(world[0].ranks.size(), 8u);
}

TEST(SplitGroups, NodesAreTakenInTheOrderOfTheirLowestRankEvenWhenRanksInterleave)
{
    // A round-robin placement (--map-by node): rank 0 on x, 1 on y, 2 on x, 3 on y.
    const std::vector<std::string> hosts{"x", "y", "x", "y"};
    const auto nodes = splitGroups({SplitLevel::Kind::Node, 1}, hosts);
    EXPECT_EQ(labels(nodes), (std::vector<std::string>{"node x", "node y"}));
    EXPECT_EQ(nodes[0].ranks, (std::vector<int>{0, 2}));
    EXPECT_EQ(groupColors(nodes, 4), (std::vector<int>{0, 1, 0, 1}));
}

TEST(SplitGroups, UnevenGroupsAreRefused)
{
    try {
        splitGroups({SplitLevel::Kind::Ranks, 3}, {"a", "a", "a", "a"});
        ADD_FAILURE() << "ranks:3 on 4 ranks";
    } catch (const std::invalid_argument& e) {
        EXPECT_STREQ(e.what(), "--split ranks:3: 3 does not divide the 4 ranks into equal groups");
    }
    try {
        splitGroups({SplitLevel::Kind::Nodes, 2}, {"a", "a"});
        ADD_FAILURE() << "nodes:2 on one node";
    } catch (const std::invalid_argument& e) {
        EXPECT_STREQ(e.what(), "--split nodes:2: 2 does not divide the 1 node into equal groups");
    }
}

TEST(SlowestGroup, TheGroupFurthestBelowTheMedianAtTheLargestSharedSize)
{
    const std::vector<CollectivePoint> points{
        point("ranks 0-1", 1024, 1.0), point("ranks 2-3", 1024, 0.1), point("ranks 4-5", 1024, 1.0),
        point("ranks 0-1", 4096, 4.0), point("ranks 2-3", 4096, 1.0), point("ranks 4-5", 4096, 3.0),
        point("ranks 0-1", 16384, 8.0), // the others were cancelled before this size
        point("world", 4096, 0.01, 6),  // no peers: never the slowest
    };
    const SlowestGroup g = slowestGroup(points);
    EXPECT_EQ(g.group, "ranks 2-3");
    EXPECT_EQ(g.bytes, 4096);
    EXPECT_EQ(g.op, "all_reduce");
    EXPECT_DOUBLE_EQ(g.busbwGBs, 1.0);
    EXPECT_DOUBLE_EQ(g.medianGBs, 3.0);
    EXPECT_DOUBLE_EQ(g.fraction, 1.0 / 3.0);
}

TEST(SlowestGroup, NoneWithoutTwoGroupsToCompare)
{
    EXPECT_TRUE(slowestGroup({}).group.empty());
    EXPECT_TRUE(slowestGroup({point("", 8, 1.0), point("", 16, 2.0)}).group.empty());
    EXPECT_TRUE(slowestGroup({point("world", 8, 1.0, 4)}).group.empty());
    // One-rank groups move nothing between ranks: busbw 0 has no median to compare with.
    EXPECT_TRUE(slowestGroup({point("rank 0", 8, 0.0, 1), point("rank 1", 8, 0.0, 1)}).group.empty());
}

// Fits, report peaks and calibration of a split session describe the slowest group at each size:
// a mixture of all groups would fit two times per size and credit the slow node with the fast ones.
TEST(SlowestGroupAtEachSize, KeepsTheSlowestOfEachLevelAndEveryUngroupedPoint)
{
    auto timed = [](const std::string& group, std::int64_t bytes, double us, int nranks = 2) {
        CollectivePoint p = point(group, bytes, 1.0, nranks);
        p.timeUs = us;
        return p;
    };
    const std::vector<CollectivePoint> points{
        timed("ranks 0-1", 1024, 5), timed("ranks 2-3", 1024, 9),  timed("world", 1024, 12, 4),
        timed("ranks 0-1", 4096, 20), timed("ranks 2-3", 4096, 11), timed("world", 4096, 30, 4),
        timed("node a", 4096, 40),  // another level of the same rank count: its own slowest
        timed("", 8, 1, 4),
    };
    const auto kept = slowestGroupAtEachSize(points);
    std::vector<std::pair<std::string, std::int64_t>> got;
    for (const auto& p : kept)
        got.emplace_back(p.group, p.bytes);
    const std::vector<std::pair<std::string, std::int64_t>> want{
        {"ranks 2-3", 1024}, {"world", 1024}, {"ranks 0-1", 4096}, {"world", 4096}, {"node a", 4096}, {"", 8}};
    EXPECT_EQ(got, want);
}
