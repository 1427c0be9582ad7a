#include "collectives/callstats.h"

#include <algorithm>
#include <cmath>

namespace rl {

double percentile(const std::vector<double>& sorted, double q)
{
    const double pos = std::clamp(q, 0.0, 1.0) * double(sorted.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(pos));
    const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - double(lo));
}

SampleSummary summarizeSamples(std::vector<double> samples)
{
    SampleSummary s;
    if (samples.empty())
        return s;
    std::sort(samples.begin(), samples.end());
    const double n = double(samples.size());
    double sum = 0;
    for (double v : samples)
        sum += v;
    s.mean = sum / n;
    // Two passes: the one-pass formula loses every digit when the spread is 1e-6 of the mean.
    double sq = 0;
    for (double v : samples)
        sq += (v - s.mean) * (v - s.mean);
    s.cv = samples.size() > 1 && s.mean > 0 ? std::sqrt(sq / (n - 1)) / s.mean : 0.0;
    s.min = samples.front();
    s.max = samples.back();
    s.p50 = percentile(samples, 0.50);
    s.p99 = percentile(samples, 0.99);
    return s;
}
} // namespace rl
