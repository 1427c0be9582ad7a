#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "collectives/collectiveop.h"
#include "importers/importerregistry.h"
#include "importers/nccltestsstream.h"

using namespace rl;

namespace {
std::string fixture(const char* name) { return std::string(RIDGELINE_TEST_DATA) + "/collectives/" + name; }

ImportResult load(const char* name)
{
    ImportResult r = importFile(fixture(name));
    EXPECT_TRUE(r.ok) << r.error;
    return r;
}

bool hasWarningAt(const ImportResult& r, std::int64_t line, const std::string& text)
{
    for (const auto& w : r.warnings)
        if (w.where.line == line && w.message.find(text) != std::string::npos)
            return true;
    return false;
}

void expectBusbwRelation(const SessionData& s)
{
    for (const auto& p : s.collectives) {
        ASSERT_GT(p.timeUs, 0);
        EXPECT_NEAR(p.algbwGBs, p.bytes / p.timeUs / 1e3, 1e-9 * (1 + p.algbwGBs));
        EXPECT_NEAR(p.busbwGBs, p.algbwGBs * busFactor(*collectiveOpFromString(p.op), p.nranks), 1e-9 * (1 + p.busbwGBs));
    }
}
} // namespace

TEST(ImportNcclTests, Layout213EightH100GivesTwoPointsPerRow)
{
    auto r = load("nccl_2.13_allreduce_8xh100.txt");
    EXPECT_EQ(r.format, "nccl-tests");
    ASSERT_EQ(r.sessions.size(), 1u);
    const auto& s = r.sessions[0];
    ASSERT_EQ(s.collectives.size(), 28u); // 14 sizes, out-of-place + in-place
    EXPECT_EQ(s.session.tool, "nccl-tests");
    EXPECT_EQ(s.session.host, "h100-node-07");
    EXPECT_EQ(s.session.params["nranks"], 8);
    EXPECT_EQ(s.session.params["devices"][0], "NVIDIA H100 80GB HBM3");
    EXPECT_DOUBLE_EQ(s.session.params["avg_busbw_gbs"].get<double>(), 98.3061);
    EXPECT_EQ(s.session.status, SessionStatus::Complete);
    const auto& p = s.collectives[2]; // 32 B out-of-place
    EXPECT_EQ(p.op, "all_reduce");
    EXPECT_EQ(p.bytes, 32);
    EXPECT_EQ(p.count, 8);
    EXPECT_EQ(p.dtype, "float32");
    EXPECT_EQ(p.redop, "sum");
    EXPECT_FALSE(p.inPlace);
    EXPECT_TRUE(s.collectives[3].inPlace);
    EXPECT_EQ(p.root, -1);
    EXPECT_EQ(p.wrong, 0);
    EXPECT_DOUBLE_EQ(s.collectives[26].timeUs, 2345.72);
    expectBusbwRelation(s);
}

TEST(ImportNcclTests, Pre213ErrorColumnIsNotACount)
{
    auto r = load("nccl_pre2.13_allreduce_error_column.txt");
    ASSERT_EQ(r.sessions.size(), 1u);
    const auto& s = r.sessions[0];
    ASSERT_EQ(s.collectives.size(), 8u);
    EXPECT_EQ(s.session.params["nranks"], 2);
    EXPECT_TRUE(s.session.params.contains("wrong_column"));
    EXPECT_EQ(s.session.host, "ip-172-31-20-228,ip-172-31-22-230");
    EXPECT_EQ(s.collectives[4].wrong, 0);  // 65536 out-of-place: 0e+00
    EXPECT_EQ(s.collectives[5].wrong, -1); // 65536 in-place: 2e-02
    EXPECT_TRUE(hasWarningAt(r, 12, "max relative error"));
    EXPECT_EQ(s.collectives[0].op, "all_reduce"); // inferred: redop, size = count x 4
    expectBusbwRelation(s);
}

TEST(ImportNcclTests, OldAllGatherWithoutRedopColumn)
{
    auto r = load("nccl_pre2.13_allgather_no_redop.txt");
    ASSERT_EQ(r.sessions.size(), 1u);
    const auto& s = r.sessions[0];
    ASSERT_EQ(s.collectives.size(), 10u);
    EXPECT_EQ(s.collectives[0].op, "all_gather");
    EXPECT_EQ(s.collectives[0].nranks, 2);
    EXPECT_EQ(s.collectives[0].redop, "");
    EXPECT_EQ(s.session.commandLine, "./all_gather_perf -b 8 -e 128M -f 2 -g 2");
    expectBusbwRelation(s);
}

TEST(ImportNcclTests, OldAllToAllWithEmptyRedop)
{
    auto r = load("nccl_pre2.13_alltoall_empty_redop.txt");
    ASSERT_EQ(r.sessions.size(), 1u);
    const auto& s = r.sessions[0];
    ASSERT_EQ(s.collectives.size(), 8u);
    EXPECT_EQ(s.collectives[0].op, "all_to_all");
    EXPECT_EQ(s.collectives[0].nranks, 4);
    EXPECT_EQ(s.collectives[6].bytes, 8388608);
    EXPECT_EQ(s.collectives[6].count, 524288);
    EXPECT_EQ(s.session.commandLine, "mpirun -np 4 ./build/alltoall_perf -b 1M -e 8M -f 2 -g 1");
    expectBusbwRelation(s);
}

TEST(ImportNcclTests, MpiTaggedLinesWithNoiseAndNoFooter)
{
    auto r = load("nccl_mpi_tagged_with_noise.txt");
    ASSERT_EQ(r.sessions.size(), 1u);
    const auto& s = r.sessions[0];
    ASSERT_EQ(s.collectives.size(), 12u);
    EXPECT_EQ(s.session.params["nranks"], 16);
    EXPECT_EQ(s.session.params["hosts"].size(), 2u);
    EXPECT_EQ(s.session.status, SessionStatus::Incomplete);
    EXPECT_TRUE(hasWarningAt(r, 25, "no '# Avg bus bandwidth' footer"));
    EXPECT_EQ(s.collectives.back().bytes, 1073741824);
    expectBusbwRelation(s);
}

TEST(ImportNcclTests, SingleRowWithWrongElements)
{
    auto r = load("nccl_single_row_wrong.txt");
    ASSERT_EQ(r.sessions.size(), 1u);
    const auto& s = r.sessions[0];
    ASSERT_EQ(s.collectives.size(), 2u);
    EXPECT_EQ(s.collectives[0].op, "reduce_scatter");
    EXPECT_EQ(s.collectives[0].wrong, 3);
    EXPECT_EQ(s.collectives[1].wrong, 0);
    EXPECT_EQ(s.session.params["out_of_bounds"], 3);
    expectBusbwRelation(s);
}

TEST(ImportNcclTests, TwoCollectivesInOneFileAreTwoSessions)
{
    auto r = load("nccl_2.17_two_collectives.txt");
    ASSERT_EQ(r.sessions.size(), 2u);
    EXPECT_EQ(r.sessions[0].collectives.size(), 10u);
    EXPECT_EQ(r.sessions[1].collectives.size(), 10u);
    EXPECT_EQ(r.sessions[0].collectives[0].op, "all_reduce");
    EXPECT_EQ(r.sessions[1].collectives[0].op, "broadcast");
    EXPECT_EQ(r.sessions[1].collectives[0].root, 0);
    EXPECT_EQ(r.sessions[1].collectives[0].redop, "");
    EXPECT_EQ(r.sessions[0].collectives[0].wrong, -1); // N/A: validation off
    EXPECT_EQ(r.sessions[0].session.toolVersion, "2.17.1");
    EXPECT_EQ(r.sessions[0].session.params["nccl_version"], "2.27.3");
    for (const auto& s : r.sessions)
        expectBusbwRelation(s);
}

TEST(ImportNcclTests, RcclTestsOnMi300x)
{
    auto r = load("rccl_mi300x_allreduce.txt");
    ASSERT_EQ(r.sessions.size(), 1u);
    const auto& s = r.sessions[0];
    EXPECT_EQ(s.session.tool, "rccl-tests");
    EXPECT_EQ(s.session.toolVersion, "develop:83d38d9");
    EXPECT_EQ(s.collectives.size(), 10u);
    EXPECT_EQ(s.session.params["devices"][0], "AMD Instinct MI300X");
}

TEST(ImportNcclTests, RcclAlltoallvIsItsOwnOpWithAllToAllConventions)
{
    auto r = load("rccl_mi300x_alltoallv.txt");
    ASSERT_EQ(r.sessions.size(), 1u);
    const auto& s = r.sessions[0];
    EXPECT_EQ(s.session.tool, "rccl-tests");
    ASSERT_EQ(s.collectives.size(), 8u); // 4 sizes, out of place and in place
    for (const auto& p : s.collectives) {
        EXPECT_EQ(p.op, "all_to_allv");
        EXPECT_EQ(p.nranks, 8);
        EXPECT_EQ(p.redop, "");
        EXPECT_EQ(p.count * 8 * 4, p.bytes); // size = count x nranks x 4 B, as all_to_all
        EXPECT_NEAR(p.busbwGBs, p.algbwGBs * 7 / 8, 1e-9);
        EXPECT_DOUBLE_EQ(p.imbalance, 1.0); // rccl-tests' pattern: equal totals per rank
    }
    const auto& first = s.collectives.front();
    EXPECT_EQ(first.bytes, 1048576);
    EXPECT_NEAR(first.algbwGBs, 1048576 / 40.12e3, 1e-6);
}

TEST(ImportNcclTests, TruncatedFileKeepsCompleteRows)
{
    auto r = load("nccl_truncated.txt");
    ASSERT_EQ(r.sessions.size(), 1u);
    EXPECT_EQ(r.sessions[0].collectives.size(), 18u); // 9 complete rows
    EXPECT_TRUE(hasWarningAt(r, 25, "cut short"));
}

TEST(ImportNcclTests, BrokenRowsFailNamingFileAndLine)
{
    auto r = importFile(fixture("nccl_broken_rows.txt"));
    EXPECT_FALSE(r.ok);
    EXPECT_TRUE(r.sessions.empty());
    EXPECT_NE(r.error.find("nccl_broken_rows.txt:10"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("time 'abc'"), std::string::npos) << r.error;
}

// Found by fuzz_importers: a #wrong of 7.8e80 was cast to an integer (undefined behaviour).
TEST(ImportNcclTests, WrongCountBeyondAnIntegerSkipsTheRowNamingTheLine)
{
    auto r = load("nccl_wrong_overflow.txt");
    ASSERT_EQ(r.sessions.size(), 1u);
    EXPECT_EQ(r.sessions[0].collectives.size(), 2u); // the good row, out of place and in place
    EXPECT_EQ(r.sessions[0].collectives[0].bytes, 16);
    EXPECT_TRUE(hasWarningAt(r, 10, "wrong-value count '7.77778e+80' is not a count"));
}

TEST(ImportNcclTests, JsonReport)
{
    auto r = load("nccl_tests_allreduce.json");
    EXPECT_EQ(r.format, "nccl-tests-json");
    ASSERT_EQ(r.sessions.size(), 1u);
    const auto& s = r.sessions[0];
    ASSERT_EQ(s.collectives.size(), 6u);
    EXPECT_EQ(s.collectives[0].op, "all_reduce");
    EXPECT_EQ(s.collectives[0].nranks, 8);
    EXPECT_DOUBLE_EQ(s.collectives[2].timeUs, 52.1);
    EXPECT_EQ(s.session.params["nccl_version"], "2.27.3");
    EXPECT_NE(s.session.commandLine.find("-J out.json"), std::string::npos);
    // The library's environment for the provenance; PATH is left out.
    EXPECT_EQ(s.session.params["environment"], (nlohmann::json{{"NCCL_DEBUG", "WARN"}}));
    expectBusbwRelation(s);
}

TEST(ImportNcclTests, TruncatedJsonKeepsCompleteRows)
{
    auto r = load("nccl_tests_truncated.json");
    ASSERT_EQ(r.sessions.size(), 1u);
    EXPECT_EQ(r.sessions[0].collectives.size(), 4u);
    ASSERT_FALSE(r.warnings.empty());
    EXPECT_NE(r.warnings[0].message.find("truncated"), std::string::npos);
}

TEST(ImportNcclTests, InvalidJsonNamesLine)
{
    auto r = importFile(fixture("nccl_tests_invalid.json"));
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find("nccl_tests_invalid.json:1"), std::string::npos) << r.error;
}

TEST(ImportFormats, EmptyBinaryAndUnknownFilesFailClearly)
{
    for (const char* name : {"empty.txt", "binary.bin", "unknown_text.txt"}) {
        auto r = importFile(fixture(name));
        EXPECT_FALSE(r.ok) << name;
        EXPECT_TRUE(r.sessions.empty());
        EXPECT_NE(r.error.find(name), std::string::npos) << r.error;
    }
}

TEST(ImportFormats, DetectionDoesNotNeedFileNames)
{
    const std::pair<const char*, const char*> cases[] = {
        {"nccl_2.13_allreduce_8xh100.txt", "nccl-tests"}, {"nccl_tests_allreduce.json", "nccl-tests-json"},
        {"osu_allreduce_v7.3.txt", "osu"},                {"imb_mpi1_allreduce_allgather_pingpong.txt", "imb"},
        {"rccl_mi300x_allreduce.txt", "nccl-tests"},      {"nccl_pre2.13_allgather_no_redop.txt", "nccl-tests"},
    };
    for (const auto& [name, id] : cases) {
        std::ifstream in(fixture(name));
        std::string head(8192, '\0');
        in.read(head.data(), static_cast<std::streamsize>(head.size()));
        head.resize(static_cast<std::size_t>(in.gcount()));
        auto found = detectFormat(head, "data.log");
        ASSERT_FALSE(found.empty()) << name;
        EXPECT_EQ(found[0].importer->id, id) << name;
        if (found.size() > 1) {
            EXPECT_GT(found[0].confidence, found[1].confidence) << name;
        }
    }
}

// The live run feeds the tool's stdout line by line: every row hands over its points as soon as it is
// read (op, ranks and bandwidths resolved from the header already printed), and the end gives exactly
// what the importer stores.
TEST(NcclTestsStream, RowsArriveResolvedAsFedAndTheEndMatchesTheImport)
{
    std::ifstream in(fixture("rccl_mi300x_allreduce.txt"));
    ASSERT_TRUE(in);
    NcclTestsStream stream("live");
    std::vector<CollectivePoint> live;
    std::string line;
    std::int64_t lineNo = 0;
    while (std::getline(in, line)) {
        auto points = stream.feed(line, {++lineNo, 0});
        if (line.find("float") != std::string::npos && line.find("sum") != std::string::npos) {
            EXPECT_EQ(points.size(), 2u) << "line " << lineNo << ": " << line;
        }
        for (auto& p : points) {
            EXPECT_EQ(p.op, "all_reduce");
            EXPECT_EQ(p.nranks, 8);
            live.push_back(std::move(p));
        }
    }
    const ImportResult atEnd = stream.finish();
    const ImportResult imported = load("rccl_mi300x_allreduce.txt");
    ASSERT_EQ(atEnd.sessions.size(), 1u);
    ASSERT_EQ(imported.sessions.size(), 1u);
    const auto& want = imported.sessions[0].collectives;
    ASSERT_EQ(live.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        EXPECT_EQ(live[i].bytes, want[i].bytes);
        EXPECT_DOUBLE_EQ(live[i].busbwGBs, want[i].busbwGBs);
        EXPECT_EQ(live[i].inPlace, want[i].inPlace);
    }
    EXPECT_EQ(atEnd.sessions[0].session.tool, imported.sessions[0].session.tool);
    EXPECT_EQ(atEnd.sessions[0].collectives.size(), want.size());
}

TEST(NcclTestsStream, AFailureLineIsReportedWithItsLine)
{
    NcclTestsStream stream("live");
    stream.feed("# nThread 1 nGpus 1 minBytes 8 maxBytes 64 step: 2(factor) warmup iters: 1 iters: 1", {1, 0});
    EXPECT_FALSE(stream.reportedFailure());
    stream.feed("node-1: Test NCCL failure common.cu:958 'unhandled system error'", {2, 0});
    EXPECT_TRUE(stream.reportedFailure());
    ASSERT_EQ(stream.warnings().size(), 1u);
    EXPECT_EQ(stream.warnings()[0].where.line, 2);
}

// NCCL_DEBUG=INFO prints the variables NCCL read; the text import keeps them as the session's
// environment, as the JSON import keeps the report's "env" (one helper), and leaves the rest of
// the INFO noise (bootstrap, plugin, channels) out.
TEST(ImportNcclTests, NcclInfoEnvironmentLinesAreTheSessionsEnvironment)
{
    auto r = load("nccl_2.18_allreduce_2node_nccl_debug_info.txt");
    ASSERT_EQ(r.sessions.size(), 1u);
    const auto& s = r.sessions[0];
    EXPECT_EQ(s.collectives.size(), 12u);
    EXPECT_EQ(s.session.params["nranks"], 16);
    EXPECT_EQ(s.session.params["nccl_version"], "2.18.5+cuda12.2");
    EXPECT_EQ(s.session.params["environment"], (nlohmann::json{{"NCCL_SOCKET_IFNAME", "ib0"},
                                                               {"NCCL_IB_HCA", "mlx5_0:1,mlx5_3:1"},
                                                               {"NCCL_P2P_LEVEL", "NVL"},
                                                               {"NCCL_NET_GDR_LEVEL", "PHB"}}));
    // nccl-tests text carries no date: the session is not said to have one.
    EXPECT_FALSE(s.session.params.contains(kCreatedFromParam));
}
