// fio JSON and IOR text outputs become "storage" sessions: real outputs in tests/data/storage
// (provenance in its README), broken and truncated files included.
#include <gtest/gtest.h>

#include "importers/importerregistry.h"

using namespace rl;

namespace {
const std::string kDir = std::string(RIDGELINE_TEST_DATA) + "/storage/";
constexpr double kMiB = 1024.0 * 1024.0;

ImportResult importOk(const std::string& name)
{
    auto r = importFile(kDir + name);
    EXPECT_TRUE(r.ok) << r.error;
    return r;
}
} // namespace

TEST(ImportFio, JobsOfAGroupAreTheRanksOfOnePoint)
{
    const auto r = importOk("fio-ckpt-2jobs.json");
    EXPECT_EQ(r.format, "fio");
    ASSERT_EQ(r.sessions.size(), 1u);
    const auto& s = r.sessions[0];
    EXPECT_EQ(s.session.kind, "storage");
    EXPECT_EQ(s.session.tool, "fio");
    EXPECT_EQ(s.session.toolVersion, "3.33");
    ASSERT_EQ(s.storage.size(), 2u);
    const auto& w = s.storage[0];
    EXPECT_EQ(w.op, "write");
    EXPECT_EQ(w.nranks, 2);
    EXPECT_EQ(w.fileBytes, 16 << 20);
    EXPECT_EQ(w.blockBytes, 1 << 20); // bs=1M in [global], base 1024
    EXPECT_TRUE(w.fsync);             // end_fsync=1
    EXPECT_FALSE(w.direct);
    EXPECT_EQ(w.access, storage_access::FilePerProcess);
    // Job bw_bytes 356962042 (47 ms) and 409200390 (41 ms): aggregate = 32 MiB / 47 ms.
    ASSERT_EQ(w.rankGBs.size(), 2u);
    EXPECT_DOUBLE_EQ(w.rankGBs[0], 0.356962042);
    EXPECT_DOUBLE_EQ(w.rankGBs[1], 0.409200390);
    EXPECT_EQ(w.slowestRank, 0);
    EXPECT_DOUBLE_EQ(w.timeS, 0.047);
    EXPECT_DOUBLE_EQ(w.aggregateGBs, 32 * kMiB / 0.047 / 1e9);
    const auto& rd = s.storage[1];
    EXPECT_EQ(rd.op, "read");
    EXPECT_FALSE(rd.fsync);
    EXPECT_EQ(rd.nranks, 2);
    EXPECT_DOUBLE_EQ(rd.timeS, 0.025);
    EXPECT_DOUBLE_EQ(rd.minRankGBs, 0.671088640);
    EXPECT_DOUBLE_EQ(rd.maxRankGBs, 0.986895058);
}

TEST(ImportFio, GroupReportingGivesOneEntryForAllJobs)
{
    const auto r = importOk("fio-direct-group.json");
    ASSERT_EQ(r.sessions.size(), 1u);
    ASSERT_EQ(r.sessions[0].storage.size(), 1u);
    const auto& w = r.sessions[0].storage[0];
    EXPECT_EQ(w.nranks, 2);
    EXPECT_TRUE(w.direct);
    EXPECT_FALSE(w.fsync);
    EXPECT_EQ(w.blockBytes, 4 << 20);
    EXPECT_EQ(w.fileBytes, 32 << 20);      // per job
    EXPECT_TRUE(w.rankGBs.empty());        // fio merged them
    EXPECT_DOUBLE_EQ(w.aggregateGBs, 64 * kMiB / 0.083 / 1e9);
    bool warned = false;
    for (const auto& wn : r.warnings)
        warned |= wn.message.find("group_reporting") != std::string::npos;
    EXPECT_TRUE(warned);
}

TEST(ImportFio, TruncatedJsonIsAClearError)
{
    const auto r = importFile(kDir + "fio-truncated.json");
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find("fio-truncated.json"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("not valid JSON"), std::string::npos) << r.error;
}

TEST(ImportIor, FilePerProcessODirectWithFsync)
{
    const auto r = importOk("ior-4.0.0-fpp-odirect.txt");
    EXPECT_EQ(r.format, "ior");
    ASSERT_EQ(r.sessions.size(), 1u);
    const auto& s = r.sessions[0];
    EXPECT_EQ(s.session.kind, "storage");
    EXPECT_EQ(s.session.tool, "ior");
    EXPECT_EQ(s.session.toolVersion, "4.0.0");
    EXPECT_EQ(s.session.host, "queue1-st-t2micro-1");
    EXPECT_EQ(s.session.params["options"].value("access", std::string{}), "file-per-process");
    ASSERT_EQ(s.storage.size(), 2u);
    const auto& w = s.storage[0];
    EXPECT_EQ(w.op, "write");
    EXPECT_EQ(w.access, storage_access::FilePerProcess);
    EXPECT_EQ(w.nranks, 4);
    EXPECT_EQ(w.fileBytes, 10737418240);
    EXPECT_EQ(w.blockBytes, 1048576);
    EXPECT_TRUE(w.fsync);  // -e
    EXPECT_TRUE(w.direct); // --posix.odirect
    EXPECT_DOUBLE_EQ(w.aggregateGBs, 580.00 * kMiB / 1e9);
    EXPECT_DOUBLE_EQ(w.timeS, 70.62058);
    const auto& rd = s.storage[1];
    EXPECT_EQ(rd.op, "read");
    EXPECT_FALSE(rd.fsync);
    EXPECT_DOUBLE_EQ(rd.aggregateGBs, 1201.51 * kMiB / 1e9);
}

TEST(ImportIor, SharedFileOlderSummaryColumns)
{
    const auto r = importOk("ior-3.2.0-shared.txt");
    ASSERT_EQ(r.sessions.size(), 1u);
    const auto& s = r.sessions[0];
    EXPECT_EQ(s.session.toolVersion, "3.2.0");
    ASSERT_EQ(s.storage.size(), 1u);
    const auto& w = s.storage[0];
    EXPECT_EQ(w.access, storage_access::SharedFile); // fPP 0
    EXPECT_EQ(w.nranks, 16);
    EXPECT_EQ(w.fileBytes, 209715200);
    EXPECT_EQ(w.blockBytes, 20971520);
    EXPECT_FALSE(w.fsync);
    EXPECT_FALSE(w.direct);
    EXPECT_DOUBLE_EQ(w.aggregateGBs, 104.26 * kMiB / 1e9);
    EXPECT_DOUBLE_EQ(w.timeS, 30.69206);
}

TEST(ImportIor, OutputWithoutSummaryIsAClearError)
{
    const auto r = importFile(kDir + "ior-truncated.txt");
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find("Summary of all tests"), std::string::npos) << r.error;
}

TEST(ImportStorage, SniffingPicksEachFormatAlone)
{
    for (const auto& [file, id] : {std::pair{"fio-ckpt-2jobs.json", "fio"}, {"ior-3.2.0-shared.txt", "ior"}}) {
        const auto r = importFile(kDir + file);
        EXPECT_EQ(r.format, id) << file;
    }
}
