#pragma once
// `ridgeline-bench pairs`: the schedule that measures every pair with each rank in one pair at a
// time, and finding the slow links in the result. MPI-free.
#include <string>
#include <utility>
#include <vector>

#include "records/pairpoint.h"

namespace rl {

// Round-robin tournament (circle method): every unordered pair exactly once, no rank twice in a
// round; n - 1 rounds for even n, n rounds for odd n (one rank sits each round out). Pairs are
// (lower, higher).
std::vector<std::vector<std::pair<int, int>>> pairRounds(int n);

struct SlowPair
{
    PairPoint pair;
    double bandwidthFraction = 1; // bandwidth / median bandwidth
    double latencyRatio = 1;      // latency / median latency
    std::string why;              // "bandwidth 41 % of the median", "latency 3.2x the median"
};

struct PairReport
{
    double medianBandwidthGBs = 0;
    double medianLatencyUs = 0;
    std::vector<SlowPair> slow;                 // worst bandwidth fraction first
    std::vector<std::pair<int, int>> suspects;  // (rank, slow pairs it is in), most first, only ranks in 2+
};

// The threshold `ridgeline-cli results --slow-below` and the GUI's heatmap start from.
inline constexpr double kDefaultSlowPairFraction = 0.8;

// A pair is slow when its bandwidth is below `fraction` of the median or its latency above the
// median / fraction. A rank that is in most slow pairs is the likely culprit (a slow NIC, a busy
// core), so the report ranks them.
PairReport findSlowPairs(const std::vector<PairPoint>& pairs, double fraction);
} // namespace rl
