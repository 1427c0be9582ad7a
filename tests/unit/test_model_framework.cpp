// The training stack as part of the recipe (model/framework.h): what each stack does differently,
// each against a number computed by hand, and the NCCL ring latency fully sharded steps pay.
#include <gtest/gtest.h>

#include "model/collectivetimesource.h"
#include "model/framework.h"
#include "model/hardwareprofileloader.h"
#include "model/memorymodel.h"
#include "model/modelconfig.h"
#include "model/modelcounts.h"
#include "model/parallelconfig.h"
#include "model/sizingreport.h"
#include "model/trainingstep.h"
#include "model/validation.h"

using namespace rl;
using namespace rl::model;

namespace {
double callsOf(const StepEstimate& e, const char* what)
{
    for (int i = 0; i < e.commCount; ++i)
        if (std::string(e.comm[i].what) == what)
            return e.comm[i].count;
    return 0;
}
const CommOp* commNamed(const StepEstimate& e, const char* what)
{
    for (int i = 0; i < e.commCount; ++i)
        if (std::string(e.comm[i].what) == what)
            return &e.comm[i];
    return nullptr;
}
StepEstimate step(const ModelConfig& c, const ParallelConfig& p)
{
    const auto r = deviceRates(findHardwareProfile("a100-80gb"), "bf16");
    ProfileCollectiveTime coll(r);
    return evaluateSizing(c, p, r, GemmTiming{}, coll, InferenceOptions{}).step;
}
} // namespace

TEST(Framework, NamesAndSpellingsParseAndUnknownOnesDoNot)
{
    for (int i = 0; i < kFrameworks; ++i)
        EXPECT_EQ(parseFramework(toString(Framework(i))), Framework(i));
    EXPECT_EQ(parseFramework("Megatron-Core"), Framework::MegatronCore);
    EXPECT_EQ(parseFramework("megatron_deepspeed"), Framework::DeepSpeed);
    EXPECT_EQ(parseFramework("llm-foundry"), Framework::Composer);
    EXPECT_EQ(parseFramework("FSDP2"), Framework::Torchtitan);
    EXPECT_FALSE(parseFramework("jax"));
    EXPECT_EQ(frameworkNames(), "megatron, deepspeed, torchtitan, composer");
}

TEST(Framework, RingLatencyIsNcclsOwnModel)
{
    // 1,536 ranks on 192 nodes: 8.4 + (1535 - 191) x 3.4 + 191 x 14 = 7252 µs.
    EXPECT_NEAR(ringLatencyUs(1536, 8), 8.4 + 1344 * 3.4 + 191 * 14.0, 1e-9);
    EXPECT_NEAR(ringLatencyUs(16, 8), 8.4 + 14 * 3.4 + 14.0, 1e-9); // two nodes
    EXPECT_EQ(ringLatencyUs(1, 8), 0.0);
    // A small all_gather over 1,536 ranks waits the ring; an all_reduce crosses by tree and does not.
    const auto r = deviceRates(findHardwareProfile("a100-80gb"), "bf16");
    ProfileCollectiveTime coll(r);
    EXPECT_GT(coll.groupTimeUs(CollectiveOp::AllGather, 1e3, 1536, 8), 7252.0);
    EXPECT_LT(coll.groupTimeUs(CollectiveOp::AllReduce, 1e3, 1536, 8), 100.0);
    // Inside one node nothing changes (the ring's NVLink hops are the profile's intra latency).
    EXPECT_LT(coll.groupTimeUs(CollectiveOp::AllGather, 1e3, 8, 8), 20.0);
}

TEST(Framework, DeepSpeedGathersEachWeightMatrixAndTorchtitanReducesInFp32)
{
    const auto c = loadPreset("llama-3-8b"); // 32 layers
    ParallelConfig p = parallelLayout(c, "dp=64", ParallelConfig{});
    p.microBatches = 2;
    p.zeroStage = 3;
    const auto megatron = step(c, p);
    // One unit per layer: 2 gathers and 1 reduce-scatter per layer per micro-batch.
    EXPECT_EQ(callsOf(megatron, "dp param all_gather"), 2 * 2 * 32);
    EXPECT_EQ(callsOf(megatron, "dp grad reduce_scatter"), 2 * 32);
    p.framework = Framework::DeepSpeed;
    const auto ds = step(c, p);
    // Four weight matrices per layer, each its own call, a quarter of the layer's bytes.
    EXPECT_EQ(callsOf(ds, "dp param all_gather"), 4 * 2 * 2 * 32);
    EXPECT_EQ(callsOf(ds, "dp grad reduce_scatter"), 4 * 2 * 32);
    EXPECT_NEAR(commNamed(ds, "dp param all_gather")->bytes, commNamed(megatron, "dp param all_gather")->bytes / 4,
                1e-6 * commNamed(ds, "dp param all_gather")->bytes);
    // More calls at the same bytes: more ring latency, never less time.
    EXPECT_GT(ds.commSeconds, megatron.commSeconds);
    p.framework = Framework::Torchtitan;
    const auto tt = step(c, p);
    // The last block stays gathered for its backward: 2 x 32 - 1 gathers per micro-batch.
    EXPECT_EQ(callsOf(tt, "dp param all_gather"), 2 * (2 * 32 - 1));
    // Gradients reduce-scattered in fp32: twice the bf16 bytes.
    EXPECT_NEAR(commNamed(tt, "dp grad reduce_scatter")->bytes, 2 * commNamed(megatron, "dp grad reduce_scatter")->bytes,
                1e-6 * commNamed(tt, "dp grad reduce_scatter")->bytes);
    EXPECT_NE(recipeSummary(p).find("torchtitan (FSDP2)"), std::string::npos) << recipeSummary(p);
    p.framework = Framework::MegatronCore;
    EXPECT_EQ(recipeSummary(p).find("Megatron"), std::string::npos) << recipeSummary(p); // the default goes unsaid

    // A MoE model: the kept last block's experts are not gathered again either.
    const auto moe = loadPreset("olmoe-1b-7b");
    ParallelConfig q = parallelLayout(moe, "dp=64", ParallelConfig{});
    q.microBatches = 2;
    q.zeroStage = 3;
    const auto moeMegatron = step(moe, q);
    EXPECT_EQ(callsOf(moeMegatron, "expert param all_gather"), 2 * 2 * moe.layers);
    q.framework = Framework::Torchtitan;
    const auto moeTt = step(moe, q);
    EXPECT_EQ(callsOf(moeTt, "dp param all_gather"), 2 * (2 * moe.layers - 1));
    EXPECT_EQ(callsOf(moeTt, "expert param all_gather"), 2 * (2 * moe.layers - 1));
}

TEST(Framework, DeepSpeedsBf16OptimizerKeepsFp32GradientsOfTheWholeModel)
{
    const auto c = loadPreset("llama-3-8b");
    const auto params = countParams(c);
    ParallelConfig p = parallelLayout(c, "dp=8", ParallelConfig{});
    p.zeroStage = 1;
    p.gradDtype = "bf16"; // a Megatron run with --grad-reduce-in-bf16, as NeMo's performance recipes
    const auto megatron = trainingMemory(c, params, p);
    EXPECT_NEAR(megatron.gradients, 2 * params.denseTotal(), 1.0);
    p.gradDtype.clear();
    p.framework = Framework::DeepSpeed;
    const auto ds = trainingMemory(c, params, p);
    EXPECT_NEAR(ds.gradients, 4 * params.denseTotal(), 1.0); // fp32, unsharded
    EXPECT_NEAR(ds.total() - megatron.total(), 2 * params.denseTotal(), 1.0);
    p.zeroStage = 2; // the ZeRO optimizer, not BF16_Optimizer: 16-bit gradients, sharded
    EXPECT_NEAR(trainingMemory(c, params, p).gradients, 2 * params.denseTotal() / 8, 1.0);
    p.dtype = "fp16";
    p.zeroStage = 1;
    EXPECT_NEAR(trainingMemory(c, params, p).gradients, 2 * params.denseTotal(), 1.0);
}

// Megatron-LM's bf16 default (arguments.py: --bf16 sets accumulate_allreduce_grads_in_fp32 while
// --main-grads-dtype is fp32) keeps a whole fp32 main-grad buffer beside the distributed optimizer's
// shards, and reduce-scatters it in fp32: 4 B a parameter in memory and on the wire, where a run
// with bf16 gradients (--grad-reduce-in-bf16) or in fp16 holds and moves 2.
TEST(Framework, MegatronKeepsAndReducesFp32MainGradsInBf16)
{
    const auto c = loadPreset("llama-3-8b");
    const auto params = countParams(c);
    ParallelConfig p = parallelLayout(c, "dp=8", ParallelConfig{});
    p.zeroStage = 1;
    EXPECT_EQ(gradientBytes(p.framework, "bf16", 1, "", 2), 4);
    EXPECT_EQ(gradientBytes(p.framework, "fp8", 1, "", 2), 4);
    EXPECT_EQ(gradientBytes(p.framework, "fp16", 1, "", 2), 2);
    EXPECT_EQ(gradientBytes(p.framework, "bf16", 1, "bf16", 2), 2);
    EXPECT_EQ(gradientBytes(Framework::Torchtitan, "bf16", 3, "", 2), 2); // FSDP2's sharded grads
    EXPECT_TRUE(isGradientDtype("fp32"));
    EXPECT_FALSE(isGradientDtype("fp8"));
    const auto fp32 = trainingMemory(c, params, p);
    EXPECT_NEAR(fp32.gradients, 4 * params.denseTotal(), 1.0); // whole: ZeRO 1 shards the optimizer only
    p.gradDtype = "bf16";
    const auto bf16 = trainingMemory(c, params, p);
    EXPECT_NEAR(bf16.gradients, 2 * params.denseTotal(), 1.0);
    EXPECT_NEAR(fp32.total() - bf16.total(), 2 * params.denseTotal(), 1.0);

    // On the wire: the gradients' reduce_scatter carries twice the bytes; the parameters' all_gather
    // (bf16 weights) does not change.
    const auto bytesOf = [](const StepEstimate& e, const char* what) {
        const CommOp* op = commNamed(e, what);
        return op ? op->bytes : 0.0;
    };
    p.gradDtype.clear();
    const auto wide = step(c, p);
    p.gradDtype = "bf16";
    const auto narrow = step(c, p);
    EXPECT_GT(bytesOf(narrow, "dp grad reduce_scatter"), 0);
    EXPECT_DOUBLE_EQ(bytesOf(wide, "dp grad reduce_scatter"), 2 * bytesOf(narrow, "dp grad reduce_scatter"));
    EXPECT_DOUBLE_EQ(bytesOf(wide, "dp param all_gather"), bytesOf(narrow, "dp param all_gather"));
    p.zeroStage = 0; // the all_reduce too
    p.gradDtype.clear();
    const double allReduceWide = bytesOf(step(c, p), "dp grad all_reduce");
    p.gradDtype = "bf16";
    EXPECT_GT(allReduceWide, 0);
    EXPECT_DOUBLE_EQ(allReduceWide, 2 * bytesOf(step(c, p), "dp grad all_reduce"));
}

TEST(Framework, TheErrorBandIsTheFrameworksWhenItHasEnoughRuns)
{
    // The holdout has 7 llm-foundry (Composer) dense runs: a band of their own.
    const auto composer = modelErrorBand(false, {}, Framework::Composer);
    ASSERT_TRUE(composer.framework);
    EXPECT_EQ(*composer.framework, Framework::Composer);
    EXPECT_EQ(composer.rows, 7);
    EXPECT_NE(describe(composer).find("of Composer (FSDP)"), std::string::npos) << describe(composer);
    // No DeepSpeed run in the band tables: every stack's band, saying so.
    const auto ds = modelErrorBand(false, {}, Framework::DeepSpeed);
    EXPECT_FALSE(ds.framework);
    EXPECT_EQ(ds.rows, modelErrorBand(false).rows);
    EXPECT_NE(describe(ds).find("none run with DeepSpeed"), std::string::npos) << describe(ds);
    // Megatron's band leaves the Composer runs out.
    EXPECT_EQ(modelErrorBand(false, {}, Framework::MegatronCore).rows + composer.rows, modelErrorBand(false).rows);
}

TEST(Framework, DeepSpeedHoldsGatheredWeightMatricesNotWholeLayers)
{
    const auto c = loadPreset("llama-3-8b"); // 32 layers
    const auto params = countParams(c);
    ParallelConfig p = parallelLayout(c, "dp=64", ParallelConfig{});
    p.zeroStage = 3;
    const double layer = params.denseTotal() / 32;
    EXPECT_NEAR(trainingMemory(c, params, p).working, 3 * 2 * layer, 1.0); // FSDP: two layers + one's gradients
    p.framework = Framework::DeepSpeed;
    EXPECT_NEAR(trainingMemory(c, params, p).working, 3 * 2 * layer / 4, 1.0); // a weight matrix each
    p.framework = Framework::Torchtitan;
    EXPECT_NEAR(trainingMemory(c, params, p).working, (3 * 2 + 4) * layer, 1.0); // + the fp32 cast of the gradients
}
