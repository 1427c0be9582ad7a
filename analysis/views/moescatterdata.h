#pragma once
// What the MoE trade-off scatter shows, Qt-free: for every configuration of a sweep its decode
// latency (x, ms) and training throughput (y: tokens/s or MFU in %), a colour band (total
// parameters, five quantile bands, so each holds about as many points) and a size band (memory
// per GPU, three), the Pareto front in drawing order, the axis extents and the hover text.
// widgets/moescatterchart turns it into a QChart; the CSV is model::toCsv of the sweep.
#include <cstddef>
#include <string>
#include <vector>

#include "model/moesweep.h"

namespace rl::views {

enum class MoeThroughput { TokensPerSecond, Mfu };

inline constexpr int kMoeColourBands = 5;
inline constexpr int kMoeSizeBands = 3;

struct MoeScatterPoint
{
    double decodeMs = 0;
    double y = 0;        // tokens/s, or MFU in percent
    int colourBand = 0;  // 0 .. kMoeColourBands-1 by total parameters (a dense search: by hidden size)
    int sizeBand = 0;    // 0 .. kMoeSizeBands-1 by memory per GPU
    bool fits = true;    // false: drawn apart (grey), never on the front
};

struct MoeColourBand
{
    double lo = 0, hi = 0; // total parameters (a dense search: hidden size) of the points in the band
    std::string label;     // "1.2 B – 3.4 B params", "hidden 4096"
};

struct MoeScatterData
{
    std::vector<MoeScatterPoint> points; // one per row, in row order
    std::vector<MoeColourBand> colourBands;
    std::size_t noFit = 0;               // rows that do not fit the device
    std::vector<std::size_t> pareto;     // Pareto rows by increasing decode latency
    // Decode latency spanning a decade or more goes on a log axis; a narrower sweep on a linear one
    // (a log axis would label nothing in between).
    bool logX = false;
    double xMin = 0, xMax = 0, yMin = 0, yMax = 0; // over the data (0 when empty)
    std::string title, xTitle, yTitle;
    std::string description; // "MoE sweep: N configurations, K on the Pareto front; y: ..."
};

MoeScatterData moeScatterData(const std::vector<model::MoeSweepRow>& rows, MoeThroughput metric);

// One configuration, its figures joined by " · "; ends with why it does not fit when it does not
// (deviceMemoryBytes names the capacity; 0: unknown).
std::string describeMoeRow(const model::MoeSweepRow& row, double deviceMemoryBytes = 0);
} // namespace rl::views
