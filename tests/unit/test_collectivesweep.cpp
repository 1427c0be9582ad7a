#include <gtest/gtest.h>

#include <sstream>

#include "collectives/collectivesweep.h"
#include "collectives/nccltable.h"

using namespace rl;

TEST(CollectiveSweep, SizesFollowNcclTestsFactorWalk)
{
    SweepParams p;
    p.minBytes = 8;
    p.maxBytes = 64 << 10;
    p.stepFactor = 4;
    EXPECT_EQ(sweepSizes(p), (std::vector<std::int64_t>{8, 32, 128, 512, 2048, 8192, 32768}));
    p.maxBytes = 256ll << 20;
    p.stepFactor = 2;
    const auto sizes = sweepSizes(p);
    EXPECT_EQ(sizes.size(), 26u); // 2^3 .. 2^28
    EXPECT_EQ(sizes.back(), 256ll << 20);
}

TEST(CollectiveSweep, StepBytesAddsAndStopsAtMax)
{
    SweepParams p;
    p.minBytes = 1 << 20;
    p.maxBytes = 4 << 20;
    p.stepBytes = 1 << 20;
    EXPECT_EQ(sweepSizes(p), (std::vector<std::int64_t>{1 << 20, 2 << 20, 3 << 20, 4 << 20}));
    p.maxBytes = (4 << 20) + 5; // not a multiple: the last size stays below max
    EXPECT_EQ(sweepSizes(p).back(), 4 << 20);
}

TEST(CollectiveSweep, RejectsEmptyAndEndlessSweeps)
{
    SweepParams p;
    p.minBytes = 1024;
    p.maxBytes = 8;
    EXPECT_THROW(sweepSizes(p), std::invalid_argument);
    p.minBytes = 8;
    p.maxBytes = 1024;
    p.stepFactor = 1;
    EXPECT_THROW(sweepSizes(p), std::invalid_argument);
    p.minBytes = 0;
    p.stepFactor = 2;
    EXPECT_THROW(sweepSizes(p), std::invalid_argument);
    p.minBytes = 1;
    p.maxBytes = 1ll << 30;
    p.stepBytes = 1; // a billion sizes
    EXPECT_THROW(sweepSizes(p), std::invalid_argument);
    p.stepBytes = 0;
    p.minBytes = p.maxBytes = 4096;
    p.stepFactor = 1; // a single size needs no step
    EXPECT_EQ(sweepSizes(p), std::vector<std::int64_t>{4096});
}

TEST(CollectiveSweep, ParsesListsAndNamesTheBadItem)
{
    EXPECT_EQ(parseOpList("all_reduce, allgather,bcast"),
              (std::vector<CollectiveOp>{CollectiveOp::AllReduce, CollectiveOp::AllGather, CollectiveOp::Broadcast}));
    EXPECT_EQ(parseOpList("all").size(), 5u);
    EXPECT_EQ(parseOpList("all_reduce,all_reduce").size(), 1u);
    try {
        parseOpList("all_reduce,sendrecv");
        FAIL() << "send_recv is not a runner op";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("sendrecv"), std::string::npos);
    }
    EXPECT_THROW(parseOpList("all_reduce,,broadcast"), std::invalid_argument);
    EXPECT_THROW(parseOpList(""), std::invalid_argument);
    EXPECT_EQ(parseDtypeList("float,double,int32"),
              (std::vector<DataType>{DataType::Float32, DataType::Float64, DataType::Int32}));
    EXPECT_THROW(parseDtypeList("bfloat16"), std::invalid_argument);
    EXPECT_EQ(parseRedopList("sum,max,min").size(), 3u);
    EXPECT_THROW(parseRedopList("prod"), std::invalid_argument);
    EXPECT_EQ(parseInPlace("0"), InPlaceMode::OutOfPlace);
    EXPECT_EQ(parseInPlace("1"), InPlaceMode::InPlace);
    EXPECT_EQ(parseInPlace("both"), InPlaceMode::Both);
    EXPECT_THROW(parseInPlace("yes"), std::invalid_argument);
}

struct ShapeCase
{
    CollectiveOp op;
    std::int64_t requested;
    int elem, nranks;
    std::int64_t bytes, count, send, recv;
};

TEST(CollectiveSweep, ShapesRoundDownLikeNcclTests)
{
    const ShapeCase cases[] = {
        {CollectiveOp::AllReduce, 1000, 4, 3, 1000, 250, 250, 250},
        {CollectiveOp::AllReduce, 10, 4, 2, 8, 2, 2, 2},      // partial element dropped
        {CollectiveOp::AllGather, 1000, 4, 3, 996, 83, 83, 249}, // 250 elements / 3 ranks
        {CollectiveOp::ReduceScatter, 1000, 4, 3, 996, 83, 249, 83},
        {CollectiveOp::AllToAll, 1000, 4, 3, 996, 83, 249, 249},
        {CollectiveOp::AllGather, 8, 4, 4, 0, 0, 0, 0}, // 2 elements over 4 ranks: nothing
        {CollectiveOp::Broadcast, 64, 8, 4, 64, 8, 8, 8},
    };
    for (const auto& c : cases) {
        const auto s = pointShape(c.op, c.requested, c.elem, c.nranks);
        EXPECT_EQ(s.bytes, c.bytes) << toString(c.op) << ' ' << c.requested;
        EXPECT_EQ(s.count, c.count) << toString(c.op) << ' ' << c.requested;
        EXPECT_EQ(s.sendElems, c.send) << toString(c.op);
        EXPECT_EQ(s.recvElems, c.recv) << toString(c.op);
    }
}

TEST(CollectiveSweep, PlanOrdersPointsAndSizesBuffersForInPlace)
{
    SweepParams p;
    p.ops = {CollectiveOp::ReduceScatter, CollectiveOp::Broadcast};
    p.minBytes = 64;
    p.maxBytes = 1024;
    p.stepFactor = 4;
    p.redops = {ReduceOp::Sum, ReduceOp::Max};
    const auto plan = planSweep(p, 4);
    // reduce_scatter: 2 redops x 3 sizes x 2 variants; broadcast: 3 sizes x 2 variants, no redop
    ASSERT_EQ(plan.size(), 12u + 6u);
    EXPECT_FALSE(plan[0].inPlace);
    EXPECT_TRUE(plan[1].inPlace);
    EXPECT_EQ(plan[0].redop, ReduceOp::Sum);
    EXPECT_EQ(plan[6].redop, ReduceOp::Max);
    EXPECT_EQ(plan[0].root, -1);
    EXPECT_EQ(plan[12].op, CollectiveOp::Broadcast);
    EXPECT_FALSE(plan[12].redop.has_value());
    EXPECT_EQ(plan[12].root, 0);
    const auto b = bufferBytes(plan);
    EXPECT_EQ(b.send, 1024);
    EXPECT_EQ(b.recv, 1024); // in-place reduce_scatter reads the whole input from recv
}

TEST(CollectiveSweep, PlanRejectsBadRootIterationsAndHugeCounts)
{
    SweepParams p;
    p.maxBytes = 64;
    p.root = 2;
    EXPECT_THROW(planSweep(p, 2), std::invalid_argument);
    p.ops = {CollectiveOp::AllReduce}; // no root needed
    EXPECT_NO_THROW(planSweep(p, 2));
    p.timing.iters = 0;
    EXPECT_THROW(planSweep(p, 2), std::invalid_argument);
    p.timing.iters = 1;
    p.minBytes = p.maxBytes = 16ll << 30; // 4 Gi float32 elements
    EXPECT_THROW(planSweep(p, 2), std::invalid_argument);
}

TEST(CollectiveSweep, BandwidthsFollowPerformanceMd)
{
    PlannedPoint p;
    p.op = CollectiveOp::AllReduce;
    p.shape = pointShape(p.op, 1 << 20, 4, 8);
    auto c = makePoint(p, 8, 100.0, 0);
    EXPECT_DOUBLE_EQ(c.algbwGBs, 1048576.0 / 100e-6 / 1e9);
    EXPECT_DOUBLE_EQ(c.busbwGBs, c.algbwGBs * 2 * 7 / 8);
    EXPECT_EQ(c.op, "all_reduce");
    EXPECT_EQ(c.redop, "");
    p.op = CollectiveOp::AllGather;
    p.shape = pointShape(p.op, 1 << 20, 4, 8);
    c = makePoint(p, 8, 100.0, 3);
    EXPECT_EQ(c.bytes, 1 << 20);
    EXPECT_EQ(c.count, (1 << 18) / 8);
    EXPECT_DOUBLE_EQ(c.busbwGBs, c.algbwGBs * 7 / 8);
    EXPECT_EQ(c.wrong, 3);
    p.op = CollectiveOp::Broadcast;
    c = makePoint(p, 8, 100.0, 0);
    EXPECT_DOUBLE_EQ(c.busbwGBs, c.algbwGBs);
}

TEST(NcclTable, NumberCellsMatchNcclTestsWidths)
{
    EXPECT_EQ(ncclNumberCell(12.3456, 7), "  12.35");
    EXPECT_EQ(ncclNumberCell(0.0, 6), "  0.00");
    EXPECT_EQ(ncclNumberCell(12345.6, 7), "12345.6");
    EXPECT_EQ(ncclNumberCell(1234567.0, 7), "1234567");
    EXPECT_EQ(ncclNumberCell(123456789.0, 7), "1.2e+08");
}

TEST(NcclTable, PrintsOneRowPerSizeWithBothVariants)
{
    SweepParams p;
    p.ops = {CollectiveOp::AllReduce};
    p.minBytes = 8;
    p.maxBytes = 32;
    p.stepFactor = 4;
    p.timing.warmup = 5;
    p.timing.iters = 20;
    const auto plan = planSweep(p, 2);
    std::ostringstream out;
    NcclTableWriter w(out, p, 2);
    w.begin({"Rank 0 Group  0 Pid 1 on a device  0 [cpu] host memory"}, "Open MPI v4.1.4");
    for (const auto& pt : plan)
        w.add(pt, makePoint(pt, 2, 10.0, 0));
    w.finish();
    const std::string text = out.str();
    EXPECT_NE(text.find("# nThread 1 nGpus 1 minBytes 8 maxBytes 32 step: 4(factor) warmup iters: 5 iters: 20"),
              std::string::npos);
    EXPECT_NE(text.find("#       size         count      type   redop    root     time   algbw   busbw #wrong"),
              std::string::npos);
    EXPECT_NE(text.find("           8             2     float     sum      -1    10.00    0.00    0.00       0"
                        "    10.00    0.00    0.00       0\n"),
              std::string::npos);
    EXPECT_NE(text.find("          32             8     float     sum      -1"), std::string::npos);
    EXPECT_NE(text.find("# Out of bounds values : 0 OK"), std::string::npos);
    EXPECT_NE(text.find("# Collective test concluded: all_reduce_perf"), std::string::npos);
}
