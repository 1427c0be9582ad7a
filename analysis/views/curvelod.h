#pragma once
// Level of detail for the size charts (issue 26 item 11): a chart is as many pixels wide as it
// is, so a curve of 3.4 M points and 3,240 curves of one selection are drawn from what those
// pixels can show.
//  - decimateToPixels: per pixel column the first, lowest, highest and last point (M4, Jugel et
//    al., VLDB 2014): the polyline drawn from them covers exactly the pixels the full curve
//    covers, so the shape is exact to the eye, with at most 4 points per column.
//  - aggregateBand: many curves of one kind (the groups of a --split session) as one band, the
//    lowest, median and highest value at each x over the curves.
// Pure functions on plotted coordinates (x already log2 of the size), so the GUI and the tests
// share them.
#include <cstddef>
#include <span>
#include <vector>

namespace rl::charts {

struct PlotPoint
{
    double x = 0;
    double y = 0;
    friend bool operator==(const PlotPoint&, const PlotPoint&) = default;
};

// The pixel column of x when [xMin, xMax] is split into `pixels` equal columns (clamped to them).
int pixelColumn(double x, double xMin, double xMax, int pixels);

// The most points a curve of `columns` columns can have and be drawn whole: decimateToPixels keeps
// at most 4 a column, so it returns a curve of that many or fewer as it is. The chart data and a
// live append ask it too, to know without thinning whether a curve would be thinned.
inline std::size_t pointsDrawnWhole(int columns)
{
    return 4 * static_cast<std::size_t>(columns > 1 ? columns : 1);
}

// points sorted by x. The x range [xMin, xMax] is split into `pixels` equal columns; a curve of
// at most pointsDrawnWhole(pixels) points is returned as it is. Points outside the range land in
// the first or last column. standsFor: the points these stand for when they are fewer (a curve of
// a session's outline, store/collectiveoutline.h), thinned as that many would be.
std::vector<PlotPoint> decimateToPixels(std::span<const PlotPoint> points, double xMin, double xMax, int pixels,
                                        std::size_t standsFor = 0);

struct BandPoint
{
    double x = 0;
    double min = 0;
    double median = 0;
    double max = 0;
    int values = 0; // how many points of the curves lie at this x
};

// One band over the curves: per distinct x (in increasing order), the lowest, median and highest
// y of every point at that x, whichever curve it is in.
std::vector<BandPoint> aggregateBand(const std::vector<std::vector<PlotPoint>>& curves);

// The size charts draw curves with a 2 px pen (QtCharts' theme). Thinned to columns as wide as
// the pen, a curve's line covers the same pixels as the full curve's to within the pen, from half
// the points of one column a pixel: QtCharts took 60-100 ms of the GUI thread to stroke the 24,000
// points of a 1 M-point session's 8 curves (issue 26 item 11).
inline constexpr int kCurvePenPixels = 2;
inline int curveColumns(int pixels)
{
    return pixels / kCurvePenPixels > 1 ? pixels / kCurvePenPixels : 1;
}

// Beyond this many curves a size chart draws the groups of a --split session as bands, one per
// session, op and in-place; a legend of 3,240 entries names nothing, and QtCharts draws each
// series on its own.
inline constexpr std::size_t kMaxDrawnCurves = 48;
} // namespace rl::charts
