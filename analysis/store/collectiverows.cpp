#include "store/collectiverows.h"

#include <map>
#include <string>

#include "store/collectiveblock.h"
#include "store/database.h"

namespace rl::store {
namespace {
[[noreturn]] void damaged(const std::string& workspace, const PointBlock& block, const std::string& what)
{
    throw StoreError(workspace + ": collective block " + std::to_string(block.id) + " " + what);
}

// Point i (from 0) did not decode: the block ended early, or it is damaged there.
[[noreturn]] void undecoded(const std::string& workspace, const PointBlock& block, std::int64_t i,
                            const CollectiveBlockReader& r)
{
    damaged(workspace, block,
            r.atEnd() ? "holds " + std::to_string(i) + " points, not the " + std::to_string(block.points) + " listed"
                      : "is damaged at byte " + std::to_string(r.offset()) + " (point " + std::to_string(i + 1) + ")");
}

// The block's row: its format checked, its bytes left in q's column 1.
void selectBlock(Statement& q, Database& db, const PointBlock& block)
{
    q.bind(1, block.id);
    if (!q.step())
        damaged(db.path(), block, "is gone (its session was deleted or changed meanwhile): read it again");
    if (q.int64(0) != kCollectiveBlockFormat)
        damaged(db.path(), block,
                "is stored in format " + std::to_string(q.int64(0)) + ", which this Ridgeline cannot read (it reads " +
                    std::to_string(kCollectiveBlockFormat) + "): use a newer Ridgeline");
}

constexpr const char* kSelectBlock = "SELECT format, data FROM collective_blocks WHERE id = ?";

void insertBlock(Database& db, std::int64_t sessionId, std::int64_t points, bool groups, std::string_view bytes)
{
    Statement q(db, "INSERT INTO collective_blocks (session_id, format, points, has_groups, data) VALUES (?,?,?,?,?)");
    q.bind(1, sessionId).bind(2, kCollectiveBlockFormat).bind(3, points).bind(4, groups ? 1 : 0).bindBlob(5, bytes);
    q.run();
}
} // namespace

std::vector<PointBlock> collectivePointBlocks(Database& db, std::int64_t sessionId)
{
    Statement q(db, "SELECT id, points, length(data) FROM collective_blocks WHERE session_id = ? ORDER BY id");
    q.bind(1, sessionId);
    std::vector<PointBlock> out;
    while (q.step())
        out.push_back({q.int64(0), q.int64(1), q.int64(2)});
    return out;
}

std::int64_t pointsIn(const std::vector<PointBlock>& blocks)
{
    std::int64_t n = 0;
    for (const auto& b : blocks)
        n += b.points;
    return n;
}

bool forEachCollectivePointInBytes(const std::string& workspace, const PointBlock& block, std::string_view bytes,
                                   const std::function<bool(const CollectivePoint&)>& visit)
{
    CollectiveBlockReader r(bytes);
    CollectivePoint p; // one object for every point: its strings keep their buffers
    for (std::int64_t i = 0; i < block.points; ++i) {
        if (!r.read(p))
            undecoded(workspace, block, i, r);
        if (!visit(p))
            return false;
    }
    return true;
}

void forEachEncodedPointInBytes(const std::string& workspace, const PointBlock& block, std::string_view bytes,
                                const std::function<void(const EncodedPoint&)>& point)
{
    CollectiveBlockReader r(bytes);
    EncodedPoint e;
    for (std::int64_t i = 0; i < block.points; ++i) {
        const std::size_t start = r.offset();
        if (!r.readKey(e.op, e.inPlace, e.size))
            undecoded(workspace, block, i, r);
        e.bytes = bytes.substr(start, r.offset() - start);
        point(e);
    }
}

bool forEachCollectivePointInBlock(Database& db, const PointBlock& block,
                                   const std::function<bool(const CollectivePoint&)>& visit)
{
    Statement q(db, kSelectBlock);
    selectBlock(q, db, block);
    return forEachCollectivePointInBytes(db.path(), block, q.blobView(1), visit);
}

void appendCollectiveBlockBytes(Database& db, const PointBlock& block, std::string& to)
{
    Statement q(db, kSelectBlock);
    selectBlock(q, db, block);
    to.append(q.blobView(1));
}

std::int64_t collectivePointCount(Database& db, std::int64_t sessionId)
{
    Statement q(db, "SELECT total(points) FROM collective_blocks WHERE session_id = ?");
    q.bind(1, sessionId);
    return q.step() ? static_cast<std::int64_t>(q.real(0)) : 0;
}

bool collectivePointsHaveGroups(Database& db, std::int64_t sessionId)
{
    Statement q(db, "SELECT EXISTS (SELECT 1 FROM collective_blocks WHERE session_id = ? AND has_groups)");
    q.bind(1, sessionId);
    return q.step() && q.int64(0) != 0;
}

void appendCollectivePoint(Database& db, std::int64_t sessionId, const CollectivePoint& p)
{
    Statement last(db, "SELECT id, format, points, data FROM collective_blocks WHERE session_id = ? "
                       "ORDER BY id DESC LIMIT 1");
    last.bind(1, sessionId);
    if (last.step() && last.int64(1) == kCollectiveBlockFormat && last.int64(2) < kLiveBlockPoints) {
        const std::int64_t id = last.int64(0), points = last.int64(2);
        std::string bytes(last.blobView(3));
        last.reset();
        appendEncodedPoint(bytes, p);
        Statement q(db, "UPDATE collective_blocks SET points = ?, has_groups = has_groups OR ?, data = ? WHERE id = ?");
        q.bind(1, points + 1).bind(2, p.group.empty() ? 0 : 1).bindBlob(3, bytes).bind(4, id);
        q.run();
        return;
    }
    last.reset();
    std::string bytes;
    appendEncodedPoint(bytes, p);
    insertBlock(db, sessionId, 1, !p.group.empty(), bytes);
}

CollectiveBlockWriter::CollectiveBlockWriter(Database& db, std::int64_t sessionId, std::int64_t blockPoints)
    : m_db(db), m_session(sessionId), m_blockPoints(blockPoints > 0 ? blockPoints : kImportBlockPoints)
{
}

void CollectiveBlockWriter::add(const CollectivePoint& p)
{
    appendEncodedPoint(m_block, p);
    m_groups = m_groups || !p.group.empty();
    if (++m_points == m_blockPoints)
        finish();
}

void CollectiveBlockWriter::finish()
{
    if (m_points == 0)
        return;
    insertBlock(m_db, m_session, m_points, m_groups, m_block);
    m_block.clear();
    m_points = 0;
    m_groups = false;
}

void forEachFormerCollectiveRow(Database& db,
                                const std::function<void(std::int64_t, const CollectivePoint&)>& visit)
{
    std::string columns;
    for (const auto& column : collectivePointColumnNames())
        columns += (columns.empty() ? "" : ", ") + column;
    Statement q(db, "SELECT " + columns + " FROM collective_results ORDER BY id"); // id order: no sort
    CollectivePoint p; // one object for every row: its strings keep their buffers
    while (q.step()) {
        p.op.assign(q.textView(1));
        p.nranks = static_cast<int>(q.int64(2));
        p.dtype.assign(q.textView(3));
        p.redop.assign(q.textView(4));
        p.bytes = q.int64(5);
        p.count = q.int64(6);
        p.inPlace = q.int64(7) != 0;
        p.root = static_cast<int>(q.int64(8));
        p.timeUs = q.real(9);
        p.algbwGBs = q.real(10);
        p.busbwGBs = q.real(11);
        p.wrong = q.int64(12);
        if (!q.isNull(13)) {
            CallStats s;
            s.iters = static_cast<int>(q.int64(13));
            s.warmup = static_cast<int>(q.int64(14));
            s.callsPerSample = static_cast<int>(q.int64(15));
            s.meanUs = p.timeUs;
            s.minUs = q.real(16);
            s.maxUs = q.real(17);
            s.p50Us = q.real(18);
            s.p99Us = q.real(19);
            s.cv = q.real(20);
            p.stats = s;
        } else {
            p.stats.reset();
        }
        p.imbalance = q.real(21);
        p.group.assign(q.textView(22));
        visit(q.int64(0), p);
    }
}

void packCollectiveRows(Database& db)
{
    // Sessions that were written at the same time (two runs at once) interleave in id order, so
    // each has its writer.
    std::map<std::int64_t, CollectiveBlockWriter> writers;
    forEachFormerCollectiveRow(db, [&](std::int64_t session, const CollectivePoint& p) {
        writers.try_emplace(session, db, session).first->second.add(p);
    });
    for (auto& [session, writer] : writers)
        writer.finish();
    db.exec("DROP TABLE collective_results");
}

const std::vector<std::string>& collectivePointColumnNames()
{
    static const std::vector<std::string> names{
        "session_id",  "op",          "nranks",      "dtype",       "redop",   "bytes",
        "count",       "in_place",    "root",        "time_us",     "algbw",   "busbw",
        "wrong",       "iters",       "warmup",      "calls_per_sample",       "time_min_us",
        "time_max_us", "time_p50_us", "time_p99_us", "time_cv",     "imbalance", "split_group"};
    return names;
}
} // namespace rl::store
