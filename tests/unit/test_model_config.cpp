// Loading HF config.json and our own format, with broken inputs that must fail with the file named.
#include <cstdio>
#include <filesystem>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "model/modelconfig.h"
#include "tempdir.h"

using namespace rl::model;

namespace {
std::string data(const char* name) { return std::string(RIDGELINE_TEST_DATA) + "/model/" + name; }

std::string errorOf(const std::string& path)
{
    try {
        loadModelConfigFile(path);
    } catch (const std::exception& e) {
        return e.what();
    }
    return {};
}
} // namespace

TEST(ModelConfig, PresetsAllLoad)
{
    const auto names = presetNames();
    ASSERT_GE(names.size(), 9u);
    for (const auto& n : names) {
        const auto c = loadPreset(n);
        EXPECT_GT(c.layers, 0) << n;
        EXPECT_EQ(c.name, n);
    }
}

TEST(ModelConfig, FamiliesAreReadWithTheirOwnKeys)
{
    const auto ds = loadPreset("deepseek-v3");
    EXPECT_EQ(ds.attention, AttentionType::Mla);
    EXPECT_EQ(ds.mla.kvLoraRank, 512);
    EXPECT_EQ(ds.qkHeadDim(), 192);
    EXPECT_EQ(ds.moe.firstKDense, 3);
    EXPECT_EQ(ds.moe.sharedExperts, 1);
    EXPECT_TRUE(ds.moe.routerBias);
    EXPECT_EQ(ds.mtpLayers, 1);
    const auto mix = loadPreset("mixtral-8x7b");
    EXPECT_EQ(mix.moe.experts, 8);
    EXPECT_EQ(mix.moe.expertWidth, 14336);
    EXPECT_EQ(mix.slidingWindow, 0); // "sliding_window": null
    EXPECT_EQ(loadPreset("mistral-7b-v0.1").slidingWindow, 4096);
    EXPECT_EQ(loadPreset("qwen2-7b").slidingWindow, 0); // use_sliding_window false
    EXPECT_TRUE(loadPreset("qwen2-7b").qkvBias);
    const auto q3 = loadPreset("qwen3-30b-a3b");
    EXPECT_EQ(q3.headDim, 128); // != 2048 / 32
    EXPECT_TRUE(q3.qkNorm);
    EXPECT_EQ(q3.moe.expertWidth, 768);
}

TEST(ModelConfig, MultimodalGemmaReadsTextConfig)
{
    const auto c = loadModelConfigFile(data("gemma3_multimodal.json"));
    EXPECT_EQ(c.dModel, 5376);
    EXPECT_EQ(c.layers, 62);
    EXPECT_EQ(c.slidingPattern, 6);
    EXPECT_TRUE(c.tiedEmbeddings);
    EXPECT_EQ(c.normsPerLayer, 4);
    EXPECT_EQ(c.name, "gemma3_multimodal");
}

TEST(ModelConfig, OwnFormatRoundTrips)
{
    for (const char* name : {"deepseek-v3", "zaya1-base"}) {
        const auto orig = loadPreset(name);
        rl::test::TempDir dir;
        const auto path = (dir.path / "roundtrip.json").string();
        saveModelConfigFile(orig, path);
        const auto back = loadModelConfigFile(path);
        EXPECT_EQ(toJson(back), toJson(orig)) << name;
    }
}

TEST(ModelConfig, Zaya1CcaSkipExpertAndRouterAreRead)
{
    const auto z = loadPreset("zaya1-base");
    EXPECT_EQ(z.family, "zaya");
    EXPECT_EQ(z.attention, AttentionType::Cca);
    EXPECT_EQ(z.ccaChannels(), 1280); // q latent 1024 + k latent 256
    EXPECT_EQ(z.cca.convKernel0, 2);
    EXPECT_EQ(z.cca.convKernel1, 2);
    EXPECT_EQ(z.qkHeadDim(), 128);
    EXPECT_EQ(z.vHeadDim(), 128);
    EXPECT_EQ(z.moe.skipExperts, 1);
    EXPECT_EQ(z.moe.routerHidden, 256);
    EXPECT_TRUE(z.residualScaling);
    EXPECT_TRUE(z.tiedEmbeddings);
    // Only a model that has them writes the new keys: other presets' files and JSON are unchanged.
    const auto ds = toJson(loadPreset("deepseek-v3"));
    EXPECT_FALSE(ds.contains("cca"));
    EXPECT_FALSE(ds.contains("residual_scaling"));
    EXPECT_FALSE(ds["moe"].contains("skip_experts"));
    EXPECT_FALSE(ds["moe"].contains("router_hidden"));
}

TEST(ModelConfig, BrokenFilesNameTheFileAndWhere)
{
    for (const char* f : {"truncated.json", "empty.json", "binary.json"}) {
        const auto err = errorOf(data(f));
        EXPECT_NE(err.find(f), std::string::npos) << err;
        EXPECT_NE(err.find("malformed JSON at byte"), std::string::npos) << err;
    }
    EXPECT_NE(errorOf(data("missing_field.json")).find("'intermediate_size'"), std::string::npos);
    EXPECT_NE(errorOf(data("bad_gqa.json")).find("not a multiple of num_key_value_heads"), std::string::npos);
    EXPECT_NE(errorOf(data("not_an_object.json")).find("not a JSON object"), std::string::npos);
    EXPECT_NE(errorOf(data("does_not_exist.json")).find("cannot open"), std::string::npos);
}

TEST(ModelConfig, UnknownPresetListsKnownOnes)
{
    try {
        loadModelConfig("llama-9-1t");
        FAIL() << "expected an error";
    } catch (const std::exception& e) {
        EXPECT_NE(std::string(e.what()).find("llama-3-8b"), std::string::npos);
    }
}

// "mistral.json" that is not there was meant as a file: it is reported as one, with the presets.
TEST(ModelConfig, AMissingFileIsNotCalledAnUnknownPreset)
{
    for (const std::string missing : {"mistral.json", "configs/llama"}) {
        try {
            loadModelConfig(missing);
            FAIL() << "expected an error";
        } catch (const std::exception& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find(missing + ": no such file"), std::string::npos) << what;
            EXPECT_EQ(what.find("unknown model preset"), std::string::npos) << what;
            EXPECT_NE(what.find("mistral-7b-v0.1"), std::string::npos) << what;
        }
    }
}

TEST(ModelConfig, MoeLayerPlacement)
{
    ModelConfig c = loadPreset("mixtral-8x7b");
    c.moe.everyN = 2;
    c.mlpWidth = 14336;
    EXPECT_FALSE(c.isMoeLayer(0));
    EXPECT_TRUE(c.isMoeLayer(1));
    EXPECT_EQ(c.moeLayerCount(), 16);
    c.moe.firstKDense = 4;
    EXPECT_EQ(c.moeLayerCount(), 14);
}

TEST(ModelConfig, LayerCountsMatchPerLayerPredicates)
{
    ModelConfig c = loadPreset("mixtral-8x7b");
    c.mlpWidth = 14336;
    for (int layers : {1, 7, 32, 61})
        for (int n : {1, 2, 3, 6})
            for (int first : {0, 1, 3, 5}) {
                c.layers = layers;
                c.moe.everyN = n;
                c.moe.firstKDense = first;
                c.slidingWindow = 512;
                c.slidingPattern = n == 1 ? 0 : n;
                int moe = 0, sliding = 0;
                for (int i = 0; i < layers; ++i) {
                    moe += c.isMoeLayer(i);
                    sliding += c.isSlidingLayer(i);
                }
                EXPECT_EQ(c.moeLayerCount(), moe) << layers << " " << n << " " << first;
                EXPECT_EQ(c.slidingLayerCount(), sliding) << layers << " " << n << " " << first;
            }
}
