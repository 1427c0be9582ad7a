#include "model/collectivetimesource.h"

#include <algorithm>

namespace rl::model {

double ProfileCollectiveTime::timeUs(CollectiveOp op, double bytes, int ranks, bool crossNode) const
{
    if (ranks <= 1 || bytes <= 0)
        return 0;
    const double intra = m_rates.intraNodeBytesPerSec * kIntraLinkEfficiency;
    double bw = intra;
    if (crossNode) {
        const bool ring = op == CollectiveOp::AllReduce || op == CollectiveOp::AllGather || op == CollectiveOp::ReduceScatter;
        bw = ring ? kInterRingFraction * m_rates.nicBytesPerSec * m_rates.gpusPerNode : m_rates.nicBytesPerSec;
        if (intra > 0)
            bw = std::min(bw, intra);
    }
    if (bw <= 0)
        return 0;
    return (crossNode ? m_interUs : m_intraUs) + bytes * busFactor(op, ranks) / bw * 1e6;
}

double ProfileCollectiveTime::allToAllTimeUs(double bytes, int ranks, int ranksPerNode) const
{
    const int local = std::clamp(ranksPerNode, 1, std::max(1, ranks));
    if (ranks <= 1 || bytes <= 0 || local >= ranks)
        return timeUs(CollectiveOp::AllToAll, bytes, ranks, false);
    // Each rank sends bytes/ranks to every peer: (local-1) shares stay in the node, the other
    // (ranks-local) go out through the GPU's NIC; both move at once.
    const double intra = m_rates.intraNodeBytesPerSec * kIntraLinkEfficiency;
    const double nic = m_rates.nicBytesPerSec;
    if (nic <= 0)
        return 0;
    const double share = bytes / ranks;
    const double out = share * (ranks - local) / nic;
    const double in = intra > 0 ? share * (local - 1) / intra : 0;
    return m_interUs + std::max(out, in) * 1e6;
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

double MeasuredCollectiveTime::allToAllTimeUs(double bytes, int ranks, int ranksPerNode) const
{
    if (ranks <= 1 || bytes <= 0)
        return 0;
    if (const fits::AlphaBeta* fit = fitFor(CollectiveOp::AllToAll, ranks))
        return fit->timeUs(bytes);
    return m_fallback ? m_fallback->allToAllTimeUs(bytes, ranks, ranksPerNode) : 0;
}
} // namespace rl::model
