#include "trace/tracevsbenchmark.h"

#include <cmath>
#include <limits>
#include <map>

namespace rl::trace {

double benchmarkBusbwAt(const std::vector<CollectivePoint>& benchmark, const std::string& op, std::int64_t bytes)
{
    constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
    std::map<std::int64_t, std::pair<double, int>> bySize; // bytes -> (sum of busbw, count)
    for (const auto& p : benchmark)
        if (p.op == op && !p.inPlace && p.bytes > 0 && p.busbwGBs > 0) {
            auto& [sum, n] = bySize[p.bytes];
            sum += p.busbwGBs;
            ++n;
        }
    if (bySize.empty() || bytes <= 0)
        return kNaN;
    const auto at = [&](auto it) { return it->second.first / it->second.second; };
    const auto hi = bySize.lower_bound(bytes);
    if (hi == bySize.end())
        return kNaN;
    if (hi->first == bytes)
        return at(hi);
    if (hi == bySize.begin())
        return kNaN;
    const auto lo = std::prev(hi);
    // Bandwidth curves are straight-ish in log-log between neighbouring sizes.
    const double t = std::log(double(bytes) / double(lo->first)) / std::log(double(hi->first) / double(lo->first));
    return std::exp(std::log(at(lo)) + t * (std::log(at(hi)) - std::log(at(lo))));
}

std::vector<CollectiveVsBenchmark> compareWithBenchmark(const std::vector<TraceCollective>& calls,
                                                        const std::vector<CollectivePoint>& benchmark)
{
    std::vector<CollectiveVsBenchmark> out;
    out.reserve(calls.size());
    for (const auto& c : calls)
        out.push_back({c, benchmarkBusbwAt(benchmark, c.op, c.bytes)});
    return out;
}
} // namespace rl::trace
