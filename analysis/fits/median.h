#pragma once
// The median of a list of figures (the middle value, or the mean of the two middle ones); `empty`
// when there are none.
#include <algorithm>
#include <vector>

namespace rl::fits {

inline double median(std::vector<double> values, double empty = 0)
{
    if (values.empty())
        return empty;
    std::sort(values.begin(), values.end());
    const auto n = values.size();
    return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}
} // namespace rl::fits
