#include "views/sizechartdata.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "io/parallelfor.h"

namespace rl::charts {

bool SizeChartData::answers(const SizeChartRequest& r) const
{
    const ChartOptions& a = request.options;
    const ChartOptions& b = r.options;
    if (request.kind != r.kind || a.metric != b.metric || a.showFits != b.showFits || a.fitMinBytes != b.fitMinBytes ||
        a.fitMaxBytes != b.fitMaxBytes || request.unit != r.unit)
        return false;
    const auto whole = [this](int pixels) { return longestDrawn <= pointsDrawnWhole(curveColumns(pixels)); };
    return request.pixels == r.pixels || (whole(request.pixels) && whole(r.pixels));
}

double plottedY(const CollectivePoint& p, ChartKind kind, BandwidthMetric metric, units::BandwidthUnit unit)
{
    return kind == ChartKind::Latency ? p.timeUs : units::bandwidthIn(metricValue(p, metric), unit);
}

std::vector<PlotPoint> plotPoints(const Curve& curve, ChartKind kind, BandwidthMetric metric, units::BandwidthUnit unit)
{
    std::vector<PlotPoint> pts;
    pts.reserve(curve.points.size());
    for (const auto& p : curve.points) {
        const double y = plottedY(p, kind, metric, unit);
        if (p.bytes > 0 && (kind != ChartKind::Latency || y > 0))
            pts.push_back({std::log2(static_cast<double>(p.bytes)), y});
    }
    return pts;
}

namespace {
const std::string& sessionTitle(const std::vector<SessionCurves>& sessions, std::int64_t id, std::string& fallback)
{
    for (const auto& s : sessions)
        if (s.session.id == id)
            return s.session.title;
    fallback = std::to_string(id);
    return fallback;
}

// Bands of curves sharing a key, in the order of each key's first curve; a key of one curve is
// no band. Marks the banded curves.
template <typename Key, typename KeyOf>
std::vector<GroupBand> bandBy(const std::vector<Curve>& curves, std::vector<bool>& banded, KeyOf keyOf)
{
    std::map<Key, std::size_t> bandOf;
    std::vector<GroupBand> bands;
    for (std::size_t i = 0; i < curves.size(); ++i) {
        if (banded[i])
            continue;
        const std::optional<Key> key = keyOf(curves[i]);
        if (!key)
            continue;
        auto [it, fresh] = bandOf.try_emplace(*key, bands.size());
        if (fresh)
            bands.push_back({});
        bands[it->second].curves.push_back(i);
    }
    std::erase_if(bands, [](const GroupBand& b) { return b.curves.size() < 2; }); // a lone curve stays a curve
    for (const auto& b : bands)
        for (std::size_t i : b.curves)
            banded[i] = true;
    return bands;
}

// Beyond kMaxDrawnCurves: first the groups of each --split session per op and in-place; when the
// curves left are still too many to draw one by one (a selection of many plain sessions), the
// rest per op and in-place across sessions.
std::vector<GroupBand> groupIntoBands(const std::vector<SessionCurves>& sessions, const std::vector<Curve>& curves,
                                      std::vector<bool>& banded)
{
    banded.assign(curves.size(), false);
    if (curves.size() <= kMaxDrawnCurves)
        return {};
    using SplitKey = std::tuple<std::int64_t, std::string, bool>;
    auto bands = bandBy<SplitKey>(curves, banded, [](const Curve& c) -> std::optional<SplitKey> {
        if (c.key.group.empty())
            return std::nullopt; // one curve per op: stays a curve
        return SplitKey{c.key.sessionId, c.key.op, c.key.inPlace};
    });
    std::string fallback;
    for (auto& b : bands) {
        const CurveKey& k = curves[b.curves.front()].key;
        b.name = curveName(sessionTitle(sessions, k.sessionId, fallback), k.op, k.inPlace) + " · " +
                 std::to_string(b.curves.size()) + " groups";
    }
    const auto left = static_cast<std::size_t>(std::count(banded.begin(), banded.end(), false));
    if (left <= kMaxDrawnCurves)
        return bands;
    using OpKey = std::pair<std::string, bool>;
    auto across = bandBy<OpKey>(curves, banded, [](const Curve& c) { return std::optional<OpKey>{{c.key.op, c.key.inPlace}}; });
    for (auto& b : across) {
        const CurveKey& k = curves[b.curves.front()].key;
        std::set<std::int64_t> ids;
        for (std::size_t i : b.curves)
            ids.insert(curves[i].key.sessionId);
        // One curve per session reads as sessions; groups left over from --split runs as curves.
        const bool perSession = ids.size() == b.curves.size();
        b.member = perSession ? "session" : "curve";
        b.name = k.op + (k.inPlace ? " in-place" : "") + " · " + std::to_string(b.curves.size()) +
                 (perSession ? " sessions" : " curves of " + std::to_string(ids.size()) + " sessions");
        bands.push_back(std::move(b));
    }
    return bands;
}

// How many points a curve of a session's outline stands for on a view: `count` is the view's
// (OutlineSums::sized, timed or spread); every point of a curve of points.
std::size_t standsFor(const Curve& curve, std::int64_t store::OutlineSums::*count, std::size_t points)
{
    if (!curve.outline)
        return points;
    std::int64_t n = 0;
    for (const auto& o : *curve.outline)
        n += o.*count;
    return static_cast<std::size_t>(n);
}

// The fastest and slowest call's value per size, for points that carry call statistics.
CallSpread callSpread(const Curve& curve, const SizeChartRequest& r)
{
    CallSpread out;
    for (const auto& p : curve.points) {
        if (!p.stats || p.bytes <= 0 || p.timeUs <= 0 || p.stats->minUs <= 0 || p.stats->maxUs <= 0)
            continue;
        const double value = plottedY(p, r.kind, r.options.metric, r.unit);
        const double x = std::log2(static_cast<double>(p.bytes));
        out.upper.push_back({x, value * p.timeUs / p.stats->minUs});
        out.lower.push_back({x, value * p.timeUs / p.stats->maxUs});
    }
    if (out.upper.size() < 2)
        return {};
    const double lo = out.upper.front().x, hi = out.upper.back().x;
    const std::size_t n = standsFor(curve, &store::OutlineSums::spread, out.upper.size());
    out.upper = decimateToPixels(out.upper, lo, hi, curveColumns(r.pixels), n);
    out.lower = decimateToPixels(out.lower, lo, hi, curveColumns(r.pixels), n);
    return out;
}
} // namespace

std::vector<PlotPoint> drawnPoints(const Curve& curve, ChartKind kind, BandwidthMetric metric, units::BandwidthUnit unit,
                                   int pixels, std::size_t* plotted)
{
    const auto pts = plotPoints(curve, kind, metric, unit);
    const std::size_t n =
        standsFor(curve, kind == ChartKind::Latency ? &store::OutlineSums::timed : &store::OutlineSums::sized, pts.size());
    if (plotted)
        *plotted = n;
    return pts.empty() ? pts : decimateToPixels(pts, pts.front().x, pts.back().x, curveColumns(pixels), n);
}

SizeChartData sizeChartData(const std::vector<SessionCurves>& sessions, const SizeChartRequest& request,
                            std::shared_ptr<const std::vector<Curve>> curves, std::shared_ptr<const CurveFits> fits)
{
    SizeChartData d;
    d.request = request;
    d.curves = curves ? std::move(curves) : std::make_shared<const std::vector<Curve>>(collectCurves(sessions));
    const auto& all = *d.curves;
    const ChartKind kind = request.kind;
    const BandwidthMetric metric = request.options.metric;
    d.bands = groupIntoBands(sessions, all, d.banded);
    for (auto& b : d.bands) {
        std::vector<std::vector<PlotPoint>> pts;
        pts.reserve(b.curves.size());
        for (std::size_t i : b.curves)
            pts.push_back(plotPoints(all[i], kind, metric, request.unit));
        b.points = aggregateBand(pts);
    }
    d.drawn.resize(all.size());
    d.fits.resize(all.size());
    if (kind == ChartKind::Bandwidth)
        d.spreads.resize(all.size());
    // A curve a thread: the bandwidth chart's curves carry more work than the latency chart's,
    // so the two charts side by side left a core idle for a third of the time.
    std::vector<std::size_t> longest(all.size(), 0);
    parallelFor(all.size(), [&](std::size_t i) {
        if (d.banded[i])
            return;
        d.drawn[i] = drawnPoints(all[i], kind, metric, request.unit, request.pixels, &longest[i]);
        if (kind == ChartKind::Bandwidth)
            d.spreads[i] = callSpread(all[i], request);
        if (request.options.showFits)
            d.fits[i] = fits ? (*fits)[i] : fitCurve(all[i], request.options.fitMinBytes, request.options.fitMaxBytes);
    });
    d.longestDrawn = longest.empty() ? 0 : *std::max_element(longest.begin(), longest.end());
    if (kind == ChartKind::Bandwidth && metric == BandwidthMetric::BusBw)
        d.peaks = tierPeakLines(sessions, all);
    return d;
}

PreparedCurves prepareCurves(std::vector<SessionCurves> sessions, const std::vector<SizeChartRequest>& requests,
                             const std::function<bool()>& cancelled)
{
    PreparedCurves out;
    out.sessions = std::make_shared<std::vector<SessionCurves>>(std::move(sessions));
    const auto sized = [](const SizeChartRequest& r) { return r.kind == ChartKind::Bandwidth || r.kind == ChartKind::Latency; };
    if (cancelled && cancelled())
        return out;
    out.charts.resize(requests.size());
    if (std::none_of(requests.begin(), requests.end(), sized))
        return out;
    // The same for every kind: collected once. The charts are then made side by side (each reads
    // the curves only), a chart a thread.
    const auto curves = std::make_shared<const std::vector<Curve>>(collectCurves(*out.sessions));
    // Fits too, where charts fit the same range: a fit of a 3.4 M-point curve reads every point.
    const auto fitted = [&](const SizeChartRequest& r) { return sized(r) && r.options.showFits; };
    std::shared_ptr<const CurveFits> fits;
    const auto first = std::find_if(requests.begin(), requests.end(), fitted);
    const auto sameFits = [&](const SizeChartRequest& r) {
        return fitted(r) && r.options.fitMinBytes == first->options.fitMinBytes &&
               r.options.fitMaxBytes == first->options.fitMaxBytes;
    };
    if (first != requests.end() && std::count_if(requests.begin(), requests.end(), sameFits) > 1) {
        auto all = std::make_shared<CurveFits>(curves->size());
        parallelFor(curves->size(), [&](std::size_t c) {
            (*all)[c] = fitCurve((*curves)[c], first->options.fitMinBytes, first->options.fitMaxBytes);
        });
        fits = std::move(all);
    }
    parallelFor(requests.size(), [&](std::size_t i) {
        if (sized(requests[i]) && !(cancelled && cancelled()))
            out.charts[i] = sizeChartData(*out.sessions, requests[i], curves, sameFits(requests[i]) ? fits : nullptr);
    });
    if (cancelled && cancelled())
        out.charts.clear();
    return out;
}
} // namespace rl::charts
