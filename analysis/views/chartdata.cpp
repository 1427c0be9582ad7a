#include "views/chartdata.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include <stdexcept>

#include "collectives/collectiveop.h"
#include "collectives/tierpeak.h"
#include "io/parallelfor.h"
#include "store/parallelpoints.h"
#include "store/workspace.h"
#include "units/units.h"

namespace rl::charts {

const char* toString(ChartKind kind)
{
    switch (kind) {
    case ChartKind::Bandwidth: return "bandwidth";
    case ChartKind::Latency: return "latency";
    case ChartKind::Scaling: return "scaling";
    case ChartKind::Compare: return "compare";
    }
    return "bandwidth";
}

std::optional<ChartKind> chartKindFromString(const std::string& name)
{
    for (ChartKind k : {ChartKind::Bandwidth, ChartKind::Latency, ChartKind::Scaling, ChartKind::Compare})
        if (name == toString(k))
            return k;
    return std::nullopt;
}

double metricValue(const CollectivePoint& p, BandwidthMetric metric)
{
    return metric == BandwidthMetric::BusBw ? p.busbwGBs : p.algbwGBs;
}

std::string metricTitle(BandwidthMetric metric)
{
    return units::bandwidthTitle(metric == BandwidthMetric::BusBw ? "Bus bandwidth" : "Algorithm bandwidth");
}

std::string curveName(const std::string& sessionTitle, const std::string& op, bool inPlace, const std::string& group)
{
    // Importers end titles with "(tool version)"; the legend has no room for it (the session
    // browser shows the tool).
    std::string title = sessionTitle;
    if (const auto open = title.rfind(" ("); open != std::string::npos && open > 0 && title.back() == ')')
        title.erase(open);
    const std::string what = op + (inPlace ? " in-place" : "");
    // A --split group leads: it is what tells the curves of one session apart, and a legend
    // short of room cuts names at the end.
    return group.empty() ? title + " · " + what : group + " · " + what + " · " + title;
}

std::string fitName(const std::string& name, const fits::AlphaBeta& fit)
{
    return name + " fit: α " + units::formatTime(fit.alphaUs) + ", β " + units::formatBandwidth(fit.betaGBs);
}

std::string fitLegend(const fits::AlphaBeta& fit, BandwidthMetric metric, double busFactor)
{
    // β in the chart's own bandwidth only: the algbw form ("β 343 GB/s algbw = 300 GB/s busbw")
    // cut the rms error off the legend at 1280 px; the series name and the hover keep the algbw β.
    const bool bus = metric == BandwidthMetric::BusBw;
    return "α " + units::formatTime(fit.alphaUs) + ", β " + units::formatBandwidth(fit.betaGBs * (bus ? busFactor : 1.0))
        + (bus ? " busbw" : " algbw") + ", rms error " + units::formatPercent(fit.rmsRelError);
}

namespace {
// What puts a point on a curve, viewing the point's strings: a hash key for one lookup per point.
struct PointCurve
{
    std::string_view op;
    bool inPlace = false;
    std::string_view group;
    friend bool operator==(const PointCurve&, const PointCurve&) = default;
};
struct PointCurveHash
{
    std::size_t operator()(const PointCurve& k) const noexcept
    {
        const std::hash<std::string_view> h;
        return (h(k.op) * 31 + h(k.group)) * 2 + (k.inPlace ? 1 : 0);
    }
};
bool sameCurve(const CollectivePoint& a, const CollectivePoint& b)
{
    return a.inPlace == b.inPlace && a.op == b.op && a.group == b.group;
}
} // namespace

std::vector<PeakLine> tierPeakLines(const std::vector<SessionCurves>& sessions, const std::vector<Curve>& curves)
{
    std::vector<PeakLine> out;
    for (const auto& s : sessions) {
        std::set<std::tuple<std::string, int, int>> opRanksNodes; // a --split group may span fewer nodes
        // Per curve, not per point: its op and group are the curve's, only the rank count is read
        // from each point (a pass comparing each point's strings took 60 ms of a 1 M-point chart).
        for (const Curve& c : curves) {
            if (c.key.sessionId != s.session.id)
                continue;
            const int nodes = groupNodes(s.session, c.key.group);
            std::optional<int> ranks;
            for (const auto& p : c.points)
                if (p.nranks != ranks) {
                    ranks = p.nranks;
                    opRanksNodes.emplace(c.key.op, p.nranks, nodes);
                }
        }
        for (const auto& [op, ranks, nodes] : opRanksNodes) {
            std::string why;
            const auto tier = sessionTierPeak(s.session, op, ranks, {}, nodes, &why);
            if (!tier || tier->peakBusGBs <= 0)
                continue;
            const bool seen = std::any_of(out.begin(), out.end(), [&](const PeakLine& l) {
                return std::abs(l.busGBs - tier->peakBusGBs) < 1e-6 * tier->peakBusGBs;
            });
            if (seen)
                continue;
            out.push_back({tier->peakBusGBs,
                           "tier peak: " + units::formatBandwidth(tier->peakBusGBs) + " (" +
                               (tier->interNode ? std::to_string(tier->nodes) + " nodes" : std::string("one node")) + ", " +
                               tier->profileId + ")",
                           tier->reasoning});
        }
    }
    return out;
}

namespace {
// A session's outline sums by curve (op, in-place, group), each curve's sizes together.
using OutlineByCurve = std::map<std::tuple<std::string_view, bool, std::string_view>,
                                std::shared_ptr<std::vector<store::OutlineSums>>>;
OutlineByCurve outlineByCurve(const std::vector<store::OutlineSums>& sums)
{
    OutlineByCurve out;
    for (const auto& o : sums) {
        auto& own = out[{o.op, o.inPlace, o.group}];
        if (!own)
            own = std::make_shared<std::vector<store::OutlineSums>>();
        own->push_back(o);
    }
    return out;
}
} // namespace

std::vector<Curve> collectCurves(const std::vector<SessionCurves>& sessions)
{
    std::vector<Curve> out;
    // Per curve, its session's points in the order the curve takes them. A curve whose points lie
    // together, sorted by size (as Workspace::collectivePoints gives them), is a slice of its
    // session's points; the others are copied, one curve at a time on every core.
    std::vector<std::pair<const SessionCurves*, std::vector<std::size_t>>> pointsOf;
    for (const auto& s : sessions) {
        // Each curve's points as indices first (one hash lookup per point), then sliced or copied
        // once, below: 3,240 curves of 77,760 points took 90-130 ms with two ordered-map lookups and
        // a growing copy per point. Keys view the session's own strings.
        std::map<std::string_view, std::size_t> groupOrder; // "ranks 10-11" after "ranks 2-3", as they ran
        std::map<std::tuple<std::string_view, bool, std::size_t>, std::vector<std::size_t>> byOp;
        std::unordered_map<PointCurve, std::vector<std::size_t>*, PointCurveHash> seen; // into byOp's stable nodes
        std::vector<std::size_t>* last = nullptr; // the previous point's curve: runs of one curve are the rule
        for (std::size_t i = 0; i < s.points.size(); ++i) {
            const CollectivePoint& p = s.points[i];
            if (!last || !sameCurve(p, s.points[i - 1])) {
                auto [it, fresh] = seen.try_emplace(PointCurve{p.op, p.inPlace, p.group}, nullptr);
                if (fresh) {
                    const std::size_t order = groupOrder.try_emplace(p.group, groupOrder.size()).first->second;
                    it->second = &byOp[{p.op, p.inPlace, order}];
                }
                last = it->second;
            }
            last->push_back(i);
        }
        const OutlineByCurve outline = s.outline ? outlineByCurve(*s.outline) : OutlineByCurve{};
        for (auto& [k, indices] : byOp) {
            const auto& [op, inPlace, order] = k;
            Curve c;
            c.key = {s.session.id, std::string(op), inPlace, s.points[indices.front()].group};
            c.name = curveName(s.session.title, c.key.op, inPlace, c.key.group);
            if (s.outline) { // the curve's own sizes of its session's outline
                const auto it = outline.find({c.key.op, c.key.inPlace, c.key.group});
                c.outline = it != outline.end() ? it->second : std::make_shared<std::vector<store::OutlineSums>>();
            }
            out.push_back(std::move(c));
            pointsOf.emplace_back(&s, std::move(indices));
        }
    }
    parallelFor(out.size(), [&](std::size_t c) {
        const SessionCurves* s = pointsOf[c].first;
        auto& indices = pointsOf[c].second;
        const auto bySize = [s](std::size_t x, std::size_t y) { return s->points[x].bytes < s->points[y].bytes; };
        const bool sorted = std::is_sorted(indices.begin(), indices.end(), bySize);
        if (sorted && indices.back() - indices.front() + 1 == indices.size()) { // ascending indices: a run
            out[c].points = s->points.slice(indices.front(), indices.size());
            return;
        }
        if (!sorted)
            std::stable_sort(indices.begin(), indices.end(), bySize);
        std::vector<CollectivePoint> points;
        points.reserve(indices.size());
        for (std::size_t i : indices)
            points.push_back(s->points[i]);
        out[c].points = std::move(points);
    });
    return out;
}

std::int64_t sessionPointCount(const SessionCurves& s)
{
    return s.outline ? s.outlineCovers : static_cast<std::int64_t>(s.points.size());
}

bool drawnFromOutlines(ChartKind kind)
{
    return kind == ChartKind::Bandwidth || kind == ChartKind::Latency;
}

bool anyOutline(const std::vector<SessionCurves>& sessions)
{
    return std::any_of(sessions.begin(), sessions.end(), [](const SessionCurves& s) { return s.outline != nullptr; });
}

std::optional<fits::AlphaBeta> fitCurve(const Curve& curve, std::int64_t minBytes, std::int64_t maxBytes)
{
    if (!curve.outline)
        return fits::fitCollective(curve.points, curve.key.op, curve.key.inPlace, minBytes, maxBytes);
    fits::FitSums sums;
    for (const auto& s : *curve.outline)
        if (s.sums.points > 0 && s.sums.smallest >= double(minBytes) && s.sums.largest <= double(maxBytes))
            sums += s.sums;
    return fits::fitAlphaBetaFromSums(sums);
}

std::vector<FitCurve> fitCurves(const std::vector<Curve>& curves, std::int64_t minBytes, std::int64_t maxBytes)
{
    std::vector<FitCurve> out;
    for (const auto& c : curves) {
        auto fit = fitCurve(c, minBytes, maxBytes);
        if (fit)
            out.push_back({c.key, *fit, fitName(c.name, *fit)});
    }
    return out;
}

double busFactorOf(const Curve& curve)
{
    for (const auto& p : curve.points)
        if (p.algbwGBs > 0 && p.busbwGBs > 0)
            return p.busbwGBs / p.algbwGBs;
    // No point gives the ratio (busbw 0: one rank moves nothing between GPUs, as nccl-tests prints
    // it): the op's own factor at its rank count, so the fit lies on its curve instead of at algbw.
    for (const auto& p : curve.points)
        if (const auto op = collectiveOpFromString(p.op); op && p.nranks > 0)
            return busFactor(*op, p.nranks);
    return 1.0;
}

namespace {
// Log distance, so 192 KiB is as near to 128 KiB as to 256 KiB... and 1 MiB beats 0 B.
double sizeDistance(std::int64_t bytes, std::int64_t target)
{
    const double b = std::max<double>(static_cast<double>(bytes), 1.0);
    const double t = std::max<double>(static_cast<double>(target), 1.0);
    return std::fabs(std::log2(b) - std::log2(t));
}
} // namespace

std::vector<ScalingLine> scalingLines(const std::vector<SessionCurves>& sessions, std::int64_t targetBytes,
                                      BandwidthMetric metric)
{
    std::map<std::string, ScalingLine> lines;
    std::vector<std::string> order;
    for (const auto& s : sessions) {
        // (op, nranks) -> best point; out-of-place wins over in-place when both exist.
        std::map<std::pair<std::string, int>, const CollectivePoint*> best;
        for (const auto& p : s.points) {
            if (p.nranks <= 0)
                continue;
            const CollectivePoint*& cur = best[{p.op, p.nranks}];
            if (!cur) {
                cur = &p;
                continue;
            }
            if (cur->inPlace != p.inPlace) {
                if (cur->inPlace)
                    cur = &p;
                continue;
            }
            if (sizeDistance(p.bytes, targetBytes) < sizeDistance(cur->bytes, targetBytes))
                cur = &p;
        }
        for (const auto& [k, p] : best) {
            if (!lines.count(k.first)) {
                order.push_back(k.first);
                lines[k.first].op = k.first;
            }
            lines[k.first].points.push_back({p->nranks, p->bytes, metricValue(*p, metric), s.session.id,
                                             s.session.title});
        }
    }
    std::vector<ScalingLine> out;
    for (const auto& op : order) {
        ScalingLine l = std::move(lines[op]);
        std::stable_sort(l.points.begin(), l.points.end(),
                         [](const ScalingPoint& x, const ScalingPoint& y) { return x.nranks < y.nranks; });
        out.push_back(std::move(l));
    }
    return out;
}

std::vector<RatioCurve> ratioCurves(const SessionCurves& a, const SessionCurves& b, BandwidthMetric metric)
{
    struct Mean
    {
        double sum = 0;
        int n = 0;
        double value() const { return n ? sum / n : 0.0; }
    };
    using Key = std::pair<std::string, bool>;
    auto means = [metric](const SessionCurves& s) {
        std::map<Key, std::map<std::int64_t, Mean>> m;
        for (const auto& p : s.points) {
            Mean& x = m[{p.op, p.inPlace}][p.bytes];
            x.sum += metricValue(p, metric);
            ++x.n;
        }
        return m;
    };
    const auto ma = means(a);
    const auto mb = means(b);
    std::vector<RatioCurve> out;
    for (const auto& [key, sizesA] : ma) {
        auto itB = mb.find(key);
        if (itB == mb.end())
            continue;
        RatioCurve c;
        c.op = key.first;
        c.inPlace = key.second;
        c.name = key.first + (key.second ? " in-place" : "") + ": B / A";
        for (const auto& [bytes, meanA] : sizesA) {
            auto itS = itB->second.find(bytes);
            if (itS == itB->second.end() || meanA.value() <= 0)
                continue;
            c.points.push_back({bytes, meanA.value(), itS->second.value(), itS->second.value() / meanA.value()});
        }
        if (!c.points.empty())
            out.push_back(std::move(c));
    }
    return out;
}

std::vector<SessionCurves> loadSessionCurves(store::Workspace& workspace, const std::vector<std::int64_t>& ids,
                                             MissingSession missing, const std::function<bool()>& cancelled,
                                             PointsRead read, const std::function<void(double)>& progress)
{
    std::vector<SessionCurves> out;
    for (std::size_t i = 0; i < ids.size(); ++i) {
        const std::int64_t id = ids[i];
        if (cancelled && cancelled())
            break;
        auto s = workspace.session(id);
        if (!s) {
            if (missing == MissingSession::Skip)
                continue;
            throw std::runtime_error(workspace.path() + ": no session with id " + std::to_string(id));
        }
        if (read == PointsRead::OutlineWhereStored)
            if (auto outline = store::readCollectiveOutline(workspace.database(), id)) {
                auto sums = std::make_shared<const std::vector<store::OutlineSums>>(std::move(outline->sums));
                out.push_back({std::move(*s), std::move(outline->points), std::move(sums), outline->covers});
                continue;
            }
        store::ParallelRead how;
        how.progress = [&](std::int64_t done, std::int64_t total) {
            if (progress && total > 0)
                progress((double(i) + double(done) / double(total)) / double(ids.size()));
            return !(cancelled && cancelled());
        };
        auto points = store::readCollectivePoints(workspace, id, how);
        if (cancelled && cancelled())
            break; // read partly: not this session
        out.push_back({std::move(*s), std::move(points)});
    }
    return out;
}

const std::optional<TierPeak>& TierPeakCache::peakOf(const Session& session, const CollectivePoint& point)
{
    const int nodes = groupNodes(session, point.group);
    const auto key = std::make_tuple(session.id, point.op, point.nranks, nodes);
    auto it = m_peaks.find(key);
    if (it == m_peaks.end()) {
        std::optional<TierPeak> peak;
        try {
            std::string why;
            peak = sessionTierPeak(session, point.op, point.nranks, {}, nodes, &why);
        } catch (const std::exception&) {
            // A profile that does not load leaves the share blank; the chart says why elsewhere.
        }
        if (peak && peak->peakBusGBs <= 0)
            peak.reset();
        it = m_peaks.emplace(key, std::move(peak)).first;
    }
    return it->second;
}

bool appendLivePoint(std::vector<SessionCurves>& sessions, std::int64_t sessionId, const CollectivePoint& point)
{
    const auto it = std::find_if(sessions.begin(), sessions.end(),
                                 [&](const SessionCurves& s) { return s.session.id == sessionId; });
    if (it == sessions.end())
        return false;
    const bool known = std::any_of(it->points.begin(), it->points.end(), [&](const CollectivePoint& p) {
        return p.op == point.op && p.bytes == point.bytes && p.dtype == point.dtype && p.inPlace == point.inPlace &&
               p.nranks == point.nranks && p.redop == point.redop && p.group == point.group;
    });
    if (known)
        return false;
    it->points.push_back(point);
    return true;
}
} // namespace rl::charts
