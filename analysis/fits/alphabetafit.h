#pragma once
// Latency-bandwidth (alpha-beta) model of a collective: t(n) = alpha + n / beta, fitted by
// least squares over the selected sizes. Residuals are relative (each point weighted by 1/t) so
// that microsecond latencies at small sizes count as much as milliseconds at large ones.
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

// Fits the points of one op (and in-place flavour) within [minBytes, maxBytes], on `nranks` ranks
// only when it is not 0 (a --split session holds several rank counts).
std::optional<AlphaBeta> fitCollective(std::span<const CollectivePoint> points, const std::string& op,
                                       bool inPlace, std::int64_t minBytes = 0,
                                       std::int64_t maxBytes = INT64_MAX, int nranks = 0);
} // namespace rl::fits
