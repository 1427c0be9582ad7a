#include "store/curveorder.h"

#include <algorithm>
#include <numeric>
#include <tuple>
#include <utility>

#include "io/parallelfor.h"

namespace rl::store {

void CurveOrder::add(std::string_view op, bool inPlace, std::int64_t bytes)
{
    // Runs of one op are the rule: the last op is tried first.
    const bool asBefore = !m_keys.empty() && m_ops[m_keys.back().opAndInPlace / 2] == op;
    const std::size_t number = asBefore ? m_keys.back().opAndInPlace / 2
                                        : static_cast<std::size_t>(std::find(m_ops.begin(), m_ops.end(), op) - m_ops.begin());
    if (number == m_ops.size())
        m_ops.emplace_back(op);
    m_keys.push_back({static_cast<std::uint32_t>(number * 2 + (inPlace ? 1 : 0)), bytes, m_keys.size()});
}

std::vector<std::size_t> CurveOrder::slots() &&
{
    // Integers compared, not names: sorting 2 M points by op name compared two strings per step
    // (~10x the time).
    std::vector<std::uint32_t> rankOf(m_ops.size());
    std::vector<std::uint32_t> byName(m_ops.size());
    std::iota(byName.begin(), byName.end(), 0u);
    std::sort(byName.begin(), byName.end(), [this](std::uint32_t a, std::uint32_t b) { return m_ops[a] < m_ops[b]; });
    for (std::uint32_t r = 0; r < byName.size(); ++r)
        rankOf[byName[r]] = r;
    // Each curve's keys gathered in stored order (a counting sort by curve), then each curve's
    // sorted by size on a thread of its own: one sort of 1 M keys took 80-120 ms.
    const std::vector<Key> keys = std::move(m_keys);
    const auto curveOf = [&rankOf](const Key& k) { return rankOf[k.opAndInPlace / 2] * 2 + k.opAndInPlace % 2; };
    std::vector<std::size_t> firstOf(rankOf.size() * 2 + 1, 0);
    for (const Key& k : keys)
        ++firstOf[curveOf(k) + 1];
    std::partial_sum(firstOf.begin(), firstOf.end(), firstOf.begin());
    std::vector<std::pair<std::int64_t, std::size_t>> sorted(keys.size()); // size, then stored place
    {
        std::vector<std::size_t> next(firstOf.begin(), firstOf.end() - 1);
        for (const Key& k : keys)
            sorted[next[curveOf(k)]++] = {k.bytes, k.index};
    }
    parallelFor(firstOf.size() - 1, [&](std::size_t c) {
        const auto from = sorted.begin() + std::ptrdiff_t(firstOf[c]), to = sorted.begin() + std::ptrdiff_t(firstOf[c + 1]);
        if (!std::is_sorted(from, to)) // the place makes every pair unique: stored order among equal sizes
            std::sort(from, to);
    });
    std::vector<std::size_t> out(keys.size());
    for (std::size_t place = 0; place < sorted.size(); ++place)
        out[sorted[place].second] = place;
    return out;
}
} // namespace rl::store
