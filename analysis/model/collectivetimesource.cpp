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

double MeasuredCollectiveTime::timeUs(CollectiveOp op, double bytes, int ranks, bool crossNode) const
{
    if (ranks <= 1 || bytes <= 0)
        return 0;
    if (auto it = m_fits.find({op, ranks}); it != m_fits.end())
        return it->second.timeUs(bytes);
    return m_fallback ? m_fallback->timeUs(op, bytes, ranks, crossNode) : 0;
}
} // namespace rl::model
