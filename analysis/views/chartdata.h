#pragma once
// What the collective charts show, computed without Qt so tests and the CLI can check the numbers
// the charts draw: curves per (session, op, in-place), their alpha-beta fits, the scaling view and
// the two-session ratio.
#include <compare>
#include <cstdint>
#include <functional>
#include <map>
#include <tuple>
#include <optional>
#include <string>
#include <vector>

#include "collectives/tierpeak.h"
#include "fits/alphabetafit.h"
#include "records/collectivepoint.h"
#include "records/sharedpoints.h"
#include "records/session.h"
#include "store/collectiveoutline.h"

namespace rl::charts {

enum class ChartKind { Bandwidth, Latency, Scaling, Compare };
enum class BandwidthMetric { BusBw, AlgBw };

const char* toString(ChartKind kind); // "bandwidth", "latency", "scaling", "compare"
std::optional<ChartKind> chartKindFromString(const std::string& name);

// One session as the charts need it: its metadata and its collective points.
struct SessionCurves
{
    Session session;
    SharedPoints points; // in curve order as the store gives them; each curve a slice of them
    // Set when `points` are the session's outline (store/collectiveoutline.h), not all of its
    // points: the size charts draw them as they would draw every point and fit from these sums;
    // what needs every point (the results table, a data export, the scaling and compare views)
    // waits for them.
    std::shared_ptr<const std::vector<store::OutlineSums>> outline = {};
    std::int64_t outlineCovers = 0; // with an outline: the session's points, which it stands for
};
// Whether any of the sessions holds its outline rather than its points.
bool anyOutline(const std::vector<SessionCurves>& sessions);
// The session's point count: its points, or those its outline stands for.
std::int64_t sessionPointCount(const SessionCurves& session);
// Whether a chart of this kind is drawn from outlines as from every point (bandwidth, latency).
bool drawnFromOutlines(ChartKind kind);

struct ChartOptions
{
    BandwidthMetric metric = BandwidthMetric::BusBw;
    bool showFits = true;
    // The sizes the alpha-beta fit uses; the default takes every size.
    std::int64_t fitMinBytes = 0;
    std::int64_t fitMaxBytes = INT64_MAX;
    // Scaling view: the message size compared across rank counts (nearest available per session).
    std::int64_t scalingBytes = std::int64_t{256} << 20;
    int width = 1200; // export size in pixels, independent of the screen
    int height = 800;
    std::string title; // empty: a title derived from the chart kind
};

struct CurveKey
{
    std::int64_t sessionId = 0;
    std::string op;
    bool inPlace = false;
    std::string group; // --split runs: each group of ranks is a curve of its own
    friend auto operator<=>(const CurveKey&, const CurveKey&) = default;
};

struct Curve
{
    CurveKey key;
    std::string name;                   // "<session title> · <op>[ in-place]", or "<group> · <op>[ in-place] · <title>"
    SharedPoints points; // sorted by bytes: a slice of its session's points where they lie together
    // When points are its session's outline: the sums of this curve's sizes (empty for none), with
    // how many of every point each view plots (OutlineSums).
    std::shared_ptr<const std::vector<store::OutlineSums>> outline = {};
};

struct FitCurve
{
    CurveKey key;
    fits::AlphaBeta fit;
    std::string name; // the curve name plus alpha (time) and beta (GB/s)
};

double metricValue(const CollectivePoint& p, BandwidthMetric metric); // GB/s, as stored
std::string metricTitle(BandwidthMetric metric); // "Bus bandwidth (GB/s)", in the display unit
std::string curveName(const std::string& sessionTitle, const std::string& op, bool inPlace,
                      const std::string& group = {});
std::string fitName(const std::string& curveName, const fits::AlphaBeta& fit);
// The fit's legend label in the chart's own quantity. β of t = α + n/β is an algorithm bandwidth;
// on a busbw chart it is given as busbw (β x the curve's bus factor), the value the dashed curve
// levels off at: "α 25 µs, β 262 GB/s busbw, rms error 2.1 %" (the series name keeps the algbw β).
// The error is part of the label: a fit that misses its points by 68 % must say so where it is drawn.
std::string fitLegend(const fits::AlphaBeta& fit, BandwidthMetric metric, double busFactor);

// "Is this number good?": the busbw ceiling of the tier a session ran on (rl::sessionTierPeak, the
// profile its devices name), drawn as a labelled line on the busbw chart.
struct PeakLine
{
    double busGBs = 0;
    std::string label;     // "tier peak: 400 GB/s (2 nodes, h100-sxm)"
    std::string reasoning; // the tier's arithmetic, for the hover text
};

// One curve per (session, op, in-place, group) in session order, then op and in-place order, then
// groups in the order their first point arrived (the runner prints them by rank).
std::vector<Curve> collectCurves(const std::vector<SessionCurves>& sessions);
// One line per distinct ceiling over the sessions' (op, ranks) curves (collectCurves(sessions));
// sessions whose device matches no profile, or that do not say their hosts, get none.
std::vector<PeakLine> tierPeakLines(const std::vector<SessionCurves>& sessions, const std::vector<Curve>& curves);
// Fits a curve within [minBytes, maxBytes]: its points, or the sums of its outline (the same fit).
std::optional<fits::AlphaBeta> fitCurve(const Curve& curve, std::int64_t minBytes, std::int64_t maxBytes);
// Fits each curve within [minBytes, maxBytes]; curves with fewer than two sizes get no fit.
std::vector<FitCurve> fitCurves(const std::vector<Curve>& curves, std::int64_t minBytes, std::int64_t maxBytes);
// busbw / algbw of a curve (the op's bus factor as the source computed it); when no point has a
// busbw, the op's factor at its rank count (0 for one rank); 1 when neither is known.
double busFactorOf(const Curve& curve);

struct ScalingPoint
{
    int nranks = 0;
    std::int64_t bytes = 0; // the size actually used (nearest to the requested one)
    double value = 0;       // GB/s in the chosen metric
    std::int64_t sessionId = 0;
    std::string sessionTitle;
};

struct ScalingLine
{
    std::string op;
    std::vector<ScalingPoint> points; // sorted by nranks, then session order
};

// One line per op: for every session and rank count, the out-of-place point (in-place when the
// session has only those) nearest to targetBytes on a log scale.
std::vector<ScalingLine> scalingLines(const std::vector<SessionCurves>& sessions, std::int64_t targetBytes,
                                      BandwidthMetric metric);

struct RatioPoint
{
    std::int64_t bytes = 0;
    double a = 0, b = 0; // GB/s in the chosen metric, mean over duplicate sizes
    double ratio = 0;    // b / a
};

struct RatioCurve
{
    std::string op;
    bool inPlace = false;
    std::string name; // "<op>[ in-place]: B / A"
    std::vector<RatioPoint> points;
};

// B / A per size and op for sizes both sessions measured with a positive A value.
std::vector<RatioCurve> ratioCurves(const SessionCurves& a, const SessionCurves& b, BandwidthMetric metric);
} // namespace rl::charts

namespace rl::store {
class Workspace;
}

namespace rl::charts {
enum class MissingSession { Fail, Skip };
// Every point of each session, or a session's outline where one is stored (a size chart's first
// draw of a long session: views/sizechartdata.h).
enum class PointsRead { Every, OutlineWhereStored };
// Reads the sessions in the given order with their collective points. A session that does not
// exist throws std::runtime_error naming the id (Fail: the CLI was given it), or is left out (Skip:
// the GUI's selection may name one another process just deleted). cancelled, when given, is asked
// between sessions and between a session's blocks; the sessions read whole so far are returned.
// progress, when given, hears the share of the selection read (0..1) as blocks are read.
std::vector<SessionCurves> loadSessionCurves(store::Workspace& workspace, const std::vector<std::int64_t>& ids,
                                             MissingSession missing = MissingSession::Fail,
                                             const std::function<bool()>& cancelled = {},
                                             PointsRead read = PointsRead::Every,
                                             const std::function<void(double)>& progress = {});

// "Is this number good?" per point (the results table's column): the ceiling of the tier the
// point's session ran on (sessionTierPeak), asked once per session, op and rank count because
// the table asks per row and the answer loads the hardware profiles.
class TierPeakCache
{
public:
    // nullopt when the session's devices or hosts are unknown, or the op has no tier ceiling.
    const std::optional<TierPeak>& peakOf(const Session& session, const CollectivePoint& point);

private:
    std::map<std::tuple<std::int64_t, std::string, int, int>, std::optional<TierPeak>> m_peaks; // session, op, ranks, nodes
};

// A live benchmark point into the shown sessions, the one data set every collective view and the
// results table read. False when its session is not shown, or it is there already (the store read
// and the live stream can both carry a point).
bool appendLivePoint(std::vector<SessionCurves>& sessions, std::int64_t sessionId, const CollectivePoint& point);
} // namespace rl::charts
