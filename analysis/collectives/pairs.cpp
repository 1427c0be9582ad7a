#include "collectives/pairs.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "collectives/callstats.h"
#include "units/units.h"

namespace rl {

std::vector<std::vector<std::pair<int, int>>> pairRounds(int n)
{
    std::vector<std::vector<std::pair<int, int>>> rounds;
    if (n < 2)
        return rounds;
    const int m = n % 2 == 0 ? n : n + 1; // an odd count gets a phantom rank: its partner sits out
    // Position 0 stays, the others rotate one place a round.
    std::vector<int> ring(static_cast<std::size_t>(m));
    for (int i = 0; i < m; ++i)
        ring[std::size_t(i)] = i;
    for (int r = 0; r < m - 1; ++r) {
        std::vector<std::pair<int, int>> round;
        for (int i = 0; i < m / 2; ++i) {
            const int a = ring[std::size_t(i)], b = ring[std::size_t(m - 1 - i)];
            if (a < n && b < n)
                round.emplace_back(std::min(a, b), std::max(a, b));
        }
        std::sort(round.begin(), round.end());
        rounds.push_back(std::move(round));
        std::rotate(ring.begin() + 1, ring.end() - 1, ring.end());
    }
    return rounds;
}

PairReport findSlowPairs(const std::vector<PairPoint>& pairs, double fraction)
{
    PairReport r;
    if (pairs.empty())
        return r;
    std::vector<double> bw, lat;
    for (const auto& p : pairs) {
        bw.push_back(p.bandwidthGBs);
        lat.push_back(p.latencyUs);
    }
    std::sort(bw.begin(), bw.end());
    std::sort(lat.begin(), lat.end());
    r.medianBandwidthGBs = percentile(bw, 0.5);
    r.medianLatencyUs = percentile(lat, 0.5);
    std::map<int, int> count;
    for (const auto& p : pairs) {
        SlowPair s;
        s.pair = p;
        s.bandwidthFraction = r.medianBandwidthGBs > 0 ? p.bandwidthGBs / r.medianBandwidthGBs : 1.0;
        s.latencyRatio = r.medianLatencyUs > 0 ? p.latencyUs / r.medianLatencyUs : 1.0;
        const bool slowBw = s.bandwidthFraction < fraction;
        const bool slowLat = fraction > 0 && s.latencyRatio > 1.0 / fraction;
        if (!slowBw && !slowLat)
            continue;
        char latency[64];
        std::snprintf(latency, sizeof latency, "latency %.1fx the median", s.latencyRatio);
        const std::string bandwidth = "bandwidth " + units::formatPercent(s.bandwidthFraction, 0) + " of the median";
        s.why = slowBw && slowLat ? bandwidth + ", " + latency : slowBw ? bandwidth : std::string(latency);
        ++count[p.rankA];
        ++count[p.rankB];
        r.slow.push_back(std::move(s));
    }
    std::stable_sort(r.slow.begin(), r.slow.end(), [](const SlowPair& a, const SlowPair& b) {
        return a.bandwidthFraction < b.bandwidthFraction ||
               (a.bandwidthFraction == b.bandwidthFraction && a.latencyRatio > b.latencyRatio);
    });
    for (const auto& [rank, n] : count)
        if (n >= 2)
            r.suspects.emplace_back(rank, n);
    std::stable_sort(r.suspects.begin(), r.suspects.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    return r;
}
} // namespace rl
