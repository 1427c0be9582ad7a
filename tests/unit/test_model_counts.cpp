// Parameter counts and FLOPs of published models, from the shipped config.json presets.
#include <cmath>

#include <gtest/gtest.h>

#include "model/modelconfig.h"
#include "model/modelcounts.h"

using namespace rl::model;

namespace {
double relErr(double got, double want) { return std::abs(got - want) / want; }
} // namespace

TEST(ModelCounts, Llama3_8BMatchesPublishedAndExactCheckpointCount)
{
    const auto p = countParams(loadPreset("llama-3-8b"));
    EXPECT_EQ(p.total(), 8'030'261'248.0); // sum of the safetensors shapes
    EXPECT_LT(relErr(p.total(), 8.03e9), 0.005);
    EXPECT_EQ(p.active(), p.total());
    EXPECT_EQ(p.experts, 0.0);
    EXPECT_EQ(p.embedding, 128256.0 * 4096);
    EXPECT_EQ(p.output, p.embedding);
}

TEST(ModelCounts, Mixtral8x7BTotalAndActive)
{
    const auto p = countParams(loadPreset("mixtral-8x7b"));
    EXPECT_EQ(p.total(), 46'702'792'704.0);
    EXPECT_LT(relErr(p.total(), 46.7e9), 0.005);
    EXPECT_LT(relErr(p.active(), 12.9e9), 0.005);
    EXPECT_EQ(p.router, 32.0 * 4096 * 8);
}

TEST(ModelCounts, OlmoeTotalAndActive)
{
    const auto p = countParams(loadPreset("olmoe-1b-7b"));
    EXPECT_LT(relErr(p.total(), 6.9e9), 0.005);
    // 6,919,161,856 in the checkpoint (q_norm 2048 + k_norm 2048 per layer).
    EXPECT_EQ(p.total(), 6'919'161'856.0);
    // Published "1.3B active" is rounded to two digits: the shapes give 1.2819B.
    EXPECT_NEAR(p.active(), 1.2819e9, 0.0005e9);
    EXPECT_NEAR(p.active() / 1e9, 1.3, 0.05);
}

TEST(ModelCounts, Qwen3_30B_A3BTotalAndActive)
{
    const auto c = loadPreset("qwen3-30b-a3b");
    const auto p = countParams(c);
    EXPECT_LT(relErr(p.total(), 30.5e9), 0.005);
    EXPECT_EQ(p.total(), 30'532'122'624.0);
    // Model card: "29.9B non-embedding" (both embedding matrices excluded).
    EXPECT_LT(relErr(p.total() - p.embedding - p.output, 29.9e9), 0.005);
    // "3.3B activated" is truncated from 3.35B.
    EXPECT_NEAR(p.active(), 3.3527e9, 0.001e9);
}

TEST(ModelCounts, DeepSeekV3MainModelMtpAndActive)
{
    const auto c = loadPreset("deepseek-v3");
    EXPECT_EQ(c.moeLayerCount(), 58);
    const auto p = countParams(c);
    EXPECT_LT(relErr(p.total(), 671e9), 0.005);
    // DeepSeek's README_WEIGHTS: 36.6B activated (input embedding excluded, 0.9B head included).
    EXPECT_LT(relErr(p.activeExclEmbedding(), 36.6e9), 0.005);
    EXPECT_NEAR(p.activeExclEmbedding() / 1e9, 37, 0.5);
    // 11.5B unique MTP parameters; the 685B checkpoint holds the MTP module with its own copies
    // of the embedding and head.
    EXPECT_LT(relErr(p.mtp, 11.5e9), 0.011);
    EXPECT_LT(relErr(p.total() + p.mtp + p.embedding + p.output, 685e9), 0.005);
}

TEST(ModelCounts, Gemma3_1BTiedEmbeddingsAndSlidingLayers)
{
    const auto c = loadPreset("gemma-3-1b");
    EXPECT_TRUE(c.tiedEmbeddings);
    EXPECT_EQ(c.slidingLayerCount(), 22); // layers 6, 12, 18, 24 are global
    const auto p = countParams(c);
    EXPECT_EQ(p.output, 0.0);
    EXPECT_EQ(p.total(), 999'885'952.0);
}

// ZAYA1-base ("760M active, 8.3B total", Anthony et al. 2025, arXiv:2511.17127): 80 blocks
// alternating CCA attention and MoE, here 40 layers of both. Both published figures leave out the
// tied 262,272 x 2048 embedding: with it the checkpoint holds 8.84B.
TEST(ModelCounts, Zaya1BaseTotalAndActiveWithoutEmbedding)
{
    const auto c = loadPreset("zaya1-base");
    EXPECT_EQ(c.attention, AttentionType::Cca);
    EXPECT_EQ(c.layers, 40);
    EXPECT_EQ(c.moeLayerCount(), 40);
    const auto p = countParams(c);
    EXPECT_EQ(p.output, 0.0);
    EXPECT_EQ(p.embedding, 262272.0 * 2048);
    // Per attention block, from modeling_zaya.py's shapes: q 2048x1024, k 2048x256, two values
    // 2048x128, o 1024x2048; conv_qk depthwise 1280x2 and grouped 1280x128x2, each with 1280
    // biases; 2 temperatures.
    EXPECT_EQ(p.attention, 40 * (5'242'880.0 + 2560 + 327'680 + 2 * 1280 + 2));
    // Router: 2048x256 + 256 bias, RMSNorm 256, depth scale 256, two 256x256 + 256, 256x17 logits
    // (16 experts and the skip expert).
    EXPECT_EQ(p.router, 40 * 660'992.0);
    EXPECT_EQ(p.experts, 40 * 16 * 3.0 * 2048 * 2048);
    // Input norms 80 x 2048, residual scaling 79 x 4 x 2048 + 2 x 2048 (first block) + 4 x 2048
    // (final merge), final norm 2048.
    EXPECT_EQ(p.norms, 825'344.0);
    // The checkpoint's sum of shapes is 256 lower: the first MoE layer's router has no depth scale.
    EXPECT_EQ(p.total(), 8'840'489'040.0);
    EXPECT_LT(relErr(p.total() - p.embedding, 8.3e9), 0.005);
    // "760M active" is rounded: the shapes give 753.6M (attention, norms, router, one expert).
    EXPECT_NEAR(p.activeExclEmbedding(), 753.6e6, 0.05e6);
    EXPECT_LT(relErr(p.activeExclEmbedding(), 760e6), 0.01);
}

TEST(ModelCounts, Qwen2BiasAndMistral)
{
    EXPECT_LT(relErr(countParams(loadPreset("qwen2-7b")).total(), 7.6156e9), 0.005);
    EXPECT_LT(relErr(countParams(loadPreset("mistral-7b-v0.1")).total(), 7.2417e9), 0.005);
    EXPECT_LT(relErr(countParams(loadPreset("qwen3-8b")).total(), 8.19e9), 0.005);
}

// Narayanan et al. 2021, eq. for a GPT with h, l, s, V and a 4h GELU MLP: training FLOPs per
// iteration 72·B·s·l·h²·(1 + s/6h + V/12lh) without recompute, 96·B·s·l·h²·(1 + s/6h + V/16lh)
// with full recompute (the logit layer is not recomputed).
TEST(ModelFlops, MegatronFormulaCrossCheck)
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
    const double B = 1, s = 2048, l = 96, h = 12288, V = 51200;
    const auto fwd = forwardFlopsPerToken(c, {2048, false});
    const auto none = trainingFlopsPerToken(fwd, Recompute::None);
    const auto full = trainingFlopsPerToken(fwd, Recompute::Full);
    const double megatron72 = 72 * B * s * l * h * h * (1 + s / (6 * h) + V / (12 * l * h));
    const double megatron96 = 96 * B * s * l * h * h * (1 + s / (6 * h) + V / (16 * l * h));
    EXPECT_LT(relErr(none.model * s, megatron72), 1e-12);
    EXPECT_LT(relErr(full.hardware * s, megatron96), 1e-12);
    EXPECT_EQ(full.model, none.model); // recompute never changes model FLOPs
}

TEST(ModelFlops, CausalHalvesScoresAndWindowCapsThem)
{
    EXPECT_DOUBLE_EQ(meanContext(4096, 0, true), 2048.5);
    EXPECT_DOUBLE_EQ(meanContext(4096, 0, false), 4096);
    EXPECT_DOUBLE_EQ(meanContext(4096, 1024, false), 1024);
    // Positions 1..4 see 1..4 keys, positions 5..8 see 4: (10 + 16) / 8.
    EXPECT_DOUBLE_EQ(meanContext(8, 4, true), 26.0 / 8);
    const auto llama = loadPreset("llama-3-8b");
    const auto f = forwardFlopsPerToken(llama, {8192, true});
    EXPECT_DOUBLE_EQ(f.attentionScores, 32 * 2.0 * 32 * 256 * 4096.5);
    EXPECT_DOUBLE_EQ(f.output, 2.0 * 4096 * 128256);
    // Dense: every matmul parameter once, times 2.
    const auto p = countParams(llama);
    EXPECT_DOUBLE_EQ(f.attentionProj + f.mlp + f.output, 2 * p.matmulActive());
}

TEST(ModelFlops, MoeCountsTopKExpertsAndRouter)
{
    const auto c = loadPreset("mixtral-8x7b");
    const auto f = forwardFlopsPerToken(c, {4096, true});
    EXPECT_DOUBLE_EQ(f.mlp, 32 * 2 * 2 * 3.0 * 4096 * 14336);
    EXPECT_DOUBLE_EQ(f.router, 32 * 2.0 * 4096 * 8);
    const auto sel = trainingFlopsPerToken(f, Recompute::Selective);
    EXPECT_DOUBLE_EQ(sel.hardware - sel.model, f.attentionScores);
}

// ZAYA1-base: FLOPs follow the matmul weights a token passes through; CCA's per-channel weights
// (depthwise kernel, biases, temperatures) and the router's biases and norms, like all norms, have
// parameters but no FLOPs. Scores run at CCA's compressed width: 8 query heads of 128.
TEST(ModelFlops, Zaya1BaseFollowsActiveParams)
{
    const auto c = loadPreset("zaya1-base");
    const auto f = forwardFlopsPerToken(c, {4096, true});
    const auto p = countParams(c);
    EXPECT_NEAR((f.forward() - f.attentionScores) / (2 * p.matmulActive()), 1.0, 1e-3);
    EXPECT_DOUBLE_EQ(f.attentionProj, 40 * 2.0 * (2048.0 * (8 + 2 * 2) * 128 + 1024 * 2048 + 1280 * 128 * 2));
    EXPECT_DOUBLE_EQ(f.attentionScores, 40 * 2.0 * 8 * (128 + 128) * 2048.5);
    EXPECT_DOUBLE_EQ(f.router, 40 * 2.0 * (2048 * 256 + 2 * 256 * 256 + 256 * 17));
    EXPECT_DOUBLE_EQ(f.mlp, 40 * 2.0 * 3 * 2048 * 2048); // top-1: no token counted on the skip expert
    EXPECT_DOUBLE_EQ(f.output, 2.0 * 2048 * 262272); // the tied embedding as LM head
    // Without the head, training FLOPs per token are about 6 x the active non-embedding parameters.
    EXPECT_NEAR(3 * (f.forward() - f.output - f.attentionScores) / (6 * p.activeExclEmbedding()), 1.0, 0.005);
}
