#include "model/storecalibration.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>

#include "collectives/splitgroups.h"
#include "store/workspace.h"

namespace rl::model {

std::string basisLabel(const CalibrationSession& s)
{
    return "session " + std::to_string(s.id) + (s.title.empty() ? std::string() : " (" + s.title + ")");
}

StoreCalibration::StoreCalibration(store::Workspace& ws)
{
    auto sessions = ws.sessions(); // newest first: fit oldest first so newer ones replace them
    std::reverse(sessions.begin(), sessions.end());
    for (const auto& s : sessions)
        if (s.kind == kind::Collectives)
            fitSession(ws, {s.id, s.title});
}

StoreCalibration::StoreCalibration(store::Workspace& ws, const std::vector<std::int64_t>& sessionIds)
{
    for (const auto id : sessionIds) {
        const auto s = ws.session(id);
        if (!s)
            throw std::invalid_argument("session " + std::to_string(id) + " is not in the workspace");
        if (s->kind != kind::Collectives)
            throw std::invalid_argument("session " + std::to_string(id) + " is a " + s->kind +
                                        " session, not a collective benchmark");
        fitSession(ws, {s->id, s->title});
    }
}

void StoreCalibration::fitSession(store::Workspace& ws, const CalibrationSession& s)
{
    m_sessions.push_back(s);
    const std::size_t sessionIndex = m_sessions.size() - 1;
    // A --split session calibrates with its slowest group at each size: a job waits for it.
    const auto points = slowestGroupAtEachSize(ws.collectivePoints(s.id));
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
        if (it != m_fits.end()) {
            it->fit = *fit;
            it->session = sessionIndex;
        } else {
            m_fits.push_back({*op, ranks, *fit, imbalance, sessionIndex});
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

const CalibrationSession* StoreCalibration::sessionFor(CollectiveOp op, int ranks, double routedImbalance) const
{
    if (routedImbalance > 0)
        for (const auto& e : m_fits)
            if (e.op == CollectiveOp::AllToAllV && e.ranks == ranks && std::abs(e.imbalance - routedImbalance) < 1e-3)
                return &m_sessions[e.session];
    for (const auto& e : m_fits)
        if (e.op == op && e.ranks == ranks)
            return &m_sessions[e.session];
    return nullptr;
}

std::string StoreCalibration::coverage(std::int64_t sessionId) const
{
    std::map<int, std::string> opsByRanks;
    for (const auto& e : m_fits) {
        if (m_sessions[e.session].id != sessionId)
            continue;
        std::string& ops = opsByRanks[e.ranks];
        const std::string name = toString(e.op);
        if (ops.find(name) == std::string::npos)
            ops += (ops.empty() ? "" : ", ") + name;
    }
    std::string out;
    for (const auto& [ranks, ops] : opsByRanks)
        out += (out.empty() ? "" : "; ") + ops + " over " + std::to_string(ranks) + " GPUs";
    return out.empty() ? std::string("no fit (too few points)") : out;
}
} // namespace rl::model
