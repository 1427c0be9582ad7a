// The sizing model's mechanisms, each against a hand-computed case: GEMM efficiency by shape and
// the max-achievable cap, FP8 with BF16 attention, interleaved 1F1B, uneven pipeline stages,
// expert folding over TP x CP x DP, recompute/SP communication, element-wise traffic, DP overlap,
// memory fit, and GPT-2 / NeoX config keys.
#include <cmath>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "model/attentionkernel.h"
#include "model/gemmlist.h"
#include "model/hardwareprofileloader.h"
#include "model/memorymodel.h"
#include "model/sizingreport.h"
#include "model/trainingstep.h"

using namespace rl;
using namespace rl::model;

namespace {
DeviceRates shipped(const char* id, const char* dtype = "bf16") { return deviceRates(findHardwareProfile(id), dtype); }

// The step's collective named `what` (nullptr when it has none).
const CommOp* commNamed(const StepEstimate& e, const char* what)
{
    for (int i = 0; i < e.commCount; ++i)
        if (std::string(e.comm[i].what) == what)
            return &e.comm[i];
    return nullptr;
}
// The step on the shipped H100 profile, uncalibrated (GEMMs by shape, collectives from the profile).
StepEstimate h100Step(const ModelConfig& c, const ParallelConfig& p)
{
    const auto r = shipped("h100-sxm");
    ProfileCollectiveTime coll(r);
    return evaluateSizing(c, p, r, GemmTiming{}, coll, InferenceOptions{}).step;
}

double callsOf(const StepEstimate& e, const char* what)
{
    const CommOp* o = commNamed(e, what);
    return o ? o->count : 0.0;
}

// A Megatron GPT layer shape (the validation table's 1.7B model).
ModelConfig gpt(int h, int a, int layers)
{
    ModelConfig c;
    c.name = "gpt";
    c.layers = layers;
    c.dModel = h;
    c.heads = a;
    c.kvHeads = a;
    c.headDim = h / a;
    c.mlp = MlpType::Gelu;
    c.mlpWidth = 4 * h;
    c.vocab = 51200;
    c.tiedEmbeddings = true;
    c.linearBias = true;
    c.normBias = true;
    c.positionEmbeddings = 2048;
    return c;
}
} // namespace

TEST(GemmShape, EfficiencyIsCeilingTimesQuantisationTimesSmallK)
{
    // 4096^3 on H100 (132 SMs): 256x128 tiles -> 16 x 32 = 512 tiles in 4 waves of 132 = 0.9697;
    // small K: (4096/4192) / (8192/8288); ceiling 794.5 / 989.4 (mamf-finder).
    const auto e = gemmShapeEfficiency(4096, 4096, 4096, 1, 132, 794.5 / 989.4);
    EXPECT_NEAR(e.quantization, 512.0 / 528, 1e-12);
    EXPECT_EQ(e.tileM, 256);
    EXPECT_NEAR(e.smallK, (4096.0 / 4192) / (8192.0 / 8288), 1e-12);
    EXPECT_NEAR(e.efficiency(), 794.5 / 989.4 * 512.0 / 528 * (4096.0 / 4192) / (8192.0 / 8288), 1e-12);
    // One partial wave: 2 x 2 tiles of 256x128 on 132 SMs is 4/132 busy; 64x128 tiles give 8 x 2 = 16
    // tiles of 0.8 reuse, better.
    const auto small = gemmShapeEfficiency(512, 256, 4096, 1, 132, 1);
    EXPECT_EQ(small.tileM, 64);
    EXPECT_NEAR(small.quantization, 16.0 / 132 * 0.8, 1e-12);
    // A batch of independent GEMMs fills the machine: 132 of them, one tile each, is one full wave.
    EXPECT_NEAR(gemmShapeEfficiency(256, 128, 8192, 132, 132, 1).quantization, 1.0, 1e-12);
    // Attention-score GEMMs with K = head_dim 64 pay the prologue: 64/160 over 8192/8288.
    EXPECT_NEAR(gemmShapeEfficiency(2048, 2048, 64, 64, 132, 1).smallK, (64.0 / 160) / (8192.0 / 8288), 1e-12);
}

TEST(GemmShape, NoGemmRunsAboveMaxAchievable)
{
    const auto r = shipped("mi300x");
    EXPECT_DOUBLE_EQ(r.maxAchievableFlops, 708e12);
    const Gemm g{"big", 8192, 8192, 8192};
    GemmTiming flat;
    flat.defaultEfficiency = 0.95; // 0.95 x 1307.4 = 1242 TFLOP/s asked for, 708 allowed
    EXPECT_NEAR(gemmSeconds(g, r, flat), 2.0 * 8192 * 8192 * 8192 / 708e12, 1e-15);
    GemmTiming byShape;
    EXPECT_GE(gemmSeconds(g, r, byShape), 2.0 * 8192 * 8192 * 8192 / 708e12 * (1 - 1e-12));
    // The step's rate never passes the cap either (mixtral-8x7b dp=8,ep=8 on MI300X: 828 TFLOP/s before).
    const auto c = loadPreset("mixtral-8x7b");
    const auto p = parallelLayout(c, "dp=8,ep=8", ParallelConfig{});
    ProfileCollectiveTime coll(r);
    const auto rep = evaluateSizing(c, p, r, GemmTiming{}, coll, InferenceOptions{});
    EXPECT_LT(rep.step.hfu * r.peakFlops, 708e12);
    EXPECT_LT(rep.step.mfuMaxAchievable, 1.0);
    EXPECT_NE(rep.step.mfu, rep.step.mfuMaxAchievable); // two different denominators now
}

TEST(GemmShape, Fp8RecipeKeepsAttentionInBf16)
{
    const auto r8 = shipped("h100-sxm", "fp8");
    EXPECT_DOUBLE_EQ(r8.maxAchievableFlops, 1402.6e12);
    EXPECT_DOUBLE_EQ(r8.bf16MaxAchievableFlops, 794.5e12);
    GemmTiming t;
    t.defaultEfficiency = 1; // straight at the caps
    t.elemBytes = 1;
    const Gemm proj{"qkv_proj", 8192, 8192, 8192};
    Gemm scores{"attn_qk", 8192, 8192, 8192};
    scores.bf16Only = true;
    EXPECT_NEAR(gemmSeconds(proj, r8, t), 2.0 * 8192 * 8192 * 8192 / 1402.6e12, 1e-15);
    EXPECT_NEAR(gemmSeconds(scores, r8, t), 2.0 * 8192 * 8192 * 8192 / 794.5e12, 1e-15);
    // A whole FP8 step is faster than BF16, but far from twice: attention stays BF16.
    const auto c = loadPreset("llama-3-8b");
    const auto p = parallelLayout(c, "dp=8", ParallelConfig{});
    const auto r16 = shipped("h100-sxm");
    ProfileCollectiveTime c8(r8), c16(r16);
    GemmTiming t8;
    t8.elemBytes = 1;
    const auto fp8 = evaluateSizing(c, p, r8, t8, c8, InferenceOptions{}).step;
    const auto bf16 = evaluateSizing(c, p, r16, GemmTiming{}, c16, InferenceOptions{}).step;
    EXPECT_LT(fp8.stepSeconds, bf16.stepSeconds);
    EXPECT_GT(fp8.stepSeconds, bf16.stepSeconds / 2); // attention, element-wise work and comm do not halve
}

TEST(AttentionKernel, RateInterpolatesInLogSequenceAndClampsAtTheEnds)
{
    AttentionKernelRates k;
    k.forward = {{512, 100}, {2048, 300}};
    k.forwardCausal = {{512, 50}, {2048, 150}};
    k.backward = {{512, 80}, {2048, 80}};
    EXPECT_NEAR(attentionKernelFlops(k, 1024, false, false), 200e12, 1); // halfway between 512 and 2048 in log2
    EXPECT_NEAR(attentionKernelFlops(k, 256, false, false), 100e12, 1);  // below the first point: its rate
    EXPECT_NEAR(attentionKernelFlops(k, 8192, false, false), 300e12, 1); // above the last: its rate
    EXPECT_NEAR(attentionKernelFlops(k, 1024, true, false), 100e12, 1);
    // Causal backward: the backward at the forward's causal share, 80 x 100/200.
    EXPECT_NEAR(attentionKernelFlops(k, 1024, true, true), 40e12, 1);
}

TEST(AttentionKernel, TimesTheAttentionAtTheKernelsRatesAndNothingElse)
{
    // One GPU, no communication: the step moves by exactly the attention's FLOPs over the rates, the
    // forward at the forward rate, the backward's 2.5x (four matmuls and the recomputed QK^T) at the
    // backward rate.
    const auto c = gpt(4096, 32, 4); // head dim 128, the kernels' measured one
    auto p = parallelLayout(c, "dp=1", ParallelConfig{});
    p.seqLen = 4096;
    p.microBatches = 2;
    const auto flat = [](double fwd, double bwd) {
        AttentionKernelRates k;
        k.name = "flat";
        k.forward = {{512, fwd}};
        k.backward = {{512, bwd}};
        return std::make_shared<const AttentionKernel>(AttentionKernel{k});
    };
    const auto stepWith = [&](const ModelConfig& m, std::shared_ptr<const AttentionKernel> k) {
        auto r = shipped("h100-sxm");
        r.attentionKernel = std::move(k);
        ProfileCollectiveTime coll(r);
        return evaluateSizing(m, p, r, GemmTiming{}, coll, InferenceOptions{}).step;
    };
    const auto slow = stepWith(c, flat(100, 50)), fast = stepWith(c, flat(400, 200));
    GemmSet set;
    layerGemms(c, p, LayerKind{}, false, set);
    double forwardFlops = 0; // one layer, one micro-batch
    for (const auto& g : set)
        if (std::string_view(g.name) == "attn_qk" || std::string_view(g.name) == "attn_av")
            forwardFlops += g.flops();
    const double perLayer = forwardFlops / 100e12 + 2.5 * forwardFlops / 50e12 - forwardFlops / 400e12 -
                            2.5 * forwardFlops / 200e12;
    EXPECT_NEAR(slow.computeSeconds - fast.computeSeconds, c.layers * p.effectiveMicroBatches() * perLayer,
                1e-9 * slow.computeSeconds);
    // Head dim 64 was not measured: timed by shape, as without a kernel, and the basis says why.
    const auto c64 = gpt(4096, 64, 4);
    EXPECT_DOUBLE_EQ(stepWith(c64, flat(100, 50)).computeSeconds, stepWith(c64, nullptr).computeSeconds);
    auto r = shipped("h100-sxm");
    r.attentionKernel = flat(100, 50);
    EXPECT_EQ(attentionBasis(r, c64, p), "fused, timed as GEMMs by shape: flat was measured at head dim 128, this model's is 64");
    EXPECT_EQ(attentionKernelFor(r, c, p), &r.attentionKernel->front());
    // A kernel measured at head dims 64 and 128 times each model with its own head dim's rates.
    auto both = *r.attentionKernel;
    both.insert(both.begin(), both.front());
    both.front().headDim = 64;
    both.front().forward = {{512, 400}};
    r.attentionKernel = std::make_shared<const AttentionKernel>(both);
    ASSERT_NE(attentionKernelFor(r, c64, p), nullptr);
    EXPECT_EQ(attentionKernelFor(r, c64, p)->headDim, 64);
    EXPECT_EQ(attentionKernelFor(r, c, p)->headDim, 128);
    EXPECT_EQ(attentionSummary(r, c64, p), "flat, measured at head dim 64");
    EXPECT_EQ(attentionBasis(r, gpt(4096, 16, 4), p), // head dim 256
              "fused, timed as GEMMs by shape: flat was measured at head dims 64 and 128, this model's is 256");
    p.flashAttention = false; // unfused attention is never the fused kernel's
    EXPECT_EQ(attentionKernelFor(r, c, p), nullptr);
}

TEST(Fp8, WeightsAreCastOncePerStepInputsEveryMicroBatch)
{
    // compute(m micro-batches) = m x (per micro-batch) + W, W the weight casts: Transformer Engine
    // keeps the FP8 weights from the first micro-batch. W = layers x 3 B (read 2, write 1) x the
    // FP8 GEMMs' weights (QKV 3d², out d², MLP 8d²) over the element-wise bandwidth.
    const auto c = gpt(4096, 32, 4);
    auto p = parallelLayout(c, "dp=1", ParallelConfig{});
    const auto r8 = shipped("h100-sxm", "fp8");
    ProfileCollectiveTime coll(r8);
    GemmTiming t8;
    t8.elemBytes = 1;
    p.microBatches = 1;
    const double one = evaluateSizing(c, p, r8, t8, coll, InferenceOptions{}).step.computeSeconds;
    p.microBatches = 4;
    const double four = evaluateSizing(c, p, r8, t8, coll, InferenceOptions{}).step.computeSeconds;
    const double d = c.dModel;
    const double weights = c.layers * 3.0 * 12 * d * d / (r8.hbmBytesPerSec * kElementwiseEfficiency);
    EXPECT_NEAR((4 * one - four) / 3, weights, 1e-9 * four);
}

TEST(Pipeline, InterleavedBubbleIsPMinusOneOverVM)
{
    const auto r = shipped("h100-sxm");
    ProfileCollectiveTime coll(r);
    const auto c = gpt(4096, 32, 32);
    const auto params = countParams(c);
    const auto fwd = forwardFlopsPerToken(c, {2048, true});
    ParallelConfig p;
    p.pp = 4;
    p.seqLen = 2048;
    p.microBatches = 8;
    const auto plain = estimateStep(c, params, fwd, p, r, {}, coll);
    p.vpp = 2;
    const auto inter = estimateStep(c, params, fwd, p, r, {}, coll);
    // The LM head makes the last stage the busiest; the bubble is (p-1)/(v·m) of the compute.
    EXPECT_NEAR(plain.bubbleSeconds / plain.computeSeconds, 3.0 / 8, 1e-12);
    EXPECT_NEAR(inter.bubbleSeconds / inter.computeSeconds, 3.0 / 16, 1e-12);
    EXPECT_NEAR(inter.computeSeconds, plain.computeSeconds, 1e-12);
    // Interleaving sends vpp times as many activations between stages.
    EXPECT_DOUBLE_EQ(callsOf(plain, "pp send_recv"), 16);
    EXPECT_DOUBLE_EQ(callsOf(inter, "pp send_recv"), 32);
}

TEST(Pipeline, UnevenStagesAreAcceptedAndTheBusiestStageSetsTheTime)
{
    // Llama-3.1-405B: 126 layers over pp=8 (refused before): the busiest stage holds ceil(126/8) = 16.
    auto c = loadPreset("llama-3-8b");
    c.layers = 126;
    ParallelConfig p = parallelLayout(c, "dp=1,tp=8,pp=8", ParallelConfig{});
    EXPECT_DOUBLE_EQ(stageLayers(c, p), 16);
    // Megatron's --decoder-first/last-pipeline-num-layers 15 and 15: the other 6 stages hold 16.
    p.firstStageLayers = 15;
    p.lastStageLayers = 15;
    EXPECT_EQ(checkParallel(c, p), "");
    EXPECT_DOUBLE_EQ(stageLayers(c, p), 16);
    EXPECT_DOUBLE_EQ(firstStageLayers(c, p), 15);
    p.firstStageLayers = 14; // leaves 97 for 6 stages
    EXPECT_NE(checkParallel(c, p).find("do not split evenly"), std::string::npos);
    // 32 layers over 3 stages: 11 on the busiest; over 40 stages: refused.
    const auto l8 = loadPreset("llama-3-8b");
    EXPECT_DOUBLE_EQ(stageLayers(l8, parallelLayout(l8, "pp=3", ParallelConfig{})), 11);
    EXPECT_THROW(parallelLayout(l8, "pp=40", ParallelConfig{}), std::invalid_argument);
}

TEST(Experts, EpFoldsOverTensorContextAndDataRanks)
{
    const auto c = loadPreset("deepseek-v3");
    // ep=32 over dp=16 was refused; with tp=8 the 128 ranks of a stage regroup as etp=1 x ep=32 x 4.
    ParallelConfig p = parallelLayout(c, "dp=16,tp=8,ep=32,etp=1", ParallelConfig{});
    EXPECT_EQ(p.expertTensorParallel(), 1);
    EXPECT_EQ(p.expertDataParallel(), 4);
    EXPECT_THROW(parallelLayout(c, "dp=16,tp=8,ep=32", ParallelConfig{}), std::invalid_argument); // etp=tp=8: 256 > 128
    EXPECT_NO_THROW(parallelLayout(c, "dp=32,tp=8,ep=32", ParallelConfig{}));
    // With etp=1 each rank brings its T/tp sequence-parallel tokens and holds whole experts.
    GemmSet set;
    p.seqLen = 4096;
    layerGemms(c, p, {true, false}, false, set);
    const Gemm* up = nullptr;
    for (const auto& g : set)
        if (std::string(g.name) == "expert_gate_up")
            up = &g;
    ASSERT_TRUE(up);
    EXPECT_DOUBLE_EQ(up->m, 4096.0 / 8 * 32 * 8 / 256); // T/tp · ep·k/E
    EXPECT_DOUBLE_EQ(up->n, 2.0 * 2048);
    EXPECT_DOUBLE_EQ(up->batch, 256 / 32);
}

TEST(Step, SelectiveRecomputeWithSpRegathersOncePerLayer)
{
    const auto r = shipped("a100-80gb");
    ProfileCollectiveTime coll(r);
    const auto c = gpt(6144, 64, 48);
    ParallelConfig p;
    p.tp = 8;
    p.seqLen = 2048;
    p.microBatch = 4;
    p.sequenceParallel = true;
    p.recompute = Recompute::Selective;
    p.flashAttention = false;
    const auto e = estimateStep(c, countParams(c), forwardFlopsPerToken(c, {2048, true}), p, r, {}, coll);
    EXPECT_DOUBLE_EQ(callsOf(e, "tp all_gather (SP)"), 5 * 48.0); // 2 fwd + 2 bwd + 1 re-gather for the recomputed attention
    EXPECT_DOUBLE_EQ(callsOf(e, "tp reduce_scatter (SP)"), 4 * 48.0);
    EXPECT_GT(e.recomputeSeconds, 0);
}

TEST(Step, ElementwiseBytesOfAGptLayer)
{
    // h = 2304, s = 2048, b = 16, a = 24, t = 1, GELU 4h, dropout on, no flash, 2 LayerNorms:
    // norms 2·2·2·T·h, residuals 2·(3·2+1)·T·h, bias-GELU (1+1)·2·T·4h, scores 16·24·2048²·(4+5).
    const auto c = gpt(2304, 24, 24);
    ParallelConfig p;
    p.seqLen = 2048;
    p.microBatch = 16;
    p.dropout = true;
    p.flashAttention = false;
    const double T = 16 * 2048.0, h = 2304;
    const auto e = elementwiseBytesPerLayer(c, p, {});
    EXPECT_DOUBLE_EQ(e.other, 8 * T * h + 14 * T * h + 4 * T * 4 * h);
    EXPECT_DOUBLE_EQ(e.scores, 16 * 24 * 2048.0 * 2048 * 9);
    p.flashAttention = true;
    EXPECT_DOUBLE_EQ(elementwiseBytesPerLayer(c, p, {}).scores, 0);
    // SP splits the norm and residual traffic over TP; the MLP part splits with TP anyway.
    p.tp = 4;
    p.sequenceParallel = true;
    EXPECT_DOUBLE_EQ(elementwiseBytesPerLayer(c, p, {}).other, (22 * T * h + 4 * T * 4 * h) / 4);
}

TEST(Step, DataParallelTrafficHidesBehindBackwardByDefault)
{
    const auto r = shipped("h100-sxm");
    ProfileCollectiveTime coll(r);
    const auto c = loadPreset("llama-3-8b");
    ParallelConfig p = parallelLayout(c, "dp=64", ParallelConfig{});
    p.zeroStage = 1;
    p.microBatches = 8;
    const auto params = countParams(c);
    const auto fwd = forwardFlopsPerToken(c, {4096, true});
    const auto hidden = estimateStep(c, params, fwd, p, r, {}, coll);
    EXPECT_GT(hidden.commSeconds, 0); // 64 GPUs: 8 nodes, the H100 profile's 8 x 400 Gb/s network
    EXPECT_DOUBLE_EQ(hidden.exposedCommSeconds, 0); // fits under one micro-batch's backward
    p.dpOverlap = 0;
    const auto exposed = estimateStep(c, params, fwd, p, r, {}, coll);
    EXPECT_NEAR(exposed.exposedCommSeconds, exposed.commSeconds, 1e-12);
    p.overlap = 0.5; // the old single knob still applies to everything
    EXPECT_NEAR(estimateStep(c, params, fwd, p, r, {}, coll).exposedCommSeconds, exposed.commSeconds / 2, 1e-12);
}

TEST(Step, Zero3GathersTheParametersForEveryMicroBatch)
{
    // FSDP FULL_SHARD / ZeRO-3 frees the gathered weights after use: each micro-batch gathers them
    // for its forward and its backward and reduce-scatters its gradients; ZeRO-1 does each once.
    const auto c = loadPreset("llama-3-8b");
    ParallelConfig p = parallelLayout(c, "dp=64", ParallelConfig{});
    p.microBatches = 8;
    p.zeroStage = 1;
    const auto z1 = h100Step(c, p);
    EXPECT_EQ(callsOf(z1, "dp param all_gather"), 1);
    EXPECT_EQ(callsOf(z1, "dp grad reduce_scatter"), 1);
    p.zeroStage = 3;
    const auto z3 = h100Step(c, p);
    // A layer at a time (one FSDP unit per layer): 32 layers x (2 gathers, 1 reduce-scatter) per
    // micro-batch, each call a layer's share of the bytes.
    EXPECT_EQ(callsOf(z3, "dp param all_gather"), 16 * 32);
    EXPECT_EQ(callsOf(z3, "dp grad reduce_scatter"), 8 * 32);
    const CommOp* gather = nullptr;
    const CommOp* reduce = nullptr;
    for (int i = 0; i < z3.commCount; ++i) {
        gather = std::string(z3.comm[i].what) == "dp param all_gather" ? &z3.comm[i] : gather;
        reduce = std::string(z3.comm[i].what) == "dp grad reduce_scatter" ? &z3.comm[i] : reduce;
    }
    ASSERT_TRUE(gather && reduce);
    for (int i = 0; i < z1.commCount; ++i) {
        if (std::string(z1.comm[i].what) == "dp param all_gather") {
            EXPECT_NEAR(gather->bytes, z1.comm[i].bytes / 32, 1e-6 * gather->bytes);
        }
    }
    // Never hidden: each micro-batch's first forward gather, first backward gather and last
    // reduce-scatter (the rest hides behind a neighbouring layer's compute, shardedschedule.h).
    const double floor = 8 * (2 * gather->timeUs + reduce->timeUs) * 1e-6;
    EXPECT_GE(z3.exposedDpSeconds, floor * (1 - 1e-9));
    EXPECT_LT(z3.exposedDpSeconds, z3.commSeconds);
}

TEST(Memory, EveryPredictionSaysWhetherItFits)
{
    const auto r = shipped("h100-sxm"); // 85.0 GB as CUDA gives it a process, less the framework's reserve
    ProfileCollectiveTime coll(r);
    const auto c = loadPreset("llama-3-8b");
    ParallelConfig p = parallelLayout(c, "dp=8", ParallelConfig{});
    p.zeroStage = 1;
    auto rep = evaluateSizing(c, p, r, GemmTiming{}, coll, InferenceOptions{});
    EXPECT_DOUBLE_EQ(rep.step.memoryCapacity, 85.0175e9); // torch total_memory: 85,017,493,504 B
    EXPECT_EQ(rep.step.fitsMemory(), rep.step.memory.total() <= (85.0175e9 - kFrameworkContextBytes) / (1 + kAllocatorSlack));
    p.zeroStage = 0; // 16 B/param x 8.03B = 128 GB of weights and optimizer alone
    rep = evaluateSizing(c, p, r, GemmTiming{}, coll, InferenceOptions{});
    EXPECT_GT(rep.step.memory.total(), 128e9);
    EXPECT_FALSE(rep.step.fitsMemory());
    // Interleaving keeps (1 + (p-1)/(p·v)) stages' worth of activations on the first stage.
    ParallelConfig q;
    q.pp = 4;
    q.microBatches = 8;
    const double one = trainingMemory(c, countParams(c), q).activations;
    q.vpp = 2;
    EXPECT_NEAR(trainingMemory(c, countParams(c), q).activations / one, 1 + 3.0 / 8, 1e-12);
}

TEST(Config, Gpt2AndNeoXKeys)
{
    // GPT-2 small as published (openai-community/gpt2 config.json): 124.4M parameters.
    const nlohmann::json gpt2 = {{"model_type", "gpt2"}, {"n_embd", 768},      {"n_layer", 12},
                                 {"n_head", 12},         {"n_positions", 1024}, {"n_inner", nullptr},
                                 {"vocab_size", 50257},  {"activation_function", "gelu_new"}};
    const auto g = fromHuggingFace(gpt2, "gpt2.json");
    EXPECT_EQ(g.mlp, MlpType::Gelu);
    EXPECT_EQ(g.mlpWidth, 3072);
    EXPECT_EQ(g.positionEmbeddings, 1024);
    EXPECT_TRUE(g.tiedEmbeddings);
    EXPECT_EQ(g.activation, "gelu_new");
    EXPECT_NEAR(countParams(g).total(), 124439808, 0.5);
    // Pythia-160M (GPT-NeoX): untied, rotary, biased, LayerNorm with bias: 162,322,944 parameters.
    const nlohmann::json neox = {{"model_type", "gpt_neox"}, {"hidden_size", 768}, {"num_hidden_layers", 12},
                                 {"num_attention_heads", 12}, {"intermediate_size", 3072},
                                 {"vocab_size", 50304},       {"hidden_act", "gelu"},
                                 {"max_position_embeddings", 2048}, {"tie_word_embeddings", false}};
    const auto n = fromHuggingFace(neox, "neox.json");
    EXPECT_EQ(n.mlp, MlpType::Gelu);
    EXPECT_EQ(n.positionEmbeddings, 0);
    EXPECT_NEAR(countParams(n).total(), 162322944, 0.5);
    // A "llama" with hidden_act gelu is still gated (HF's LlamaMLP always has gate_proj): GeGLU.
    nlohmann::json llama = {{"model_type", "llama"}, {"hidden_size", 4096}, {"num_hidden_layers", 32},
                            {"num_attention_heads", 32}, {"intermediate_size", 11008}, {"vocab_size", 32000},
                            {"hidden_act", "gelu"}};
    const auto l = fromHuggingFace(llama, "llama.json");
    EXPECT_EQ(l.mlp, MlpType::SwiGlu);
    EXPECT_EQ(l.activation, "gelu");
    // Our own format keeps the new fields.
    const auto back = fromJson(toJson(g), "back");
    EXPECT_EQ(back.positionEmbeddings, 1024);
    EXPECT_TRUE(back.linearBias);
    EXPECT_DOUBLE_EQ(countParams(back).total(), countParams(g).total());
}

TEST(Step, UnfusedGradientAccumulationReadsTheGradientAndReadsAndWritesItsBuffer)
{
    const auto r = shipped("a100-80gb");
    ProfileCollectiveTime coll(r);
    const auto c = gpt(4096, 32, 36);
    ParallelConfig p;
    p.tp = 4;
    p.seqLen = 2048;
    p.microBatches = 6;
    const auto params = countParams(c);
    const auto fwd = forwardFlopsPerToken(c, {2048, true});
    const auto fused = estimateStep(c, params, fwd, p, r, {}, coll);
    EXPECT_DOUBLE_EQ(fused.gradAccumulationSeconds, 0);
    p.gradAccumulationFusion = false;
    const auto unfused = estimateStep(c, params, fwd, p, r, {}, coll);
    // params / tp x (2 + 4 read, 4 write) B x 6 micro-batches over 0.9 x 2039 GB/s.
    EXPECT_NEAR(unfused.gradAccumulationSeconds, params.total() / 4 * 10 * 6 / (0.9 * 2039e9), 1e-12);
    EXPECT_NEAR(unfused.stepSeconds - fused.stepSeconds, unfused.gradAccumulationSeconds, 1e-12);
    // A run that keeps bf16 gradients accumulates into a bf16 buffer: 2 read + 2 read + 2 written.
    p.gradDtype = "bf16";
    const auto bf16Grads = estimateStep(c, params, fwd, p, r, {}, coll);
    EXPECT_NEAR(bf16Grads.gradAccumulationSeconds, params.total() / 4 * 6 * 6 / (0.9 * 2039e9), 1e-12);
}

TEST(ExpertAllToAll, InNodeShareMovesOverTheLinkWhileTheRestCrossesTheNics)
{
    DeviceRates r;
    r.intraNodeBytesPerSec = 450e9; // x kIntraLinkEfficiency 0.82 = 369 GB/s
    r.nicBytesPerSec = 50e9;        // x kNicEfficiency 0.73 = 36.5 GB/s
    r.gpusPerNode = 8;
    const ProfileCollectiveTime coll(r, 10, 25);
    const double bytes = 128e6;
    // 16 ranks, 8 to a node: each sends 8 MB to each of 15 peers; 8 shares (64 MB) leave through
    // the NIC in 1.75 ms while 7 (56 MB) move over NVLink in 0.15 ms at once.
    EXPECT_NEAR(coll.groupTimeUs(CollectiveOp::AllToAll, bytes, 16, 8), 25 + 64e6 / 36.5e9 * 1e6, 1e-9);
    // Without the layout a cross-node group is taken to fill whole nodes: the same split.
    EXPECT_NEAR(coll.timeUs(CollectiveOp::AllToAll, bytes, 16, true), coll.groupTimeUs(CollectiveOp::AllToAll, bytes, 16, 8), 1e-9);
    // Two to a node (EP neighbours 4 ranks apart): 14 of 15 shares cross.
    EXPECT_NEAR(coll.groupTimeUs(CollectiveOp::AllToAll, bytes, 16, 2), 25 + 14 * 8e6 / 36.5e9 * 1e6, 1e-9);
    // Within one node: the link alone, 7/8 of the bytes at 369 GB/s.
    EXPECT_NEAR(coll.groupTimeUs(CollectiveOp::AllToAll, bytes, 8, 8), 10 + 128e6 * 7 / 8 / 369e9 * 1e6, 1e-9);
    // A measured all_to_all over 16 ranks wins over any split.
    MeasuredCollectiveTime measured(&coll);
    fits::AlphaBeta fit;
    fit.alphaUs = 100;
    fit.betaGBs = 200;
    measured.addFit(CollectiveOp::AllToAll, 16, fit);
    EXPECT_NEAR(measured.groupTimeUs(CollectiveOp::AllToAll, bytes, 16, 8), fit.timeUs(bytes), 1e-9);
    EXPECT_NEAR(measured.groupTimeUs(CollectiveOp::AllToAll, bytes, 32, 8),
                coll.groupTimeUs(CollectiveOp::AllToAll, bytes, 32, 8), 1e-9);
}

TEST(HierarchicalCollectives, ReproduceTheCitedFourNodeAllReduces)
{
    // The measurements kIntraLinkEfficiency and kNicEfficiency come from (stas00/ml-engineering):
    // all_reduce of 4 GiB over 4 nodes x 8 GPUs with 8 x 50 GB/s NICs per node reaches 377.34 GB/s
    // busbw on B200 (NVLink 5, 900 GB/s) and 369.06 GB/s on H200 (NVLink 4, 450 GB/s; 16 GiB).
    const double bytes = 4.0 * (1 << 30);
    const auto busbw = [&](double linkGBs) {
        DeviceRates r;
        r.intraNodeBytesPerSec = linkGBs * 1e9;
        r.nicBytesPerSec = 50e9;
        r.gpusPerNode = 8;
        const ProfileCollectiveTime coll(r, 0, 0);
        return bytes * 2 * 31 / 32 / (coll.groupTimeUs(CollectiveOp::AllReduce, bytes, 32, 8) * 1e-6);
    };
    EXPECT_NEAR(busbw(900), 377.34e9, 0.01 * 377.34e9);
    EXPECT_NEAR(busbw(450), 369.06e9, 0.03 * 369.06e9);
    // Each GPU's NIC carries 2·3/4 of its 1/8 shard; in one node the link carries 2·7/8 of the buffer.
    DeviceRates r;
    r.intraNodeBytesPerSec = 900e9;
    r.nicBytesPerSec = 50e9;
    r.gpusPerNode = 8;
    const ProfileCollectiveTime coll(r, 0, 0);
    EXPECT_NEAR(coll.groupTimeUs(CollectiveOp::AllReduce, bytes, 32, 8), bytes / 8 * 1.5 / (0.73 * 50e9) * 1e6, 1e-6);
    // reduce_scatter and all_gather also wait NCCL's ring (collectivetimesource.h): 4 nodes of 8,
    // 8.4 + 28 x 3.4 + 3 x 14 = 145.6 µs; 4 nodes of 1, 8.4 + 3 x 14 = 50.4 µs.
    EXPECT_NEAR(coll.groupTimeUs(CollectiveOp::ReduceScatter, bytes, 32, 8),
                145.6 + bytes / 8 * 0.75 / (0.73 * 50e9) * 1e6, 1e-6);
    // One GPU per node (a DP group tp=8 apart): the whole buffer's ring share crosses the NIC.
    EXPECT_NEAR(coll.groupTimeUs(CollectiveOp::AllGather, bytes, 4, 1), 50.4 + bytes * 0.75 / (0.73 * 50e9) * 1e6, 1e-6);
}

TEST(ExpertAllToAll, OverlapHidesTheDispatchUnderTheOtherMicroBatchsCompute)
{
    // Megatron-Core's EP A2A overlap: exposed = max(0, all_to_all - (m-1)/m of the stage's compute).
    const auto c = loadPreset("qwen3-30b-a3b");
    auto p = parallelLayout(c, "dp=32,ep=32", ParallelConfig{});
    p.microBatches = 8;
    const auto plain = h100Step(c, p);
    p.epOverlap = true;
    const auto overlapped = h100Step(c, p);
    const CommOp* dispatch = commNamed(plain, "ep all_to_all");
    ASSERT_NE(dispatch, nullptr);
    const double a2a = dispatch->totalSeconds();
    ASSERT_GT(a2a, 0);
    EXPECT_NEAR(plain.exposedCommSeconds - overlapped.exposedCommSeconds,
                a2a - std::max(0.0, a2a - plain.computeSeconds * 7 / 8), 1e-9 * plain.stepSeconds);
    EXPECT_DOUBLE_EQ(overlapped.computeSeconds, plain.computeSeconds);
    // One micro-batch has no partner to hide under.
    p.microBatches = 1;
    const auto single = h100Step(c, p);
    p.epOverlap = false;
    EXPECT_DOUBLE_EQ(single.exposedCommSeconds, h100Step(c, p).exposedCommSeconds);
}

TEST(ExpertAllToAll, FlexDispatchSendsATokenToEachRemoteNodeOnce)
{
    // 128 experts, top-8, EP 16 over two nodes of 8: the all_to_all sends 8 x 1/2 = 4 copies of a
    // token to the other node on average; DeepEP / HybridEP send it once when that node holds any
    // of its experts, 1 - C(64, 8) / C(128, 8) of the time.
    double none = 1;
    for (int i = 0; i < 8; ++i)
        none *= (64.0 - i) / (128.0 - i);
    EXPECT_NEAR(flexCrossNodeShare(128, 8, 16, 8), (1 - none) / 4, 1e-12);
    EXPECT_NEAR(flexCrossNodeShare(128, 8, 16, 8), 0.249, 1e-3);
    EXPECT_DOUBLE_EQ(flexCrossNodeShare(128, 8, 8, 8), 1.0); // one node: nothing to save
    EXPECT_DOUBLE_EQ(flexCrossNodeShare(8, 1, 16, 8), 1.0);  // top-1: one copy either way
    // Four nodes, top-2 of 64: a token's two experts share a node 15/63 of the time.
    EXPECT_NEAR(flexCrossNodeShare(64, 2, 32, 8), 3 * (1 - (48.0 / 64) * (47.0 / 63)) / (2 * 3.0 / 4), 1e-12);

    const auto c = loadPreset("qwen3-30b-a3b");
    auto p = parallelLayout(c, "dp=16,ep=16", ParallelConfig{});
    p.microBatches = 4;
    const auto plain = h100Step(c, p);
    p.flexDispatch = true;
    const auto flex = h100Step(c, p);
    const CommOp* a2a = commNamed(plain, "ep all_to_all");
    const CommOp* deduplicated = commNamed(flex, "ep all_to_all (flex: one copy per node)");
    ASSERT_NE(a2a, nullptr);
    ASSERT_NE(deduplicated, nullptr);
    EXPECT_NEAR(deduplicated->bytes / a2a->bytes, flexCrossNodeShare(128, 8, 16, 8), 1e-12);
    EXPECT_EQ(deduplicated->count, a2a->count);
    EXPECT_LT(flex.exposedCommSeconds, plain.exposedCommSeconds);
    EXPECT_DOUBLE_EQ(flex.computeSeconds, plain.computeSeconds);
}

TEST(ExpertAllToAll, FoldedExpertsPlaceEpNeighboursEtpApart)
{
    // qwen3-30b-a3b on 16 H100s, tp=2, ep=16, etp=1: the EP group is 16 consecutive ranks (8 per
    // node); with etp = tp = 2 it would be tp apart, but ep x etp = 32 would not fit 16 GPUs.
    const auto r = shipped("h100-sxm");
    ProfileCollectiveTime coll(r);
    const auto c = loadPreset("qwen3-30b-a3b");
    const auto p = parallelLayout(c, "tp=2,dp=8,ep=16,etp=1", ParallelConfig{});
    const auto e = evaluateSizing(c, p, r, GemmTiming{}, coll, InferenceOptions{}).step;
    const CommOp* dispatch = commNamed(e, "ep all_to_all");
    ASSERT_NE(dispatch, nullptr);
    EXPECT_NEAR(dispatch->timeUs, coll.groupTimeUs(CollectiveOp::AllToAll, dispatch->bytes, 16, 8), 1e-9);
    EXPECT_TRUE(dispatch->crossNode);
}
