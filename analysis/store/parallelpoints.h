#pragma once
// A session's collective points read on several threads: formatted as text for an export of
// millions of points, or decoded for a chart (where one connection reads and the threads decode).
// For an export the session's stored blocks (store/collectiverows.h) are cut into work of
// consecutive blocks; each worker reads its work on its own connection; the export's text reaches
// `write` in stored order, a few pieces per worker held at once (a few MiB each), never the
// session. A block only ever grows at its end, so a worker that finds more points in a running
// session's last block than were listed reads those listed and no more.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "records/collectivepoint.h"

namespace rl::io {
class TextBuffer;
}

namespace rl::store {
class Workspace;

struct ParallelRead
{
    int threads = 0;                  // 0: one per core, at most 8
    std::int64_t workPoints = 32768;  // points a worker takes at once (whole blocks, at least one)
    std::function<void()> listed = {}; // called once the blocks are listed, before they are read (a test's writer)
    // readCollectivePoints: how far the read is, in points handled of all to handle (each point is
    // read, then decoded: twice the points listed), after each block read and each piece decoded,
    // one call at a time from the reading threads; return false to stop the read (nothing returned).
    std::function<bool(std::int64_t done, std::int64_t total)> progress = {};
    // readCollectivePoints uses threads only (to decode); formatCollectivePoints both.
};

// Formats the session's points in stored order (Workspace::PointOrder::Stored) with `format`,
// called on the workers' threads, and hands the text to `write` on the calling thread, in order;
// write returns false to stop (a full disk). Returns the points written. The workers open their
// own connections to ws's file; a session deleted meanwhile throws StoreError rather than leaving
// a silently partial export.
std::int64_t formatCollectivePoints(Workspace& ws, std::int64_t sessionId,
                                    const std::function<void(io::TextBuffer&, const CollectivePoint&)>& format,
                                    const std::function<bool(std::string_view)>& write, ParallelRead how = {});

// The session's points in curve order (store/curveorder.h): what Workspace::collectivePoints
// returns. The blocks' bytes are copied out on ws's own connection, in one snapshot, with each
// point's keys; then every point is decoded straight into its place, the places cut among
// `threads` threads (~0.4x the points' size held for the bytes meanwhile).
std::vector<CollectivePoint> readCollectivePoints(Workspace& ws, std::int64_t sessionId, ParallelRead how = {});

// The same points in the same order, one at a time, in bounded memory: the session's encoded
// points ordered in runs of at most runBytes, merged through temporary files when there are several
// (store/curveorderedpoints.h). Workspace::forEachCollectivePoint in curve order. The point passed
// is reused; visit returns false to stop.
void forEachCollectivePointInCurveOrder(Workspace& ws, std::int64_t sessionId,
                                        const std::function<bool(const CollectivePoint&)>& visit,
                                        std::size_t runBytes = std::size_t(32) << 20);
} // namespace rl::store
