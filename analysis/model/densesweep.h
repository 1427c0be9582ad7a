#pragma once
// Dense shape sweep: hidden size (d_model) x FFN width (typed, or a multiple of the hidden size)
// around a dense base model, with the remaining dimension solved so that the total parameters (for
// a dense model also the active ones) or the forward FLOPs per token stay at the base's value:
// - no layer counts given: the layer count is solved (rounded to the nearest whole layer);
// - layer counts given: the FFN width is solved (rounded to the nearest widthMultiple);
// - SweepHold::None: hidden x FFN x layers as typed (layers default to the base's).
// Attention keeps the base's head dim; its heads grow with the hidden size (denseHeads).
// The shapes feed plan::runShapeSearch (each at its own best layout) as the MoE sweep's do.
#include <string>
#include <string_view>
#include <vector>

#include "model/moesweep.h"

namespace rl::model {

struct DenseSweepSpec
{
    ModelConfig base;                 // dense: moe.experts == 0
    std::vector<int> hidden;          // d_model values; each a multiple of denseHiddenStep(base)
    std::vector<int> ffnWidths;       // FFN widths as typed, or
    std::vector<double> ffnMultiples; // FFN widths as multiples of the hidden size (rounded to widthMultiple)
    std::vector<int> layers;          // given: the FFN width is solved instead of the layer count
    SweepHold hold = SweepHold::TotalParams; // ActiveParams is TotalParams for a dense model
    int widthMultiple = 64;
    // The sequence the forward FLOPs (their attention scores grow with it) are held at: the run's,
    // which plan::runShapeSearch sets from its cluster; 0: the base's seqLen.
    int seqLen = 0;
};

// The heads a hidden size gets: heads grow with it at the base's head dim, so the base's heads per
// hidden width and query heads per KV head are kept (Llama-3-8B: 32/8 heads of 128 per 4096, one
// KV head per 512 of hidden). A hidden size must be a multiple of denseHiddenStep (0: the base has no
// heads); denseHeads throws std::invalid_argument ("hidden 3000 is not a multiple of 512: ...")
// otherwise.
int denseHiddenStep(const ModelConfig& base);
struct DenseHeads
{
    int heads = 0, kvHeads = 0, headDim = 0;
};
DenseHeads denseHeads(const ModelConfig& base, int hidden);

// The base's value of the held quantity: countParams(base).total(), or the forward FLOPs per token
// (attention scores included) at spec.seqLen; 0 for SweepHold::None.
double denseHeldValue(const DenseSweepSpec& spec);
// The held quantity of any shape, as denseHeldValue measures the base's (seqLen 0: c.seqLen).
double denseHeldValueOf(const ModelConfig& c, SweepHold hold, int seqLen = 0);

// The shapes, in hidden x FFN (x layers) order, the base's other fields (vocab, norms, attention
// kind, sequence) kept. A shape whose solved layer count rounds below 1, or whose solved FFN width
// below widthMultiple, cannot hold the budget and is left out. Throws std::invalid_argument for a
// MoE base, empty axes, both FFN widths and multiples, FFN axes with layers under a held quantity
// (one of them is solved), or a hidden size with no legal heads.
std::vector<ModelConfig> denseSweepShapes(const DenseSweepSpec& spec);

// What a dense sweep offers when no hidden sizes are typed: 0.5x to 1.5x the base's hidden size in
// quarters, each rounded to the nearest multiple of denseHiddenStep, without repeats.
std::vector<int> defaultDenseHidden(const ModelConfig& base);
// The FFN multiples offered when none are typed.
inline const std::vector<double> kDefaultFfnMultiples{2, 2.67, 3.5, 4};

// "hidden 4096, FFN 14336, 32 layers, 32/8 heads": what a dense shape is, in every output.
std::string describeDenseShape(int hidden, int ffn, int layers, int heads, int kvHeads);

// An axis of multiples as typed ("2.67,3.5,4"): each in (0, 64]. Throws std::invalid_argument
// naming `what` and the bad item.
std::vector<double> parseSweepMultiples(std::string_view text, const std::string& what);
} // namespace rl::model
