#pragma once
// A long session's outline (issue 26 item 11): the few of its collective points a size chart can
// show, and the sums its alpha-beta fits take, stored next to the points. A chart of a 10 M-point
// session is drawn from its outline in a fraction of a second while the points load for the table.
//  - Points: per curve (op, in-place, group) and bin of sizes (kOutlineBinsPerOctave to an octave),
//    every point decimateToPixels (views/curvelod.h) could keep of that bin on the bandwidth view
//    (busbw or algbw, and its call spread) or the latency view: the first and last in curve order
//    (size, then stored order) of each view's plotted points, and the lowest and highest of each
//    plotted value, the first of equals as decimateToPixels takes them. A bin of one size lies in one
//    pixel column, so a column's first, lowest, highest and last point are among these: a curve of
//    sweeps up to 256 sizes an octave thinned from the outline is the curve thinned from every
//    point. A finer sweep's bin can straddle two columns (a 0.27 % step, a fraction of a pixel at
//    up to 256 columns an octave): those columns' extremes are the bin's, which may belong to the
//    other column.
//  - Sums: per curve and bin, fits::FitSums, so a fit over a range of sizes is the fit of its points
//    (to rounding) where no bin straddles an end of the range (a bin is counted when all its sizes
//    lie inside).
// Stored for sessions of at least kOutlineMinPoints points that outline into at most a quarter of
// them (a sweep of repeated or finely spaced sizes, as a long nccl-tests or runner log) and at most
// kOutlineMaxBins curve bins. An outline says how many points it covers: a session with other
// points since (a run appends) is read in full.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "fits/alphabetafit.h"
#include "records/collectivepoint.h"

namespace rl::store {
class Database;

// A selection of sessions each below this is read whole: drawn in under 1 s up to ~2.5 M points on
// a 2-core VM, so it takes over 150 of them (sessions of a few thousand points are the rule).
inline constexpr std::int64_t kOutlineMinPoints = 16384;
// Curve bins an outline is built over at most: ~450 B each while it is built.
inline constexpr std::int64_t kOutlineMaxBins = 262144;
inline constexpr int kOutlineBinsPerOctave = 256;

struct OutlineSums
{
    std::string op;
    bool inPlace = false;
    std::string group;
    std::int64_t bytes = 0; // the smallest size of the bin
    fits::FitSums sums;
    // The points of this size each view plots (views/sizechartdata.cpp): the bandwidth view's
    // (a size), the latency view's (and a time), its call spread's (and call statistics). A curve
    // is thinned as that many points would be.
    std::int64_t sized = 0, timed = 0, spread = 0;
};

struct CollectiveOutline
{
    std::int64_t covers = 0;             // the session's points it outlines
    std::vector<CollectivePoint> points; // in curve order (store/curveorder.h), as Workspace::collectivePoints
    std::vector<OutlineSums> sums;       // per curve and bin, in the order first met
};

// The outline of `total` points given one at a time in stored order (the first pass), then which
// of them it keeps; nullopt from kept() when it is not worth storing.
class OutlineBuilder
{
public:
    explicit OutlineBuilder(std::int64_t total);
    ~OutlineBuilder();
    OutlineBuilder(const OutlineBuilder&) = delete;
    OutlineBuilder& operator=(const OutlineBuilder&) = delete;

    void add(const CollectivePoint& p);
    // The stored-order indices of the points kept, ascending.
    std::optional<std::vector<std::int64_t>> kept() const;
    std::vector<OutlineSums> sums() const;

private:
    struct State;
    std::unique_ptr<State> m_state;
};

// Builds the session's outline from its points in stored order and stores it, replacing any, in
// the caller's transaction; a session not worth one has none afterwards. Returns whether one was
// stored. The second form reads the points from the session's blocks (twice: the builder's pass,
// then the kept points).
bool storeCollectiveOutline(Database& db, std::int64_t sessionId, std::span<const CollectivePoint> storedOrder);
bool storeCollectiveOutline(Database& db, std::int64_t sessionId);

// Schema 10: an outline for every stored session long enough for one (store/migrations.cpp).
void outlineLongSessions(Database& db);

// The session's outline when one covers its points as they are now. Throws StoreError naming the
// workspace when the stored outline does not decode.
std::optional<CollectiveOutline> readCollectiveOutline(Database& db, std::int64_t sessionId);
} // namespace rl::store
