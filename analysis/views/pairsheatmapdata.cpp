#include "views/pairsheatmapdata.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "io/csv.h"
#include "store/pairresults.h"
#include "store/workspace.h"
#include "units/units.h"

namespace rl::views {
namespace {
std::string number(double v, const char* format = "%.3g")
{
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

// Bandwidth in the display unit, as the bin labels say (the CSV keeps the stored GB/s).
double valueOf(const PairPoint& p, PairMetric metric)
{
    return metric == PairMetric::Bandwidth ? units::displayBandwidth(p.bandwidthGBs) : p.latencyUs;
}

std::string pairKey(int a, int b) { return std::to_string(a) + "-" + std::to_string(b); }

// Equal-width bins, or equal ratios when the values span a decade (one slow link among fast ones
// would otherwise leave every fast pair in the top bin and the others empty).
void makeBins(PairsHeatmap& h, const std::vector<double>& values, int binCount)
{
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    const double from = *lo, to = *hi;
    const int n = from < to ? std::max(1, binCount) : 1;
    h.logBins = n > 1 && from > 0 && to / from >= 10;
    for (int i = 0; i < n; ++i) {
        HeatmapBin b;
        const auto edge = [&](int k) {
            return h.logBins ? from * std::pow(to / from, double(k) / n) : from + (to - from) * double(k) / n;
        };
        b.from = edge(i);
        b.to = i + 1 == n ? to : edge(i + 1);
        b.label = n == 1 ? number(b.from) + " " + h.unit : number(b.from) + " – " + number(b.to) + " " + h.unit;
        h.bins.push_back(std::move(b));
    }
}

int binOf(const PairsHeatmap& h, double v)
{
    const int n = int(h.bins.size());
    if (n <= 1)
        return 0;
    const double from = h.bins.front().from, to = h.bins.back().to;
    const double t = h.logBins ? std::log(v / from) / std::log(to / from) : (v - from) / (to - from);
    return std::clamp(int(std::floor(t * n)), 0, n - 1);
}

std::string rankName(const PairsHeatmap& h, int rank, const std::string& host)
{
    std::string s = "rank " + std::to_string(rank);
    if (!host.empty() && h.byHost)
        s = host + " (" + s + ")";
    else if (!host.empty())
        s += " (" + host + ")";
    return s;
}

std::string hoverOf(const PairsHeatmap& h, const PairPoint& p, const std::string& why)
{
    const auto& r = h.report;
    std::string s = rankName(h, p.rankA, p.hostA) + " ↔ " + rankName(h, p.rankB, p.hostB) + "\n";
    s += "bandwidth " + units::formatBandwidth(p.bandwidthGBs) + " (" + units::formatBytes(double(p.bandwidthBytes))
        + " messages)";
    if (r.medianBandwidthGBs > 0)
        s += ", " + units::formatPercent(p.bandwidthGBs / r.medianBandwidthGBs, 0) + " of the median";
    s += "\nlatency " + units::formatTime(p.latencyUs) + " (" + units::formatBytes(double(p.latencyBytes))
        + " messages)";
    if (r.medianLatencyUs > 0)
        s += ", " + number(p.latencyUs / r.medianLatencyUs, "%.1f") + "x the median";
    s += "\n" + std::to_string(p.iters) + " timed round trips per size";
    if (!why.empty())
        s += "\nslow: " + why;
    return s;
}
} // namespace

const char* metricName(PairMetric metric) { return metric == PairMetric::Bandwidth ? "bandwidth" : "latency"; }

PairsHeatmap pairsHeatmap(const std::vector<PairPoint>& pairs, PairMetric metric, double fraction, int binCount)
{
    PairsHeatmap h;
    h.metric = metric;
    h.unit = metric == PairMetric::Bandwidth ? units::bandwidthUnitName(units::displayBandwidthUnit()) : "µs";
    h.fraction = fraction;
    h.report = findSlowPairs(pairs, fraction);
    if (pairs.empty())
        return h;

    std::map<int, std::string> hostOf;
    for (const auto& p : pairs) {
        hostOf.try_emplace(p.rankA, p.hostA);
        hostOf.try_emplace(p.rankB, p.hostB);
    }
    std::set<std::string> hosts;
    bool allNamed = true;
    for (const auto& [rank, host] : hostOf) {
        h.ranks.push_back(rank);
        hosts.insert(host);
        allNamed = allNamed && !host.empty();
    }
    h.byHost = allNamed && hosts.size() == hostOf.size() && hostOf.size() > 1;
    for (const auto& [rank, host] : hostOf)
        h.labels.push_back(h.byHost ? host : std::to_string(rank));

    std::vector<double> values;
    for (const auto& p : pairs)
        values.push_back(valueOf(p, metric));
    makeBins(h, values, binCount);

    std::map<std::string, std::string> why;
    for (const auto& s : h.report.slow)
        why[pairKey(s.pair.rankA, s.pair.rankB)] = s.why;
    const auto position = [&](int rank) {
        return int(std::lower_bound(h.ranks.begin(), h.ranks.end(), rank) - h.ranks.begin());
    };
    for (const auto& p : pairs) {
        HeatmapCell c;
        c.pair = p;
        c.value = valueOf(p, metric);
        c.bin = binOf(h, c.value);
        const auto slow = why.find(pairKey(p.rankA, p.rankB));
        c.flagged = slow != why.end();
        c.hover = hoverOf(h, p, c.flagged ? slow->second : std::string());
        c.column = position(p.rankA);
        c.row = position(p.rankB);
        h.cells.push_back(c);
        std::swap(c.column, c.row); // the matrix is symmetric: one measurement, both halves
        h.cells.push_back(std::move(c));
    }
    return h;
}

std::vector<std::string> suspectLines(const PairsHeatmap& h)
{
    std::map<int, std::string> hostOf;
    for (const auto& c : h.cells) {
        hostOf.try_emplace(c.pair.rankA, c.pair.hostA);
        hostOf.try_emplace(c.pair.rankB, c.pair.hostB);
    }
    std::vector<std::string> out;
    const std::size_t slow = h.report.slow.size();
    for (const auto& [rank, n] : h.report.suspects)
        out.push_back(rankName(h, rank, hostOf[rank]) + " is in " + std::to_string(n) + " of " + std::to_string(slow)
                      + " slow pairs");
    return out;
}

std::vector<std::string> slowPairLines(const PairsHeatmap& h)
{
    std::vector<std::string> out;
    for (const auto& s : h.report.slow)
        out.push_back(rankName(h, s.pair.rankA, s.pair.hostA) + " ↔ " + rankName(h, s.pair.rankB, s.pair.hostB) + ": "
                      + s.why);
    return out;
}

std::string slowRule(const PairsHeatmap& h)
{
    const auto& r = h.report;
    return "slow: bandwidth below " + units::formatPercent(h.fraction, 0) + " of the median "
        + units::formatBandwidth(r.medianBandwidthGBs) + " or latency above "
        + number(h.fraction > 0 ? 1 / h.fraction : 0, "%.3g") + "x the median " + units::formatTime(r.medianLatencyUs);
}

std::string pairsHeatmapCsv(const PairsHeatmap& h)
{
    std::ostringstream out;
    io::writeCsvRow(out, {"rank_a", "rank_b", "host_a", "host_b", "latency_bytes", "latency_us", "bandwidth_bytes",
                          "bandwidth_gbs", "iters", "bandwidth_of_median", "latency_of_median", "slow"});
    const auto& r = h.report;
    for (std::size_t i = 0; i < h.cells.size(); i += 2) { // each pair once: its (a, b) cell, not the mirror
        const auto& c = h.cells[i];
        const auto& p = c.pair;
        io::writeCsvRow(out, {std::to_string(p.rankA), std::to_string(p.rankB), io::csvText(p.hostA), io::csvText(p.hostB),
                              std::to_string(p.latencyBytes), number(p.latencyUs, "%.10g"),
                              std::to_string(p.bandwidthBytes), number(p.bandwidthGBs, "%.10g"), std::to_string(p.iters),
                              r.medianBandwidthGBs > 0 ? number(p.bandwidthGBs / r.medianBandwidthGBs, "%.4g") : "",
                              r.medianLatencyUs > 0 ? number(p.latencyUs / r.medianLatencyUs, "%.4g") : "",
                              c.flagged ? "1" : "0"});
    }
    return out.str();
}

PairsSessionData loadPairsSession(store::Workspace& workspace, std::int64_t id, charts::MissingSession missing)
{
    PairsSessionData data;
    auto s = workspace.session(id);
    if (!s && missing == charts::MissingSession::Skip)
        return data;
    if (!s)
        throw std::runtime_error("no session " + std::to_string(id) + " in " + workspace.path());
    data.session = std::move(*s);
    data.pairs = store::pairPoints(workspace.database(), id);
    return data;
}
} // namespace rl::views
