// Memory (ZeRO, Korthikanti activations, KV cache), GEMM lists, training-step communication,
// collective time sources and calibration from a workspace, inference estimates.
#include <cmath>
#include <cstdio>
#include <filesystem>

#include <gtest/gtest.h>

#include "model/collectivetimesource.h"
#include "model/gemmlist.h"
#include "model/inference.h"
#include "model/memorymodel.h"
#include "model/storecalibration.h"
#include "model/trainingstep.h"
#include "store/workspace.h"
#include "tempdir.h"

using namespace rl;
using namespace rl::model;

namespace {
// A test-only MI300X: AMD CDNA3 white paper figures (dense bf16, HBM3, 304 CUs, 8 GPUs per node).
DeviceRates mi300x()
{
    HardwareProfile hw;
    hw.id = "test-mi300x";
    hw.peakTflops["bf16"] = {1307.4, "AMD CDNA3 white paper"};
    hw.hbmBandwidthGBs = {5300, "AMD"};
    hw.hbmCapacityGB = {192, "AMD"};
    hw.computeUnits = {304, "AMD"};
    hw.intraNodeLinkGBs = {448, "7 x 64 GB/s xGMI"};
    hw.nicGBsPerGpu = {50, "400 Gb/s NIC per GPU"};
    return deviceRates(hw, "bf16");
}
} // namespace

// ZeRO paper (Rajbhandari et al. 2020), Figure 1: 7.5B parameters, Nd = 64, K = 12, fp16 mixed
// precision (16-bit gradients; Megatron's bf16 default keeps fp32 main grads, test_model_framework).
TEST(ModelMemory, ZeroStagesMatchThePaper)
{
    ModelConfig c = loadPreset("llama-3-8b");
    ParamCounts p;
    p.attention = 7.5e9;
    ParallelConfig par;
    par.dp = 64;
    par.dtype = "fp16";
    const double expected[4] = {120e9, 31.4e9, 16.6e9, 1.88e9};
    for (int stage = 0; stage <= 3; ++stage) {
        par.zeroStage = stage;
        const auto m = trainingMemory(c, p, par);
        EXPECT_NEAR(m.weights + m.gradients + m.optimizer, expected[stage], 0.05e9) << "stage " << stage;
    }
    par.zeroStage = 0;
    const auto m = trainingMemory(c, p, par);
    EXPECT_DOUBLE_EQ((m.weights + m.gradients + m.optimizer) / 7.5e9, 16.0); // 2 + 2 + 12 bytes/param
}

TEST(ModelMemory, ExpertsShardOverEpAndTheirOwnDpGroup)
{
    const auto c = loadPreset("mixtral-8x7b");
    const auto p = countParams(c);
    ParallelConfig par;
    par.dp = 8;
    par.ep = 8;
    par.zeroStage = 1;
    const auto m = trainingMemory(c, p, par);
    EXPECT_DOUBLE_EQ(m.params, p.denseTotal() + p.experts / 8);
    EXPECT_DOUBLE_EQ(m.optimizer, 12 * (p.denseTotal() / 8 + p.experts / 8)); // expert DP group = 1
}

TEST(ModelMemory, KorthikantiActivationFormulas)
{
    ModelConfig c;
    c.layers = 96;
    c.dModel = 12288;
    c.heads = 96;
    c.kvHeads = 96;
    c.headDim = 128;
    c.mlp = MlpType::Gelu;
    c.mlpWidth = 4 * 12288;
    c.vocab = 51200;
    ParallelConfig p;
    p.seqLen = 2048;
    p.flashAttention = false;
    p.dropout = true; // the paper's GPT-3: its 34 holds two 1-byte dropout masks
    const double s = 2048, b = 1, h = 12288, a = 96, t = 8;
    const double sbh = s * b * h;
    EXPECT_DOUBLE_EQ(activationBytesPerLayer(c, p, false), sbh * (34 + 5 * a * s / h));
    p.tp = 8;
    EXPECT_DOUBLE_EQ(activationBytesPerLayer(c, p, false), sbh * (10 + 24 / t + 5 * a * s / (h * t)));
    p.sequenceParallel = true;
    EXPECT_DOUBLE_EQ(activationBytesPerLayer(c, p, false), sbh / t * (34 + 5 * a * s / h));
    p.recompute = Recompute::Selective;
    EXPECT_DOUBLE_EQ(activationBytesPerLayer(c, p, false), sbh / t * 34);
    p.recompute = Recompute::Full;
    EXPECT_DOUBLE_EQ(activationBytesPerLayer(c, p, false), 2 * sbh / t);
}

// The paper's 34 taken apart, each term at the layer's own width (by hand, bytes per token per
// residual channel): Llama 3 8B (h 4096, 32 heads and 8 KV heads of 128, SwiGLU 14336), flash
// attention, no dropout: norms 2 x 2 + QKV input 2 + MLP input 2 = 8 kept whole without SP;
// Q 2 + K 0.5 + V 0.5 + attention output 2 = 5, gate, up and product 6 x 14336 / 4096 = 21, split.
TEST(ModelMemory, ActivationsAtTheLayersOwnWidths)
{
    const auto c = loadPreset("llama-3-8b");
    ParallelConfig p;
    p.seqLen = 4096;
    const double sbh = 4096.0 * 1 * 4096;
    EXPECT_DOUBLE_EQ(activationBytesPerLayer(c, p, false), sbh * (8 + 5 + 21)); // 34: GQA and no masks
    p.dropout = true;
    EXPECT_DOUBLE_EQ(activationBytesPerLayer(c, p, false), sbh * (10 + 5 + 21));
    p.dropout = false;
    p.tp = 4;
    EXPECT_DOUBLE_EQ(activationBytesPerLayer(c, p, false), sbh * (8 + 26.0 / 4));
    p.sequenceParallel = true;
    EXPECT_DOUBLE_EQ(activationBytesPerLayer(c, p, false), sbh / 4 * 34);
    // Mixtral's MoE layer: top-2 of SwiGLU experts 14336 wide: the intermediates of both.
    const auto moe = loadPreset("mixtral-8x7b");
    p = ParallelConfig{};
    p.seqLen = 4096;
    EXPECT_DOUBLE_EQ(activationBytesPerLayer(moe, p, true), sbh * (8 + 5 + 2 * 21));
}

// An FP8 run keeps the four GEMM inputs of a layer in 1 byte (Transformer Engine saves them
// quantized, column-wise only): Llama 3 8B, by hand: norms 2 x 2 + QKV input 1 + MLP input 1 = 6;
// Q 2 + K 0.5 + V 0.5 + attention output 1 = 4; gate 7 + up 7 + product 3.5 = 17.5 (of 21).
TEST(ModelMemory, AnFp8RunKeepsItsGemmInputsInOneByte)
{
    const auto c = loadPreset("llama-3-8b");
    ParallelConfig p;
    p.seqLen = 4096;
    p.dtype = "fp8";
    const double sbh = 4096.0 * 1 * 4096;
    EXPECT_DOUBLE_EQ(activationBytesPerLayer(c, p, false), sbh * (6 + 4 + 17.5));
    p.tp = 4;
    p.sequenceParallel = true;
    EXPECT_DOUBLE_EQ(activationBytesPerLayer(c, p, false), sbh / 4 * 27.5);
    // Full recompute keeps each layer's 16-bit input, whatever the GEMMs run in.
    p.recompute = Recompute::Full;
    EXPECT_DOUBLE_EQ(activationBytesPerLayer(c, p, false), 2 * sbh / 4);
}

TEST(ModelMemory, KvCacheGqaMlaAndSlidingWindow)
{
    EXPECT_DOUBLE_EQ(kvCacheBytes(loadPreset("llama-3-8b"), 1), 128 * 1024); // 2·8·128·2 B·32 layers
    EXPECT_DOUBLE_EQ(kvCacheBytes(loadPreset("deepseek-v3"), 1), (512 + 64) * 2 * 61.0);
    const auto g = loadPreset("gemma-3-1b");
    EXPECT_DOUBLE_EQ(kvCacheBytes(g, 4096), 2.0 * 256 * 2 * (4 * 4096 + 22 * 512));
    // CCA caches its compressed K and V: 2 KV heads of 128 (the per-sequence conv state is not per token).
    EXPECT_DOUBLE_EQ(kvCacheBytes(loadPreset("zaya1-base"), 1), 2 * 2 * 128 * 2 * 40.0);
}

TEST(ModelGemms, ShapesOfALlamaLayer)
{
    const auto c = loadPreset("llama-3-8b");
    ParallelConfig p;
    p.tp = 2;
    p.seqLen = 4096;
    GemmSet set;
    layerGemms(c, p, {}, true, set);
    const Gemm& qkv = set.items[0];
    EXPECT_STREQ(qkv.name, "qkv_proj");
    EXPECT_EQ(qkv.m, 4096);
    EXPECT_EQ(qkv.n, 3072); // (32 + 2·8)·128 / 2
    EXPECT_EQ(qkv.k, 4096);
    const Gemm& dgrad = set.items[1];
    EXPECT_EQ(dgrad.pass, GemmPass::Dgrad);
    EXPECT_EQ(dgrad.n, 4096);
    EXPECT_EQ(dgrad.k, 3072);
    const Gemm& wgrad = set.items[2];
    EXPECT_EQ(wgrad.pass, GemmPass::Wgrad);
    EXPECT_EQ(wgrad.m, 4096);
    EXPECT_EQ(wgrad.k, 4096); // the token dimension is reduced
    EXPECT_NEAR(qkv.intensity(2), 2.0 * 4096 * 3072 * 4096 / (2.0 * (4096 * 4096 + 4096 * 3072 + 4096 * 3072)), 1e-9);
}

TEST(ModelGemms, StepGemmFlopsEqualModelFlops)
{
    for (const char* name : {"llama-3-8b", "mixtral-8x7b", "deepseek-v3", "gemma-3-1b", "zaya1-base"}) {
        const auto c = loadPreset(name);
        ParallelConfig p;
        p.dp = 8;
        p.ep = c.isMoe() ? 8 : 1;
        p.microBatches = 3;
        p.seqLen = 4096;
        auto sum = [&] {
            double flops = 0;
            for (const auto& g : stepGemms(c, p))
                flops += g.flops();
            return flops;
        };
        const auto fwd = forwardFlopsPerToken(c, {4096, true});
        const double perRank = 3 * fwd.forward() * 3.0 * 4096;
        EXPECT_NEAR(sum() / perRank, 1.0, 1e-9) << name;
        // With TP the router and MLA's down-projections are replicated, not split.
        p.tp = 2;
        EXPECT_GE(sum() / (perRank / 2), 1.0 - 1e-12) << name;
        EXPECT_LT(sum() / (perRank / 2), 1.03) << name;
    }
}

TEST(ModelGemms, MeasuredEfficiencyInterpolatesAndDrivesTiming)
{
    MeasuredGemmEfficiency eff;
    eff.addPoint(4096, 4096, 4096, 0.8);
    eff.addPoint(1024, 1024, 1024, 0.4);
    EXPECT_DOUBLE_EQ(*eff.efficiency(4096, 4096, 4096), 0.8);
    const double mid = *eff.efficiency(2048, 2048, 2048);
    EXPECT_GT(mid, 0.4);
    EXPECT_LT(mid, 0.8);
    EXPECT_NEAR(mid, 0.6, 1e-9); // equidistant in log space
    const auto r = mi300x();
    const Gemm g{"x", 4096, 4096, 4096};
    GemmTiming def;
    def.defaultEfficiency = 0.4;
    GemmTiming meas;
    meas.measured = &eff;
    EXPECT_NEAR(gemmSeconds(g, r, def) / gemmSeconds(g, r, meas), 2.0, 1e-9);
    const Gemm skinny{"decode", 1, 4096, 4096}; // memory-bound: bytes over HBM
    EXPECT_DOUBLE_EQ(gemmSeconds(skinny, r, def), 2.0 * (4096 + 4096.0 * 4096 + 4096) / 5300e9);
}

TEST(ModelStep, CommunicationByParallelism)
{
    const auto r = mi300x();
    ProfileCollectiveTime coll(r);
    const auto c = loadPreset("mixtral-8x7b");
    const auto params = countParams(c);
    const auto fwd = forwardFlopsPerToken(c, {4096, true});
    ParallelConfig p;
    p.dp = 8;
    p.tp = 2;
    p.pp = 4;
    p.ep = 8;
    p.microBatches = 16;
    p.zeroStage = 1;
    const auto e = estimateStep(c, params, fwd, p, r, {}, coll);
    auto find = [&e](const std::string& what) -> const CommOp* {
        for (int i = 0; i < e.commCount; ++i)
            if (what == e.comm[i].what)
                return &e.comm[i];
        return nullptr;
    };
    ASSERT_TRUE(find("dp grad reduce_scatter"));
    // Megatron's bf16 default reduces its fp32 main grads: 4 B per parameter.
    EXPECT_DOUBLE_EQ(find("dp grad reduce_scatter")->bytes, params.denseTotal() / 8 * 4);
    ASSERT_TRUE(find("tp all_reduce"));
    EXPECT_DOUBLE_EQ(find("tp all_reduce")->count, 4 * 8 * 16.0); // 4 per layer, 8 layers per stage
    ASSERT_TRUE(find("ep all_to_all"));
    EXPECT_DOUBLE_EQ(find("ep all_to_all")->count, 4 * 8 * 16.0);
    // Each rank dispatches the top-2 copies of its own tokens, 4096 / tp=2 of them (Megatron-Core's
    // all-to-all dispatcher sends the sequence-parallel shard), then the expert-TP group (etp = tp
    // = 2) all-gathers them: 2 gathers and 2 reduce-scatters per MoE layer per micro-batch.
    EXPECT_DOUBLE_EQ(find("ep all_to_all")->bytes, 4096.0 / 2 * 2 * 4096 * 2);
    EXPECT_TRUE(find("ep all_to_all")->crossNode); // tp·ep = 16 > 8 GPUs per node
    ASSERT_TRUE(find("etp all_gather (dispatch)"));
    EXPECT_DOUBLE_EQ(find("etp all_gather (dispatch)")->bytes, 4096.0 * 2 * 4096 * 2); // both ranks' shares
    EXPECT_DOUBLE_EQ(find("etp all_gather (dispatch)")->count, 2 * 8 * 16.0);
    EXPECT_EQ(find("etp all_gather (dispatch)")->ranks, 2);
    EXPECT_FALSE(find("etp all_gather (dispatch)")->crossNode); // adjacent ranks
    ASSERT_TRUE(find("etp reduce_scatter (combine)"));
    EXPECT_DOUBLE_EQ(find("etp reduce_scatter (combine)")->count, 2 * 8 * 16.0);
    ASSERT_TRUE(find("pp send_recv"));
    EXPECT_NEAR(e.bubbleSeconds / e.computeSeconds, 3.0 / 16, 1e-12); // (p-1)/m
    EXPECT_GT(e.mfu, 0.05);
    EXPECT_LT(e.mfu, 0.8); // never above the GEMM ceiling (no max-achievable here: 0.8 of peak)
    EXPECT_NEAR(e.tokensPerSecond * e.stepSeconds, 8.0 * 16 * 4096, 1e-3);

    p.sequenceParallel = true;
    const auto sp = estimateStep(c, params, fwd, p, r, {}, coll);
    bool hasAg = false;
    for (int i = 0; i < sp.commCount; ++i)
        hasAg = hasAg || std::string(sp.comm[i].what) == "tp all_gather (SP)";
    EXPECT_TRUE(hasAg);

    p.overlap = 1.0;
    EXPECT_DOUBLE_EQ(estimateStep(c, params, fwd, p, r, {}, coll).exposedCommSeconds, 0.0);
}

TEST(ModelStep, RecomputeRaisesHfuNotMfuFlops)
{
    const auto r = mi300x();
    ProfileCollectiveTime coll(r);
    const auto c = loadPreset("llama-3-8b");
    const auto params = countParams(c);
    const auto fwd = forwardFlopsPerToken(c, {4096, true});
    ParallelConfig p;
    p.dp = 8;
    const auto none = estimateStep(c, params, fwd, p, r, {}, coll);
    p.recompute = Recompute::Full;
    const auto full = estimateStep(c, params, fwd, p, r, {}, coll);
    EXPECT_GT(full.stepSeconds, none.stepSeconds);
    EXPECT_LT(full.mfu, none.mfu);
    EXPECT_GT(full.hfu, full.mfu);
    EXPECT_NEAR(none.hfu, none.mfu, 1e-12);
}

TEST(ModelCollectives, ProfileAndMeasuredSources)
{
    const auto r = mi300x();
    ProfileCollectiveTime prof(r, 10, 25);
    // all_reduce of 1 GB over 8 GPUs in a node: 2·7/8 · 1e9 B / (0.82 x 448 GB/s) + 10 µs.
    EXPECT_NEAR(prof.timeUs(CollectiveOp::AllReduce, 1e9, 8, false), 10 + 1.75e9 / (0.82 * 448e9) * 1e6, 1e-6);
    // Across 2 nodes of 8, hierarchically: 7/8 of the buffer over the link (2.38 ms at 0.82 x 448
    // GB/s) while each GPU's 1/8 shard's 1/2 crosses its NIC (1.71 ms at 0.73 x 50 GB/s); the
    // slower of the two, here the link, sets the time; the call waits NCCL's ring across the two
    // nodes: 8.4 + 14 x 3.4 + 1 x 14 = 70 µs (over the profile's 25).
    EXPECT_NEAR(ringLatencyUs(16, 8), 70.0, 1e-9);
    EXPECT_NEAR(prof.timeUs(CollectiveOp::AllGather, 1e9, 16, true), 70 + 1e9 * 7 / 8 / (0.82 * 448e9) * 1e6, 1e-6);
    EXPECT_GT(1e9 * 7 / 8 / (0.82 * 448e9), 1e9 / 8 / 2 / (0.73 * 50e9));
    // send_recv across nodes goes through the GPU's own NIC.
    EXPECT_NEAR(prof.timeUs(CollectiveOp::SendRecv, 1e9, 2, true), 25 + 1e9 / (0.73 * 50e9) * 1e6, 1e-6);
    EXPECT_EQ(prof.timeUs(CollectiveOp::AllReduce, 1e9, 1, false), 0);
    MeasuredCollectiveTime meas(&prof);
    fits::AlphaBeta ab;
    ab.alphaUs = 100;
    ab.betaGBs = 10;
    meas.addFit(CollectiveOp::AllReduce, 8, ab);
    EXPECT_DOUBLE_EQ(meas.timeUs(CollectiveOp::AllReduce, 1e9, 8, false), 100 + 1e9 / 1e4);
    EXPECT_TRUE(meas.isMeasured(CollectiveOp::AllReduce, 8));
    EXPECT_DOUBLE_EQ(meas.timeUs(CollectiveOp::AllReduce, 1e9, 16, false), prof.timeUs(CollectiveOp::AllReduce, 1e9, 16, false));
}

TEST(ModelCollectives, StoreCalibrationFitsCollectiveSessions)
{
    test::TempDir dir;
    const auto path = (dir.path / "calibration.db").string();
    {
        store::Workspace ws(path);
        Session s;
        s.title = "all_reduce 8 ranks";
        const auto id = ws.createSession(s);
        for (std::int64_t bytes = 1 << 10; bytes <= (1 << 28); bytes *= 4) {
            CollectivePoint p;
            p.op = "all_reduce";
            p.nranks = 8;
            p.dtype = "float32";
            p.bytes = bytes;
            p.count = bytes / 4;
            p.timeUs = 20 + double(bytes) / 50e3; // alpha 20 µs, beta 50 GB/s
            p.algbwGBs = double(bytes) / p.timeUs / 1e3;
            ws.addCollectivePoint(id, p);
        }
        StoreCalibration cal(ws);
        EXPECT_EQ(cal.fitCount(), 1u);
        auto src = cal.collectiveSource(nullptr);
        EXPECT_TRUE(src->isMeasured(CollectiveOp::AllReduce, 8));
        EXPECT_NEAR(src->timeUs(CollectiveOp::AllReduce, 1e8, 8, false), 20 + 1e8 / 50e3, 1.0);
        EXPECT_EQ(src->timeUs(CollectiveOp::AllGather, 1e8, 8, false), 0); // no fit, no fallback
    }
}

// The MoE dispatch is timed by the measured all_to_allv at the routing's imbalance when one is
// stored, by the balanced all_to_all when asked for imbalance 1 (or nearer it), else the profile.
TEST(ModelCollectives, MoeDispatchUsesTheMeasuredAllToAllvAtTheMatchingImbalance)
{
    test::TempDir dir;
    const auto path = (dir.path / "alltoallv.db").string();
    {
        store::Workspace ws(path);
        // alpha, beta (GB/s) and imbalance of three stored runs over 8 ranks.
        struct Run { const char* op; double alphaUs, betaGBs, imbalance; };
        for (const Run& run : {Run{"all_to_all", 30, 40, 0}, Run{"all_to_allv", 35, 25, 1.5}, Run{"all_to_allv", 40, 15, 2.5}}) {
            Session s;
            s.title = run.op;
            const auto id = ws.createSession(s);
            for (std::int64_t bytes = 1 << 12; bytes <= (1 << 28); bytes *= 4) {
                CollectivePoint p;
                p.op = run.op;
                p.nranks = 8;
                p.dtype = "bfloat16";
                p.bytes = bytes;
                p.count = bytes / 2;
                p.timeUs = run.alphaUs + double(bytes) / (run.betaGBs * 1e3);
                p.algbwGBs = double(bytes) / p.timeUs / 1e3;
                p.imbalance = run.imbalance;
                ws.addCollectivePoint(id, p);
            }
        }
        const auto r = mi300x();
        ProfileCollectiveTime prof(r);
        StoreCalibration cal(ws);
        EXPECT_EQ(cal.fitCount(), 3u);
        auto src = cal.collectiveSource(&prof);
        const double bytes = 64e6;
        // Unset: the newest measured routing (imbalance 2.5).
        EXPECT_DOUBLE_EQ(src->routedImbalance(8), 2.5);
        EXPECT_NEAR(src->timeUs(CollectiveOp::AllToAll, bytes, 8, false), 40 + bytes / 15e3, 0.01 * (40 + bytes / 15e3));
        src->setAllToAllImbalance(1.6);
        EXPECT_DOUBLE_EQ(src->routedImbalance(8), 1.5);
        EXPECT_NEAR(src->timeUs(CollectiveOp::AllToAll, bytes, 8, false), 35 + bytes / 25e3, 0.01 * (35 + bytes / 25e3));
        src->setAllToAllImbalance(1.1); // nearer balanced: the all_to_all fit
        EXPECT_DOUBLE_EQ(src->routedImbalance(8), 0);
        EXPECT_NEAR(src->timeUs(CollectiveOp::AllToAll, bytes, 8, false), 30 + bytes / 40e3, 0.01 * (30 + bytes / 40e3));
        // 16 ranks: nothing measured, the profile.
        EXPECT_DOUBLE_EQ(src->timeUs(CollectiveOp::AllToAll, bytes, 16, true), prof.timeUs(CollectiveOp::AllToAll, bytes, 16, true));

        // The step of an MoE with EP 8 says which curve timed its dispatch.
        src->setAllToAllImbalance(1.5);
        const auto c = loadPreset("mixtral-8x7b");
        ParallelConfig p;
        p.dp = 8;
        p.ep = 8;
        p.tp = 1;
        const auto e = estimateStep(c, countParams(c), forwardFlopsPerToken(c, {4096, true}), p, r, {}, *src);
        const CommOp* ep = nullptr;
        for (int i = 0; i < e.commCount; ++i)
            if (std::string(e.comm[i].what) == "ep all_to_all")
                ep = &e.comm[i];
        ASSERT_TRUE(ep);
        EXPECT_TRUE(ep->measured);
        EXPECT_DOUBLE_EQ(ep->routedImbalance, 1.5);
        EXPECT_NEAR(ep->timeUs, 35 + ep->bytes / 25e3, 0.01 * (35 + ep->bytes / 25e3));
    }
}

TEST(ModelInference, DecodeIsMemoryBoundAtBatchOne)
{
    const auto r = mi300x();
    const auto c = loadPreset("llama-3-8b");
    const auto p = countParams(c);
    InferenceOptions o;
    o.contextTokens = 2048;
    const auto d = decodeStep(c, p, o, r, {});
    EXPECT_TRUE(d.memoryBound());
    const double bytes = (p.total() - p.embedding) * 2 + 4096 * 2 + 2048.0 * 128 * 1024;
    EXPECT_NEAR(d.secondsPerToken, bytes / 5300e9, 1e-12);
    o.batch = 4096; // a short context, so weights and KV are read once for many tokens
    o.contextTokens = 128;
    EXPECT_FALSE(decodeStep(c, p, o, r, {}).memoryBound());
    EXPECT_GT(prefillSeconds(c, o, r, {}), 0);
}

TEST(ModelInference, DistinctExpertsFormula)
{
    EXPECT_DOUBLE_EQ(expectedDistinctExperts(8, 2, 1), 2);
    EXPECT_DOUBLE_EQ(expectedDistinctExperts(8, 2, 0), 0);
    EXPECT_NEAR(expectedDistinctExperts(256, 8, 32), 256 * (1 - std::pow(1 - 8.0 / 256, 32)), 1e-9);
    EXPECT_NEAR(expectedDistinctExperts(256, 8, 32), 163.31, 0.01);
    EXPECT_NEAR(expectedDistinctExperts(64, 8, 10000), 64, 1e-9);
    const auto r = mi300x();
    const auto c = loadPreset("deepseek-v3");
    const auto p = countParams(c);
    InferenceOptions o;
    o.tp = 8;
    o.batch = 32;
    const auto d = decodeStep(c, p, o, r, {});
    EXPECT_NEAR(d.distinctExperts, 163.31, 0.01);
}
