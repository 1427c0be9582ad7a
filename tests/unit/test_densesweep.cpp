// The dense shape sweep (model/densesweep.h): a hand-computed sweep around a small base, the held
// quantity within rounding, heads legal, and the errors a user meets.
#include <gtest/gtest.h>

#include <cmath>

#include "model/densesweep.h"
#include "model/modelcounts.h"

using namespace rl::model;

namespace {
// 8 layers of hidden 1024, 8 query / 2 KV heads of 128, SwiGLU 4096, vocab 32,000 untied. By hand,
// per layer: attention 1024·1024 (q) + 2·1024·256 (k, v) + 1024·1024 (o) = 2,621,440; MLP
// 3·1024·4096 = 12,582,912; norms 2·1024 = 2,048; 15,206,400 in all. Embedding and output
// 2·32,000·1024 = 65,536,000, the final norm 1,024: 187,188,224 parameters.
ModelConfig base()
{
    ModelConfig c;
    c.name = "hand";
    c.family = "llama";
    c.layers = 8;
    c.dModel = 1024;
    c.heads = 8;
    c.kvHeads = 2;
    c.headDim = 128;
    c.mlp = MlpType::SwiGlu;
    c.mlpWidth = 4096;
    c.vocab = 32000;
    return c;
}

constexpr double kBaseParams = 187'188'224;

struct Shape
{
    int hidden, ffn, layers, heads, kvHeads;
};
} // namespace

TEST(DenseShapeSweep, BaseParamsAreTheHandCountedOnes)
{
    EXPECT_DOUBLE_EQ(countParams(base()).total(), kBaseParams);
    DenseSweepSpec spec;
    spec.base = base();
    EXPECT_DOUBLE_EQ(denseHeldValue(spec), kBaseParams);
}

// hidden {512, 1024, 2048, 4096} x FFN {2, 4} x hidden, the layer count solved for the total
// parameters. By hand (per-layer and embedding parameters as above, at each width):
//   512:  per layer 655,360 attention + 3·512·f + 1,024; embeddings 32,768,512
//         f 1024 -> 154,419,712 / 2,229,248 = 69.3 -> 69;  f 2048 -> / 3,802,112 = 40.6 -> 41
//   1024: f 2048 -> 121,651,200 / 8,914,944 = 13.6 -> 14;  f 4096 -> 8 (the base)
//   2048: embeddings 131,074,048; f 4096 -> 56,114,176 / 35,655,680 = 1.57 -> 2;  f 8192 -> / 60,821,504 = 0.92 -> 1
//   4096: embeddings 262 M alone exceed the budget: both left out.
TEST(DenseShapeSweep, SolvesTheLayerCountForTheTotalParameters)
{
    DenseSweepSpec spec;
    spec.base = base();
    spec.hidden = {512, 1024, 2048, 4096};
    spec.ffnMultiples = {2, 4};
    spec.hold = SweepHold::TotalParams;
    const auto shapes = denseSweepShapes(spec);
    const Shape expected[] = {{512, 1024, 69, 4, 1},  {512, 2048, 41, 4, 1},  {1024, 2048, 14, 8, 2},
                              {1024, 4096, 8, 8, 2},  {2048, 4096, 2, 16, 4}, {2048, 8192, 1, 16, 4}};
    ASSERT_EQ(shapes.size(), std::size(expected));
    for (std::size_t i = 0; i < shapes.size(); ++i) {
        const auto& c = shapes[i];
        const auto& e = expected[i];
        EXPECT_EQ(c.dModel, e.hidden) << i;
        EXPECT_EQ(c.mlpWidth, e.ffn) << i;
        EXPECT_EQ(c.layers, e.layers) << i;
        EXPECT_EQ(c.heads, e.heads) << i;
        EXPECT_EQ(c.kvHeads, e.kvHeads) << i;
        EXPECT_EQ(c.headDim, 128) << i; // the base's head dim
        EXPECT_EQ(c.heads * c.headDim, c.dModel) << i;
        EXPECT_EQ(c.heads % c.kvHeads, 0) << i;
        EXPECT_EQ(c.vocab, 32000) << i;
        // Held within rounding: at most half a layer's parameters off the base's.
        ModelConfig one = c;
        one.layers = 1;
        ModelConfig two = c;
        two.layers = 2;
        const double perLayer = countParams(two).total() - countParams(one).total();
        EXPECT_LE(std::abs(countParams(c).total() - kBaseParams), perLayer / 2 + 1) << i;
    }
    // ActiveParams is the same budget for a dense model.
    spec.hold = SweepHold::ActiveParams;
    EXPECT_EQ(denseSweepShapes(spec).size(), std::size(expected));
}

// Layer counts given: the FFN width is solved instead, rounded to 64. By hand at hidden 1024:
// 4 layers -> (121,651,200 / 4 - 2,623,488) / 3,072 = 9,045.6 -> 9,024 (141 x 64);
// 16 layers -> (121,651,200 / 16 - 2,623,488) / 3,072 = 1,621 -> 1,600 (25 x 64).
TEST(DenseShapeSweep, SolvesTheFfnWidthWhenTheLayersAreGiven)
{
    DenseSweepSpec spec;
    spec.base = base();
    spec.hidden = {1024};
    spec.layers = {4, 16};
    const auto shapes = denseSweepShapes(spec);
    ASSERT_EQ(shapes.size(), 2u);
    EXPECT_EQ(shapes[0].layers, 4);
    EXPECT_EQ(shapes[0].mlpWidth, 9024);
    EXPECT_EQ(shapes[1].layers, 16);
    EXPECT_EQ(shapes[1].mlpWidth, 1600);
}

// FLOPs per token held, and nothing held (three typed axes).
TEST(DenseShapeSweep, HoldsFlopsOrSweepsAllThreeAxes)
{
    DenseSweepSpec spec;
    spec.base = base();
    spec.hidden = {512, 2048};
    spec.ffnMultiples = {4};
    spec.hold = SweepHold::FlopsPerToken;
    const double target = denseHeldValue(spec);
    EXPECT_DOUBLE_EQ(target, forwardFlopsPerToken(base(), {base().seqLen, true}).forward());
    const auto shapes = denseSweepShapes(spec);
    ASSERT_EQ(shapes.size(), 2u);
    for (const auto& c : shapes) {
        ModelConfig one = c;
        one.layers = 1;
        ModelConfig two = c;
        two.layers = 2;
        const double perLayer = denseHeldValueOf(two, spec.hold) - denseHeldValueOf(one, spec.hold);
        EXPECT_LE(std::abs(denseHeldValueOf(c, spec.hold) - target), perLayer / 2 + 1) << c.dModel;
    }
    EXPECT_GT(shapes[0].layers, shapes[1].layers); // narrower: deeper

    // At a longer sequence attention's scores weigh more: the budget is counted there.
    spec.seqLen = 4 * base().seqLen;
    EXPECT_DOUBLE_EQ(denseHeldValue(spec), forwardFlopsPerToken(base(), {spec.seqLen, true}).forward());
    EXPECT_GT(denseHeldValue(spec), target);
    for (const auto& c : denseSweepShapes(spec)) {
        ModelConfig one = c;
        one.layers = 1;
        ModelConfig two = c;
        two.layers = 2;
        const double perLayer = denseHeldValueOf(two, spec.hold, spec.seqLen) - denseHeldValueOf(one, spec.hold, spec.seqLen);
        EXPECT_LE(std::abs(denseHeldValueOf(c, spec.hold, spec.seqLen) - denseHeldValue(spec)), perLayer / 2 + 1)
            << c.dModel;
    }
    spec.seqLen = 0;

    spec.hold = SweepHold::None;
    spec.ffnMultiples.clear();
    spec.ffnWidths = {2048, 4096, 8192};
    spec.layers = {4, 8};
    EXPECT_EQ(denseSweepShapes(spec).size(), 2u * 3u * 2u);
}

TEST(DenseShapeSweep, HeadsKeepTheBaseHeadDimAndKvRatio)
{
    // One KV head per 512 of hidden: 4 query heads of 128 each.
    EXPECT_EQ(denseHiddenStep(base()), 512);
    const auto h = denseHeads(base(), 3072);
    EXPECT_EQ(h.heads, 24);
    EXPECT_EQ(h.kvHeads, 6);
    EXPECT_EQ(h.headDim, 128);
    try {
        denseHeads(base(), 768); // 6 query heads cannot share KV heads 4 to 1
        FAIL() << "768 has no legal heads";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("hidden 768 is not a multiple of 512"), std::string::npos) << e.what();
    }
    EXPECT_EQ(defaultDenseHidden(base()), (std::vector<int>{512, 1024, 1536})); // 0.5x .. 1.5x on the 512 grid
}

TEST(DenseShapeSweep, SaysWhatIsWrongWithTheAxes)
{
    DenseSweepSpec spec;
    spec.base = base();
    spec.hidden = {1024};
    EXPECT_THROW(denseSweepShapes(spec), std::invalid_argument); // no FFN axis, nothing to solve the layers with
    spec.ffnWidths = {4096};
    spec.ffnMultiples = {4};
    EXPECT_THROW(denseSweepShapes(spec), std::invalid_argument); // widths and multiples
    spec.ffnMultiples.clear();
    spec.layers = {8};
    EXPECT_THROW(denseSweepShapes(spec), std::invalid_argument); // both FFN and layers with a held quantity
    spec.layers.clear();
    spec.hidden = {1000};
    EXPECT_THROW(denseSweepShapes(spec), std::invalid_argument); // no legal heads
    spec.hidden = {1024};
    spec.base.moe.experts = 8;
    spec.base.moe.topK = 2;
    spec.base.moe.expertWidth = 1024;
    EXPECT_THROW(denseSweepShapes(spec), std::invalid_argument); // a MoE base
    EXPECT_EQ(parseSweepMultiples("2.67, 3.5,4", "--ffn-mult"), (std::vector<double>{2.67, 3.5, 4}));
    for (const char* bad : {"", "x", "2,,3", "0", "-1", "65", "nan"})
        EXPECT_THROW(parseSweepMultiples(bad, "--ffn-mult"), std::invalid_argument) << bad;
}

TEST(DenseShapeSweep, DescribesTheShape)
{
    EXPECT_EQ(describeDenseShape(4096, 14336, 32, 32, 8), "hidden 4096, FFN 14336, 32 layers, 32/8 heads");
}

// The CSV of a dense shape search's rows names their dimensions, not the MoE columns.
TEST(DenseShapeSweep, CsvOfDenseRowsHasTheirDimensions)
{
    MoeSweepResult r;
    MoeSweepRow row;
    row.dModel = 4096;
    row.ffnWidth = 14336;
    row.layers = 32;
    row.heads = 32;
    row.kvHeads = 8;
    r.rows = {row};
    const auto csv = toCsv(r);
    EXPECT_EQ(csv.rfind(R"("hidden","ffn_width","layers","heads","kv_heads","total_params",)", 0), 0u) << csv;
    EXPECT_NE(csv.find("\r\n\"4096\",\"14336\",\"32\",\"32\",\"8\","), std::string::npos) << csv;
    r.rows.front().experts = 8; // a MoE row: the MoE columns as before
    EXPECT_EQ(toCsv(r).rfind(R"("experts","top_k","shared_experts","expert_width","total_params",)", 0), 0u);
}
