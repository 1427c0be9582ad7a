#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>
#include <unistd.h>

#include "store/collectiverows.h"
#include "store/database.h"
#include "store/migrations.h"
#include "store/parallelpoints.h"
#include "store/workspace.h"
#include "tempdir.h"
#include "io/textbuffer.h"

using namespace rl;
using rl::store::Workspace;
namespace fs = std::filesystem;
using rl::test::TempDir;

namespace {
CollectivePoint point(std::int64_t bytes, double us)
{
    CollectivePoint p;
    p.op = "all_reduce";
    p.nranks = 4;
    p.dtype = "float32";
    p.redop = "sum";
    p.bytes = bytes;
    p.count = bytes / 4;
    p.timeUs = us;
    p.algbwGBs = bytes / us / 1e3;
    p.busbwGBs = p.algbwGBs * 1.5;
    return p;
}

// Two collective sessions, for points of one with the other's rows between them.
std::pair<std::int64_t, std::int64_t> twoCollectiveSessions(Workspace& ws)
{
    Session s;
    s.kind = kind::Collectives;
    const auto a = ws.createSession(s);
    return {a, ws.createSession(s)};
}
} // namespace

TEST(Store, CreatesSchemaAtLatestVersionInWalMode)
{
    TempDir dir;
    Workspace ws((dir.path / "w.db").string());
    EXPECT_EQ(ws.schemaVersion(), store::latestSchemaVersion());
    store::Statement q(ws.database(), "PRAGMA journal_mode");
    ASSERT_TRUE(q.step());
    EXPECT_EQ(q.text(0), "wal");
}

TEST(Store, PointsSurviveReopenAndSessionsKeepMetadata)
{
    TempDir dir;
    const auto file = (dir.path / "w.db").string();
    std::int64_t id = 0;
    {
        Workspace ws(file);
        Session s;
        s.title = "run";
        s.commandLine = "ridgeline-bench collectives -b 8 -e 1M";
        s.params = {{"iters", 20}};
        s.status = SessionStatus::Running;
        s.writerPid = getpid();
        id = ws.createSession(s);
        ws.addCollectivePoint(id, point(8, 10));
        ws.addCollectivePoint(id, point(1 << 20, 100));
    }
    Workspace ws(file);
    auto s = ws.session(id);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->commandLine, "ridgeline-bench collectives -b 8 -e 1M");
    EXPECT_EQ(s->params["iters"], 20);
    EXPECT_EQ(s->status, SessionStatus::Running);
    const auto pts = ws.collectivePoints(id);
    ASSERT_EQ(pts.size(), 2u);
    EXPECT_EQ(pts[1], point(1 << 20, 100));
    // Our own pid is alive: not an orphan.
    EXPECT_EQ(ws.markOrphanedRuns(), 0);
}

TEST(Store, RunWhoseWriterDiedBecomesIncomplete)
{
    TempDir dir;
    Workspace ws((dir.path / "w.db").string());
    Session s;
    s.status = SessionStatus::Running;
    s.host = hostName();
    s.writerPid = 0x7ffffff0; // no such process
    const auto id = ws.createSession(s);
    EXPECT_EQ(ws.markOrphanedRuns(), 1);
    EXPECT_EQ(ws.session(id)->status, SessionStatus::Incomplete);
}

TEST(Store, ReimportOfSameContentIsDetectedAndFailedImportStoresNothing)
{
    TempDir dir;
    Workspace ws((dir.path / "w.db").string());
    ImportResult r;
    r.format = "nccl-tests";
    r.sessions.push_back({Session{}, {point(8, 5), point(16, 5)}});
    auto first = ws.storeImport("/x/log.txt", "abc", 100, r);
    EXPECT_FALSE(first.alreadyImported);
    ASSERT_EQ(first.sessionIds.size(), 1u);
    auto again = ws.storeImport("/y/copy.txt", "abc", 100, r);
    EXPECT_TRUE(again.alreadyImported);
    EXPECT_EQ(again.sessionIds, first.sessionIds);
    EXPECT_EQ(ws.sessions().size(), 1u);
    // Deleting the session frees the file for a new import.
    ws.deleteSession(first.sessionIds[0]);
    EXPECT_FALSE(ws.importedFileBySha("abc"));
}

TEST(Store, RefusesForeignSqliteFilesAndNonDatabases)
{
    TempDir dir;
    const auto foreign = (dir.path / "other.db").string();
    {
        store::Database db(foreign, true);
        db.exec("CREATE TABLE t(x)");
    }
    EXPECT_THROW(Workspace{foreign}, store::StoreError);
    const auto junk = (dir.path / "junk.db").string();
    std::ofstream(junk) << "this is not sqlite, just some text that is long enough to have a header....";
    try {
        Workspace ws(junk);
        FAIL() << "opened a text file as a workspace";
    } catch (const store::StoreError& e) {
        EXPECT_NE(std::string(e.what()).find(junk), std::string::npos) << e.what();
    }
}

namespace {
std::string bytesOf(const std::string& file)
{
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
} // namespace

// Refused before anything writes: a newer Ridgeline's file stays byte for byte as it was, in
// either journal mode (switching a rollback-journal file to WAL rewrites its header; issue 26).
TEST(Store, RefusesNewerSchemaAndLeavesTheFileAsItWas)
{
    for (const char* mode : {"DELETE", "WAL"}) {
        TempDir dir;
        const auto file = (dir.path / "w.db").string();
        {
            Workspace ws(file);
            ws.database().exec("PRAGMA user_version = 999");
            ws.database().exec(std::string("PRAGMA journal_mode=") + mode);
        }
        const std::string before = bytesOf(file);
        try {
            Workspace ws(file);
            ADD_FAILURE() << mode << ": opened a newer schema";
        } catch (const store::StoreError& e) {
            EXPECT_NE(std::string(e.what()).find("schema version 999 is newer"), std::string::npos) << e.what();
        }
        EXPECT_TRUE(bytesOf(file) == before) << mode << ": the refused file was changed";
    }
}

TEST(Store, RefusesAForeignRollbackJournalFileWithoutChangingIt)
{
    TempDir dir;
    const auto file = (dir.path / "other.db").string();
    {
        store::Database db(file, true);
        db.exec("PRAGMA journal_mode=DELETE; CREATE TABLE t(x); INSERT INTO t VALUES (1)");
    }
    const std::string before = bytesOf(file);
    EXPECT_THROW(Workspace{file}, store::StoreError);
    EXPECT_TRUE(bytesOf(file) == before);
}

// Several connections opening the same new file at once (the GUI's worker threads and a CLI run
// do): one migrates, the others wait and find the schema in place; nobody fails.
TEST(Store, ConcurrentOpensOfANewWorkspaceMigrateOnce)
{
    for (int round = 0; round < 20; ++round) {
        TempDir dir; // a new file each round
        const fs::path db = dir.path / "concurrent.db";
        std::vector<std::thread> threads;
        std::vector<std::string> errors(4);
        for (int t = 0; t < 4; ++t)
            threads.emplace_back([&, t] {
                try {
                    store::Workspace ws(db.string());
                    if (ws.schemaVersion() != store::latestSchemaVersion())
                        errors[std::size_t(t)] = "schema " + std::to_string(ws.schemaVersion());
                } catch (const std::exception& e) {
                    errors[std::size_t(t)] = e.what();
                }
            });
        for (auto& th : threads)
            th.join();
        for (const auto& e : errors)
            EXPECT_EQ(e, "") << "round " << round;
    }
}

TEST(Store, RunnerStatisticsRoundTripAndImportsHaveNone)
{
    TempDir dir;
    Workspace ws((dir.path / "w.db").string());
    const auto id = ws.createSession(Session{});
    CollectivePoint withStats = point(4096, 2.5);
    withStats.stats = CallStats{1000, 100, 2, 2.5, 2.25, 9.5, 2.4, 4.75, 0.125};
    ws.addCollectivePoint(id, withStats);
    ws.addCollectivePoint(id, point(8, 1.0));
    const auto pts = ws.collectivePoints(id);
    ASSERT_EQ(pts.size(), 2u);
    EXPECT_EQ(pts[0], point(8, 1.0));
    EXPECT_FALSE(pts[0].stats);
    EXPECT_EQ(pts[1], withStats);
}

namespace {
// A workspace file as `version` wrote it: one collective session with one point.
std::string oldWorkspace(const TempDir& dir, int version)
{
    const auto file = (dir.path / "old.db").string();
    store::Database db(file, true);
    for (const auto& m : store::migrations())
        if (m.toVersion <= version)
            db.exec(m.sql);
    db.exec("PRAGMA user_version = " + std::to_string(version));
    db.exec("INSERT INTO sessions (kind, created, status) VALUES ('collectives', '2026-01-01T00:00:00Z', 'complete')");
    db.exec("INSERT INTO collective_results (session_id, op, nranks, bytes, time_us, algbw, busbw) "
            "VALUES (1, 'all_reduce', 2, 1024, 3.0, 0.34, 0.34)");
    return file;
}
} // namespace

TEST(Store, VersionFiveWorkspaceGainsStatisticColumnsAndKeepsItsPoints)
{
    TempDir dir;
    Workspace ws(oldWorkspace(dir, 5));
    EXPECT_EQ(ws.schemaVersion(), store::latestSchemaVersion());
    const auto pts = ws.collectivePoints(1);
    ASSERT_EQ(pts.size(), 1u);
    EXPECT_EQ(pts[0].bytes, 1024);
    EXPECT_DOUBLE_EQ(pts[0].timeUs, 3.0);
    EXPECT_FALSE(pts[0].stats);
}

TEST(Store, SplitGroupRoundTripsAndPointsOfAVersionSevenWorkspaceHaveNone)
{
    TempDir dir;
    Workspace ws(oldWorkspace(dir, 7));
    EXPECT_EQ(ws.schemaVersion(), store::latestSchemaVersion());
    auto pts = ws.collectivePoints(1);
    ASSERT_EQ(pts.size(), 1u);
    EXPECT_EQ(pts[0].group, "");
    CollectivePoint grouped = point(4096, 2.5);
    grouped.group = "nodes a+b";
    ws.addCollectivePoint(1, grouped);
    pts = ws.collectivePoints(1);
    ASSERT_EQ(pts.size(), 2u);
    EXPECT_EQ(pts[1], grouped);
}

namespace {
// Points of two sessions stored interleaved, in blocks of 7 points (an import's are 4096; small
// blocks make a few hundred points many blocks, each its own work for a reader's threads).
class SmallBlocks
{
public:
    SmallBlocks(Workspace& ws, std::int64_t a, std::int64_t b)
        : m_t(ws.database()), m_a(ws.database(), a, 7), m_b(ws.database(), b, 7)
    {
    }
    void add(bool toA, const CollectivePoint& p) { (toA ? m_a : m_b).add(p); }
    void commit()
    {
        m_a.finish();
        m_b.finish();
        m_t.commit();
    }

private:
    store::Transaction m_t;
    store::CollectiveBlockWriter m_a, m_b;
};
} // namespace

// Issue 26 item 11: an export reads a long session's blocks on several connections; the text
// arrives in stored order, another session's blocks between them left out.
TEST(Store, PointsReadInParallelBlocksArriveInStoredOrder)
{
    TempDir dir;
    Workspace ws((dir.path / "w.db").string());
    const auto [a, b] = twoCollectiveSessions(ws);
    std::string want;
    SmallBlocks blocks(ws, a, b);
    for (int i = 0; i < 200; ++i) {
        const bool other = i % 7 == 3 || (i >= 50 && i < 70); // a run of other points fills whole blocks
        blocks.add(!other, point(8 + i, 1.0 + i));
        if (!other)
            want += std::to_string(8 + i) + "\n";
    }
    blocks.commit();
    ASSERT_GT(store::collectivePointBlocks(ws.database(), a).size(), 20u);
    for (int threads : {1, 3}) {
        std::string got;
        const auto n = store::formatCollectivePoints(
            ws, a, [](io::TextBuffer& text, const CollectivePoint& p) { text.integer(p.bytes).ch('\n'); },
            [&got](std::string_view block) {
                got += block;
                return true;
            },
            {threads, 4});
        EXPECT_EQ(got, want) << threads << " threads";
        EXPECT_EQ(n, std::count(want.begin(), want.end(), '\n'));
    }
    // A write that fails stops the read: no more blocks are asked for.
    int pieces = 0;
    store::formatCollectivePoints(
        ws, a, [](io::TextBuffer& text, const CollectivePoint& p) { text.integer(p.bytes).ch('\n'); },
        [&pieces](std::string_view) { return ++pieces < 2; }, {2, 4});
    EXPECT_EQ(pieces, 2);
}

// A run appends each point to its session's last block, in a transaction of its own, and starts
// a new block after kLiveBlockPoints; the points read back in the order they ran, and a point
// committed is there for another connection at once.
TEST(Store, ARunsPointsGoToItsLastBlockUntilItIsFull)
{
    TempDir dir;
    const auto file = (dir.path / "w.db").string();
    Workspace ws(file);
    const auto [a, b] = twoCollectiveSessions(ws);
    const std::int64_t n = 2 * store::kLiveBlockPoints + 3;
    for (std::int64_t i = 0; i < n; ++i) {
        ws.addCollectivePoint(a, point(i, 1.0));
        if (i % 100 == 0)
            ws.addCollectivePoint(b, point(-i, 1.0)); // another run's points between them
    }
    const auto blocks = store::collectivePointBlocks(ws.database(), a);
    ASSERT_EQ(blocks.size(), 3u);
    EXPECT_EQ(blocks[0].points, store::kLiveBlockPoints);
    EXPECT_EQ(blocks[2].points, 3);
    Workspace reader(file);
    EXPECT_EQ(reader.collectivePointCount(a), n);
    std::int64_t expect = 0;
    reader.forEachCollectivePoint(
        a,
        [&expect](const CollectivePoint& p) {
            EXPECT_EQ(p.bytes, expect++);
            return true;
        },
        Workspace::PointOrder::Stored);
    EXPECT_EQ(expect, n);
    EXPECT_EQ(reader.collectivePointCount(b), 6);
}

// A block listed with fewer points than it has by now (a run appended since) is read as listed; a
// block whose bytes do not decode is refused naming the workspace, the block and the byte.
TEST(Store, ABlockIsReadAsListedAndADamagedOneIsNamed)
{
    TempDir dir;
    const auto file = (dir.path / "w.db").string();
    Workspace ws(file);
    const auto [a, b] = twoCollectiveSessions(ws);
    for (int i = 0; i < 5; ++i)
        ws.addCollectivePoint(a, point(100 + i, 1.0));
    auto block = store::collectivePointBlocks(ws.database(), a).at(0);
    ws.addCollectivePoint(a, point(999, 1.0));
    std::vector<std::int64_t> seen;
    store::forEachCollectivePointInBlock(ws.database(), block, [&seen](const CollectivePoint& p) {
        seen.push_back(p.bytes);
        return true;
    });
    EXPECT_EQ(seen, (std::vector<std::int64_t>{100, 101, 102, 103, 104}));

    ws.database().exec("UPDATE collective_blocks SET data = substr(data, 1, 150) WHERE id = " +
                       std::to_string(block.id));
    block.points = 6;
    try {
        store::forEachCollectivePointInBlock(ws.database(), block, [](const CollectivePoint&) { return true; });
        FAIL() << "a damaged block read";
    } catch (const store::StoreError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find(file), std::string::npos) << what;
        EXPECT_NE(what.find("collective block " + std::to_string(block.id) + " is damaged at byte "),
                  std::string::npos)
            << what;
    }
    EXPECT_THROW(ws.collectivePoints(a), store::StoreError);
}

// collectivePoints reads in stored order and sorts in memory: the same points in the same order as
// SQLite's former ORDER BY op, in_place, bytes, id (the curves' order): equal keys in stored order,
// ops sorted by byte ("all_reduce" < "all_to_all" < "alltoall").
namespace {
// 300 points of `a` (and some of `b` between them) whose ops sort by byte ("all_reduce" <
// "all_to_all" < "alltoall"), whose sizes repeat (ties kept in stored order) and whose times tell
// them apart.
void addMixedPoints(Workspace& ws, std::int64_t a, std::int64_t b)
{
    const char* ops[] = {"alltoall", "all_to_all", "all_reduce", "Broadcast"};
    SmallBlocks blocks(ws, a, b);
    for (int i = 0; i < 300; ++i) {
        CollectivePoint p = point(std::int64_t(8) << ((i * 7) % 5), 1.0 + i);
        p.op = ops[(i * 5) % 4];
        p.inPlace = (i * 3) % 4 == 1;
        blocks.add(i % 9 != 4, p);
    }
    blocks.commit();
}

// The reference: the stored order, sorted stably by op (as bytes: SQLite's BINARY collation),
// in-place and size.
std::vector<CollectivePoint> curvesOrderByStableSort(Workspace& ws, std::int64_t session)
{
    std::vector<CollectivePoint> query;
    ws.forEachCollectivePoint(
        session,
        [&query](const CollectivePoint& p) {
            query.push_back(p);
            return true;
        },
        Workspace::PointOrder::Stored);
    std::stable_sort(query.begin(), query.end(), [](const CollectivePoint& x, const CollectivePoint& y) {
        return std::tie(x.op, x.inPlace, x.bytes) < std::tie(y.op, y.inPlace, y.bytes);
    });
    return query;
}

void expectTheseInOrder(const std::vector<CollectivePoint>& held, const std::vector<CollectivePoint>& query)
{
    ASSERT_EQ(held.size(), query.size());
    ASSERT_GT(held.size(), 250u);
    for (std::size_t i = 0; i < held.size(); ++i) {
        EXPECT_EQ(held[i].op, query[i].op) << i;
        EXPECT_EQ(held[i].inPlace, query[i].inPlace) << i;
        EXPECT_EQ(held[i].bytes, query[i].bytes) << i;
        EXPECT_EQ(held[i].timeUs, query[i].timeUs) << i; // the time tells points of one key apart
    }
    EXPECT_EQ(held.front().op, "Broadcast"); // bytes order: capitals first
}

void expectCurvesOrder(Workspace& ws, std::int64_t session, const std::vector<CollectivePoint>& held)
{
    expectTheseInOrder(held, curvesOrderByStableSort(ws, session));
}

// forEachCollectivePoint's order, with its runs of `runBytes` (a few points each when small: many
// runs merged through temporary files).
std::vector<CollectivePoint> visitedInCurveOrder(Workspace& ws, std::int64_t session,
                                                 std::size_t runBytes = std::size_t(32) << 20)
{
    std::vector<CollectivePoint> out;
    store::forEachCollectivePointInCurveOrder(
        ws, session,
        [&out](const CollectivePoint& p) {
            out.push_back(p);
            return true;
        },
        runBytes);
    return out;
}
} // namespace

// collectivePoints decodes in stored order and puts each point in its place: the points of the
// reference's stable sort, with another session's blocks interleaved; on one connection, and on
// several (work of one 7-point block, 3 workers). forEachCollectivePoint visits the same points in
// the same order, in one run held in memory and in runs of ~10 points merged from files (equal keys
// spread over several runs, each ordered by its run).
TEST(Store, CollectivePointsAreInTheCurvesOrderOfAStableSort)
{
    TempDir dir;
    Workspace ws((dir.path / "w.db").string());
    const auto [a, b] = twoCollectiveSessions(ws);
    addMixedPoints(ws, a, b);
    const auto held = ws.collectivePoints(a);
    expectCurvesOrder(ws, a, held);
    expectCurvesOrder(ws, a, store::readCollectivePoints(ws, a, {.threads = 3, .workPoints = 7}));
    EXPECT_EQ(visitedInCurveOrder(ws, a), held);
    EXPECT_EQ(visitedInCurveOrder(ws, a, 1000), held);
    EXPECT_EQ(visitedInCurveOrder(ws, a, 1), held); // a point a run
    // Stopping early stops the merge.
    int visited = 0;
    ws.forEachCollectivePoint(a, [&visited](const CollectivePoint&) { return ++visited < 5; });
    EXPECT_EQ(visited, 5);
}

// The merge's runs go to TMPDIR; one that cannot be written is an error naming the folder, and
// nothing is visited.
TEST(Store, ALongSessionsOrderNeedsATemporaryFolderItCanWrite)
{
    TempDir dir;
    Workspace ws((dir.path / "w.db").string());
    const auto [a, b] = twoCollectiveSessions(ws);
    addMixedPoints(ws, a, b);
    const char* before = std::getenv("TMPDIR");
    const std::string saved = before ? before : "";
    ::setenv("TMPDIR", (dir.path / "no such folder").c_str(), 1);
    bool visited = false;
    try {
        store::forEachCollectivePointInCurveOrder(ws, a, [&visited](const CollectivePoint&) { return visited = true; },
                                                  1000);
        ADD_FAILURE() << "ordered without a temporary folder";
    } catch (const store::StoreError& e) {
        EXPECT_NE(std::string(e.what()).find("no such folder: cannot create a temporary file"), std::string::npos)
            << e.what();
    }
    EXPECT_FALSE(visited);
    EXPECT_EQ(visitedInCurveOrder(ws, a).size(), ws.collectivePoints(a).size()); // one run needs no file
    if (before)
        ::setenv("TMPDIR", saved.c_str(), 1);
    else
        ::unsetenv("TMPDIR");
}

// Another process deletes some of the session's blocks after they were listed: the workers,
// reading the file as it is now, miss them; the points are read again on the reader's own
// connection, whose snapshot listed them. Every point, no error.
TEST(Store, CollectivePointsChangedWhileReadAreReadAgainFromOneSnapshot)
{
    TempDir dir;
    const auto file = (dir.path / "w.db").string();
    Workspace ws(file);
    const auto [a, b] = twoCollectiveSessions(ws);
    addMixedPoints(ws, a, b);
    const auto before = curvesOrderByStableSort(ws, a);
    bool deleted = false;
    store::ParallelRead how{.threads = 3, .workPoints = 7};
    how.listed = [&, a = a] { // (clang 14 captures no structured binding)
        Workspace writer(file);
        writer.database().exec("DELETE FROM collective_blocks WHERE session_id = " + std::to_string(a) +
                               " AND id % 5 = 0");
        deleted = true;
    };
    const auto held = store::readCollectivePoints(ws, a, how);
    ASSERT_TRUE(deleted);
    expectTheseInOrder(held, before);
    EXPECT_LT(curvesOrderByStableSort(ws, a).size(), before.size()); // the delete did take some
}

// Other connections do not see an in-memory workspace, nor what ws has not committed (here b's
// blocks moved into a): both are read on ws's own connection, or a's points would miss them.
TEST(Store, CollectivePointsInATransactionOrInMemoryAreReadOnTheirOwnConnection)
{
    TempDir dir;
    Workspace onFile((dir.path / "w.db").string());
    Workspace inMemory(":memory:");
    for (Workspace* ws : {&onFile, &inMemory}) {
        const auto [a, b] = twoCollectiveSessions(*ws);
        addMixedPoints(*ws, a, b);
        ws->database().exec("BEGIN");
        ws->database().exec("UPDATE collective_blocks SET session_id = " + std::to_string(a) +
                            " WHERE session_id = " + std::to_string(b));
        const auto held = store::readCollectivePoints(*ws, a, {.threads = 3, .workPoints = 7});
        EXPECT_EQ(held.size(), 300u);
        expectCurvesOrder(*ws, a, held);
        std::string text;
        store::formatCollectivePoints(
            *ws, a, [](io::TextBuffer& t, const CollectivePoint& p) { t.integer(p.bytes).ch('\n'); },
            [&text](std::string_view piece) {
                text += piece;
                return true;
            },
            {.threads = 3, .workPoints = 7});
        EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 300);
        ws->database().exec("ROLLBACK");
    }
}
