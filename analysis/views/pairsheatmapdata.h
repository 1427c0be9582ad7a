#pragma once
// What the pairs heatmap shows, computed from a `pairs` session's records (Qt-free, unit-tested):
// ranks (or hosts, when each host ran one rank) on both axes, one cell per measured pair on both
// sides of the diagonal, its value (bandwidth in the display unit, or latency µs) in one of a few colour bins, the
// pairs findSlowPairs flags outlined, hover text, the list of slow pairs and suspect ranks, and
// the CSV rows. The GUI draws it, `ridgeline-cli export --chart pairs-heatmap` exports it.
#include <cstdint>
#include <string>
#include <vector>

#include "collectives/pairs.h"
#include "records/pairpoint.h"
#include "records/session.h"
#include "views/chartdata.h"

namespace rl::store {
class Workspace;
}

namespace rl::views {

// One pairs session with its measured pairs.
struct PairsSessionData
{
    Session session;
    std::vector<PairPoint> pairs;
};

// Reads the session and its pairs. A missing session throws std::runtime_error naming the id
// (Fail) or gives empty data (Skip), as for charts::loadSessionCurves.
PairsSessionData loadPairsSession(store::Workspace& workspace, std::int64_t id,
                                  charts::MissingSession missing = charts::MissingSession::Fail);

enum class PairMetric { Bandwidth, Latency };

struct HeatmapBin
{
    double from = 0; // value range of the bin, in the metric's unit
    double to = 0;
    std::string label; // "4.2 – 6.1 GB/s"
};

struct HeatmapCell
{
    int column = 0; // position on the x axis (the pair's one rank)
    int row = 0;    // position on the y axis (its other rank)
    double value = 0;
    int bin = 0;    // index into PairsHeatmap::bins, lowest values first
    bool flagged = false;
    std::string hover;
    PairPoint pair;
};

struct PairsHeatmap
{
    PairMetric metric = PairMetric::Bandwidth;
    std::string unit;                 // "GB/s" (the display unit) or "µs"
    double fraction = kDefaultSlowPairFraction;
    bool byHost = false;              // axis labels are hosts: every rank on its own host
    std::vector<int> ranks;           // the rank at each axis position, ascending
    std::vector<std::string> labels;  // its axis label: "3", or the host name
    std::vector<HeatmapCell> cells;   // (a, b) and (b, a) for every measured pair
    std::vector<HeatmapBin> bins;     // bins on a log scale when the values span a decade or more
    bool logBins = false;
    PairReport report;                // medians, slow pairs, suspect ranks (findSlowPairs)
};

// binCount >= 1; fraction as for findSlowPairs.
PairsHeatmap pairsHeatmap(const std::vector<PairPoint>& pairs, PairMetric metric, double fraction,
                          int binCount = 5);

const char* metricName(PairMetric metric); // "bandwidth", "latency"
// "rank 3 is in 5 of 6 slow pairs" for each suspect, most first ("rank 3 (node-b) …" with hosts).
std::vector<std::string> suspectLines(const PairsHeatmap& heatmap);
// "1 – 3 (node-a – node-c): bandwidth 41 % of the median" for each slow pair, worst first.
std::vector<std::string> slowPairLines(const PairsHeatmap& heatmap);
// What the colours and outlines mean, for the chart's description and the list's heading:
// "slow: bandwidth below 80 % of the median 6.5 GB/s or latency above 1.25x the median 5 µs".
std::string slowRule(const PairsHeatmap& heatmap);
// One row per pair: ranks, hosts, both sizes and values, iterations, ratios to the medians, flag.
std::string pairsHeatmapCsv(const PairsHeatmap& heatmap);
} // namespace rl::views
