#pragma once
// Where a session's collective points are stored: packed, a block of points to a row of
// collective_blocks (store/collectiveblock.h holds the bytes). SQLite's own work per row (~1 µs for
// the 22 columns a point had as a row of its own, measured on a 2-core VM: most of an export's
// time) is paid once a block, so a long session reads about as fast as its points decode.
// An import stores full blocks; a run appends each point to its session's last block in a
// transaction of its own (a killed run keeps every point it finished), starting a new block
// when that one holds kLiveBlockPoints. Every decode and write of the blocks is here (a session
// snapshot copies their rows as they are: store/sessionsnapshot.h).
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "records/collectivepoint.h"

namespace rl::store {
class Database;

inline constexpr std::int64_t kImportBlockPoints = 4096; // ~0.4-0.6 MiB a block
// A run rewrites its last block with each point it appends: small enough that a point costs a few
// pages, large enough that a read of a 100 k-point run is a few hundred rows.
inline constexpr std::int64_t kLiveBlockPoints = 256;

struct PointBlock
{
    std::int64_t id = 0;
    std::int64_t points = 0;    // as listed: a running session's last block may have more by now
    std::int64_t dataBytes = 0; // the encoded points' bytes, as listed
};

// The session's blocks in stored order.
std::vector<PointBlock> collectivePointBlocks(Database& db, std::int64_t sessionId);
std::int64_t pointsIn(const std::vector<PointBlock>& blocks);

// The block's first block.points points, in stored order, one at a time: the point passed is
// reused for the next one; visit returns false to stop (then so does this). The block's later
// points, appended since it was listed, are not visited. Throws StoreError naming the workspace,
// the block and the byte when the block is gone, shorter than listed or does not decode.
bool forEachCollectivePointInBlock(Database& db, const PointBlock& block,
                                   const std::function<bool(const CollectivePoint&)>& visit);
// The same with the block's bytes in hand (a read of many blocks takes them once).
bool forEachCollectivePointInBytes(const std::string& workspace, const PointBlock& block, std::string_view bytes,
                                   const std::function<bool(const CollectivePoint&)>& visit);
// Appends the block's bytes to `to` (the caller decodes them after the statement has moved on).
void appendCollectiveBlockBytes(Database& db, const PointBlock& block, std::string& to);
// A point as its encoded bytes, with its curve keys (store/curveorder.h) read from them.
struct EncodedPoint
{
    std::string_view bytes;
    std::string_view op;
    bool inPlace = false;
    std::int64_t size = 0; // the point's message size (CollectivePoint::bytes)
};
// The block's first block.points points, encoded, in stored order (each checked to hold a whole
// point: StoreError as above when one does not).
void forEachEncodedPointInBytes(const std::string& workspace, const PointBlock& block, std::string_view bytes,
                                const std::function<void(const EncodedPoint&)>& point);

std::int64_t collectivePointCount(Database& db, std::int64_t sessionId);
// Whether some point of the session has a --split group (the CSV's optional column).
bool collectivePointsHaveGroups(Database& db, std::int64_t sessionId);

// A run's point: appended to the session's last block, or a new one; in the caller's transaction.
void appendCollectivePoint(Database& db, std::int64_t sessionId, const CollectivePoint& p);

// Points of one session stored in full blocks, in the caller's transaction: what an import does.
// finish() stores the last, partial block; points added and not finished are not stored.
class CollectiveBlockWriter
{
public:
    CollectiveBlockWriter(Database& db, std::int64_t sessionId, std::int64_t blockPoints = kImportBlockPoints);
    void add(const CollectivePoint& p);
    void finish();

private:
    Database& m_db;
    std::int64_t m_session, m_blockPoints, m_points = 0;
    bool m_groups = false;
    std::string m_block;
};

// The rows of the former collective_results table (schema 8 and before) in id order, each with
// its session: what the schema 9 migration packs, and what bench_scale times as the former storage.
void forEachFormerCollectiveRow(Database& db,
                                const std::function<void(std::int64_t sessionId, const CollectivePoint&)>& visit);
// The schema 9 migration: every former row into blocks, each session's in its stored (id) order,
// then the table dropped.
void packCollectiveRows(Database& db);

// The columns a point had as a row (session_id first): the former table's, and a copy of the
// records as a table.
const std::vector<std::string>& collectivePointColumnNames();
} // namespace rl::store
