#pragma once
// What a bandwidth or latency chart draws, as one pure function of the sessions and the chart's
// options: curves, bands, the points each series is drawn with (in plotted units, thinned to the
// plot's pixels), call spreads, fits and tier peaks. The window computes it off the GUI thread
// next to loading the points (issue 26 item 11: 3,240 curves cost the GUI thread 100-250 ms per
// chart), so the chart widget only turns finished data into series; a chart whose options change
// computes it again on the spot.
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "units/units.h"
#include "views/chartdata.h"
#include "views/curvelod.h"

namespace rl::charts {

// What a size chart's data depends on.
struct SizeChartRequest
{
    ChartKind kind = ChartKind::Bandwidth;
    ChartOptions options;
    units::BandwidthUnit unit = units::BandwidthUnit::GBps; // the display unit bandwidths are drawn in
    int pixels = 1000;                                      // the plot's width: curves are thinned to its curveColumns
};

// Many curves of one kind drawn as one band: the groups of a --split session per op and in-place,
// or, when that still leaves too many curves, the sessions' curves of one op and in-place.
struct GroupBand
{
    std::string name;                // "<session> · <op>[ in-place] · 81 groups", "<op>[ in-place] · 60 sessions"
    std::vector<std::size_t> curves; // indices into the chart's curves
    std::vector<BandPoint> points;   // plotted values
    std::string member = "group";    // what one of its curves is: "group", "session" or "curve"
};

// The spread of a drawn curve's calls (the runner's per-call statistics), in plotted values: per
// size the fastest call's value (upper) and the slowest call's (lower).
struct CallSpread
{
    std::vector<PlotPoint> upper;
    std::vector<PlotPoint> lower;
};

struct SizeChartData
{
    SizeChartRequest request;
    std::shared_ptr<const std::vector<Curve>> curves; // shared by the charts of one data set
    std::vector<GroupBand> bands;
    // Per curve: whether a band draws it, and else its points as drawn (decimateToPixels).
    std::vector<bool> banded;
    std::vector<std::vector<PlotPoint>> drawn;
    std::vector<CallSpread> spreads;                  // per curve; empty but on the bandwidth view
    std::vector<std::optional<fits::AlphaBeta>> fits; // per curve; only drawn curves, only with showFits
    std::vector<PeakLine> peaks;                      // the busbw bandwidth view's tier ceilings
    std::size_t longestDrawn = 0;                     // points of the longest drawn curve before thinning

    // Whether this data draws the chart `request` asks for: the same kind, metric, fit options and
    // unit, and the same width or one at which no curve is thinned either way.
    bool answers(const SizeChartRequest& request) const;
};

// A point's y as plotted: its time (µs) on the latency view, else its bandwidth in `unit`.
double plottedY(const CollectivePoint& p, ChartKind kind, BandwidthMetric metric, units::BandwidthUnit unit);
// A curve's points as plotted (x = log2 of the size), leaving out what a log axis cannot show.
std::vector<PlotPoint> plotPoints(const Curve& curve, ChartKind kind, BandwidthMetric metric, units::BandwidthUnit unit);

// A curve as a size chart draws it: plotPoints thinned to the curveColumns of `pixels`, as every
// point would be for a curve of a session's outline. plotted: how many points that is before thinning.
std::vector<PlotPoint> drawnPoints(const Curve& curve, ChartKind kind, BandwidthMetric metric, units::BandwidthUnit unit,
                                   int pixels, std::size_t* plotted = nullptr);

// Each curve's fit (fitCurve), in the curves' order.
using CurveFits = std::vector<std::optional<fits::AlphaBeta>>;

// curves: collectCurves(sessions), computed once for the charts of one data set; null computes it.
// fits: the curves' fits over the request's fit range, computed once for the charts that draw them
// (the bandwidth and latency charts fit the same times); null fits them here.
SizeChartData sizeChartData(const std::vector<SessionCurves>& sessions, const SizeChartRequest& request,
                            std::shared_ptr<const std::vector<Curve>> curves = nullptr,
                            std::shared_ptr<const CurveFits> fits = nullptr);

// A selection as the collective views take it from the loader: the one data set every view reads
// (its owner appends live points to it) and, per request, a size chart's data (nullopt for the
// scaling and compare views, which are small and built when drawn).
struct PreparedCurves
{
    std::shared_ptr<std::vector<SessionCurves>> sessions = std::make_shared<std::vector<SessionCurves>>();
    std::vector<std::optional<SizeChartData>> charts;
};
// cancelled, when given, is asked between charts; a cancelled preparation has no chart data.
PreparedCurves prepareCurves(std::vector<SessionCurves> sessions, const std::vector<SizeChartRequest>& requests,
                             const std::function<bool()>& cancelled = {});
} // namespace rl::charts
