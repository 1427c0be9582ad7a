#pragma once
// A session's collective points formatted as text on several threads, for an export of millions
// of points. One connection spends about 1 µs of SQLite's own work per row (its 22 columns cost
// ~5x what stepping to the row does; measured on a 2-core VM: 0.7 M rows/s with nothing done
// with them), so one thread keeps an export under ~1 M points/s whatever the writer does. Here
// the stored order is cut into blocks of consecutive row ids; each worker reads a block on its
// own connection and formats it; the blocks reach `write` in stored order, a few per worker held
// at once (a few MiB each), never the session.
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
    int threads = 0;              // 0: one per core, at most 8
    std::int64_t blockRows = 8192; // row ids per block
    std::function<void()> keysRead = {}; // readCollectivePoints calls it between its two reads (a test's writer)
};

// Formats the session's points in stored order (Workspace::PointOrder::Stored) with `format`,
// called on the workers' threads, and hands the text to `write` on the calling thread, in order;
// write returns false to stop (a full disk). Returns the points written. The workers open their
// own connections to ws's file; the points are counted against the store at the start, and a
// session whose points changed meanwhile (deleted, say) throws StoreError rather than leaving a
// silently partial export.
std::int64_t formatCollectivePoints(Workspace& ws, std::int64_t sessionId,
                                    const std::function<void(io::TextBuffer&, const CollectivePoint&)>& format,
                                    const std::function<bool(std::string_view)>& write, ParallelRead how = {});

// The session's points in curve order (store/curveorder.h): what Workspace::collectivePoints
// returns. Their keys are read first (a few columns: ~4x cheaper a row than all 22), then every
// point is read straight into its place, on several connections when the session is long enough
// to pay for opening them and the workspace is a file with no transaction open on ws (whose
// uncommitted rows other connections would not see). Both reads see one snapshot: when another
// process changes the session between them, the workers' blocks differ and the points are read
// again on ws's own connection.
std::vector<CollectivePoint> readCollectivePoints(Workspace& ws, std::int64_t sessionId, ParallelRead how = {});
} // namespace rl::store
