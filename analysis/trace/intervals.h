#pragma once
// Exact interval arithmetic on integer nanoseconds: unions and intersections by a sorted sweep.
#include <cstdint>
#include <vector>

namespace rl::trace {

struct Interval
{
    std::int64_t begin = 0;
    std::int64_t end = 0; // exclusive
    friend bool operator==(const Interval&, const Interval&) = default;
};

// Sorts and merges overlapping or touching intervals; empty ones are dropped.
std::vector<Interval> unionOf(std::vector<Interval> intervals);
std::int64_t totalLength(const std::vector<Interval>& disjointSorted);
// Length of the intersection of two unions (both as returned by unionOf).
std::int64_t intersectionLength(const std::vector<Interval>& a, const std::vector<Interval>& b);
// Clips to [begin, end); returns false when nothing is left.
inline bool clip(Interval& i, std::int64_t begin, std::int64_t end)
{
    if (i.begin < begin)
        i.begin = begin;
    if (i.end > end)
        i.end = end;
    return i.end > i.begin;
}
} // namespace rl::trace
