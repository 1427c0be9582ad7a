#include "model/storecalibration.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "store/workspace.h"

namespace rl::model {

StoreCalibration::StoreCalibration(store::Workspace& ws)
{
    auto sessions = ws.sessions(); // newest first: fit oldest first so newer ones replace them
    std::reverse(sessions.begin(), sessions.end());
    for (const auto& s : sessions) {
        if (s.kind != kind::Collectives)
            continue;
        const auto points = ws.collectivePoints(s.id);
        std::set<std::pair<std::string, int>> keys;
        for (const auto& p : points)
            keys.insert({p.op, p.nranks});
        for (const auto& key : keys) {
            const std::string& opName = key.first;
            const int ranks = key.second; // a plain variable: clang 14 cannot capture bindings
            const auto op = collectiveOpFromString(opName);
            if (!op)
                continue;
            std::vector<CollectivePoint> sel;
            bool anyOutOfPlace = false;
            double imbalance = 0;
            for (const auto& p : points)
                if (p.op == opName && p.nranks == ranks) {
                    sel.push_back(p);
                    anyOutOfPlace = anyOutOfPlace || !p.inPlace;
                    imbalance = std::max(imbalance, p.imbalance);
                }
            const auto fit = fits::fitCollective(sel, opName, !anyOutOfPlace);
            if (!fit)
                continue;
            imbalance = imbalance > 0 ? imbalance : 1.0;
            auto it = std::find_if(m_fits.begin(), m_fits.end(), [&](const Entry& e) {
                return e.op == *op && e.ranks == ranks && (e.op != CollectiveOp::AllToAllV || std::abs(e.imbalance - imbalance) < 1e-3);
            });
            if (it != m_fits.end())
                it->fit = *fit;
            else
                m_fits.push_back({*op, ranks, *fit, imbalance});
        }
    }
}

std::unique_ptr<MeasuredCollectiveTime> StoreCalibration::collectiveSource(const CollectiveTimeSource* fallback) const
{
    auto src = std::make_unique<MeasuredCollectiveTime>(fallback);
    for (const auto& e : m_fits)
        src->addFit(e.op, e.ranks, e.fit, e.imbalance);
    return src;
}
} // namespace rl::model
