// Issue 26, item 10: a workspace of every earlier schema version (tests/data/workspaces, made by
// its make_workspaces.sh from the migration SQL itself) migrates to the latest and reads back.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tempdir.h"
#include "store/kernelresults.h"
#include "store/migrations.h"
#include "store/modelconfigs.h"
#include "store/pairresults.h"
#include "store/storageresults.h"
#include "store/traceresults.h"
#include "store/workspace.h"

using namespace rl;
using rl::store::Workspace;
namespace fs = std::filesystem;

namespace {
const fs::path kWorkspaces = fs::path(RIDGELINE_TEST_DATA) / "workspaces";

std::optional<Session> byTitle(const std::vector<Session>& sessions, const std::string& title)
{
    for (const auto& s : sessions)
        if (s.title == title)
            return s;
    return std::nullopt;
}
} // namespace

TEST(WorkspaceHistory, EveryEarlierSchemaMigratesToTheLatestAndReadsBack)
{
    for (int version = 1; version < store::latestSchemaVersion(); ++version) {
        SCOPED_TRACE("schema version " + std::to_string(version));
        const fs::path fixture = kWorkspaces / ("v" + std::to_string(version) + ".db");
        ASSERT_TRUE(fs::exists(fixture)) << fixture << " is missing: a new migration needs the workspace of the "
                                         << "version before it (tests/data/workspaces/README.md)";
        rl::test::TempDir dir; // migrated in a copy: the committed file stays at its version
        const auto file = (dir.path / "w.db").string();
        fs::copy_file(fixture, file);
        {
            Workspace ws(file);
            EXPECT_FALSE(ws.readOnly());
            EXPECT_EQ(ws.schemaVersion(), store::latestSchemaVersion());
        }
        Workspace ws(file); // and opens again at the latest
        const auto sessions = ws.sessions();

        // Schema 1: the imported session, its file, its points; the killed run and its point.
        const auto nccl = byTitle(sessions, "all_reduce 8 GPUs");
        ASSERT_TRUE(nccl);
        EXPECT_EQ(nccl->status, SessionStatus::Complete);
        EXPECT_EQ(nccl->notes, "before the switch upgrade");
        EXPECT_EQ(nccl->params["ngpus"], 8);
        EXPECT_EQ(nccl->tool, "nccl-tests");
        ASSERT_TRUE(nccl->sourceFileId);
        EXPECT_EQ(ws.sessionsOfFile(*nccl->sourceFileId), std::vector<std::int64_t>{nccl->id});
        ASSERT_TRUE(ws.importedFileBySha("sha-of-allreduce-log"));
        const auto points = ws.collectivePoints(nccl->id);
        ASSERT_EQ(points.size(), 3u);
        EXPECT_EQ(points[0].bytes, 1024);
        EXPECT_DOUBLE_EQ(points[0].timeUs, 20.5);
        EXPECT_DOUBLE_EQ(points[1].busbwGBs, 30.45);
        EXPECT_TRUE(points[2].inPlace);
        EXPECT_EQ(points[2].group, "");   // v8's column, default for points stored before
        EXPECT_FALSE(points[0].stats);    // v7's columns: none for an imported point
        EXPECT_EQ(points[0].imbalance, 0);
        const auto killed = byTitle(sessions, "killed run");
        ASSERT_TRUE(killed);
        EXPECT_EQ(killed->writerPid, 4242);
        const auto killedPoints = ws.collectivePoints(killed->id);
        ASSERT_EQ(killedPoints.size(), 1u);
        EXPECT_EQ(killedPoints[0].stats.has_value(), version >= 7);

        const auto gemm = byTitle(sessions, "gemm bf16");
        ASSERT_EQ(gemm.has_value(), version >= 2);
        if (gemm) {
            const auto g = store::gemmPoints(ws.database(), gemm->id);
            ASSERT_EQ(g.size(), 2u);
            EXPECT_DOUBLE_EQ(g[0].gflops + g[1].gflops, 763549.0 + 330382.0);
        }
        const auto log = byTitle(sessions, "llama 8B");
        ASSERT_EQ(log.has_value(), version >= 3);
        if (log) {
            const auto steps = store::trainSteps(ws.database(), log->id);
            ASSERT_EQ(steps.size(), 2u);
            EXPECT_DOUBLE_EQ(steps[1].loss, 9.75);
        }
        EXPECT_EQ(store::savedModelConfig(ws.database(), "tiny").has_value(), version >= 4);
        const auto io = byTitle(sessions, "lustre write");
        ASSERT_EQ(io.has_value(), version >= 6);
        if (io) {
            const auto s = store::storagePoints(ws.database(), io->id);
            ASSERT_EQ(s.size(), 1u);
            EXPECT_DOUBLE_EQ(s[0].aggregateGBs, 12.5);
        }
        const auto pairs = byTitle(sessions, "pairs 2 nodes");
        ASSERT_EQ(pairs.has_value(), version >= 7);
        if (pairs) {
            const auto p = store::pairPoints(ws.database(), pairs->id);
            ASSERT_EQ(p.size(), 1u);
            EXPECT_DOUBLE_EQ(p[0].bandwidthGBs, 24.0);
        }

        const auto split = byTitle(sessions, "split 2 nodes");
        ASSERT_EQ(split.has_value(), version >= 8);
        if (split) { // v8's groups, and the statistics of v7, through v9's packing into blocks
            const auto p = ws.collectivePoints(split->id);
            ASSERT_EQ(p.size(), 2u);
            EXPECT_EQ(p[0].group, "node a");
            EXPECT_EQ(p[1].group, "nodes a+b");
            ASSERT_TRUE(p[1].stats);
            EXPECT_EQ(p[1].stats->iters, 50);
            EXPECT_DOUBLE_EQ(p[1].stats->p99Us, 46.0);
            EXPECT_DOUBLE_EQ(p[1].stats->meanUs, 41.0);
            EXPECT_TRUE(ws.collectivePointsHaveGroups(split->id));
            EXPECT_EQ(ws.collectivePointCount(split->id), 2);
        }

        // A migrated file takes new records of every kind the latest schema has.
        EXPECT_FALSE(ws.collectivePointsHaveGroups(nccl->id));
        CollectivePoint grouped = points[0];
        grouped.group = "nodes a+b";
        ws.addCollectivePoint(nccl->id, grouped);
        EXPECT_EQ(ws.collectivePoints(nccl->id).size(), 4u);
        EXPECT_TRUE(ws.collectivePointsHaveGroups(nccl->id));
    }
}
