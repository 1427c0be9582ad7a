// STREAM and HPCC importers on real output (hpcc run on this machine) and broken files.
#include <gtest/gtest.h>

#include "importers/importerregistry.h"

using namespace rl;

namespace {
const std::string kData = std::string(RIDGELINE_TEST_DATA) + "/kernels/";
}

TEST(KernelImport, StreamFiveTenGivesFourKernelsWithStreamByteCounts)
{
    const auto r = importFile(kData + "stream-5.10-2threads.txt");
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.format, "stream");
    ASSERT_EQ(r.sessions.size(), 1u);
    const auto& s = r.sessions[0];
    EXPECT_EQ(s.session.kind, "membw");
    EXPECT_EQ(s.session.toolVersion, "5.10");
    ASSERT_EQ(s.membw.size(), 4u);
    EXPECT_EQ(s.membw[0].kernel, "copy");
    EXPECT_EQ(s.membw[0].bytes, 10000000LL * 8 * 2);
    EXPECT_EQ(s.membw[3].kernel, "triad");
    EXPECT_EQ(s.membw[3].bytes, 10000000LL * 8 * 3);
    EXPECT_EQ(s.membw[3].threads, 2);
    EXPECT_DOUBLE_EQ(s.membw[3].bandwidthGBs, 41.0069);
    EXPECT_DOUBLE_EQ(s.membw[3].bestTimeUs, 5853);
    // STREAM's rate is bytes / min time: check the file is self-consistent through our fields.
    EXPECT_NEAR(s.membw[3].bytes / (s.membw[3].bestTimeUs * 1e-6) / 1e9, s.membw[3].bandwidthGBs, 0.01);
    EXPECT_TRUE(r.warnings.empty());
}

TEST(KernelImport, TruncatedStreamWarns)
{
    const auto r = importFile(kData + "stream-5.10-truncated.txt", {}, "stream");
    ASSERT_TRUE(r.ok) << r.error;
    ASSERT_EQ(r.sessions.size(), 1u);
    EXPECT_LT(r.sessions[0].membw.size(), 4u);
    EXPECT_EQ(r.warnings.size(), 1u);
}

TEST(KernelImport, HpccSummaryGivesStreamAndDgemmSessions)
{
    const auto r = importFile(kData + "hpcc-1.5.0-1proc-hpccoutf.txt");
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.format, "hpcc");
    ASSERT_EQ(r.sessions.size(), 2u);
    const auto& stream = r.sessions[0];
    EXPECT_EQ(stream.session.kind, "membw");
    EXPECT_EQ(stream.session.toolVersion, "1.5.0");
    ASSERT_EQ(stream.membw.size(), 4u);
    EXPECT_EQ(stream.membw[3].kernel, "triad");
    EXPECT_DOUBLE_EQ(stream.membw[3].bandwidthGBs, 32.7961);
    EXPECT_EQ(stream.membw[3].bytes, 12000000LL * 24);
    EXPECT_EQ(stream.session.params.value("STREAM_Threads", 0), 1);
    EXPECT_EQ(stream.session.host, "vm"); // the header's "Hostname: 'vm'"
    const auto& dgemm = r.sessions[1];
    EXPECT_EQ(dgemm.session.kind, "gemm");
    EXPECT_EQ(dgemm.session.host, "vm");
    ASSERT_EQ(dgemm.gemms.size(), 1u);
    EXPECT_EQ(dgemm.gemms[0].m, 3463);
    EXPECT_DOUBLE_EQ(dgemm.gemms[0].gflops, 51.5739);
}

TEST(KernelImport, HpccWithoutSummaryFailsNamingTheFile)
{
    const auto r = importFile(kData + "hpcc-truncated-no-summary.txt");
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find("hpcc-truncated-no-summary.txt"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("Summary"), std::string::npos) << r.error;
}

TEST(KernelImport, EmptyAndBinaryFail)
{
    for (const char* fmt : {"stream", "hpcc"})
        for (const char* name : {"empty.txt", "binary.bin"}) {
            const auto r = importFile(kData + name, {}, fmt);
            EXPECT_FALSE(r.ok) << fmt << " " << name;
            EXPECT_NE(r.error.find(name), std::string::npos) << r.error;
        }
}
