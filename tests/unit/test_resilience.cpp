// The resilience planner against numbers worked out by hand: checkpoint bytes per rank and in total
// for a dense (Llama 3 8B) and an MoE (Mixtral 8x7B) model under each ZeRO stage, Young/Daly
// intervals, Daly's goodput model, MTBF sources, and reshaping small layouts shard by shard.
#include <gtest/gtest.h>

#include <cmath>

#include "model/memorymodel.h"
#include "model/modelcounts.h"
#include "resilience/reshape.h"
#include "resilience/resilienceplan.h"

using namespace rl;
using namespace rl::resilience;

namespace {
// Llama 3 8B: 8,030,261,248 parameters (test_model_counts). Mixtral 8x7B: 46,702,792,704, of which
// routed experts 32 layers x 8 experts x 3 x 4096 x 14336 = 45,097,156,608; dense 1,605,636,096.
constexpr double kLlama = 8'030'261'248.0;
constexpr double kMixtral = 46'702'792'704.0;
constexpr double kMixtralExperts = 45'097'156'608.0;
constexpr double kMixtralDense = kMixtral - kMixtralExperts;

model::ParallelConfig layout(int tp, int pp, int dp, int ep, int zero)
{
    model::ParallelConfig p;
    p.tp = tp, p.pp = pp, p.dp = dp, p.ep = ep, p.zeroStage = zero;
    return p;
}
} // namespace

TEST(CheckpointSize, MixtralExpertSplitIsWhatTheTestAssumes)
{
    const auto counts = model::countParams(model::loadPreset("mixtral-8x7b"));
    EXPECT_EQ(counts.experts, kMixtralExperts);
    EXPECT_EQ(counts.total(), kMixtral);
}

TEST(CheckpointSize, DenseUnderEachZeroStage)
{
    const auto c = model::loadPreset("llama-3-8b");
    // tp=2, pp=2, dp=4: one model-parallel shard holds 8,030,261,248 / 4 = 2,007,565,312 params.
    const double shard = kLlama / 4;
    {
        const auto s = checkpointSize(c, layout(2, 2, 4, 1, 0));
        // ZeRO-0: DP rank 0 of each of the 4 shards writes bf16 weights + fp32 optimizer (14 B/param).
        EXPECT_DOUBLE_EQ(s.maxRankBytes, 14 * shard); // 28,105,914,368 B
        EXPECT_DOUBLE_EQ(s.totalBytes, 14 * kLlama);  // 112,423,657,472 B
        EXPECT_EQ(s.writers, 4);
        EXPECT_DOUBLE_EQ(s.loadRankBytes, 14 * shard);
        EXPECT_DOUBLE_EQ(s.loadTotalBytes, 16 * 14 * shard);
        EXPECT_DOUBLE_EQ(s.meanRankBytes, 14 * kLlama / 16);
    }
    {
        const auto s = checkpointSize(c, layout(2, 2, 4, 1, 1));
        // ZeRO-1: optimizer split over 4 DP ranks (12 x 501,891,328 each), weights still by DP rank 0.
        EXPECT_DOUBLE_EQ(s.maxRankBytes, 2 * shard + 12 * shard / 4); // 10,037,826,560 B
        EXPECT_DOUBLE_EQ(s.totalBytes, 14 * kLlama);
        EXPECT_EQ(s.writers, 16);
        EXPECT_DOUBLE_EQ(s.heldOptimizer, 12 * shard / 4); // the memory model's figure
        EXPECT_DOUBLE_EQ(s.loadRankBytes, 2 * shard + 12 * shard / 4);
    }
    {
        // ZeRO-2 shards gradients, which a checkpoint does not hold unless asked.
        EXPECT_DOUBLE_EQ(checkpointSize(c, layout(2, 2, 4, 1, 2)).maxRankBytes, 2 * shard + 12 * shard / 4);
        CheckpointContents withGrads;
        withGrads.gradients = true;
        const auto s = checkpointSize(c, layout(2, 2, 4, 1, 2), withGrads);
        EXPECT_DOUBLE_EQ(s.maxRankBytes, 2 * shard + 12 * shard / 4 + 2 * shard / 4); // 11,041,609,216 B
        EXPECT_DOUBLE_EQ(s.totalBytes, 16 * kLlama);
    }
    {
        const auto s = checkpointSize(c, layout(2, 2, 4, 1, 3));
        // ZeRO-3: everything split evenly: 14 x 501,891,328 = 7,026,478,592 B on each of 16 ranks.
        EXPECT_DOUBLE_EQ(s.maxRankBytes, 14 * shard / 4);
        EXPECT_DOUBLE_EQ(s.maxRankBytes * 16, s.totalBytes);
        EXPECT_EQ(s.writers, 16);
    }
    {
        // Spreading replicated writes over the DP replicas evens out ZeRO-0 too.
        CheckpointContents spread;
        spread.spreadReplicated = true;
        EXPECT_DOUBLE_EQ(checkpointSize(c, layout(2, 2, 4, 1, 0), spread).maxRankBytes, 14 * shard / 4);
    }
}

TEST(CheckpointSize, MoeUnderEachZeroStage)
{
    const auto c = model::loadPreset("mixtral-8x7b");
    // dp=8, ep=8: expert-DP is 1. Dense shard 1,605,636,096; expert shard 45,097,156,608 / 8 = 5,637,144,576.
    const double dense = kMixtralDense, expert = kMixtralExperts / 8;
    {
        const auto s = checkpointSize(c, layout(1, 1, 8, 8, 0));
        // DP rank 0 writes the dense part and its experts; ranks 1-7 their experts only.
        EXPECT_DOUBLE_EQ(s.maxRankBytes, 14 * (dense + expert)); // 101,398,929,408 B
        EXPECT_DOUBLE_EQ(s.totalBytes, 14 * kMixtral);           // 653,839,097,856 B
        EXPECT_EQ(s.writers, 8);
        EXPECT_DOUBLE_EQ(s.loadRankBytes, 14 * (dense + expert));
    }
    {
        const auto s = checkpointSize(c, layout(1, 1, 8, 8, 1));
        // Optimizer: dense over 8 DP ranks, experts over expert-DP 1: 12 x (200,704,512 + 5,637,144,576).
        const double opt = 12 * (dense / 8 + expert);
        EXPECT_DOUBLE_EQ(s.heldOptimizer, opt); // 70,054,189,056 B, as the memory model holds it
        EXPECT_DOUBLE_EQ(s.maxRankBytes, 2 * (dense + expert) + opt); // 84,539,750,400 B
    }
    {
        const auto s = checkpointSize(c, layout(1, 1, 8, 8, 3));
        EXPECT_DOUBLE_EQ(s.maxRankBytes, 14 * (dense / 8 + expert)); // 81,729,887,232 B
    }
    {
        // dp=8, ep=2: expert-DP 4, so ZeRO-3 splits experts four ways too.
        const auto s = checkpointSize(c, layout(1, 1, 8, 2, 3));
        EXPECT_DOUBLE_EQ(s.maxRankBytes, 14 * (dense / 8 + kMixtralExperts / 2 / 4));
        EXPECT_DOUBLE_EQ(s.maxRankBytes * 8, s.totalBytes);
    }
}

TEST(CheckpointTimes, SyncAsyncAndLoad)
{
    CheckpointSize s;
    s.maxRankBytes = 10e9;
    s.totalBytes = 100e9;
    s.loadRankBytes = 20e9;
    s.loadTotalBytes = 400e9;
    StorageRates r;
    r.writeAggregateGBs = 50;  // 100 GB / 50 GB/s = 2 s
    r.writePerRankGBs = 2;     // 10 GB / 2 GB/s = 5 s: the busiest rank decides
    r.readAggregateGBs = 100;  // 400 GB / 100 GB/s = 4 s
    r.readPerRankGBs = 10;     // 20 GB / 10 GB/s = 2 s
    const auto t = checkpointTimes(s, r, 25);
    EXPECT_DOUBLE_EQ(t.syncSaveS, 5);
    EXPECT_DOUBLE_EQ(t.asyncBlockingS, 0.4); // 10 GB at 25 GB/s
    EXPECT_DOUBLE_EQ(t.asyncDrainS, 5);
    EXPECT_DOUBLE_EQ(t.minAsyncIntervalS, 5.4);
    EXPECT_DOUBLE_EQ(t.hostBytesPerRank, 10e9);
    EXPECT_DOUBLE_EQ(t.loadS, 4);
}

TEST(CheckpointTimes, RatesFromAStorageSessionUseItsLargestFiles)
{
    auto point = [](const char* op, int ranks, std::int64_t file, double agg, double perRank) {
        StoragePoint p;
        p.op = op;
        p.nranks = ranks;
        p.fileBytes = file;
        p.aggregateGBs = agg;
        p.meanRankGBs = perRank;
        return p;
    };
    std::vector<StoragePoint> pts{point("write", 2, 1 << 20, 9.0, 4.5), point("write", 2, 1 << 30, 3.0, 1.6),
                                  point("write", 4, 1 << 30, 5.0, 1.3), point("read", 4, 1 << 30, 8.0, 2.1)};
    const auto r = ratesFromPoints(pts, "s");
    EXPECT_DOUBLE_EQ(r.writeAggregateGBs, 5.0); // best of the 1 GiB points, not the cached 1 MiB one
    EXPECT_DOUBLE_EQ(r.writePerRankGBs, 1.3);
    EXPECT_DOUBLE_EQ(r.readAggregateGBs, 8.0);
    pts.pop_back();
    EXPECT_THROW(ratesFromPoints(pts, "s"), std::runtime_error);
}

TEST(Failures, YoungAndDalyByHand)
{
    // C = 5 min, M = 24 h: Young sqrt(2 x 300 x 86400) = 7200 s. Daly: C/2M = 1/576, so
    // 7200 (1 + (1/3)(1/24) + (1/9)(1/576)) - 300 = 7200 + 100 + 1.3889 - 300 = 7001.389 s.
    EXPECT_DOUBLE_EQ(youngInterval(300, 86400), 7200);
    EXPECT_NEAR(dalyInterval(300, 86400), 7001.3889, 1e-3);
    // C >= 2M: Daly's interval is M.
    EXPECT_DOUBLE_EQ(dalyInterval(7200, 3600), 3600);
}

TEST(Failures, DalyIsTheOptimumOfHisGoodputModel)
{
    for (const auto& [c, m, r] : {std::tuple{60.0, 3 * 3600.0, 600.0}, {300.0, 86400.0, 0.0}, {30.0, 1800.0, 120.0}}) {
        double best = 0, bestTau = 0;
        for (double tau = 1; tau < 20 * m; tau *= 1.0005) {
            const double g = expectedGoodput(tau, c, r, m);
            if (g > best)
                best = g, bestTau = tau;
        }
        const double daly = dalyInterval(c, m);
        EXPECT_NEAR(daly / bestTau, 1.0, 0.02) << c << ' ' << m;
        EXPECT_NEAR(expectedGoodput(daly, c, r, m), best, 1e-4);
    }
}

TEST(Failures, GoodputModelLimits)
{
    EXPECT_DOUBLE_EQ(expectedGoodput(900, 100, 50, INFINITY), 0.9); // no failures: tau / (tau + C)
    EXPECT_EQ(expectedGoodput(0, 100, 50, 3600), 0.0);
    // Restart time lowers goodput by exactly e^(-R/M).
    EXPECT_NEAR(expectedGoodput(1000, 60, 600, 3600) / expectedGoodput(1000, 60, 0, 3600), std::exp(-600.0 / 3600), 1e-12);
    const auto curve = goodputVsInterval(60, 0, 3600, 10, 10000, 4);
    ASSERT_EQ(curve.size(), 4u);
    EXPECT_DOUBLE_EQ(curve[0].x, 10);
    EXPECT_NEAR(curve[3].x, 10000, 1e-9);
}

TEST(Failures, MtbfSources)
{
    // Llama 3 (arXiv:2407.21783): 419 unexpected interruptions in 54 days on 16,384 GPUs (2,048 nodes):
    // job MTBF 1296 h / 419 = 3.093 h; node MTBF 2048 x that = 6,334.6 h.
    const auto& table = publishedFailureRates();
    const auto llama = std::find_if(table.begin(), table.end(), [](const auto& f) { return f.name == "llama3-405b"; });
    ASSERT_NE(llama, table.end());
    EXPECT_NEAR(llama->nodeMtbfHours(), 54.0 * 24 * 2048 / 419, 1e-9);
    EXPECT_NEAR(jobMtbf(llama->nodeMtbfHours(), 2048), 3.0931, 1e-4);
    EXPECT_NEAR(jobMtbf(llama->nodeMtbfHours(), 1024), 2 * 3.0931, 2e-4); // half the nodes, twice the MTBF
    // A training log: 3 restarts in 48 h on 16 nodes -> 16 h per job failure -> 256 h per node.
    EXPECT_DOUBLE_EQ(nodeMtbfFromRestarts(48, 3, 16), 256);
    EXPECT_THROW(nodeMtbfFromRestarts(48, 0, 16), std::invalid_argument);
    // The editable table round-trips through JSON and refuses nonsense.
    const auto back = failureRatesFromJson(toJson(table));
    ASSERT_EQ(back.size(), table.size());
    EXPECT_EQ(back[0].interruptions, 419);
    EXPECT_THROW(failureRatesFromJson(nlohmann::json::parse(R"([{"name":"x","gpus":8,"days":1,"interruptions":0}])")),
                 std::runtime_error);
}

TEST(ResiliencePlan, SyncPlanForADenseModel)
{
    const auto c = model::loadPreset("llama-3-8b");
    ResilienceInputs in;
    in.storage.writeAggregateGBs = 10;
    in.storage.readAggregateGBs = 20;
    in.nodeMtbfHours = 1000;
    in.relaunchS = 120;
    const auto p = layout(1, 1, 64, 1, 1);
    const auto plan = planResilience(c, p, in);
    EXPECT_EQ(plan.nodes, 8);
    EXPECT_DOUBLE_EQ(plan.jobMtbfS, 1000.0 * 3600 / 8);
    EXPECT_DOUBLE_EQ(plan.checkpointCostS, 14 * kLlama / 10e9); // the whole checkpoint through 10 GB/s
    EXPECT_DOUBLE_EQ(plan.dalyS, dalyInterval(plan.checkpointCostS, plan.jobMtbfS));
    EXPECT_DOUBLE_EQ(plan.goodput, expectedGoodput(plan.dalyS, plan.checkpointCostS, plan.restartS, plan.jobMtbfS));
    EXPECT_DOUBLE_EQ(plan.restartS, 120 + plan.times.loadS);
    ASSERT_FALSE(plan.vsNodes.empty());
    for (std::size_t i = 1; i < plan.vsNodes.size(); ++i) // more nodes, more failures, more bytes: less goodput
        EXPECT_LT(plan.vsNodes[i].goodput, plan.vsNodes[i - 1].goodput);
    for (const auto& pt : plan.vsInterval)
        EXPECT_LE(pt.goodput, plan.goodput + 1e-4);
    // Asynchronous: training only waits for the snapshot.
    in.async = true;
    const auto a = planResilience(c, p, in);
    EXPECT_DOUBLE_EQ(a.checkpointCostS, a.times.asyncBlockingS);
    EXPECT_GT(a.goodput, plan.goodput);
    EXPECT_GE(a.intervalS + a.checkpointCostS, a.times.minAsyncIntervalS - 1e-9);
}

TEST(Reshape, TwoTensorSlicesIntoOne)
{
    const auto c = model::loadPreset("llama-3-8b");
    const auto plan = planReshape(c, layout(2, 1, 1, 1, 0), layout(1, 1, 1, 1, 0), {});
    ASSERT_EQ(plan.ranks.size(), 1u);
    const auto& r = plan.ranks[0];
    EXPECT_EQ(r.to, (RankCoord{0, 0, 0}));
    ASSERT_EQ(r.reads.size(), 4u); // weights and optimizer from each of the two TP files
    for (const auto& s : r.reads)
        EXPECT_DOUBLE_EQ(s.bytes, (s.state == "weights" ? 2 : 12) * kLlama / 2) << s.state;
    EXPECT_EQ(r.files, 2);
    EXPECT_DOUBLE_EQ(plan.totalReadBytes, 14 * kLlama);
    EXPECT_DOUBLE_EQ(plan.uniqueBytes, 14 * kLlama);
    EXPECT_EQ(plan.oldFiles, 2);
}

TEST(Reshape, PipelineStagesToTensorSlicesWithZero1)
{
    const auto c = model::loadPreset("llama-3-8b");
    // Old: pp=2 x dp=2, ZeRO-1 (weights by DP rank 0 of each stage; optimizer split per DP rank).
    // New: tp=2 x dp=2, ZeRO-1. New rank (t, d) needs half of every tensor of all layers:
    //   weights: half of each stage's file written by dp0 -> 2P/4 from (pp0,dp0) and from (pp1,dp0);
    //   optimizer: its DP half of that -> 12P/8 from (pp0,dp d) and from (pp1,dp d).
    const auto plan = planReshape(c, layout(1, 2, 2, 1, 1), layout(2, 1, 2, 1, 1), {});
    ASSERT_EQ(plan.ranks.size(), 4u);
    for (const auto& r : plan.ranks) {
        ASSERT_EQ(r.reads.size(), 4u) << toString(r.to);
        for (const auto& s : r.reads) {
            if (s.state == "weights") {
                EXPECT_EQ(s.from.dp, 0);
                EXPECT_DOUBLE_EQ(s.bytes, 2 * kLlama / 4);
            } else {
                EXPECT_EQ(s.from.dp, r.to.dp); // its own DP slice
                EXPECT_DOUBLE_EQ(s.bytes, 12 * kLlama / 8);
            }
            EXPECT_EQ(s.from.tp, 0);
        }
        EXPECT_DOUBLE_EQ(r.bytes, kLlama + 3 * kLlama);
        EXPECT_EQ(r.files, r.to.dp == 0 ? 2 : 4);
    }
    EXPECT_DOUBLE_EQ(plan.totalReadBytes, 16 * kLlama);
    EXPECT_EQ(plan.oldFiles, 4);
}

TEST(Reshape, SameLayoutReadsExactlyItsOwnFiles)
{
    const auto c = model::loadPreset("llama-3-8b");
    const auto plan = planReshape(c, layout(2, 2, 2, 1, 3), layout(2, 2, 2, 1, 3), {});
    ASSERT_EQ(plan.ranks.size(), 8u);
    for (const auto& r : plan.ranks) {
        EXPECT_EQ(r.files, 1);
        for (const auto& s : r.reads)
            EXPECT_EQ(s.from, r.to);
        EXPECT_DOUBLE_EQ(r.bytes, 14 * kLlama / 8);
    }
    EXPECT_DOUBLE_EQ(plan.totalReadBytes, plan.uniqueBytes);
}

TEST(Reshape, ExpertsGatheredFromTheirEpRanks)
{
    const auto c = model::loadPreset("mixtral-8x7b");
    // dp=2, ep=2 (expert-DP 1), ZeRO-0 -> one rank. Old rank dp0 holds dense + experts 0-3, dp1 experts 4-7.
    const auto plan = planReshape(c, layout(1, 1, 2, 2, 0), layout(1, 1, 1, 1, 0), {});
    ASSERT_EQ(plan.ranks.size(), 1u);
    const auto& r = plan.ranks[0];
    double dense = 0, experts0 = 0, experts1 = 0;
    for (const auto& s : r.reads) {
        if (s.part == "dense") {
            EXPECT_EQ(s.from.dp, 0);
            dense += s.bytes;
        } else {
            (s.from.dp == 0 ? experts0 : experts1) += s.bytes;
        }
    }
    EXPECT_DOUBLE_EQ(dense, 14 * kMixtralDense);
    EXPECT_DOUBLE_EQ(experts0, 14 * kMixtralExperts / 2);
    EXPECT_DOUBLE_EQ(experts1, 14 * kMixtralExperts / 2);
    EXPECT_EQ(r.reads.size(), 6u);
}

TEST(Reshape, TimesFromStorageAndNetwork)
{
    const auto c = model::loadPreset("llama-3-8b");
    ReshapeInputs in;
    in.storage.readAggregateGBs = 14 * kLlama / 1e9; // the whole checkpoint in 1 s
    in.networkGBs = 7 * kLlama / 1e9;
    const auto plan = planReshape(c, layout(1, 1, 1, 1, 0), layout(1, 1, 2, 1, 0), in);
    // Two replicas each read the whole checkpoint: 2 s through storage; read once (1 s) and send
    // each rank its 14P bytes at 7P/s (2 s): 3 s.
    EXPECT_DOUBLE_EQ(plan.storageReadS, 2);
    EXPECT_DOUBLE_EQ(plan.readOnceScatterS, 3);
    EXPECT_THROW(planReshape(c, layout(1, 1, 1, 1, 0), layout(1, 1, 3, 2, 0), in), std::invalid_argument);
}
