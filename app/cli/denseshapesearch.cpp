#include "denseshapesearch.h"

#include <algorithm>
#include <iostream>
#include <numeric>

#include <nlohmann/json.hpp>

#include "clicommands.h"
#include "model/validation.h"
#include "plan/layout.h"
#include "texttable.h"
#include "units/memory.h"
#include "units/units.h"

namespace rl::cli {
namespace {
using namespace rl::model;

const char* solvedName(const DenseSweepSpec& s)
{
    if (s.hold == SweepHold::None)
        return "none";
    return s.layers.empty() ? "layers" : "ffn_width";
}

// A parse error of one axis as a usage error naming its option.
template <class F>
auto axis(F parse)
{
    try {
        return parse();
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what()); // parseSweepValues and parseSweepMultiples name `option` first
    }
}
} // namespace

void addDenseAxesOptions(CLI::App* cmd, DenseAxesArgs& a)
{
    cmd->add_option("--hidden", a.hidden,
                    "Dense base, with --best-layout: hidden sizes (d_model), list or start:stop:step; heads keep the "
                    "base's head dim (default: 0.5x to 1.5x the base's)");
    cmd->add_option("--ffn-mult", a.ffnMult,
                    "Dense base: FFN widths as multiples of the hidden size, e.g. 2.67,3.5,4 (rounded to 64; default "
                    "2,2.67,3.5,4); the layer count is solved for the held quantity");
    cmd->add_option("--ffn", a.ffn, "Dense base: FFN widths, instead of --ffn-mult");
    cmd->add_option("--layers", a.layers,
                    "Dense base: layer counts; the FFN width is then solved for the held quantity (with --hold none "
                    "a third axis; default the base's)");
}

bool denseAxesGiven(const CLI::App* cmd)
{
    return cmd->count("--hidden") + cmd->count("--ffn-mult") + cmd->count("--ffn") + cmd->count("--layers") > 0;
}

DenseSweepSpec denseSpecOf(const DenseAxesArgs& a, const ModelConfig& base, SweepHold hold)
{
    DenseSweepSpec spec;
    spec.base = base;
    spec.hold = hold == SweepHold::ActiveParams ? SweepHold::TotalParams : hold; // the same for a dense model
    if (!a.ffn.empty() && !a.ffnMult.empty())
        throw UsageError("--ffn and --ffn-mult both give the FFN widths: use one");
    if (!a.layers.empty() && hold != SweepHold::None && (!a.ffn.empty() || !a.ffnMult.empty()))
        throw UsageError("--layers solves the FFN width for the held quantity; drop --ffn/--ffn-mult, or add --hold none "
                         "to sweep all three");
    spec.hidden = a.hidden.empty() ? defaultDenseHidden(base)
                                   : axis([&] { return parseSweepValues(a.hidden, "--hidden"); });
    for (int d : spec.hidden) {
        try {
            denseHeads(base, d);
        } catch (const std::invalid_argument& e) {
            throw UsageError(std::string("--hidden: ") + e.what());
        }
    }
    if (!a.layers.empty()) {
        spec.layers = axis([&] { return parseSweepValues(a.layers, "--layers"); });
        if (std::find(spec.layers.begin(), spec.layers.end(), 0) != spec.layers.end())
            throw UsageError("--layers: 0 is not a layer count");
    }
    if (!a.ffn.empty())
        spec.ffnWidths = axis([&] { return parseSweepValues(a.ffn, "--ffn"); });
    else if (!a.ffnMult.empty())
        spec.ffnMultiples = axis([&] { return parseSweepMultiples(a.ffnMult, "--ffn-mult"); });
    else if (spec.layers.empty() || hold == SweepHold::None)
        spec.ffnMultiples = kDefaultFfnMultiples;
    if (std::find(spec.ffnWidths.begin(), spec.ffnWidths.end(), 0) != spec.ffnWidths.end())
        throw UsageError("--ffn: 0 is not an FFN width");
    if (std::find(spec.hidden.begin(), spec.hidden.end(), 0) != spec.hidden.end())
        throw UsageError("--hidden: 0 is not a hidden size");
    return spec;
}

void printDenseShapeSearch(const plan::ShapeSearchResult& res, const DenseSweepSpec& spec, bool json,
                           const std::string& hold, const std::string& where)
{
    const auto verdict = plan::placeBase(res);
    if (json) {
        nlohmann::json rows = nlohmann::json::array();
        for (const auto& sr : res.rows) {
            const auto& row = sr.row;
            rows.push_back({{"hidden", row.dModel}, {"ffn_width", row.ffnWidth}, {"layers", row.layers},
                            {"heads", row.heads}, {"kv_heads", row.kvHeads}, {"shape", plan::describeShape(row)},
                            {"base", sr.base}, {"total_params", row.totalParams}, {"active_params", row.activeParams},
                            {"fwd_flops_per_token", row.flopsPerToken}, {"memory_per_gpu_bytes", row.memoryPerGpuBytes},
                            {"step_s", row.stepSeconds}, {"tokens_per_s", row.tokensPerSecond}, {"mfu", row.mfu},
                            {"decode_s_per_token", row.decodeSecondsPerToken}, {"fits_device", row.fits},
                            {"pareto", row.pareto}, {"layouts_ranked", sr.ranked},
                            {"best_layout", sr.best ? nlohmann::json(plan::toSpec(sr.best->layout)) : nlohmann::json()}});
        }
        std::cout << nlohmann::json{{"kind", "dense"}, {"solved", solvedName(spec)}, {"rows", rows}, {"base", verdict},
                                    {"held_value", res.heldValue}, {"hold", hold}, {"seconds", res.seconds},
                                    {"expected_error", {{"median", res.band.median}, {"max", res.band.max},
                                                        {"mean_signed", res.band.bias}}}}
                         .dump(2)
                  << '\n';
        return;
    }
    // Ranked by training tokens/s; shapes with no layout that fits last.
    std::vector<std::size_t> order(res.rows.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const auto &x = res.rows[a].row, &y = res.rows[b].row;
        if (x.fits != y.fits)
            return x.fits;
        return x.tokensPerSecond > y.tokensPerSecond;
    });
    const char* axes = spec.hold == SweepHold::None ? "hidden x FFN x layers, as typed"
                       : spec.layers.empty()          ? "hidden x FFN, layer count solved"
                                                      : "hidden x layers, FFN width solved";
    const char* held = spec.hold == SweepHold::FlopsPerToken ? "forward FLOPs per token"
                       : spec.hold == SweepHold::None        ? "nothing"
                                                             : "total parameters";
    std::cout << res.rows.size() << " dense shapes of " << spec.base.name << " (" << axes << "), holding " << held
              << ", " << where << ". Ranked by training tokens/s:\n";
    TextTable t({"#", "", "hidden", "FFN", "layers", "heads (q/kv)", "params", "tokens/s", "MFU", "decode/token",
                 "memory/GPU", "Pareto", "best layout"});
    int rank = 0;
    for (std::size_t i : order) {
        const auto& sr = res.rows[i];
        const auto& row = sr.row;
        t.addRow({row.fits ? std::to_string(++rank) : std::string("-"), sr.base ? "base" : "", std::to_string(row.dModel),
                  std::to_string(row.ffnWidth), std::to_string(row.layers),
                  std::to_string(row.heads) + "/" + std::to_string(row.kvHeads), units::formatCount(row.totalParams),
                  row.fits ? units::formatCount(row.tokensPerSecond) + " tokens/s" : std::string("does not fit"),
                  row.fits ? units::formatPercent(row.mfu, 1) : "", units::formatTime(row.decodeSecondsPerToken * 1e6),
                  row.fits ? units::formatMemory(row.memoryPerGpuBytes) : "", row.pareto ? "*" : "",
                  sr.best ? plan::toSpec(sr.best->layout) : std::string("-")});
    }
    t.print(std::cout);
    const auto front = std::count_if(res.rows.begin(), res.rows.end(), [](const auto& r) { return r.row.pareto; });
    std::cout << '\n' << front << " shape(s) on the Pareto front (max training tokens/s, min decode latency), marked *.\n"
              << "The base shape (" << spec.base.name << "): " << verdict << ".\nExpected error of each training "
              << "figure: " << describe(res.band) << "; mean " << describeBias(res.band) << ".\n";
}
} // namespace rl::cli
