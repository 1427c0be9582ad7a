#include "views/moescatterdata.h"

#include <algorithm>
#include <cmath>

#include "model/densesweep.h"
#include "model/memorymodel.h"
#include "units/units.h"
#include "units/memory.h"

namespace rl::views {
namespace {
// Band edges at the quantiles of `values`, so every band holds about the same number of points.
std::vector<double> quantileEdges(std::vector<double> values, int bands)
{
    std::sort(values.begin(), values.end());
    std::vector<double> edges;
    for (int b = 1; b < bands; ++b)
        edges.push_back(values.empty() ? 0 : values[values.size() * static_cast<std::size_t>(b) / bands]);
    return edges;
}

int bandOf(double v, const std::vector<double>& edges)
{
    return static_cast<int>(std::upper_bound(edges.begin(), edges.end(), v) - edges.begin());
}

// "hidden 2048" or "hidden 2048 – 3072"; "8.03 B params" or "1 B – 2 B params".
std::string bandLabel(double lo, double hi, bool dense)
{
    const auto value = [dense](double v) { return dense ? std::to_string(std::lround(v)) : units::formatCount(v); };
    const std::string range = lo == hi ? value(lo) : value(lo) + " – " + value(hi);
    return dense ? "hidden " + range : range + " params";
}
} // namespace

MoeScatterData moeScatterData(const std::vector<model::MoeSweepRow>& rows, MoeThroughput metric)
{
    MoeScatterData d;
    const bool mfu = metric == MoeThroughput::Mfu;
    d.yTitle = mfu ? "MFU (%)" : "Throughput (tokens/s)"; // short: QtCharts elides a title longer than the axis, and the unit would go first
    d.xTitle = "Decode latency per token (ms)";
    // A dense shape search (plan/shapesearch.h) draws dense rows only: its title says so.
    const bool dense = model::allDenseShapes(rows);
    d.title = std::string(dense ? "Dense shape trade-off: " : "MoE trade-off: ") + (mfu ? "MFU" : "tokens/s") +
              " vs decode latency · colour: " + (dense ? "hidden size" : "total parameters") +
              " · marker size: memory per GPU";
    const auto yValue = [mfu](const model::MoeSweepRow& r) { return mfu ? r.mfu * 100 : r.tokensPerSecond; };

    // A dense search holds the parameters (every band would read "8.03 B"): its colour is the hidden
    // size, the axis it sweeps.
    std::vector<double> params, memory;
    for (const auto& r : rows)
        params.push_back(dense ? double(r.dModel) : r.totalParams), memory.push_back(r.memoryPerGpuBytes);
    const auto paramEdges = quantileEdges(params, kMoeColourBands);
    const auto memEdges = quantileEdges(memory, kMoeSizeBands);
    std::vector<int> colour(params.size());
    for (std::size_t i = 0; i < params.size(); ++i)
        colour[i] = bandOf(params[i], paramEdges);
    if (!rows.empty()) {
        // A band says the values of the points it holds: its edges are half-open (a point on an
        // edge is in the band above), so "2048 – 4096" would name a hidden size the band has none of.
        std::vector<double> held(kMoeColourBands, INFINITY), heldHi(kMoeColourBands, -INFINITY);
        for (std::size_t i = 0; i < params.size(); ++i) {
            const auto c = static_cast<std::size_t>(colour[i]);
            held[c] = std::min(held[c], params[i]), heldHi[c] = std::max(heldHi[c], params[i]);
        }
        const double pMin = *std::min_element(params.begin(), params.end());
        const double pMax = *std::max_element(params.begin(), params.end());
        for (int c = 0; c < kMoeColourBands; ++c) {
            const auto k = static_cast<std::size_t>(c);
            MoeColourBand band;
            band.lo = c == 0 ? pMin : paramEdges[k - 1];
            band.hi = c == kMoeColourBands - 1 ? pMax : paramEdges[k];
            if (held[k] <= heldHi[k]) // no point in it: the edges, and the legend leaves it out
                band.lo = held[k], band.hi = heldHi[k];
            band.label = bandLabel(band.lo, band.hi, dense);
            d.colourBands.push_back(std::move(band));
        }
    }

    double lo = INFINITY, hi = 0, yLo = INFINITY, yHi = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& r = rows[i];
        const double ms = r.decodeSecondsPerToken * 1e3;
        d.points.push_back({ms, yValue(r), colour[i], bandOf(memory[i], memEdges), r.fits});
        d.noFit += r.fits ? 0 : 1;
        if (ms > 0)
            lo = std::min(lo, ms), hi = std::max(hi, ms);
        yLo = std::min(yLo, yValue(r)), yHi = std::max(yHi, yValue(r));
        if (r.pareto)
            d.pareto.push_back(i);
    }
    std::sort(d.pareto.begin(), d.pareto.end(), [&rows](std::size_t a, std::size_t b) {
        return rows[a].decodeSecondsPerToken < rows[b].decodeSecondsPerToken;
    });
    if (hi > 0) {
        d.xMin = lo, d.xMax = hi;
        d.logX = hi / lo >= 10;
    }
    if (!rows.empty())
        d.yMin = yLo, d.yMax = yHi;
    d.description = (dense ? "Dense shape search: " : "MoE sweep: ") + std::to_string(rows.size()) + " configurations, " +
                    std::to_string(d.pareto.size()) + " on the Pareto front; y: " + d.yTitle;
    return d;
}

std::string describeMoeRow(const model::MoeSweepRow& r, double deviceMemoryBytes)
{
    // Memory in GiB, the unit devices report HBM capacity in and ridgeline-cli prints.
    const std::string shape = r.isDenseShape()
                                  ? model::describeDenseShape(r.dModel, r.ffnWidth, r.layers, r.heads, r.kvHeads)
                                  : std::to_string(r.experts) + " experts, top-" + std::to_string(r.topK) + ", " +
                                        std::to_string(r.sharedExperts) + " shared, width " +
                                        std::to_string(r.expertWidth);
    std::string s = shape + " · " + units::formatCount(r.totalParams) + " total / " + units::formatCount(r.activeParams) +
                    " active params · " + units::formatMemory(r.memoryPerGpuBytes) + " per GPU · " +
                    units::formatCount(r.tokensPerSecond) + " tokens/s, MFU " + units::formatPercent(r.mfu, 1) +
                    " · decode " + units::formatTime(r.decodeSecondsPerToken * 1e6) + "/token";
    if (!r.fits)
        s += " · " + (deviceMemoryBytes > 0 ? model::memoryFitProblem(r.memoryPerGpuBytes, deviceMemoryBytes)
                                            : std::string("does not fit the device's memory"));
    return s;
}
} // namespace rl::views
