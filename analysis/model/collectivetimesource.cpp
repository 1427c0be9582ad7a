#include "model/collectivetimesource.h"

#include <algorithm>

namespace rl::model {

double ringLatencyUs(int ranks, int ranksPerNode)
{
    if (ranks <= 1)
        return 0;
    const int g = std::clamp(ranksPerNode, 1, ranks);
    const int nodes = (ranks + g - 1) / g;
    const int steps = ranks - 1, netSteps = nodes - 1;
    return kRingBaseLatencyUs + (steps - netSteps) * kRingNvlinkHopUs + netSteps * kRingNetHopUs;
}

double ProfileCollectiveTime::timeUs(CollectiveOp op, double bytes, int ranks, bool crossNode) const
{
    const int perNode = crossNode ? std::clamp(std::min(m_rates.gpusPerNode, ranks / 2), 1, ranks) : ranks;
    return groupTimeUs(op, bytes, ranks, perNode);
}

double ProfileCollectiveTime::groupTimeUs(CollectiveOp op, double bytes, int ranks, int ranksPerNode) const
{
    if (ranks <= 1 || bytes <= 0)
        return 0;
    const int g = std::clamp(ranksPerNode, 1, ranks);
    const double intra = m_rates.intraNodeBytesPerSec * kIntraLinkEfficiency;
    if (g >= ranks)
        return intra > 0 ? m_intraUs + bytes * busFactor(op, ranks) / intra * 1e6 : 0;
    const double nic = m_rates.nicBytesPerSec * kNicEfficiency;
    if (nic <= 0)
        return 0; // no scale-out figure: the report says cross-node collectives cost 0
    const bool inNode = intra > 0 && g > 1;
    if (op == CollectiveOp::AllToAll) {
        // Each rank sends bytes/ranks to every peer: (g-1) shares stay in the node, the other
        // (ranks-g) go out through the GPU's NIC; both move at once.
        const double share = bytes / ranks;
        const double in = inNode ? share * (g - 1) / intra : 0;
        return m_interUs + std::max(share * (ranks - g) / nic, in) * 1e6;
    }
    if (op == CollectiveOp::AllReduce || op == CollectiveOp::AllGather || op == CollectiveOp::ReduceScatter) {
        // Hierarchical: the in-node phases move busFactor(g) of the buffer over the link, and each
        // GPU's NIC carries its 1/g shard's busFactor(k) across the k nodes, all NICs at once.
        const int k = (ranks + g - 1) / g;
        const double in = inNode ? bytes * busFactor(op, g) / intra : 0;
        const double out = bytes / g * busFactor(op, k) / nic;
        // all_reduce crosses nodes by tree at scale (latency in log k); the other two only by ring.
        const double latency = op == CollectiveOp::AllReduce ? m_interUs : std::max(m_interUs, ringLatencyUs(ranks, g));
        return latency + std::max(in, out) * 1e6;
    }
    return m_interUs + bytes * busFactor(op, ranks) / nic * 1e6;
}

void MeasuredCollectiveTime::addFit(CollectiveOp op, int ranks, const fits::AlphaBeta& fit, double imbalance)
{
    if (op != CollectiveOp::AllToAllV) {
        m_fits[{op, ranks}] = fit;
        return;
    }
    for (auto& r : m_routed)
        if (r.ranks == ranks && std::abs(r.imbalance - imbalance) < 1e-3) {
            r.fit = fit;
            return;
        }
    m_routed.push_back({ranks, imbalance, fit});
}

const MeasuredCollectiveTime::Routed* MeasuredCollectiveTime::routedFor(int ranks) const
{
    const Routed* best = nullptr;
    for (const auto& r : m_routed) {
        if (r.ranks != ranks)
            continue;
        if (std::isnan(m_imbalance)) {
            best = &r; // the newest measured routing
            continue;
        }
        if (!best || std::abs(r.imbalance - m_imbalance) < std::abs(best->imbalance - m_imbalance))
            best = &r;
    }
    // A balanced all_to_all fit stands for imbalance 1: it wins when the asked imbalance is closer to it.
    if (best && !std::isnan(m_imbalance) && m_fits.count({CollectiveOp::AllToAll, ranks}) &&
        std::abs(1.0 - m_imbalance) < std::abs(best->imbalance - m_imbalance))
        return nullptr;
    return best;
}

const fits::AlphaBeta* MeasuredCollectiveTime::fitFor(CollectiveOp op, int ranks) const
{
    if (op == CollectiveOp::AllToAll)
        if (const Routed* r = routedFor(ranks))
            return &r->fit;
    const auto it = m_fits.find({op, ranks});
    return it != m_fits.end() ? &it->second : nullptr;
}

double MeasuredCollectiveTime::routedImbalance(int ranks) const
{
    const Routed* r = routedFor(ranks);
    return r ? r->imbalance : 0;
}

double MeasuredCollectiveTime::timeUs(CollectiveOp op, double bytes, int ranks, bool crossNode) const
{
    if (ranks <= 1 || bytes <= 0)
        return 0;
    if (const fits::AlphaBeta* fit = fitFor(op, ranks))
        return fit->timeUs(bytes);
    return m_fallback ? m_fallback->timeUs(op, bytes, ranks, crossNode) : 0;
}

double MeasuredCollectiveTime::groupTimeUs(CollectiveOp op, double bytes, int ranks, int ranksPerNode) const
{
    if (ranks <= 1 || bytes <= 0)
        return 0;
    if (const fits::AlphaBeta* fit = fitFor(op, ranks))
        return fit->timeUs(bytes);
    return m_fallback ? m_fallback->groupTimeUs(op, bytes, ranks, ranksPerNode) : 0;
}
} // namespace rl::model
