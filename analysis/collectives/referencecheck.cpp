#include "collectives/referencecheck.h"

#include <algorithm>

#include "collectives/collectiveop.h"

namespace rl {

ReferenceCheck::ReferenceCheck(const std::vector<CollectivePoint>& reference, double threshold)
    : m_reference(reference), m_threshold(threshold)
{
}

const ReferenceCheck::RefFit& ReferenceCheck::fitFor(const CollectivePoint& p)
{
    const auto key = std::make_pair(p.op, p.inPlace);
    if (auto it = m_fits.find(key); it != m_fits.end())
        return it->second;
    bool inPlace = p.inPlace;
    auto fit = fits::fitCollective(m_reference, p.op, inPlace);
    if (!fit) // a reference with only the other flavour still says what the op can do
        fit = fits::fitCollective(m_reference, p.op, inPlace = !inPlace);
    RefFit r{fit, 0};
    for (const auto& q : m_reference)
        if (q.op == p.op && q.inPlace == inPlace)
            r.ranks = std::max(r.ranks, q.nranks);
    return m_fits.emplace(key, r).first->second;
}

std::optional<ReferenceVerdict> ReferenceCheck::verdict(const CollectivePoint& p)
{
    const auto& ref = fitFor(p);
    const auto op = collectiveOpFromString(p.op);
    if (!ref.fit || !op || p.bytes <= 0)
        return std::nullopt;
    ReferenceVerdict v;
    const double algbw = double(p.bytes) / (ref.fit->timeUs(double(p.bytes)) * 1e3); // GB/s
    v.expectedBusGBs = algbw * busFactor(*op, ref.ranks);
    v.ratio = v.expectedBusGBs > 0 ? p.busbwGBs / v.expectedBusGBs : 0;
    v.flagged = v.ratio < m_threshold;
    return v;
}

std::vector<std::optional<ReferenceVerdict>> compareToReference(const std::vector<CollectivePoint>& points,
                                                                const std::vector<CollectivePoint>& reference,
                                                                double threshold)
{
    ReferenceCheck check(reference, threshold);
    std::vector<std::optional<ReferenceVerdict>> out;
    out.reserve(points.size());
    for (const auto& p : points)
        out.push_back(check.verdict(p));
    return out;
}
} // namespace rl
