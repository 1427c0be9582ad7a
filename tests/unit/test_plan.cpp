// The layout search (plan/): counts that add up on a case enumerated by hand, the rules as
// Megatron-LM checks them, ranking identical with and without the per-shape caches and over any
// number of threads, the Pareto front, "yours", and the launch arguments.
#include <algorithm>
#include <set>

#include <gtest/gtest.h>

#include "model/hardwareprofileloader.h"
#include "model/sizingrequest.h"
#include "plan/launchargs.h"
#include "plan/plansearch.h"
#include "plan/shapesearch.h"

using namespace rl;
using namespace rl::model;
using namespace rl::plan;

namespace {
HardwareProfile device(double hbmGB)
{
    HardwareProfile hw;
    hw.id = "test-gpu";
    hw.peakTflops["bf16"] = {1000, "test"};
    hw.hbmBandwidthGBs = {4000, "test"};
    hw.hbmCapacityGB = {hbmGB, "test"};
    hw.intraNodeLinkGBs = {400, "test"};
    hw.nicGBsPerGpu = {50, "test"};
    hw.gpusPerNode = 4;
    return hw;
}

// A small dense model: 4 layers, 4 heads (MHA), so tp 1, 2, 4 and pp 1, 2, 4 all divide.
ModelConfig tiny()
{
    ModelConfig c;
    c.name = "tiny";
    c.family = "llama";
    c.layers = 4;
    c.dModel = 512;
    c.heads = 4;
    c.kvHeads = 4;
    c.headDim = 128;
    c.mlpWidth = 1536;
    c.vocab = 32000;
    return c;
}

// 8 GPUs (4 per node), global batch 8, seq 1024; tp, pp, micro-batch, sp and ZeRO 0/1 searched,
// everything else fixed.
PlanRequest handCase(const HardwareProfile& hw)
{
    PlanRequest req;
    req.base.model = tiny();
    req.base.hardware = hw;
    req.cluster = {8, 4, 8, 1024};
    req.space = defaultSpace(req.base.model, hw, req.cluster, {});
    applyFix(req.space, "cp=1,stages=even,vpp=1,recompute=none,zero=0|1,dp-overlap=on,dtype=bf16");
    return req;
}

std::vector<std::string> specs(const std::vector<PlanRow>& rows)
{
    std::vector<std::string> s;
    for (const auto& r : rows)
        s.push_back(toSpec(r.layout));
    return s;
}
} // namespace

// tp {1,2,4} x pp {1,2,4} x micro-batch {1,2,4,8} x sp {off,on} x ZeRO {0,1} = 144, by hand:
//  - world size: tp 4 x pp 4 needs 16 GPUs: 4 x 2 x 2 = 16
//  - global batch 8 % (mb x dp): dp = 8/(tp pp); mbs ruled out for (tp,pp) (1,1):3 (1,2):2 (1,4):1 (2,1):2
//    (2,2):1 (2,4):0 (4,1):1 (4,2):0 = 10, x sp 2 x ZeRO 2 = 40
//  - sequence parallel at tp 1: the legal mbs of tp 1 (1 + 2 + 3 = 6) x ZeRO 2 = 12
//  - one DP rank (dp 1: (2,4), (4,2)) with ZeRO 1: 4 mbs x 2 sp x 2 = 16
//  - legal: 144 - 16 - 40 - 12 - 16 = 60, all fitting 1000 GB
TEST(Plan, CountsAddUpOnACaseEnumeratedByHand)
{
    const auto hw = device(1000);
    const auto req = handCase(hw);
    ASSERT_EQ(req.space.total(), 144);
    const auto res = runPlan(req, Calibration{});
    EXPECT_EQ(res.counts.enumerated, 144);
    EXPECT_EQ(res.counts.illegal[int(Rule::WorldSize)], 16);
    EXPECT_EQ(res.counts.illegal[int(Rule::GlobalBatch)], 40);
    EXPECT_EQ(res.counts.illegal[int(Rule::SpNeedsTp)], 12);
    EXPECT_EQ(res.counts.illegal[int(Rule::OneDpRank)], 16);
    EXPECT_EQ(res.counts.illegalTotal(), 84);
    EXPECT_EQ(res.counts.outOfMemoryTotal(), 0);
    EXPECT_EQ(res.counts.ranked, 60);
    EXPECT_EQ(res.counts.illegalTotal() + res.counts.outOfMemoryTotal() + res.counts.ranked, res.counts.enumerated);
    ASSERT_EQ(res.top.size(), 20u);
    for (std::size_t i = 1; i < res.top.size(); ++i)
        EXPECT_LE(res.top[i - 1].step.stepSeconds, res.top[i].step.stepSeconds);
}

// Every layout the search ranks is one the sizing model itself accepts, and times the same as a
// prediction made for it alone (size's path: evaluateSizing with the uncached sources).
TEST(Plan, RankedLayoutsAreLegalAndTimedAsSizeTimesThem)
{
    const auto hw = device(1000);
    const auto req = handCase(hw);
    const auto res = runPlan(req, Calibration{});
    for (const auto& row : res.top) {
        EXPECT_EQ(checkParallel(req.base.model, row.parallel), "") << toSpec(row.layout);
        EXPECT_FALSE(checkLayout(row.layout, req.base.model, hw, req.cluster, {})) << toSpec(row.layout);
        SizingRequest one = req.base;
        one.layout = row.parallel;
        one.attentionKernel = row.layout.attention;
        const auto sized = evaluate(one, Calibration{});
        EXPECT_DOUBLE_EQ(sized.report.step.stepSeconds, row.step.stepSeconds) << toSpec(row.layout);
        EXPECT_EQ(row.parallel.worldSize(), 8);
        EXPECT_EQ(row.parallel.tokensPerStep(), 8.0 * 1024);
    }
}

// The caches change how fast, never what: the same ranking, counts and step times without them, and
// with one or two threads.
TEST(Plan, CachedAndUncachedAndThreadedSearchesAgree)
{
    const auto hw = device(80);
    PlanRequest req;
    req.base.model = loadPreset("olmoe-1b-7b");
    req.base.hardware = hw;
    req.cluster = {64, 8, 256, 4096};
    req.space = defaultSpace(req.base.model, hw, req.cluster, {});
    applyFix(req.space, "cp=1|2,pp=1|2|4,vpp=1|2,micro-batch=1|2");
    req.top = 30;
    req.threads = 1;
    const auto cached = runPlan(req, Calibration{});
    req.cacheShapes = false;
    const auto uncached = runPlan(req, Calibration{});
    req.cacheShapes = true;
    req.threads = 2;
    const auto threaded = runPlan(req, Calibration{});
    EXPECT_GT(cached.counts.ranked, 1000);
    EXPECT_GT(cached.counts.outOfMemoryTotal(), 0); // 80 GB does not hold every layout of a 7B MoE
    for (const auto* other : {&uncached, &threaded}) {
        EXPECT_EQ(other->counts.ranked, cached.counts.ranked);
        EXPECT_EQ(other->counts.illegal, cached.counts.illegal);
        EXPECT_EQ(other->counts.outOfMemory, cached.counts.outOfMemory);
        EXPECT_EQ(specs(other->top), specs(cached.top));
        ASSERT_EQ(other->top.size(), cached.top.size());
        for (std::size_t i = 0; i < cached.top.size(); ++i)
            EXPECT_DOUBLE_EQ(other->top[i].step.stepSeconds, cached.top[i].step.stepSeconds);
        EXPECT_EQ(specs(other->pareto), specs(cached.pareto));
    }
    EXPECT_LT(cached.distinctShapes, std::size_t(cached.counts.ranked)); // shapes shared across layouts
}

// The front is not dominated: no layout in it is both slower and larger than another ranked one
// shown; it starts at #1 and ends at the least memory.
TEST(Plan, ParetoFrontTradesStepTimeForMemory)
{
    const auto hw = device(80);
    PlanRequest req;
    req.base.model = loadPreset("llama-3-8b");
    req.base.hardware = hw;
    req.cluster = {16, 8, 64, 4096};
    req.space = defaultSpace(req.base.model, hw, req.cluster, {});
    applyFix(req.space, "cp=1,vpp=1|2,stages=even");
    req.top = 200;
    const auto res = runPlan(req, Calibration{});
    ASSERT_GE(res.pareto.size(), 2u);
    // The fastest end of the front is as fast as #1 (#1 itself, or a layout as fast in less memory).
    EXPECT_EQ(res.pareto.front().step.stepSeconds, res.top.front().step.stepSeconds);
    EXPECT_GE(res.pareto.front().rank, 1);
    for (std::size_t i = 1; i < res.pareto.size(); ++i) {
        EXPECT_GT(res.pareto[i].step.stepSeconds, res.pareto[i - 1].step.stepSeconds);
        EXPECT_LT(res.pareto[i].step.memory.total(), res.pareto[i - 1].step.memory.total());
    }
    for (const auto& p : res.pareto)
        for (const auto& t : res.top)
            EXPECT_FALSE(t.step.stepSeconds < p.step.stepSeconds && t.step.memory.total() < p.step.memory.total())
                << toSpec(t.layout) << " dominates " << toSpec(p.layout);
}

// "Yours" is placed where the ranking has it, with the gap explained; a layout left out says why.
TEST(Plan, YoursIsPlacedInTheRankingOrToldWhyItWasLeftOut)
{
    const auto hw = device(1000);
    auto req = handCase(hw);
    const auto first = runPlan(req, Calibration{});
    ASSERT_GE(first.top.size(), 5u);
    const auto& fifth = first.top[4];
    ASSERT_LT(first.top[3].step.stepSeconds, fifth.step.stepSeconds); // no tie at #4/#5 in this case
    req.yours = fifth.layout;
    const auto res = runPlan(req, Calibration{});
    ASSERT_TRUE(res.yours && res.yours->row);
    EXPECT_EQ(res.yours->row->rank, 5);
    EXPECT_EQ(res.yours->explanation.rfind("#5 of 60, ", 0), 0u) << res.yours->explanation;
    EXPECT_NE(res.yours->explanation.find("slower than #1"), std::string::npos) << res.yours->explanation;

    req.yours = parseLayout("tp=4,pp=4", Layout{});
    const auto illegal = runPlan(req, Calibration{});
    ASSERT_TRUE(illegal.yours && illegal.yours->illegal);
    EXPECT_EQ(*illegal.yours->illegal, Rule::WorldSize);
    EXPECT_NE(illegal.yours->explanation.find("does not divide the GPU count"), std::string::npos);

    const auto small = device(0.05); // 50 MB: nothing fits
    req.yours = parseLayout("tp=2,pp=2", Layout{});
    req.base.hardware = small;
    const auto oom = runPlan(req, Calibration{});
    EXPECT_EQ(oom.counts.ranked, 0);
    EXPECT_EQ(oom.counts.outOfMemoryTotal(), 60);
    EXPECT_TRUE(oom.top.empty());
    ASSERT_TRUE(oom.yours);
    EXPECT_NE(oom.yours->outOfMemory.find("does not fit"), std::string::npos) << oom.yours->outOfMemory;
    EXPECT_NE(oom.yours->outOfMemory.find("largest: "), std::string::npos) << oom.yours->outOfMemory;
}

// The rules as Megatron-LM checks them, one layout at a time.
TEST(Plan, RulesFollowMegatronsArgumentChecks)
{
    const auto hw = device(1000);
    const auto moe = loadPreset("olmoe-1b-7b"); // 16 heads, 16 KV heads, 64 experts
    const Cluster cl{64, 8, 256, 4096};
    auto rule = [&](const std::string& spec) { return checkLayout(parseLayout(spec, Layout{}), moe, hw, cl, {}); };
    EXPECT_FALSE(rule("tp=2,sp=on,ep=8"));
    EXPECT_EQ(rule("tp=3"), Rule::TpHeads);
    EXPECT_EQ(rule("tp=16"), Rule::TpAcrossNodes);
    EXPECT_FALSE(checkLayout(parseLayout("tp=16,sp=on", Layout{}), moe, hw, cl, Allowances{true, false}));
    EXPECT_EQ(rule("cp=3"), Rule::CpSequence);
    EXPECT_EQ(rule("tp=2"), Rule::MoeTpNeedsSp);
    EXPECT_EQ(rule("sp=on"), Rule::SpNeedsTp);
    EXPECT_EQ(rule("ep=128"), Rule::EpExperts);
    EXPECT_EQ(rule("pp=32"), Rule::PpLayers); // 16 layers over 32 stages
    EXPECT_EQ(checkLayout(parseLayout("pp=3", Layout{}), moe, hw, {48, 8, 48, 4096}, {}), Rule::EvenSplit);
    EXPECT_FALSE(checkLayout(parseLayout("pp=3,stages=ends-lighter", Layout{}), moe, hw, {48, 8, 48, 4096}, {}));
    EXPECT_EQ(rule("pp=3"), Rule::WorldSize);
    EXPECT_EQ(rule("pp=2,vpp=3"), Rule::VppLayers); // 8 layers per stage
    EXPECT_FALSE(rule("pp=2,vpp=2"));
    EXPECT_EQ(rule("pp=2,stages=last-lighter"), Rule::UnevenSplit); // 17 layers do not split in 2
    EXPECT_EQ(rule("pp=2,stages=last-lighter,vpp=2"), Rule::UnevenSplit);
    EXPECT_EQ(rule("pp=2,ep=64,micro-batch=1"), Rule::EpGroup); // 64 experts on 32 stage ranks
    EXPECT_EQ(rule("micro-batch=3"), Rule::GlobalBatch);
    EXPECT_FALSE(rule("pp=4,vpp=2,micro-batch=4"));                             // 256 / (4 x 16) = 4 micro-batches
    EXPECT_EQ(rule("pp=4,vpp=2,micro-batch=8"), Rule::InterleavedMicroBatches); // 2 < pp
    EXPECT_EQ(rule("pp=2,zero=2"), Rule::ZeroWithPp);
    EXPECT_EQ(rule("ep=8,zero=3"), Rule::ZeroWithEp);
    EXPECT_EQ(rule("ep-overlap=on"), Rule::EpOverlapNeedsEp);
    EXPECT_EQ(rule("ep=8,ep-overlap=on,recompute=full"), Rule::EpOverlapFullRecompute);
    EXPECT_EQ(rule("ep=8,pp=2,ep-overlap=on"), Rule::EpOverlapPpNeedsVpp);
    EXPECT_EQ(rule("dispatcher=flex"), Rule::FlexNeedsEp);
    EXPECT_EQ(rule("dtype=fp8"), Rule::Dtype);
    EXPECT_EQ(rule("attention=fa3"), Rule::AttentionKernel);
    EXPECT_EQ(rule("etp=1"), Rule::EtpSameAsTp);
    // Uneven stages with interleaving: NeMo's Llama 3.1 405B (126 layers, pp 14, vpp 8, 15 + 8 x 12 + 15)
    // counts the embedding and the loss as a layer each (--account-for-embedding/loss-in-pipeline-split).
    auto deep = tiny();
    deep.layers = 126;
    const Cluster big{112, 8, 112, 1024};
    EXPECT_FALSE(checkLayout(parseLayout("pp=14,vpp=8,stages=15/15", Layout{}), deep, hw, big, {}));
    EXPECT_EQ(checkLayout(parseLayout("pp=14,vpp=3,stages=15/15", Layout{}), deep, hw, big, {}), Rule::VppLayers);
    EXPECT_EQ(checkLayout(parseLayout("pp=14,stages=13/13", Layout{}), deep, hw, big, {}), Rule::UnevenSplit);
    // Megatron allows tp a multiple of the KV heads (the heads are replicated).
    auto gqa = tiny();
    gqa.heads = 8;
    gqa.kvHeads = 2;
    EXPECT_FALSE(checkLayout(parseLayout("tp=4", Layout{}), gqa, hw, {8, 4, 8, 1024}, {}));
    gqa.kvHeads = 3;
    gqa.heads = 12;
    EXPECT_EQ(checkLayout(parseLayout("tp=2", Layout{}), gqa, hw, {8, 4, 8, 1024}, {}), Rule::TpKvHeads);
}

TEST(Plan, FixAndYoursSyntaxErrorsNameTheItem)
{
    const auto hw = device(80);
    auto space = defaultSpace(tiny(), hw, {8, 4, 8, 1024}, {});
    auto message = [&](const std::string& spec) {
        try {
            applyFix(space, spec);
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    EXPECT_NE(message("tpp=2").find("unknown dimension 'tpp'"), std::string::npos);
    EXPECT_NE(message("tp=two").find("'two' is not a whole number"), std::string::npos);
    EXPECT_NE(message("recompute=some").find("recompute is none, selective or full"), std::string::npos);
    EXPECT_NE(message("zero=4").find("0..3"), std::string::npos);
    EXPECT_NE(message("sp=maybe").find("'maybe' is not on or off"), std::string::npos);
    EXPECT_NE(message("tp").find("is not name=value"), std::string::npos);
    EXPECT_THROW(parseLayout("tp=1|2", Layout{}), std::invalid_argument);
    EXPECT_THROW(parseAllowances("everything"), std::invalid_argument);
    const auto l = parseLayout("tp=8,pp=4,vpp=2,ep=8,etp=1,recompute=selective,sp=on,dispatcher=flex", Layout{});
    EXPECT_EQ(parseLayout(toSpec(l), Layout{}).tp, 8);
    EXPECT_EQ(toSpec(parseLayout(toSpec(l), Layout{})), toSpec(l));
}

TEST(Plan, LaunchArgumentsSpellTheLayoutAsMegatronAndTorchtitanDo)
{
    const auto moe = loadPreset("olmoe-1b-7b");
    const Cluster cl{64, 8, 256, 4096};
    const auto l = parseLayout("tp=2,pp=2,vpp=2,ep=8,etp=1,micro-batch=2,recompute=selective,sp=on,zero=1,"
                               "dispatcher=flex,ep-overlap=on,attention=cudnn",
                               Layout{});
    const auto args = megatronArgs(moe, l, cl);
    auto has = [&](const std::string& a) { return std::find(args.begin(), args.end(), a) != args.end(); };
    EXPECT_TRUE(has("--tensor-model-parallel-size 2"));
    EXPECT_TRUE(has("--pipeline-model-parallel-size 2"));
    EXPECT_TRUE(has("--num-virtual-stages-per-pipeline-rank 2"));
    EXPECT_TRUE(has("--expert-model-parallel-size 8"));
    EXPECT_TRUE(has("--expert-tensor-parallel-size 1"));
    EXPECT_TRUE(has("--moe-token-dispatcher-type flex"));
    EXPECT_TRUE(has("--overlap-moe-expert-parallel-comm"));
    EXPECT_TRUE(has("--micro-batch-size 2"));
    EXPECT_TRUE(has("--global-batch-size 256"));
    EXPECT_TRUE(has("--seq-length 4096"));
    EXPECT_TRUE(has("--sequence-parallel"));
    EXPECT_TRUE(has("--recompute-granularity selective"));
    EXPECT_TRUE(has("--use-distributed-optimizer"));
    EXPECT_TRUE(has("--overlap-grad-reduce --overlap-param-gather"));
    EXPECT_TRUE(has("--attention-backend fused"));
    const auto toml = torchtitanToml(moe, l, cl);
    EXPECT_NE(toml.find("tensor_parallel_degree = 2"), std::string::npos);
    EXPECT_NE(toml.find("data_parallel_replicate_degree = 16"), std::string::npos);
    EXPECT_NE(toml.find("pipeline_parallel_schedule = \"Interleaved1F1B\""), std::string::npos);
    EXPECT_NE(toml.find("# ZeRO 1: torchtitan has FSDP2"), std::string::npos);
    const auto size = sizeCommand("olmoe-1b-7b", "h100-sxm", moe, l, cl);
    EXPECT_NE(size.find("--parallel dp=16,tp=2,pp=2,cp=1,ep=8,etp=1,vpp=2"), std::string::npos) << size;
    EXPECT_NE(size.find("--micro-batch 2 --micro-batches 8"), std::string::npos) << size;
    EXPECT_NE(size.find("--ep-dispatcher flex"), std::string::npos) << size;
    EXPECT_EQ(size.find("--framework"), std::string::npos) << "Megatron-Core is the default: " << size;
    ParallelConfig recipe;
    recipe.framework = Framework::DeepSpeed;
    const auto deepspeed = sizeCommand("olmoe-1b-7b", "h100-sxm", moe, l, cl, recipe);
    EXPECT_EQ(deepspeed, size + " --framework deepspeed") << "the stack is part of the same prediction";
    // So is the gradients' type, and Megatron is told it when it is not Megatron's default.
    recipe = ParallelConfig{};
    recipe.gradDtype = "bf16";
    EXPECT_EQ(sizeCommand("olmoe-1b-7b", "h100-sxm", moe, l, cl, recipe), size + " --grad-dtype bf16");
    const auto bf16Grads = megatronArgs(moe, l, cl, recipe);
    EXPECT_NE(std::find(bf16Grads.begin(), bf16Grads.end(), "--grad-reduce-in-bf16"), bf16Grads.end());
    EXPECT_EQ(std::find(args.begin(), args.end(), "--grad-reduce-in-bf16"), args.end()) << "fp32 main grads by default";
}

// Shapes at their own best layouts: the base shape first, every shape's figures those of the top row
// of a search over that shape alone, and the Pareto flags those of markParetoFront.
TEST(Plan, ShapeSearchSizesEveryShapeAtItsBestLayout)
{
    const auto hw = device(80);
    ShapeSearchRequest req;
    req.sweep.base = loadPreset("olmoe-1b-7b"); // 64 experts top-8, width 1024
    req.sweep.experts = {16, 64};
    req.sweep.topK = {2, 8};
    req.sweep.sharedExperts = {0};
    req.sweep.hold = SweepHold::ActiveParams;
    req.sweep.decode.batch = 8;
    req.plan.base.hardware = hw;
    req.plan.cluster = {64, 8, 256, 4096};
    req.fix = "cp=1,pp=1|2,vpp=1,micro-batch=1|2,zero=1,dp-overlap=on";
    std::size_t ticks = 0;
    const auto res = runShapeSearch(req, Calibration{}, [&](std::size_t, std::size_t) { return ++ticks > 0; });
    // 4 shapes, one of them (64 experts top-8 holding its own active parameters) the base itself.
    ASSERT_EQ(res.rows.size(), 4u);
    EXPECT_EQ(ticks, 4u);
    EXPECT_TRUE(res.rows.front().base);
    EXPECT_EQ(res.rows.front().row.experts, 64);
    EXPECT_EQ(res.rows.front().row.topK, 8);
    std::vector<MoeSweepRow> rows;
    for (const auto& r : res.rows) {
        rows.push_back(r.row);
        ASSERT_TRUE(r.best) << r.row.experts << "x" << r.row.topK;
        EXPECT_GT(r.ranked, 0);
        EXPECT_GT(r.row.decodeSecondsPerToken, 0);
        // The same shape searched alone gives the same best step.
        PlanRequest alone = req.plan;
        alone.base.model = req.sweep.base;
        alone.base.model.moe.experts = r.row.experts;
        alone.base.model.moe.topK = r.row.topK;
        alone.base.model.moe.expertWidth = r.row.expertWidth;
        alone.base.model.moe.sharedWidth = r.row.expertWidth;
        alone.space = defaultSpace(alone.base.model, hw, alone.cluster, {});
        applyFix(alone.space, req.fix);
        alone.top = 1;
        const auto one = runPlan(alone, Calibration{});
        ASSERT_FALSE(one.top.empty());
        EXPECT_DOUBLE_EQ(one.top.front().step.stepSeconds, r.row.stepSeconds);
        EXPECT_EQ(toSpec(one.top.front().layout), toSpec(r.best->layout));
    }
    markParetoFront(rows);
    for (std::size_t i = 0; i < rows.size(); ++i)
        EXPECT_EQ(rows[i].pareto, res.rows[i].row.pareto);
    const auto verdict = placeBase(res);
    EXPECT_TRUE(verdict == "on the Pareto front" || verdict.rfind("dominated by ", 0) == 0) << verdict;
}

// A dense base through the same search: hidden x FFN multiple with the layer count solved, the base
// shape first and once, every row saying its hidden, FFN, layers and heads, and the verdict naming a
// dense shape when the base is dominated.
TEST(Plan, ShapeSearchTakesADenseBase)
{
    const auto hw = device(80);
    ShapeSearchRequest req;
    req.sweep.base = loadPreset("llama-3-8b"); // hidden 4096, FFN 14336 (3.5x), 32 layers, 32/8 heads
    req.sweep.decode.batch = 8;
    DenseSweepSpec dense;
    dense.base = req.sweep.base;
    dense.hidden = {2048, 4096};
    dense.ffnMultiples = {2.5, 3.5};
    dense.hold = SweepHold::TotalParams;
    req.dense = dense;
    req.plan.base.hardware = hw;
    req.plan.cluster = {64, 8, 256, 4096};
    req.fix = "cp=1,pp=1,vpp=1,micro-batch=1,recompute=none,zero=1,dp-overlap=on";
    std::size_t ticks = 0;
    const auto res = runShapeSearch(req, Calibration{}, [&](std::size_t, std::size_t) { return ++ticks > 0; });
    // 4 shapes; 4096 x 3.5 solves to the base's own 32 layers and is the base row.
    ASSERT_EQ(res.rows.size(), 4u);
    EXPECT_EQ(ticks, 4u);
    EXPECT_DOUBLE_EQ(res.heldValue, countParams(req.sweep.base).total());
    const auto& base = res.rows.front();
    EXPECT_TRUE(base.base);
    EXPECT_EQ(base.row.dModel, 4096);
    EXPECT_EQ(base.row.ffnWidth, 14336);
    EXPECT_EQ(base.row.layers, 32);
    EXPECT_EQ(base.row.heads, 32);
    EXPECT_EQ(base.row.kvHeads, 8);
    std::vector<MoeSweepRow> rows;
    for (const auto& r : res.rows) {
        rows.push_back(r.row);
        EXPECT_EQ(r.row.experts, 0);
        EXPECT_EQ(r.row.heads * 128, r.row.dModel);
        EXPECT_EQ(r.row.heads, 4 * r.row.kvHeads);
        EXPECT_NEAR(r.row.totalParams, res.heldValue, 0.03 * res.heldValue) << describeShape(r.row);
        ASSERT_TRUE(r.best) << describeShape(r.row);
        EXPECT_GT(r.row.tokensPerSecond, 0);
        EXPECT_GT(r.row.decodeSecondsPerToken, 0);
    }
    EXPECT_EQ(describeShape(base.row), "hidden 4096, FFN 14336, 32 layers, 32/8 heads");
    // The narrow shapes are deeper.
    EXPECT_GT(res.rows[1].row.layers, 32);
    markParetoFront(rows);
    for (std::size_t i = 0; i < rows.size(); ++i)
        EXPECT_EQ(rows[i].pareto, res.rows[i].row.pareto);
    const auto verdict = placeBase(res);
    EXPECT_TRUE(verdict == "on the Pareto front" || verdict.rfind("dominated by hidden ", 0) == 0) << verdict;
}

// FLOPs per token are held at the sequence the run trains at (the cluster's), not the preset's: the
// held value is the base's forward FLOPs at that sequence, and every shape's FLOPs, counted at it
// too, lie within half a layer of it.
TEST(Plan, DenseShapeSearchHoldsFlopsAtTheRunsSequence)
{
    ShapeSearchRequest req;
    req.sweep.base = loadPreset("llama-3-8b");
    req.sweep.decode.batch = 8;
    DenseSweepSpec dense;
    dense.base = req.sweep.base;
    dense.hidden = {2048, 4096};
    dense.ffnMultiples = {3.5};
    dense.hold = SweepHold::FlopsPerToken;
    req.dense = dense;
    req.plan.base.hardware = device(80);
    const int seq = 4 * req.sweep.base.seqLen; // attention's share of the FLOPs grows with it
    req.plan.cluster = {64, 8, 256, seq};
    req.fix = "cp=1,pp=1,vpp=1,micro-batch=1,recompute=full,zero=1,dp-overlap=on";
    const auto res = runShapeSearch(req, Calibration{}, [](std::size_t, std::size_t) { return true; });
    const double atRun = forwardFlopsPerToken(req.sweep.base, {seq, true}).forward();
    EXPECT_DOUBLE_EQ(res.heldValue, atRun);
    EXPECT_GT(atRun, 1.05 * forwardFlopsPerToken(req.sweep.base, {req.sweep.base.seqLen, true}).forward());
    ASSERT_EQ(res.rows.size(), 2u);
    EXPECT_EQ(res.rows.front().row.layers, 32); // the base shape solves to its own layers at any sequence
    const auto& narrow = res.rows[1].row;
    EXPECT_EQ(narrow.dModel, 2048);
    const double perLayer = atRun / 32 / 2; // at least: a 2048-wide layer is under half of a 4096-wide one
    EXPECT_LT(std::abs(narrow.flopsPerToken - atRun), perLayer) << describeShape(narrow);
}
