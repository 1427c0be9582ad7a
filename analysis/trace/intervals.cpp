#include "trace/intervals.h"

#include <algorithm>

namespace rl::trace {
std::vector<Interval> unionOf(std::vector<Interval> v)
{
    std::sort(v.begin(), v.end(), [](const Interval& a, const Interval& b) { return a.begin < b.begin; });
    std::vector<Interval> out;
    for (const auto& i : v) {
        if (i.end <= i.begin)
            continue;
        if (!out.empty() && i.begin <= out.back().end)
            out.back().end = std::max(out.back().end, i.end);
        else
            out.push_back(i);
    }
    return out;
}

std::int64_t totalLength(const std::vector<Interval>& v)
{
    std::int64_t sum = 0;
    for (const auto& i : v)
        sum += i.end - i.begin;
    return sum;
}

std::int64_t intersectionLength(const std::vector<Interval>& a, const std::vector<Interval>& b)
{
    std::int64_t sum = 0;
    std::size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        const std::int64_t lo = std::max(a[i].begin, b[j].begin);
        const std::int64_t hi = std::min(a[i].end, b[j].end);
        if (hi > lo)
            sum += hi - lo;
        if (a[i].end < b[j].end)
            ++i;
        else
            ++j;
    }
    return sum;
}
} // namespace rl::trace
