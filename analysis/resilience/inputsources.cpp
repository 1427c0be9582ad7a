#include "resilience/inputsources.h"

#include <cstring>
#include <fstream>
#include <stdexcept>

#include "records/session.h"
#include "store/storageresults.h"
#include "store/traceresults.h"
#include "store/workspace.h"
#include "units/duration.h"
#include "units/units.h"

namespace rl::resilience {
namespace {
Session sessionOfKind(store::Workspace& ws, std::int64_t id, const std::string& kind, const std::string& kindName,
                      const std::string& what)
{
    const auto s = ws.session(id);
    if (!s)
        throw std::invalid_argument(what + ": no session " + std::to_string(id) + " in this workspace");
    if (s->kind != kind)
        throw std::invalid_argument(what + ": session " + std::to_string(id) + " is a " + s->kind + " session, not " +
                                    kindName);
    return *s;
}
} // namespace

double parseRate(const std::string& text, const std::string& what)
{
    std::string t = text;
    while (!t.empty() && t.back() == ' ')
        t.pop_back();
    for (const char* suffix : {"GB/s", "gb/s", "GBps"})
        if (t.size() > std::strlen(suffix) && t.ends_with(suffix))
            t.resize(t.size() - std::strlen(suffix));
    while (!t.empty() && t.back() == ' ')
        t.pop_back();
    const auto v = units::parseDouble(t);
    if (!v || *v <= 0)
        throw std::invalid_argument(what + ": \"" + text + "\" is not a bandwidth (e.g. 20GB/s)");
    return *v;
}

std::pair<double, double> parseRatePair(const std::string& text, const std::string& what)
{
    const auto colon = text.find(':');
    const double w = parseRate(text.substr(0, colon), what);
    return {w, colon == std::string::npos ? w : parseRate(text.substr(colon + 1), what)};
}

StorageRates typedRates(const std::string& aggregate, const std::string& perRank, const std::string& aggregateWhat,
                        const std::string& perRankWhat)
{
    StorageRates r;
    std::tie(r.writeAggregateGBs, r.readAggregateGBs) = parseRatePair(aggregate, aggregateWhat);
    if (!perRank.empty())
        std::tie(r.writePerRankGBs, r.readPerRankGBs) = parseRatePair(perRank, perRankWhat);
    r.source = "typed " + aggregate + (perRank.empty() ? "" : ", per rank " + perRank);
    return r;
}

StorageRates storageSessionRates(store::Workspace& ws, std::int64_t sessionId, const std::string& what)
{
    const Session s = sessionOfKind(ws, sessionId, kind::Storage, "storage", what);
    return ratesFromPoints(store::storagePoints(ws.database(), s.id),
                           "session " + std::to_string(s.id) + " (" + s.title + ")");
}

MtbfEstimate typedMtbf(const std::string& text, const std::string& what)
{
    std::string t = text;
    double scale = 1;
    if (t.ends_with("h"))
        t.pop_back();
    else if (t.ends_with("d"))
        t.pop_back(), scale = 24;
    const auto v = units::parseDouble(t);
    if (!v || *v <= 0)
        throw std::invalid_argument(what + ": \"" + text + "\" is not a number of hours (e.g. 2000, 2000h or 90d)");
    return {*v * scale, "typed: " + text + " per node", std::nullopt};
}

MtbfEstimate tableMtbf(const std::vector<FailureRate>& table, const std::string& name, const std::string& what)
{
    for (const auto& f : table)
        if (f.name == name)
            return {f.nodeMtbfHours(),
                    f.name + ": " + std::to_string(f.interruptions) + " interruptions in " + std::to_string(int(f.days)) +
                        " days on " + std::to_string(f.gpus) + " GPUs (" + f.source + ")",
                    std::nullopt};
    std::string names;
    for (const auto& f : table)
        names += (names.empty() ? "" : ", ") + f.name;
    throw std::invalid_argument(what + ": " + name + " is not in the failure table (" + names + ")");
}

MtbfEstimate trainingLogMtbf(store::Workspace& ws, std::int64_t sessionId, int nodes, bool nodesAssumed,
                             const std::string& what)
{
    const Session s = sessionOfKind(ws, sessionId, kind::TrainingLog, "a training log", what);
    const double wallS = s.params.value("wall_s", 0.0);
    const int restarts = s.params.value("restarts", 0);
    MtbfEstimate e;
    e.nodeMtbfHours = nodeMtbfFromRestarts(wallS / 3600.0, restarts, nodes);
    e.source = "training log session " + std::to_string(s.id) + ": " + std::to_string(restarts) + " restarts in " +
               units::formatDuration(wallS) + " on " + std::to_string(nodes) + " nodes" +
               (nodesAssumed ? " (assumed: the planned job's; set the logged job's nodes)" : "");
    // Downtime at each restart: the wall-clock gap the log shows before its first step.
    const auto events = store::trainEvents(ws.database(), s.id);
    double gap = 0;
    int seen = 0;
    for (const auto& r : events)
        if (r.kind == TrainEventKind::Restart)
            for (const auto& g : events)
                if (g.kind == TrainEventKind::TimeGap && g.line == r.line)
                    gap += g.lostS, ++seen;
    if (seen > 0)
        e.relaunchS = gap / seen;
    return e;
}

std::vector<FailureRate> failureTableFrom(const std::string& jsonPath)
{
    if (jsonPath.empty())
        return publishedFailureRates();
    std::ifstream in(jsonPath);
    if (!in)
        throw std::runtime_error("cannot read " + jsonPath);
    return failureRatesFromJson(nlohmann::json::parse(in));
}
} // namespace rl::resilience
