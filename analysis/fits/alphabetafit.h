#pragma once
// Latency-bandwidth (alpha-beta) model of a collective: t(n) = alpha + n / beta, fitted by
// least squares over the selected sizes. Residuals are relative (each point weighted by 1/t) so
// that microsecond latencies at small sizes count as much as milliseconds at large ones.
#include <cmath>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "records/collectivepoint.h"

namespace rl::fits {

struct AlphaBeta
{
    double alphaUs = 0;     // latency, µs
    double betaGBs = 0;     // asymptotic algorithm bandwidth, GB/s (1e9 B/s)
    double rmsRelError = 0; // root-mean-square relative residual
    int points = 0;
    std::int64_t minBytes = 0, maxBytes = 0;

    double timeUs(double bytes) const { return alphaUs + (betaGBs > 0 ? bytes / (betaGBs * 1e3) : 0.0); }
};

struct SizeTime
{
    double bytes;
    double timeUs;
};

// Needs two or more distinct positive sizes with positive times; otherwise nullopt. 0-byte rows
// are left out: IMB and OSU time a call that moves nothing (IMB's 0-byte allreduce takes 0.04 µs,
// its 4-byte one 2.2 µs), which is not the latency of a message, and under the 1/t weighting it
// would decide alpha alone - the line then misses every plotted point (a log axis cannot show 0 B).
std::optional<AlphaBeta> fitAlphaBeta(const std::vector<SizeTime>& samples);

// What the weighted least squares above needs of a set of points, in sums that add: a long
// session's outline (store/collectiveoutline.h) keeps them per curve and size, so a chart drawn
// from the outline fits what every point would fit without reading them (issue 26 item 11).
// With w = 1/t: the rows are w·[1, n]·[alpha, c] = 1, so the normal equations need sums of w²,
// n·w², n²·w² (the matrix), w and n·w (the right side), and the count for the rms error.
struct FitSums
{
    std::int64_t points = 0;
    double w = 0, nw = 0, ww = 0, nww = 0, nnww = 0;
    double smallest = HUGE_VAL, largest = -HUGE_VAL; // the sizes summed

    // A point as fitAlphaBeta takes it: one with a non-positive or non-finite size or time is
    // left out there and here.
    void add(double bytes, double timeUs);
    FitSums& operator+=(const FitSums& other);
};

// The fit of the points summed: what fitAlphaBeta gives for them, to rounding (it solves the
// rows by QR, this the 2x2 normal equations, both after the same column scaling).
std::optional<AlphaBeta> fitAlphaBetaFromSums(const FitSums& sums);

// Fits the points of one op (and in-place flavour) within [minBytes, maxBytes], on `nranks` ranks
// only when it is not 0 (a --split session holds several rank counts).
std::optional<AlphaBeta> fitCollective(std::span<const CollectivePoint> points, const std::string& op,
                                       bool inPlace, std::int64_t minBytes = 0,
                                       std::int64_t maxBytes = INT64_MAX, int nranks = 0);
} // namespace rl::fits
