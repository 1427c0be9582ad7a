// all_to_allv routing matrices: CSV parsing, MoE generation against hand-computed matrices, the
// load imbalance, and what a matrix becomes at one size of a sweep.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "collectives/collectivecheck.h"
#include "collectives/collectivesweep.h"
#include "collectives/routingmatrix.h"
#include "tempdir.h"

using namespace rl;

namespace {
RoutingMatrix parse(const std::string& text)
{
    std::istringstream in(text);
    return parseRoutingCsv(in);
}

std::string errorOf(const std::string& text)
{
    try {
        parse(text);
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return {};
}
} // namespace

TEST(RoutingMatrix, CsvWithHeaderLabelsCommentsAndSuffixes)
{
    const auto m = parse("# bytes from row rank to column rank\n"
                         ",r0,r1,r2\n"
                         "r0, 0, 1K, 2K\n"
                         "r1; 3K; 0; 1K\n"
                         "r2  1K  1K  0\n");
    ASSERT_EQ(m.n, 3);
    EXPECT_EQ(m.at(0, 2), 2048);
    EXPECT_EQ(m.at(1, 0), 3072);
    EXPECT_EQ(m.rowSum(1), 4096);
    EXPECT_EQ(m.columnSum(0), 4096);
    EXPECT_EQ(m.total(), 9 * 1024);
    // Mean per rank 3 KiB; rank 1 sends 4 KiB, rank 0 receives 4 KiB: 4 / 3.
    EXPECT_DOUBLE_EQ(loadImbalance(m), 4.0 / 3.0);
}

TEST(RoutingMatrix, BadCsvNamesTheLine)
{
    EXPECT_NE(errorOf("1,2\n3\n").find("line 2 has 1 values, the first row 2"), std::string::npos);
    EXPECT_NE(errorOf("1,2\n3,-4\n").find("line 2: \"-4\" is not a byte count"), std::string::npos);
    EXPECT_NE(errorOf("1,2,3\n4,5,6\n").find("must be square"), std::string::npos);
    EXPECT_NE(errorOf("0,0\n0,0\n").find("every entry is 0"), std::string::npos);
    EXPECT_NE(errorOf("# nothing\n").find("no rows"), std::string::npos);
}

TEST(RoutingMatrix, UniformMoeIsBalanced)
{
    // 8 experts, top-2, 4 ranks, 1000 tokens of 8 B: 2 experts a rank, a quarter of 2000 copies each.
    MoeRouting moe;
    moe.experts = 8;
    moe.topK = 2;
    moe.tokensPerRank = 1000;
    moe.bytesPerToken = 8;
    const auto m = moeRoutingMatrix(moe, 4);
    ASSERT_EQ(m.n, 4);
    for (double b : m.bytes)
        EXPECT_DOUBLE_EQ(b, 4000.0);
    EXPECT_DOUBLE_EQ(loadImbalance(m), 1.0);
}

TEST(RoutingMatrix, ZipfMoeMatchesHandComputedShares)
{
    // 4 experts, s = 1: weights 1, 1/2, 1/3, 1/4 sum to 25/12 -> shares 12/25, 6/25, 4/25, 3/25.
    // 2 ranks hold experts {0,1} (18/25) and {2,3} (7/25); 100 tokens x top-1 x 1 B.
    MoeRouting moe;
    moe.experts = 4;
    moe.topK = 1;
    moe.tokensPerRank = 100;
    moe.bytesPerToken = 1;
    parseSkew("zipf:1", moe);
    const auto shares = expertShares(moe);
    EXPECT_DOUBLE_EQ(shares[0], 12.0 / 25);
    EXPECT_DOUBLE_EQ(shares[3], 3.0 / 25);
    const auto m = moeRoutingMatrix(moe, 2);
    EXPECT_DOUBLE_EQ(m.at(0, 0), 72);
    EXPECT_DOUBLE_EQ(m.at(0, 1), 28);
    EXPECT_DOUBLE_EQ(m.at(1, 0), 72);
    EXPECT_DOUBLE_EQ(m.at(1, 1), 28);
    EXPECT_DOUBLE_EQ(loadImbalance(m), 1.44); // rank 0 receives 144 of a mean 100
}

TEST(RoutingMatrix, MeasuredHistogramFromFile)
{
    test::TempDir dir;
    const std::string path = (dir.path / "expert_load.txt").string();
    {
        std::ofstream f(path);
        f << "# tokens per expert\n30, 10\n40 20\n";
    }
    MoeRouting moe;
    moe.experts = 4;
    moe.topK = 2;
    moe.tokensPerRank = 50;
    moe.bytesPerToken = 10;
    parseSkew("hist:" + path, moe);
    // Rank 0: experts 0, 1 = 40 % of the load; rank 1: 60 %. 50 x 2 x 10 B = 1000 B a rank.
    const auto m = moeRoutingMatrix(moe, 2);
    EXPECT_DOUBLE_EQ(m.at(0, 0), 400);
    EXPECT_DOUBLE_EQ(m.at(1, 1), 600);
    EXPECT_DOUBLE_EQ(loadImbalance(m), 1.2);
    moe.experts = 3;
    EXPECT_THROW(expertShares(moe), std::invalid_argument); // 4 loads for 3 experts
}

TEST(RoutingMatrix, MoeAndSkewErrors)
{
    MoeRouting moe;
    moe.experts = 6;
    EXPECT_THROW(moeRoutingMatrix(moe, 4), std::invalid_argument); // 6 experts over 4 ranks
    EXPECT_THROW(parseSkew("pareto", moe), std::invalid_argument);
    EXPECT_THROW(parseSkew("zipf:-1", moe), std::invalid_argument);
    EXPECT_THROW(parseSkew("hist:/no/such/file", moe), std::invalid_argument);
}

TEST(RoutingMatrix, ScaledToASweepSizeInWholeElements)
{
    const auto m = parse("0,300\n100,0\n"); // mean 200 B a rank
    const double scale = routingScale(m, 64);
    EXPECT_DOUBLE_EQ(scale, 0.32);
    // 300 x 0.32 = 96 B = 24 float32; 100 x 0.32 = 32 B = 8.
    EXPECT_EQ(pairElements(m, scale, 4, 0, 1), 24);
    EXPECT_EQ(pairElements(m, scale, 4, 1, 0), 8);
    const RankCounts c0 = rankCounts(m, scale, 4, 0);
    EXPECT_EQ(c0.sendCounts, (std::vector<int>{0, 24}));
    EXPECT_EQ(c0.sendDispls, (std::vector<int>{0, 0}));
    EXPECT_EQ(c0.recvCounts, (std::vector<int>{0, 8}));
    const RankCounts c1 = rankCounts(m, scale, 4, 1);
    EXPECT_EQ(c1.sendCounts, (std::vector<int>{8, 0}));
    EXPECT_EQ(c1.recvDispls, (std::vector<int>{0, 24}));
    const PointShape s = allToAllVShape(m, scale, 4);
    EXPECT_EQ(s.bytes, 64);     // (24 + 8) x 4 B / 2 ranks
    EXPECT_EQ(s.sendElems, 24); // the busiest row
    EXPECT_EQ(s.recvElems, 24); // the busiest column
    EXPECT_DOUBLE_EQ(loadImbalance(scaledMatrix(m, scale, 4)), 1.5);
}

TEST(RoutingMatrix, PlanScalesTheMatrixAndChecksTheRankCount)
{
    SweepParams p;
    p.ops = {CollectiveOp::AllToAllV};
    p.minBytes = 1024;
    p.maxBytes = 4096;
    p.routing = std::make_shared<const RoutingMatrix>(parse("0,300\n100,0\n"));
    const auto plan = planSweep(p, 2);
    ASSERT_EQ(plan.size(), 3u); // 1, 2, 4 KiB, out of place only
    for (const auto& pt : plan) {
        EXPECT_FALSE(pt.inPlace);
        EXPECT_EQ(pt.routing, p.routing);
    }
    EXPECT_EQ(plan[0].shape.bytes, 1024);
    const auto point = makePoint(plan[0], 2, 10.0, 0);
    EXPECT_EQ(point.op, "all_to_allv");
    EXPECT_DOUBLE_EQ(point.busbwGBs, point.algbwGBs / 2);
    EXPECT_DOUBLE_EQ(point.imbalance, 1.5);
    EXPECT_THROW(planSweep(p, 4), std::invalid_argument); // a 2 x 2 matrix for 4 ranks
    p.routing.reset();
    EXPECT_THROW(planSweep(p, 2), std::invalid_argument); // no matrix
}

TEST(RoutingMatrix, CheckFindsEveryBlockWhereMpiPutsIt)
{
    // Simulate MPI_Alltoallv on 3 ranks in memory and check each rank's result.
    const auto m = parse("8,16,0\n4,0,12\n20,4,8\n");
    SweepParams p;
    p.ops = {CollectiveOp::AllToAllV};
    p.minBytes = p.maxBytes = 24; // scale 1: the matrix as is
    p.routing = std::make_shared<const RoutingMatrix>(m);
    const auto plan = planSweep(p, 3);
    ASSERT_EQ(plan.size(), 1u);
    const auto& pt = plan[0];
    std::vector<std::vector<float>> send(3, std::vector<float>(std::size_t(pt.shape.sendElems))),
        recv(3, std::vector<float>(std::size_t(pt.shape.recvElems)));
    for (int r = 0; r < 3; ++r)
        fillCheckBuffers(pt, r, 3, send[std::size_t(r)].data(), recv[std::size_t(r)].data());
    std::vector<RankCounts> counts;
    for (int r = 0; r < 3; ++r)
        counts.push_back(rankCounts(m, pt.routingScale, 4, r));
    for (int to = 0; to < 3; ++to)
        for (int from = 0; from < 3; ++from)
            for (int k = 0; k < counts[std::size_t(from)].sendCounts[std::size_t(to)]; ++k)
                recv[std::size_t(to)][std::size_t(counts[std::size_t(to)].recvDispls[std::size_t(from)] + k)] =
                    send[std::size_t(from)][std::size_t(counts[std::size_t(from)].sendDispls[std::size_t(to)] + k)];
    for (int r = 0; r < 3; ++r)
        EXPECT_EQ(countWrongElements(pt, r, 3, send[std::size_t(r)].data(), recv[std::size_t(r)].data()), 0) << r;
    // A block in the wrong place is caught.
    std::swap(recv[2][0], recv[2][1]);
    EXPECT_GT(countWrongElements(pt, 2, 3, send[2].data(), recv[2].data()), 0);
}
