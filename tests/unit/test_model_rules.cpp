// Wave quantisation on known cases and every sizing rule with a passing and a failing config.
#include <algorithm>

#include <gtest/gtest.h>

#include "model/modelconfig.h"
#include "model/sizingreport.h"
#include "model/sizingrules.h"
#include "model/wavequantization.h"

using namespace rl::model;

TEST(WaveQuantization, KnownCasesOnMi300xAndH100)
{
    // 4096 x 4096 in 256x256 tiles: 256 tiles on 304 CUs leave 48 idle in the only wave.
    auto w = waveQuantization(4096, 4096, 304);
    EXPECT_EQ(w.tiles, 256);
    EXPECT_EQ(w.waves, 1);
    EXPECT_DOUBLE_EQ(w.efficiency(), 256.0 / 304);
    // 19 x 16 = 304 tiles: exactly one full wave.
    EXPECT_DOUBLE_EQ(waveQuantization(19 * 256, 4096, 304).efficiency(), 1.0);
    // 305 tiles need a second wave that is almost empty.
    w = waveQuantization(305 * 256, 256, 304);
    EXPECT_EQ(w.waves, 2);
    EXPECT_DOUBLE_EQ(w.waveEfficiency, 305.0 / 608);
    // H100: 132 SMs, 128x128 tiles, 32 x 33 = 1056 = 8 full waves.
    EXPECT_DOUBLE_EQ(waveQuantization(4096, 4224, 132, {128, 128}).efficiency(), 1.0);
    // A partial edge tile: M = 300 in 256-row tiles uses 2 tiles for 300 rows.
    w = waveQuantization(300, 256, 304);
    EXPECT_DOUBLE_EQ(w.tileEfficiency, 300.0 / 512);
    EXPECT_EQ(waveQuantization(0, 10, 304).tiles, 0);
}

namespace {
const RuleFinding& find(const std::vector<RuleFinding>& fs, const std::string& rule)
{
    auto it = std::find_if(fs.begin(), fs.end(), [&](const RuleFinding& f) { return f.rule == rule; });
    if (it == fs.end())
        throw std::runtime_error("no finding for " + rule);
    return *it;
}

ModelConfig llama() { return loadPreset("llama-3-8b"); }
} // namespace

TEST(SizingRules, HeadDim)
{
    auto c = llama();
    EXPECT_TRUE(find(checkSizingRules(c, {}), "head_dim").passed());
    c.headDim = 96;
    auto f = find(checkSizingRules(c, {}), "head_dim");
    EXPECT_EQ(f.severity, RuleSeverity::Warning);
    EXPECT_EQ(f.proposal, "64 or 128 (prefer 128)");
    c.headDim = 64;
    EXPECT_EQ(find(checkSizingRules(c, {}), "head_dim").severity, RuleSeverity::Info);
}

TEST(SizingRules, DModelMlpAndVocabMultiplesOf64TimesTp)
{
    auto c = llama();
    RuleOptions o;
    o.tp = 8;
    auto fs = checkSizingRules(c, o);
    EXPECT_TRUE(find(fs, "d_model").passed());
    EXPECT_TRUE(find(fs, "mlp_width").passed()); // 14336 = 28 · 512
    // Llama 3's 128256-token vocabulary does not split into 512-wide shards.
    EXPECT_FALSE(find(fs, "vocab").passed());
    EXPECT_EQ(find(fs, "vocab").proposal, "128000 or 128512");
    o.tp = 1;
    EXPECT_TRUE(find(checkSizingRules(c, o), "vocab").passed());
    c.dModel = 4000;
    c.mlpWidth = 11000;
    fs = checkSizingRules(c, o);
    EXPECT_EQ(find(fs, "d_model").proposal, "3968 or 4032");
    EXPECT_EQ(find(fs, "mlp_width").proposal, "10944 or 11008");
}

TEST(SizingRules, ExpertWidth)
{
    auto c = loadPreset("qwen3-30b-a3b");
    EXPECT_TRUE(find(checkSizingRules(c, {}), "expert_width").passed());
    c.moe.expertWidth = 1000;
    EXPECT_EQ(find(checkSizingRules(c, {}), "expert_width").proposal, "960 or 1024");
}

TEST(SizingRules, TokensAlignedToTile)
{
    RuleOptions o;
    o.seqLen = 4096;
    EXPECT_TRUE(find(checkSizingRules(llama(), o), "tokens_tile").passed());
    o.seqLen = 4000;
    EXPECT_EQ(find(checkSizingRules(llama(), o), "tokens_tile").proposal, "3840 or 4096");
}

TEST(SizingRules, HeadsAndKvHeadsOverTp)
{
    RuleOptions o;
    o.tp = 8;
    auto fs = checkSizingRules(llama(), o);
    EXPECT_TRUE(find(fs, "heads_tp").passed());
    EXPECT_TRUE(find(fs, "kv_heads_tp").passed());
    auto qwen2 = loadPreset("qwen2-7b"); // 28 heads, 4 KV heads
    fs = checkSizingRules(qwen2, o);
    EXPECT_FALSE(find(fs, "heads_tp").passed());
    EXPECT_EQ(find(fs, "kv_heads_tp").severity, RuleSeverity::Info); // replicated twice
    auto c = llama();
    c.kvHeads = 6;
    c.heads = 36;
    o.tp = 4;
    EXPECT_EQ(find(checkSizingRules(c, o), "kv_heads_tp").severity, RuleSeverity::Warning);
}

TEST(SizingRules, WaveQuantizationFindingStatesTheLoss)
{
    RuleOptions o; // 304 CUs, 256x256 tiles, 4096 tokens
    auto fs = checkSizingRules(llama(), o);
    const auto& attnOut = *std::find_if(fs.begin(), fs.end(), [](const RuleFinding& f) {
        return f.rule == "wave_quantization" && f.message.starts_with("attn_out");
    });
    EXPECT_FALSE(attnOut.passed());
    EXPECT_NE(attnOut.message.find("predicted loss 16 %"), std::string::npos) << attnOut.message;
    o.seqLen = 4864; // 19 row tiles x 16 column tiles = 304
    fs = checkSizingRules(llama(), o);
    const auto& full = *std::find_if(fs.begin(), fs.end(), [](const RuleFinding& f) {
        return f.rule == "wave_quantization" && f.message.starts_with("attn_out");
    });
    EXPECT_TRUE(full.passed()) << full.message;
}

TEST(SizingRules, ExpertTokens)
{
    RuleOptions o;
    EXPECT_TRUE(find(checkSizingRules(loadPreset("olmoe-1b-7b"), o), "expert_tokens").passed()); // 512
    const auto f = find(checkSizingRules(loadPreset("deepseek-v3"), o), "expert_tokens"); // 128
    EXPECT_FALSE(f.passed());
    EXPECT_EQ(f.proposal, "micro-batch >= 2, or fewer/larger experts, or more EP");
    o.ep = 2;
    EXPECT_TRUE(find(checkSizingRules(loadPreset("deepseek-v3"), o), "expert_tokens").passed());
}

TEST(SizingRules, FindFastWidthRanksByEfficiency)
{
    RuleOptions o;
    const int target = 10923; // 8/3 · 4096
    const auto cands = findFastWidths(target, 4096, 4096, true, o);
    ASSERT_FALSE(cands.empty());
    for (std::size_t i = 1; i < cands.size(); ++i)
        EXPECT_GE(cands[i - 1].efficiency + 1e-12, cands[i].efficiency);
    for (const auto& c : cands) {
        EXPECT_EQ(c.width % 64, 0);
        EXPECT_LE(std::abs(c.width - target), 512 + 64);
    }
    EXPECT_GT(cands.front().efficiency, cands.back().efficiency);
    // A measurement that favours one width puts it first.
    MeasuredGemmEfficiency meas;
    for (const auto& c : cands)
        meas.addPoint(4096, 2.0 * c.width, 4096, c.width == 11264 ? 0.95 : 0.5);
    for (const auto& c : cands)
        meas.addPoint(4096, 4096, c.width, c.width == 11264 ? 0.95 : 0.5);
    const auto measured = findFastWidths(target, 4096, 4096, true, o, &meas);
    EXPECT_EQ(measured.front().width, 11264);
    EXPECT_TRUE(measured.front().measured);
}

// Issue 24 item 8: a layout that does not fit says so among the rules, not only in the memory
// cell, with the figures of memoryFitProblem; one that fits passes with what it uses.
TEST(SizingRules, MemoryRuleWarnsWhenTheLayoutCannotRun)
{
    rl::model::StepEstimate step;
    const double gib = 1ull << 30;
    step.memoryCapacity = 80 * gib; // an 80 GiB device
    step.memory.weights = 40 * gib;
    step.memory.activations = 40 * gib; // 80 GiB needed, (80 - 0.75) / 1.05 = 75.5 GiB usable
    auto f = rl::model::memoryFinding(step);
    EXPECT_EQ(f.rule, "memory");
    EXPECT_EQ(f.severity, rl::model::RuleSeverity::Warning);
    EXPECT_NE(f.message.find("does not fit: 80 GiB needed, 75.5 GiB usable of 80 GiB"), std::string::npos) << f.message;
    EXPECT_NE(f.message.find("this layout cannot run"), std::string::npos) << f.message;
    EXPECT_NE(f.proposal.find("ridgeline-cli plan"), std::string::npos);

    step.memory.activations = 20 * gib; // 60 GiB
    f = rl::model::memoryFinding(step);
    EXPECT_TRUE(f.passed());
    EXPECT_EQ(f.message, "memory per GPU 60 GiB of 75.5 GiB usable");
}
