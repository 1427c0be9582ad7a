#include "model/densesweep.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>
#include <stdexcept>

#include "io/linereader.h"
#include "model/modelcounts.h"
#include "units/units.h"

namespace rl::model {

int denseHiddenStep(const ModelConfig& base)
{
    if (base.dModel <= 0 || base.heads <= 0 || base.kvHeads <= 0)
        return 0;
    // heads = hidden x base.heads / base.dModel and likewise the KV heads must be whole.
    return std::lcm(base.dModel / std::gcd(base.dModel, base.heads), base.dModel / std::gcd(base.dModel, base.kvHeads));
}

DenseHeads denseHeads(const ModelConfig& base, int hidden)
{
    DenseHeads h;
    h.headDim = base.headDim > 0 ? base.headDim : base.dModel / std::max(1, base.heads);
    const int step = denseHiddenStep(base);
    if (hidden <= 0 || step <= 0 || hidden % step != 0)
        throw std::invalid_argument("hidden " + std::to_string(hidden) + " is not a multiple of " + std::to_string(step) +
                                    ": heads grow with the hidden size (the base's " + std::to_string(base.heads) +
                                    " query and " + std::to_string(base.kvHeads) + " KV heads of " +
                                    std::to_string(h.headDim) + " per " + std::to_string(base.dModel) +
                                    ") and must come out whole");
    h.heads = static_cast<int>(static_cast<long long>(hidden) * base.heads / base.dModel);
    h.kvHeads = static_cast<int>(static_cast<long long>(hidden) * base.kvHeads / base.dModel);
    return h;
}

double denseHeldValueOf(const ModelConfig& c, SweepHold hold, int seqLen)
{
    switch (hold) {
    case SweepHold::ActiveParams:
    case SweepHold::TotalParams: return countParams(c).total();
    case SweepHold::FlopsPerToken: return forwardFlopsPerToken(c, {seqLen > 0 ? seqLen : c.seqLen, true}).forward();
    case SweepHold::None: return 0;
    }
    return 0;
}

double denseHeldValue(const DenseSweepSpec& spec) { return denseHeldValueOf(spec.base, spec.hold, spec.seqLen); }

namespace {
// The smallest n >= 1 whose held value is nearest `target`, where set(c, n) makes the shape with n
// units of the free dimension (layers, or FFN widths in widthMultiples). The held quantity is linear
// in either (sliding-window layer counts aside), so a first guess from n = 1 and 2 and a look at its
// neighbours find the nearest; 0 when even half a unit is more than the budget.
template <class Set>
int solveUnits(ModelConfig work, SweepHold hold, int seqLen, double target, Set set)
{
    const auto held = [&](int n) {
        set(work, n);
        return denseHeldValueOf(work, hold, seqLen);
    };
    const double one = held(1), slope = held(2) - one;
    if (slope <= 0)
        return 0;
    const double exact = 1 + (target - one) / slope;
    if (exact < 0.5)
        return 0; // the budget does not hold one unit of the free dimension
    const long long guess = std::llround(exact);
    int best = 0;
    double bestErr = INFINITY;
    for (long long n = std::max<long long>(1, guess - 1); n <= guess + 1; ++n) {
        if (n > 1'000'000)
            break;
        const double err = std::abs(held(static_cast<int>(n)) - target);
        if (err < bestErr)
            best = static_cast<int>(n), bestErr = err;
    }
    return best;
}

void checkAxis(bool empty, const char* what)
{
    if (empty)
        throw std::invalid_argument(std::string("dense sweep: no ") + what + " values");
}
} // namespace

std::vector<ModelConfig> denseSweepShapes(const DenseSweepSpec& spec)
{
    if (spec.base.isMoe())
        throw std::invalid_argument("dense sweep needs a dense base config; " + spec.base.name +
                                    " has experts (sweep experts, top-k and expert width instead)");
    checkAxis(spec.hidden.empty(), "hidden");
    const bool widths = !spec.ffnWidths.empty(), multiples = !spec.ffnMultiples.empty();
    if (widths && multiples)
        throw std::invalid_argument("dense sweep: FFN widths or multiples of the hidden size, not both");
    const bool solveFfn = spec.hold != SweepHold::None && !spec.layers.empty();
    if (solveFfn && (widths || multiples))
        throw std::invalid_argument("dense sweep: with layer counts given the FFN width is solved for the held "
                                    "quantity; give FFN widths or layer counts, or hold nothing");
    if (!solveFfn)
        checkAxis(!widths && !multiples, "FFN");
    if (spec.widthMultiple <= 0)
        throw std::invalid_argument("dense sweep: the width multiple must be positive");
    const double target = denseHeldValue(spec);
    const int multiple = spec.widthMultiple;
    // One FFN entry per typed width or multiple; a solved FFN has one placeholder.
    const std::size_t ffnCount = solveFfn ? 1 : widths ? spec.ffnWidths.size() : spec.ffnMultiples.size();
    const std::vector<int> layers =
        solveFfn || spec.hold == SweepHold::None
            ? (spec.layers.empty() ? std::vector<int>{spec.base.layers} : spec.layers)
            : std::vector<int>{0}; // solved
    std::vector<ModelConfig> shapes;
    shapes.reserve(spec.hidden.size() * ffnCount * layers.size());
    for (int d : spec.hidden) {
        const auto h = denseHeads(spec.base, d);
        ModelConfig work = spec.base;
        work.dModel = d;
        work.heads = h.heads;
        work.kvHeads = h.kvHeads;
        work.headDim = h.headDim;
        for (std::size_t f = 0; f < ffnCount; ++f)
            for (int L : layers) {
                if (!solveFfn) {
                    const long long w = widths ? spec.ffnWidths[f]
                                               : std::llround(spec.ffnMultiples[f] * d / multiple) * multiple;
                    if (w <= 0 || w > 10'000'000)
                        continue;
                    work.mlpWidth = static_cast<int>(w);
                }
                if (spec.hold == SweepHold::None) {
                    work.layers = L;
                } else if (solveFfn) {
                    work.layers = L;
                    const int units = solveUnits(work, spec.hold, spec.seqLen, target,
                                                 [multiple](ModelConfig& c, int n) { c.mlpWidth = n * multiple; });
                    if (units == 0)
                        continue;
                    work.mlpWidth = units * multiple;
                } else {
                    work.layers = solveUnits(work, spec.hold, spec.seqLen, target, [](ModelConfig& c, int n) { c.layers = n; });
                    if (work.layers == 0)
                        continue;
                }
                if (work.layers <= 0 || work.mlpWidth <= 0)
                    continue;
                shapes.push_back(work);
            }
    }
    return shapes;
}

std::vector<int> defaultDenseHidden(const ModelConfig& base)
{
    const int step = denseHiddenStep(base);
    std::vector<int> out;
    if (step <= 0)
        return out;
    for (double f : {0.5, 0.75, 1.0, 1.25, 1.5}) {
        const int d = static_cast<int>(std::max<long long>(1, std::llround(f * base.dModel / step))) * step;
        if (out.empty() || out.back() != d)
            out.push_back(d);
    }
    return out;
}

std::string describeDenseShape(int hidden, int ffn, int layers, int heads, int kvHeads)
{
    return "hidden " + std::to_string(hidden) + ", FFN " + std::to_string(ffn) + ", " + std::to_string(layers) +
           " layers, " + std::to_string(heads) + "/" + std::to_string(kvHeads) + " heads";
}

std::vector<double> parseSweepMultiples(std::string_view text, const std::string& what)
{
    std::vector<double> out;
    std::string item;
    std::istringstream in{std::string(text)};
    while (std::getline(in, item, ',')) {
        item = std::string(io::trim(item)); // for the message: parseDouble trims too
        const auto v = units::parseDouble(item);
        if (!v || !std::isfinite(*v))
            throw std::invalid_argument(what + ": '" + item + "' is not a number");
        if (*v <= 0 || *v > 64)
            throw std::invalid_argument(what + ": " + item + " is outside (0, 64]");
        out.push_back(*v);
    }
    if (out.empty())
        throw std::invalid_argument(what + ": no values");
    return out;
}
} // namespace rl::model
