#pragma once
// Reads of a session's collective points by range of rows, on any connection: the stored-order
// reads of Workspace and the readers that split a long session over several connections
// (store/parallelpoints.h) decode rows in one place.
#include <cstdint>
#include <functional>
#include <vector>

#include "records/collectivepoint.h"

namespace rl::store {
class Database;
class Statement;

// Ids of a session's first and last rows (first > last: no points). A run or an import stores a
// session's points together, so its rows lie in one id range, in stored order.
struct RowIds
{
    std::int64_t first = 1, last = 0;
};
RowIds collectivePointRows(Database& db, std::int64_t sessionId);

// The session's points whose rows lie in `rows`, in stored order, one at a time: the point passed
// is reused for the next row; visit returns false to stop.
void forEachCollectivePointInRows(Database& db, std::int64_t sessionId, RowIds rows,
                                  const std::function<bool(const CollectivePoint&)>& visit);
std::int64_t collectivePointCount(Database& db, std::int64_t sessionId, RowIds rows);
// Whether some point in `rows` has a --split group (the CSV's optional column).
bool collectivePointsHaveGroups(Database& db, std::int64_t sessionId, RowIds rows);

// The session's rows in curve order (store/curveorder.h), from their keys alone (id, op,
// in-place, bytes: a quarter of a whole row's cost): ids ascending as stored, and where each goes.
struct CurveOrderedRows
{
    std::vector<std::int64_t> ids;  // stored order
    std::vector<std::size_t> slots; // slots[i]: the place in curve order of the point in ids[i]
};
CurveOrderedRows readCurveOrder(Database& db, std::int64_t sessionId, RowIds rows);

// SELECT of every column a point has, for a query that adds its own WHERE and ORDER BY, and the
// decoding of its rows.
extern const char* const kCollectivePointColumns;
void visitCollectivePoints(Statement& q, const std::function<bool(const CollectivePoint&)>& visit);
} // namespace rl::store
