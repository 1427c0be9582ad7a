// Deleting sessions keeps a snapshot that puts every row back with the same ids (the GUI's Undo),
// and the same snapshot gives the sessions' records as CSV and JSON (the GUI's Copy).
#include <gtest/gtest.h>

#include <filesystem>

#include <unistd.h>

#include "importers/importerregistry.h"
#include "store/collectiveoutline.h"
#include "store/database.h"
#include "store/fileimport.h"
#include "store/sessionsnapshot.h"
#include "store/workspace.h"
#include "tempdir.h"

using namespace rl;

namespace {
std::int64_t sessionWithPoints(store::Workspace& ws, const std::string& title, int points)
{
    Session s;
    s.title = title;
    s.created = nowIso8601();
    const auto id = ws.createSession(s);
    for (int i = 0; i < points; ++i) {
        CollectivePoint p;
        p.op = "all_reduce";
        p.nranks = 8;
        p.dtype = "float32";
        p.redop = "sum";
        p.bytes = std::int64_t(1024) << i;
        p.count = p.bytes / 4;
        p.timeUs = 10.0 + i;
        p.algbwGBs = double(p.bytes) / p.timeUs / 1e3;
        ws.addCollectivePoint(id, p);
    }
    return id;
}
} // namespace

TEST(SessionSnapshot, DeleteThenRestoreKeepsIdsAndPoints)
{
    test::TempDir dir;
    const auto path = (dir.path / "snapshot.db").string();
    store::Workspace ws(path);
    const auto a = sessionWithPoints(ws, "first, with \"quotes\"", 3);
    const auto b = sessionWithPoints(ws, "second", 2);
    const auto keep = sessionWithPoints(ws, "kept", 1);
    ws.setNotes(b, "a note");

    const auto snap = store::snapshotSessions(ws.database(), {b, a, 999});
    EXPECT_EQ(snap.sessionIds, (std::vector<std::int64_t>{b, a}));
    EXPECT_EQ(snap.recordCount(), 5u);
    ws.deleteSession(a);
    ws.deleteSession(b);
    EXPECT_EQ(ws.sessions().size(), 1u);
    EXPECT_TRUE(ws.collectivePoints(a).empty());

    store::restoreSessions(ws.database(), snap);
    ASSERT_EQ(ws.sessions().size(), 3u);
    EXPECT_EQ(ws.session(a)->title, "first, with \"quotes\"");
    EXPECT_EQ(ws.session(b)->notes, "a note");
    EXPECT_EQ(ws.collectivePoints(a).size(), 3u);
    EXPECT_EQ(ws.collectivePoints(b).size(), 2u);
    EXPECT_EQ(ws.collectivePoints(keep).size(), 1u);
    // Restoring twice fails as a whole: the ids are taken.
    EXPECT_THROW(store::restoreSessions(ws.database(), snap), store::StoreError);
    EXPECT_EQ(ws.collectivePoints(a).size(), 3u);
}

TEST(SessionSnapshot, ImportedFileComesBackWithItsSessions)
{
    test::TempDir dir;
    const auto path = (dir.path / "snapshot-import.db").string();
    store::Workspace ws(path);
    const auto outcome =
        store::importIntoWorkspace(ws, std::string(RIDGELINE_TEST_DATA) + "/gui/import/h100_allgather_8r.jsonl");
    ASSERT_TRUE(outcome.ok) << outcome.error;
    auto sessions = ws.sessions();
    ASSERT_FALSE(sessions.empty());
    const auto s = sessions.front();
    ASSERT_TRUE(s.sourceFileId);
    const auto snap = store::snapshotSessions(ws.database(), {s.id});
    EXPECT_EQ(snap.files.rows.size(), 1u);
    ws.deleteSession(s.id);
    store::restoreSessions(ws.database(), snap);
    const auto back = ws.session(s.id);
    ASSERT_TRUE(back);
    EXPECT_EQ(back->sourceFileId, s.sourceFileId);
    EXPECT_EQ(ws.collectivePoints(s.id).size(), snap.recordCount());
}

TEST(SessionSnapshot, CsvAndJsonOfTheRecords)
{
    test::TempDir dir;
    const auto path = (dir.path / "snapshot-text.db").string();
    store::Workspace ws(path);
    const auto a = sessionWithPoints(ws, "first", 2);
    const auto snap = store::snapshotSessions(ws.database(), {a});
    const std::string csv = store::snapshotCsv(snap);
    EXPECT_EQ(csv.rfind("# collective_results\nsession_id,op,nranks,", 0), 0u) << csv;
    EXPECT_NE(csv.find(std::to_string(a) + ",all_reduce,8,float32,sum,1024,256,"), std::string::npos) << csv;
    const auto json = store::snapshotJson(snap);
    ASSERT_EQ(json.size(), 1u);
    EXPECT_EQ(json[0]["session"]["title"], "first");
    EXPECT_TRUE(json[0]["session"]["params"].is_object());
    ASSERT_EQ(json[0]["collective_results"].size(), 2u);
    EXPECT_EQ(json[0]["collective_results"][1]["bytes"], 2048);
    EXPECT_FALSE(json[0]["collective_results"][0].contains("id"));
}

// Duplicate: a copy under a new id with " (copy)" in its title, every point, the notes and the source
// file; the original untouched; deleting the copy leaves the original and its file alone.
TEST(SessionSnapshot, CopiesGetNewIdsTitlesAndAllTheirRows)
{
    test::TempDir dir;
    const auto path = (dir.path / "snapshot-copy.db").string();
    store::Workspace ws(path);
    const auto outcome =
        store::importIntoWorkspace(ws, std::string(RIDGELINE_TEST_DATA) + "/gui/import/h100_allgather_8r.jsonl");
    ASSERT_TRUE(outcome.ok) << outcome.error;
    const auto imported = ws.sessions().front();
    const auto other = sessionWithPoints(ws, "second", 2);
    ws.setNotes(other, "a note");
    const auto importedPoints = ws.collectivePoints(imported.id);
    ASSERT_FALSE(importedPoints.empty());

    const auto copies = store::insertSessionCopies(ws.database(), store::snapshotSessions(ws.database(), {other, imported.id}),
                                                   " (copy)");
    ASSERT_EQ(copies.size(), 2u);
    EXPECT_GT(copies[0], std::max(other, imported.id));
    EXPECT_NE(copies[0], copies[1]);
    EXPECT_EQ(ws.sessions().size(), 4u);
    const auto copyOfOther = ws.session(copies[0]);
    ASSERT_TRUE(copyOfOther);
    EXPECT_EQ(copyOfOther->title, "second (copy)");
    EXPECT_EQ(copyOfOther->notes, "a note");
    EXPECT_EQ(ws.collectivePoints(copies[0]).size(), 2u);
    const auto copyOfImport = ws.session(copies[1]);
    ASSERT_TRUE(copyOfImport);
    EXPECT_EQ(copyOfImport->title, imported.title + " (copy)");
    EXPECT_EQ(copyOfImport->sourceFileId, imported.sourceFileId);
    EXPECT_EQ(copyOfImport->host, imported.host);
    const auto copiedPoints = ws.collectivePoints(copies[1]);
    ASSERT_EQ(copiedPoints.size(), importedPoints.size());
    for (std::size_t i = 0; i < copiedPoints.size(); ++i) {
        EXPECT_EQ(copiedPoints[i].bytes, importedPoints[i].bytes);
        EXPECT_DOUBLE_EQ(copiedPoints[i].busbwGBs, importedPoints[i].busbwGBs);
    }
    EXPECT_EQ(ws.session(other)->title, "second");

    ws.deleteSession(copies[1]);
    EXPECT_EQ(ws.collectivePoints(imported.id).size(), importedPoints.size());
    EXPECT_EQ(ws.session(imported.id)->sourceFileId, imported.sourceFileId);
}

// A long session's outline (store/collectiveoutline.h) goes with its points: back after Undo, along
// with a copy, and never counted or shown as a record of its own.
TEST(SessionSnapshot, ALongSessionsOutlineGoesWithItsPointsAndIsNoRecord)
{
    test::TempDir dir;
    store::Workspace ws((dir.path / "snapshot-outline.db").string());
    SessionData d;
    d.session.kind = kind::Collectives;
    d.session.title = "long";
    for (int r = 0; r < 40; ++r) // 40 repeats of 512 sizes: 20,480 points, outlined
        for (int k = 0; k < 512; ++k) {
            CollectivePoint p;
            p.op = "all_reduce";
            p.nranks = 8;
            p.dtype = "float32";
            p.bytes = 8 * (k + 1);
            p.timeUs = 20.0 + r * 0.01 + k;
            p.algbwGBs = double(p.bytes) / (p.timeUs * 1e3);
            p.busbwGBs = p.algbwGBs * 1.75;
            d.collectives.push_back(p);
        }
    const auto id = ws.storeSession(d);
    const auto before = store::readCollectiveOutline(ws.database(), id);
    ASSERT_TRUE(before);

    const auto snap = store::snapshotSessions(ws.database(), {id});
    EXPECT_EQ(snap.recordCount(), d.collectives.size()); // the points, not the outline's row
    EXPECT_EQ(store::snapshotCsv(snap).find("collective_outlines"), std::string::npos);
    EXPECT_FALSE(store::snapshotJson(snap)[0].contains("collective_outlines"));

    ws.deleteSession(id);
    EXPECT_FALSE(store::readCollectiveOutline(ws.database(), id));
    store::restoreSessions(ws.database(), snap);
    const auto after = store::readCollectiveOutline(ws.database(), id);
    ASSERT_TRUE(after);
    EXPECT_EQ(after->points, before->points);

    const auto copies = store::insertSessionCopies(ws.database(), snap, " (copy)");
    ASSERT_EQ(copies.size(), 1u);
    const auto copied = store::readCollectiveOutline(ws.database(), copies[0]);
    ASSERT_TRUE(copied);
    EXPECT_EQ(copied->points, before->points);
}
