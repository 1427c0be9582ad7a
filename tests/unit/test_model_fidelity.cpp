// Mechanisms of the fidelity issue, each against numbers computed by hand: the fully sharded
// (ZeRO-3 / FSDP) schedule's exposed communication, the working buffers at the memory peak, the
// rank statistics of `validate --ranking`, and calibration from a measured run.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "model/memorymodel.h"
#include "model/modelconfig.h"
#include "model/rankingvalidation.h"
#include "model/runcalibration.h"
#include "model/shardedschedule.h"
#include "tempdir.h"

using namespace rl::model;

TEST(ShardedSchedule, FirstGatherAndLastReduceScatterAreAlwaysExposed)
{
    // 10 layers, 3 micro-batches; every layer's compute hides its neighbours' traffic: what is left
    // is the forward's first gather, the backward's first gather and the last reduce-scatter.
    const ShardedUnitTimes t{1.0, 2.0, 0.1, 0.1};
    const auto e = shardedExposure(10, 3, t);
    EXPECT_NEAR(e.forward, 3 * 0.1, 1e-12);
    EXPECT_NEAR(e.backward, 3 * (0.1 + 0.1), 1e-12);
}

TEST(ShardedSchedule, OverrunsAddUpLayerByLayer)
{
    // 4 layers, 2 micro-batches, forward 1 s, backward 1 s, gather 1.5 s, reduce-scatter 0.5 s.
    // Forward: 1.5 (first) + 3 x (1.5 - 1) = 3.0.
    // Backward: 1.5 (first gather) + 0.5 (last reduce-scatter) + layer 4 hides the gather of 3:
    // 1.5 - 1 = 0.5; layer 1 hides the reduce-scatter of 2: 0; layers 3 and 2 each carry a gather
    // and a reduce-scatter, 2.0 - 1 = 1.0 each: 2.0 + 0.5 + 2.0 = 4.5.
    const auto e = shardedExposure(4, 2, {1.0, 1.0, 1.5, 0.5});
    EXPECT_NEAR(e.forward, 2 * 3.0, 1e-12);
    EXPECT_NEAR(e.backward, 2 * 4.5, 1e-12);
    EXPECT_NEAR(e.total(), 15.0, 1e-12);
    // One layer: nothing to overlap with.
    const auto one = shardedExposure(1, 1, {5.0, 5.0, 1.0, 2.0});
    EXPECT_NEAR(one.forward, 1.0, 1e-12);
    EXPECT_NEAR(one.backward, 1.0 + 2.0, 1e-12);
    EXPECT_EQ(shardedExposure(0, 4, {1, 1, 1, 1}).total(), 0.0);
}

TEST(ShardedSchedule, AKeptLastUnitStartsTheBackwardWithoutAGather)
{
    // torchtitan keeps its last block gathered from forward to backward: the backward's first
    // gather (1.5 s a micro-batch above) is gone, everything else as above. Backward: 0.5 + 0.5
    // + 2.0 = 3.0 per micro-batch; the forward still starts with its gather alone.
    const auto e = shardedExposure(4, 2, {1.0, 1.0, 1.5, 0.5}, true);
    EXPECT_NEAR(e.forward, 2 * 3.0, 1e-12);
    EXPECT_NEAR(e.backward, 2 * 3.0, 1e-12);
    // One unit, kept: its forward gathers it, its backward only reduce-scatters.
    const auto one = shardedExposure(1, 1, {5.0, 5.0, 1.0, 2.0}, true);
    EXPECT_NEAR(one.forward, 1.0, 1e-12);
    EXPECT_NEAR(one.backward, 2.0, 1e-12);
}

TEST(MemoryWorking, FullRecomputeKeepsOneLayerAsStoredWithout)
{
    const auto c = loadPreset("llama-3-8b");
    const auto params = countParams(c);
    ParallelConfig p;
    p.dp = 8;
    p.zeroStage = 1;
    p.microBatch = 2;
    p.recompute = Recompute::Full;
    ParallelConfig none = p;
    none.recompute = Recompute::None;
    const auto m = trainingMemory(c, params, p);
    EXPECT_DOUBLE_EQ(m.working, activationBytesPerLayer(c, none, false));
    // Llama 3 8B's layer, flash attention, no dropout: norms, QKV and MLP inputs 2 x 2 + 2 + 2, Q, K, V
    // and the attention output 2 x (4096 + 1024 + 1024 + 4096) / 4096, SwiGLU's three 6 x 14336 / 4096:
    // 2 x 4096 x 4096 x (8 + 5 + 21) bytes.
    const double sbh = 2.0 * 4096 * 4096;
    EXPECT_NEAR(m.working, sbh * (8 + 5 + 21), 1.0);
    EXPECT_NEAR(m.total(), m.weights + m.gradients + m.optimizer + m.activations + m.working + m.communication, 1.0);
    p.recompute = Recompute::Selective;
    EXPECT_EQ(trainingMemory(c, params, p).working, 0.0);
}

TEST(MemoryWorking, Zero3HoldsTwoGatheredLayersAndOneLayersGradients)
{
    const auto c = loadPreset("llama-3-8b"); // 32 layers
    const auto params = countParams(c);
    ParallelConfig p;
    p.dp = 64;
    p.zeroStage = 3;
    const auto m = trainingMemory(c, params, p);
    // bf16: 2 layers of weights + 1 layer of gradients, each 1/32 of the parameters, unsharded.
    EXPECT_NEAR(m.working, 3 * 2 * params.denseTotal() / 32, 1.0);
    EXPECT_EQ(memoryPart(m, 4), m.working);
    EXPECT_STREQ(memoryPartName(4), "working");
    p.zeroStage = 2;
    EXPECT_EQ(trainingMemory(c, params, p).working, 0.0);
}

TEST(RankingStatistics, AverageRanksAndSpearmanByHand)
{
    EXPECT_EQ(averageRanks({3, 1, 2, 2}), (std::vector<double>{4, 1, 2.5, 2.5}));
    EXPECT_NEAR(spearman({1, 2, 3}, {30, 20, 10}), -1.0, 1e-12);
    EXPECT_NEAR(spearman({1, 2}, {5, 7}), 1.0, 1e-12);
    // d = 0, 1, 1, 0: 1 - 6 x 2 / (4 x 15) = 0.8.
    EXPECT_NEAR(spearman({1, 2, 3, 4}, {1, 3, 2, 4}), 0.8, 1e-12);
    EXPECT_EQ(spearman({1, 1, 1}, {1, 2, 3}), 0.0); // a constant series has no order
    EXPECT_EQ(spearman({1}, {1}), 0.0);
}

namespace {
std::string write(const rl::test::TempDir& dir, const std::string& name, const std::string& text)
{
    const auto path = (dir.path / name).string();
    std::ofstream(path) << text;
    return path;
}
} // namespace

TEST(RankingTable, AMemberNoTableHasIsNamedWithTheFileAndGroup)
{
    rl::test::TempDir dir;
    const auto path = write(dir, "groups.json", R"({"runs": [], "groups": [
        {"id": "g", "source": "a paper, table 9, rows 1-2", "members": ["korthikanti22-t5-22B-full", "no-such-run"]}]})");
    try {
        loadRankingTable(path);
        FAIL() << "accepted an unknown member";
    } catch (const std::runtime_error& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find(path), std::string::npos) << what;
        EXPECT_NE(what.find("groups[0]"), std::string::npos) << what;
        EXPECT_NE(what.find("no-such-run"), std::string::npos) << what;
    }
}

TEST(RankingTable, OutOfMemoryMembersAreScoredByTheFitAlone)
{
    // A group of the bundled 22B rows (full recompute measured slower than selective + SP) and a
    // layout published as out of memory: 22B with no recompute at micro-batch 64 on 8 GPUs.
    rl::test::TempDir dir;
    const auto path = write(dir, "groups.json", R"({"runs": [
        {"id": "oom-22b", "source": "a hand-made row for this test", "hardware": "a100-80gb",
         "model": {"layers": 48, "d_model": 6144, "heads": 64, "kv_heads": 64, "head_dim": 96, "mlp": "gelu",
                   "mlp_width": 24576, "vocab": 51200, "tied_embeddings": true, "linear_bias": true, "norm_bias": true,
                   "position_embeddings": 2048, "activation": "gelu"},
         "seq": 2048, "tp": 8, "dp": 1, "micro_batch": 64, "global_batch": 64, "recompute": "none", "flash": false,
         "measured": {"out_of_memory": true}}],
      "groups": [{"id": "g", "source": "a paper, table 5, the 22B rows", "members":
                  ["korthikanti22-t5-22B-full", "korthikanti22-t5-22B-seqsel", "oom-22b"]}]})");
    const auto table = loadRankingTable(path);
    ASSERT_EQ(table.groups.size(), 1u);
    const auto s = runRankingValidation(table);
    ASSERT_EQ(s.groups.size(), 1u);
    const auto& g = s.groups[0];
    EXPECT_EQ(g.ran, 2);
    EXPECT_EQ(g.outOfMemory, 1);
    EXPECT_EQ(g.outOfMemoryFlagged, 1); // 64 x 2048 tokens of unfused attention scores per layer
    EXPECT_FALSE(g.members[2].row.step.fitsMemory());
    EXPECT_EQ(g.members[2].measuredRank, 0);
    EXPECT_EQ(g.members[0].measuredRank, 2); // full recompute measured slower
    EXPECT_EQ(g.members[1].measuredRank, 1);
    EXPECT_NEAR(g.spearman, g.members[1].predictedRank == 1 ? 1.0 : -1.0, 1e-12);
    EXPECT_EQ(s.scored, 1);
    EXPECT_EQ(s.outOfMemory, 1);
}

TEST(RankingTable, BundledGroupsLoadWithSources)
{
    const auto table = loadRankingTable(rankingTablePath());
    ASSERT_GE(table.groups.size(), 10u);
    const auto s = runRankingValidation(table);
    int oom = 0;
    for (const auto& g : s.groups) {
        EXPECT_EQ(g.refused, 0) << g.group.id;
        EXPECT_NE(g.group.source.find("Table"), std::string::npos) << g.group.id;
        oom += g.outOfMemory;
        for (const auto& m : g.members)
            EXPECT_EQ(m.measuredRank == 0, m.row.run.ranOutOfMemory) << m.row.run.id;
    }
    EXPECT_EQ(oom, 1); // SC21 Table 2's footnote: 530B under ZeRO-3 on 560 GPUs
    EXPECT_LE(s.fastestFound, s.scored);
    EXPECT_EQ(s.outOfMemory, oom);
}

namespace {
StepEstimate handStep()
{
    // 2 s compute, 0.5 s bubble, 0.5 s exposed (all DP), nothing else: a 3 s step.
    StepEstimate e;
    e.computeSeconds = 2.0;
    e.gemmSeconds = 1.5;
    e.elementwiseSeconds = 0.5;
    e.bubbleSeconds = 0.5;
    e.exposedDpSeconds = e.exposedCommSeconds = 0.5;
    e.stepSeconds = 3.0;
    e.tokensPerSecond = 1000;
    e.mfu = 0.3;
    e.hfu = 0.2;
    return e;
}
DeviceRates handDevice()
{
    DeviceRates r;
    r.peakFlops = 1e15;
    r.maxAchievableFlops = 0.5e15;
    return r;
}
} // namespace

TEST(RunCalibration, AStepTimeAloneScalesComputeAndBubble)
{
    MeasuredStep m;
    m.stepSeconds = 4.0;
    const auto r = fitRunRates(handStep(), m, "a log", handDevice());
    EXPECT_FALSE(r.fromTrace);
    EXPECT_NEAR(r.compute, (4.0 - 0.5) / 2.5, 1e-12); // exposed communication as modelled
    EXPECT_NEAR(r.bubble, r.compute, 1e-12);
    EXPECT_EQ(r.exposedComm, 1.0);
    EXPECT_NEAR(r.residual, 0.0, 1e-12); // the run itself comes back as measured
    const auto c = applyRunRates(handStep(), r, handDevice());
    EXPECT_NEAR(c.stepSeconds, 4.0, 1e-12);
    EXPECT_NEAR(c.computeSeconds, 2.8, 1e-12);
    EXPECT_NEAR(c.gemmSeconds, 1.5 * 1.4, 1e-12);
    EXPECT_NEAR(c.tokensPerSecond, 1000 * 3.0 / 4.0, 1e-9);
    EXPECT_NEAR(c.mfu, 0.3 * 3.0 / 4.0, 1e-12);
    ASSERT_EQ(r.moved.size(), 1u);
    EXPECT_NE(r.moved[0].find("x1.40"), std::string::npos) << r.moved[0];
}

TEST(RunCalibration, ATraceScalesEachClassOnItsOwn)
{
    MeasuredStep m;
    m.stepSeconds = 5.0;
    m.computeSeconds = 3.0;     // x1.5
    m.exposedCommSeconds = 1.0; // x2
    m.idleSeconds = 1.0;        // x2 on the bubble
    const auto r = fitRunRates(handStep(), m, "a trace", handDevice());
    EXPECT_TRUE(r.fromTrace);
    EXPECT_NEAR(r.compute, 1.5, 1e-12);
    EXPECT_NEAR(r.exposedComm, 2.0, 1e-12);
    EXPECT_NEAR(r.bubble, 2.0, 1e-12);
    EXPECT_NEAR(r.residual, 0.0, 1e-12);
    EXPECT_EQ(r.moved.size(), 3u);
    // Another layout: 4 s compute, no bubble, 1 s exposed: 6 + 0 + 2.
    StepEstimate other = handStep();
    other.computeSeconds = 4.0;
    other.bubbleSeconds = 0;
    other.exposedDpSeconds = other.exposedCommSeconds = 1.0;
    other.stepSeconds = 5.0;
    EXPECT_NEAR(applyRunRates(other, r, handDevice()).stepSeconds, 8.0, 1e-12);
    // A run the model hides every byte of and has no bubble for: added, not scaled.
    StepEstimate hidden = handStep();
    hidden.exposedDpSeconds = hidden.exposedCommSeconds = 0;
    hidden.bubbleSeconds = 0;
    hidden.stepSeconds = 2.0;
    const auto added = fitRunRates(hidden, m, "a trace", handDevice());
    EXPECT_NEAR(added.addedComm, 1.0, 1e-12);
    EXPECT_NEAR(added.addedIdle, 1.0, 1e-12);
    EXPECT_NEAR(applyRunRates(hidden, added, handDevice()).stepSeconds, 5.0, 1e-12);
}

TEST(RunCalibration, NeverFasterThanTheDeviceCan)
{
    // A run measured 10x faster than predicted would put the next layout above max achievable:
    // 0.2 x 1e15 FLOP/s x 3 s = 6e14 hardware FLOPs take at least 1.2 s at 5e14.
    MeasuredStep m;
    m.stepSeconds = 0.7;
    const auto r = fitRunRates(handStep(), m, "a log", handDevice());
    EXPECT_LT(r.compute, 0.1);
    const auto c = applyRunRates(handStep(), r, handDevice());
    EXPECT_NEAR(c.computeSeconds, 1.2, 1e-12);
    EXPECT_LE(c.hfu * 1e15, 0.5e15 * (1 + 1e-12));
    EXPECT_GT(r.residual, 0.5); // and the fit says it could not follow the measurement
}
