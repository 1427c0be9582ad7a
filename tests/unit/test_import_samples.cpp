#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <unistd.h>

#include "store/fileimport.h"
#include "tempdir.h"

using namespace rl;
namespace fs = std::filesystem;
using rl::test::TempDir;

// Every file a new user opens on first start imports cleanly, with the sessions the README lists.
TEST(ImportSamples, EverySampleFileImportsIntoAWorkspace)
{
    const std::string dir = std::string(RIDGELINE_TEST_DATA) + "/../../sample_data";
    TempDir tmp;
    store::Workspace ws((tmp.path / "w.db").string());
    const auto files = store::expandImportPaths({dir});
    ASSERT_EQ(files.size(), 12u);
    std::map<std::string, std::size_t> sessions;
    for (const auto& f : files) {
        auto out = store::importIntoWorkspace(ws, f);
        EXPECT_TRUE(out.ok) << f << ": " << out.error;
        EXPECT_TRUE(out.warnings.empty()) << f << ": " << (out.warnings.empty() ? "" : out.warnings[0].message);
        sessions[fs::path(f).filename().string()] = out.sessionIds.size();
    }
    EXPECT_EQ(sessions["nccl-tests_8xH100_all_collectives.txt"], 5u);
    EXPECT_EQ(sessions["rccl-tests_8xMI300X_all_collectives.txt"], 5u);
    EXPECT_EQ(sessions["nccl-tests_2node_16xH100_all_reduce.txt"], 1u);
    EXPECT_EQ(sessions["nccl-tests_4node_32xH100_all_reduce.txt"], 1u);
    EXPECT_EQ(sessions["osu_allgather_8ranks.txt"], 1u);
    EXPECT_EQ(sessions["imb_mpi1_allreduce_allgather_pingpong.txt"], 5u);
    EXPECT_EQ(sessions["kineto_sampled_trace_rank0_hta.json.gz"], 1u);
    EXPECT_EQ(sessions["megatron-lm_gpt-8b_16xH100_pretrain.log"], 1u);
    EXPECT_EQ(sessions["stream-5.10_2threads_kvm-vm.txt"], 1u);
    for (const char* probe : {"gemm", "membw", "attention"})
        EXPECT_EQ(sessions[std::string("pytorch-probe_h200_") + probe + ".jsonl"], 1u) << probe;
    EXPECT_EQ(ws.sessions().size(), 24u);
    std::map<std::string, int> kinds;
    for (const auto& s : ws.sessions())
        ++kinds[s.kind];
    EXPECT_EQ(kinds, (std::map<std::string, int>{{kind::Collectives, 18}, {kind::Trace, 1}, {kind::TrainingLog, 1},
                                                  {kind::MemBandwidth, 2}, {kind::Gemm, 1}, {kind::Attention, 1}}));
    // 8 B .. 8 GiB, out-of-place and in-place
    for (const auto& s : ws.sessions())
        if (s.tool == "rccl-tests" || s.tool == "nccl-tests") {
            EXPECT_EQ(ws.collectivePoints(s.id).size(), 62u) << s.title;
        }
}

// A folder of per-rank Kineto traces is one job: one import, one session with every rank, and
// importing it again is recognised. Its parent folder lists it as one entry next to other files.
TEST(ImportFolders, TraceRankFolderIsOneSessionAndReimportIsDetected)
{
    const std::string traces = std::string(RIDGELINE_TEST_DATA) + "/traces";
    const std::string ranks = traces + "/ranks";
    EXPECT_TRUE(store::isTraceRankFolder(ranks));
    EXPECT_FALSE(store::isTraceRankFolder(traces)); // holds broken and non-trace files too
    const auto listed = store::expandImportPaths({traces});
    EXPECT_NE(std::find(listed.begin(), listed.end(), ranks), listed.end());
    for (const auto& f : listed)
        EXPECT_EQ(f.find("/ranks/"), std::string::npos) << f << " should be imported with its folder";

    TempDir tmp;
    store::Workspace ws((tmp.path / "w.db").string());
    const auto first = store::importIntoWorkspace(ws, ranks);
    ASSERT_TRUE(first.ok) << first.error;
    EXPECT_EQ(first.format, "kineto");
    ASSERT_EQ(first.sessionIds.size(), 1u);
    const auto s = ws.session(first.sessionIds[0]);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->kind, kind::Trace);
    EXPECT_EQ(s->params["ranks"].size(), 2u);
    const auto again = store::importIntoWorkspace(ws, ranks);
    EXPECT_TRUE(again.ok);
    EXPECT_TRUE(again.alreadyImported);
    EXPECT_EQ(again.sessionIds, first.sessionIds);
    EXPECT_EQ(ws.sessions().size(), 1u);
}
