#pragma once
// One pair of a `ridgeline-bench pairs` matrix: point-to-point latency and bandwidth between two
// ranks (or two nodes, one rank each), measured IMB PingPong style: latency = half the round trip
// of a small message, bandwidth = message bytes / half the round trip of a large one.
#include <cstdint>
#include <string>

namespace rl {
struct PairPoint
{
    int rankA = 0; // the lower rank, which timed the pair
    int rankB = 0;
    std::string hostA;
    std::string hostB;
    std::int64_t latencyBytes = 0;
    double latencyUs = 0;     // median over the timed round trips, halved
    std::int64_t bandwidthBytes = 0;
    double bandwidthGBs = 0;  // 1e9 B/s, from the median round trip
    int iters = 0;            // round trips timed per size

    friend bool operator==(const PairPoint&, const PairPoint&) = default;
};
} // namespace rl
