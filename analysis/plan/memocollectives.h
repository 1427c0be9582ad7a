#pragma once
// A collective time source that remembers each distinct call it was asked about: a layout search
// asks for the same (op, bytes, ranks, placement) over and over (every ZeRO stage, overlap and
// dispatcher of one shape sends the same bytes), and a measured fit or the profile's hierarchical
// split costs far more than a hash lookup. One per thread: not safe to share.
#include <cstdint>
#include <cstring>
#include <unordered_map>

#include "model/collectivetimesource.h"

namespace rl::plan {

class MemoCollectives : public model::CollectiveTimeSource
{
public:
    explicit MemoCollectives(const model::CollectiveTimeSource& inner) : m_inner(inner) {}

    double timeUs(CollectiveOp op, double bytes, int ranks, bool crossNode) const override
    {
        return m_inner.timeUs(op, bytes, ranks, crossNode);
    }
    double groupTimeUs(CollectiveOp op, double bytes, int ranks, int ranksPerNode) const override
    {
        const Key k{int(op), bits(bytes), ranks, ranksPerNode};
        const auto it = m_times.find(k);
        if (it != m_times.end())
            return it->second;
        const double us = m_inner.groupTimeUs(op, bytes, ranks, ranksPerNode);
        m_times.emplace(k, us);
        return us;
    }
    bool isMeasured(CollectiveOp op, int ranks) const override { return m_inner.isMeasured(op, ranks); }
    double routedImbalance(int ranks) const override { return m_inner.routedImbalance(ranks); }

private:
    struct Key
    {
        int op;
        std::uint64_t bytes;
        int ranks, perNode;
        bool operator==(const Key&) const = default;
    };
    struct Hash
    {
        std::size_t operator()(const Key& k) const
        {
            std::size_t h = std::hash<std::uint64_t>()(k.bytes);
            h = h * 1000003u ^ std::size_t(k.op);
            h = h * 1000003u ^ std::size_t(k.ranks);
            return h * 1000003u ^ std::size_t(k.perNode);
        }
    };
    static std::uint64_t bits(double v)
    {
        std::uint64_t b;
        std::memcpy(&b, &v, sizeof b);
        return b;
    }
    const model::CollectiveTimeSource& m_inner;
    mutable std::unordered_map<Key, double, Hash> m_times;
};
} // namespace rl::plan
