#include "store/curveorder.h"

#include <algorithm>
#include <numeric>
#include <utility>
#include <tuple>

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
    // (~10x the time). The index makes every key unique, so an unstable sort keeps stored order
    // among equals.
    std::vector<std::uint32_t> rankOf(m_ops.size());
    std::vector<std::uint32_t> byName(m_ops.size());
    std::iota(byName.begin(), byName.end(), 0u);
    std::sort(byName.begin(), byName.end(), [this](std::uint32_t a, std::uint32_t b) { return m_ops[a] < m_ops[b]; });
    for (std::uint32_t r = 0; r < byName.size(); ++r)
        rankOf[byName[r]] = r;
    std::vector<Key> keys = std::move(m_keys);
    for (Key& k : keys)
        k.opAndInPlace = rankOf[k.opAndInPlace / 2] * 2 + k.opAndInPlace % 2;
    const auto less = [](const Key& a, const Key& b) {
        return std::tie(a.opAndInPlace, a.bytes, a.index) < std::tie(b.opAndInPlace, b.bytes, b.index);
    };
    if (!std::is_sorted(keys.begin(), keys.end(), less))
        std::sort(keys.begin(), keys.end(), less);
    std::vector<std::size_t> out(keys.size());
    for (std::size_t place = 0; place < keys.size(); ++place)
        out[keys[place].index] = place;
    return out;
}
} // namespace rl::store
