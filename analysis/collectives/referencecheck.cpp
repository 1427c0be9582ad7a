#include "collectives/referencecheck.h"

#include <algorithm>
#include <map>

#include "collectives/collectiveop.h"
#include "fits/alphabetafit.h"

namespace rl {

std::vector<std::optional<ReferenceVerdict>> compareToReference(const std::vector<CollectivePoint>& points,
                                                                const std::vector<CollectivePoint>& reference,
                                                                double threshold)
{
    struct RefFit
    {
        std::optional<fits::AlphaBeta> fit;
        int ranks = 0; // of the reference's points: busbw is comparable across rank counts, algbw is not
    };
    std::map<std::pair<std::string, bool>, RefFit> fitsByKey;
    std::vector<std::optional<ReferenceVerdict>> out;
    out.reserve(points.size());
    for (const auto& p : points) {
        const auto key = std::make_pair(p.op, p.inPlace);
        auto it = fitsByKey.find(key);
        if (it == fitsByKey.end()) {
            bool inPlace = p.inPlace;
            auto fit = fits::fitCollective(reference, p.op, inPlace);
            if (!fit) // a reference with only the other flavour still says what the op can do
                fit = fits::fitCollective(reference, p.op, inPlace = !inPlace);
            RefFit r{fit, 0};
            for (const auto& q : reference)
                if (q.op == p.op && q.inPlace == inPlace)
                    r.ranks = std::max(r.ranks, q.nranks);
            it = fitsByKey.emplace(key, r).first;
        }
        const auto op = collectiveOpFromString(p.op);
        const auto& ref = it->second;
        if (!ref.fit || !op || p.bytes <= 0) {
            out.push_back(std::nullopt);
            continue;
        }
        ReferenceVerdict v;
        const double algbw = double(p.bytes) / (ref.fit->timeUs(double(p.bytes)) * 1e3); // GB/s
        v.expectedBusGBs = algbw * busFactor(*op, ref.ranks);
        v.ratio = v.expectedBusGBs > 0 ? p.busbwGBs / v.expectedBusGBs : 0;
        v.flagged = v.ratio < threshold;
        out.push_back(v);
    }
    return out;
}
} // namespace rl
