#include "store/collectiverows.h"

#include <string>

#include "store/curveorder.h"
#include "store/database.h"

namespace rl::store {

const char* const kCollectivePointColumns =
    "SELECT op, nranks, dtype, redop, bytes, count, in_place, root, time_us, algbw, busbw, wrong, iters, warmup, "
    "calls_per_sample, time_min_us, time_max_us, time_p50_us, time_p99_us, time_cv, imbalance, split_group "
    "FROM collective_results ";

void visitCollectivePoints(Statement& q, const std::function<bool(const CollectivePoint&)>& visit)
{
    CollectivePoint p; // one object for every row: its strings keep their buffers
    while (q.step()) {
        p.op.assign(q.textView(0));
        p.nranks = static_cast<int>(q.int64(1));
        p.dtype.assign(q.textView(2));
        p.redop.assign(q.textView(3));
        p.bytes = q.int64(4);
        p.count = q.int64(5);
        p.inPlace = q.int64(6) != 0;
        p.root = static_cast<int>(q.int64(7));
        p.timeUs = q.real(8);
        p.algbwGBs = q.real(9);
        p.busbwGBs = q.real(10);
        p.wrong = q.int64(11);
        if (!q.isNull(12)) {
            CallStats s;
            s.iters = static_cast<int>(q.int64(12));
            s.warmup = static_cast<int>(q.int64(13));
            s.callsPerSample = static_cast<int>(q.int64(14));
            s.meanUs = p.timeUs;
            s.minUs = q.real(15);
            s.maxUs = q.real(16);
            s.p50Us = q.real(17);
            s.p99Us = q.real(18);
            s.cv = q.real(19);
            p.stats = s;
        } else {
            p.stats.reset();
        }
        p.imbalance = q.real(20);
        p.group.assign(q.textView(21));
        if (!visit(p))
            return;
    }
}

RowIds collectivePointRows(Database& db, std::int64_t sessionId)
{
    Statement r(db, "SELECT min(id), max(id) FROM collective_results WHERE session_id = ?");
    r.bind(1, sessionId);
    if (r.step() && !r.isNull(0))
        return {r.int64(0), r.int64(1)};
    return {};
}

// "+session_id" keeps SQLite on the id range in id order instead of the session index, whose
// order would need a sort (and, for a session's every row, a lookup of each). Rows of another
// session inside the range are skipped.
void forEachCollectivePointInRows(Database& db, std::int64_t sessionId, RowIds rows,
                                  const std::function<bool(const CollectivePoint&)>& visit)
{
    Statement q(db, std::string(kCollectivePointColumns) + "WHERE id BETWEEN ? AND ? AND +session_id = ? ORDER BY id");
    q.bind(1, rows.first).bind(2, rows.last).bind(3, sessionId);
    visitCollectivePoints(q, visit);
}

std::int64_t collectivePointCount(Database& db, std::int64_t sessionId, RowIds rows)
{
    Statement q(db, "SELECT count(*) FROM collective_results WHERE session_id = ? AND id BETWEEN ? AND ?");
    q.bind(1, sessionId).bind(2, rows.first).bind(3, rows.last);
    return q.step() ? q.int64(0) : 0;
}

bool collectivePointsHaveGroups(Database& db, std::int64_t sessionId, RowIds rows)
{
    Statement q(db, "SELECT EXISTS (SELECT 1 FROM collective_results WHERE id BETWEEN ? AND ? AND +session_id = ? "
                    "AND split_group <> '')");
    q.bind(1, rows.first).bind(2, rows.last).bind(3, sessionId);
    return q.step() && q.int64(0) != 0;
}

CurveOrderedRows readCurveOrder(Database& db, std::int64_t sessionId, RowIds rows)
{
    CurveOrderedRows out;
    Statement q(db, "SELECT id, op, in_place, bytes FROM collective_results "
                    "WHERE id BETWEEN ? AND ? AND +session_id = ? ORDER BY id");
    q.bind(1, rows.first).bind(2, rows.last).bind(3, sessionId);
    CurveOrder order;
    while (q.step()) {
        out.ids.push_back(q.int64(0));
        order.add(q.textView(1), q.int64(2) != 0, q.int64(3));
    }
    out.slots = std::move(order).slots();
    return out;
}
} // namespace rl::store
