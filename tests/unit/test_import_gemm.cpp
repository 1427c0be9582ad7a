// GEMM importers: hipBLASLt tuning dump (real), rocblas-bench layouts, generic CSV, broken files.
#include <gtest/gtest.h>

#include <fstream>

#include "importers/gemmcsv.h"
#include "importers/importerregistry.h"

using namespace rl;

namespace {
const std::string kData = std::string(RIDGELINE_TEST_DATA) + "/kernels/";
const std::string kPrimus = std::string(RIDGELINE_SHARED_SAMPLES) + "/kernels/primus_gpt_oss_20b_tune_gemm_results-v26.3.txt";
} // namespace

TEST(ImportGemm, HipblasltTuningDumpHasTwelveResultsUnderRepeatedHeaders)
{
    const auto r = importFile(kPrimus);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.format, "hipblaslt-bench");
    ASSERT_EQ(r.sessions.size(), 1u);
    const auto& s = r.sessions[0];
    EXPECT_EQ(s.session.kind, "gemm");
    EXPECT_EQ(s.session.params.value("header_lines", 0), 12);
    ASSERT_EQ(s.gemms.size(), 12u);
    EXPECT_TRUE(r.warnings.empty());
    const auto& first = s.gemms[0];
    EXPECT_EQ(first.transA, "T");
    EXPECT_EQ(first.transB, "N");
    EXPECT_EQ(first.m, 32);
    EXPECT_EQ(first.n, 32768);
    EXPECT_EQ(first.k, 2880);
    EXPECT_EQ(first.dtype, "bfloat16");
    EXPECT_EQ(first.outType, "float32");
    EXPECT_EQ(first.computeType, "float32");
    EXPECT_DOUBLE_EQ(first.gflops, 151492);
    EXPECT_DOUBLE_EQ(first.timeUs, 39.8689);
    EXPECT_EQ(first.solution, "303082");
    EXPECT_EQ(first.device, "gfx950:sramecc+:xnack-");
    // %g rate with exponent, fp8 inputs, bf16 output.
    const auto& fp8 = s.gemms[2];
    EXPECT_EQ(fp8.dtype, "float8_e4m3");
    EXPECT_EQ(fp8.outType, "bfloat16");
    EXPECT_DOUBLE_EQ(fp8.gflops, 2.69535e+06);
    int fp8Count = 0, bf16Count = 0, f32Count = 0;
    for (const auto& g : s.gemms) {
        fp8Count += g.dtype == "float8_e4m3";
        bf16Count += g.dtype == "bfloat16";
        f32Count += g.dtype == "float32";
        // Reported rate and time agree with 2MNK (the file's own numbers, to 0.1 %).
        EXPECT_NEAR(2.0 * g.m * g.n * g.k / (g.timeUs * 1e3), g.gflops, g.gflops * 1e-3) << g.m << "x" << g.n << "x" << g.k;
        EXPECT_GT(g.intensity, 0);
    }
    EXPECT_EQ(fp8Count, 6);
    EXPECT_EQ(bf16Count, 4);
    EXPECT_EQ(f32Count, 2);
    // Intensity with 1-byte inputs and 2-byte output: 2MNK / (MK + KN + 2MN).
    const double expected = 2.0 * 2880 * 32768 * 4096 / (2880.0 * 4096 + 4096.0 * 32768 + 2.0 * 2880 * 32768);
    EXPECT_NEAR(fp8.intensity, expected, 1e-9);
}

TEST(ImportGemm, RocblasBenchMixedHeadersVerifyColumnsAndTruncatedRow)
{
    const auto r = importFile(kData + "rocblas-bench-gemm-mixed.txt");
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.format, "rocblas-bench");
    ASSERT_EQ(r.sessions.size(), 1u);
    const auto& g = r.sessions[0].gemms;
    ASSERT_EQ(g.size(), 3u);
    EXPECT_EQ(g[0].m, 4096);
    EXPECT_EQ(g[0].dtype, ""); // plain gemm: the type is only on the command line
    EXPECT_DOUBLE_EQ(g[0].intensity, 0);
    EXPECT_DOUBLE_EQ(g[1].gflops, 349.525); // not CPU-Gflops
    EXPECT_EQ(g[1].transB, "T");
    EXPECT_EQ(g[2].dtype, "bfloat16");
    EXPECT_DOUBLE_EQ(g[2].gflops, 6.55331e+05);
    // The int8 line is cut after the rate: warned with its line, not imported.
    ASSERT_EQ(r.warnings.size(), 1u);
    EXPECT_EQ(r.warnings[0].where.line, 14);
}

TEST(ImportGemm, GenericCsvWithTimeDerivesRateAndWarnsOnBadRows)
{
    const auto r = importFile(kData + "gemm-generic.csv");
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.format, "gemm-csv");
    const auto& g = r.sessions.at(0).gemms;
    ASSERT_EQ(g.size(), 2u);
    EXPECT_EQ(g[0].dtype, "float32");
    EXPECT_NEAR(g[0].gflops, 2.0 * 1024 * 1024 * 1024 / 250.5e-6 / 1e9, 1e-6);
    EXPECT_NEAR(g[0].intensity, 2.0 * 1024 / (3 * 4), 1e-9);
    EXPECT_EQ(g[1].dtype, "bfloat16");
    ASSERT_EQ(r.warnings.size(), 2u); // zero time, bad M
    EXPECT_EQ(r.warnings[0].where.line, 4);
    EXPECT_EQ(r.warnings[1].where.line, 5);
    EXPECT_NE(r.warnings[1].message.find("bad M"), std::string::npos);
}

TEST(ImportGemm, GenericCsvWithTflopsDerivesTime)
{
    const auto r = importFile(kData + "gemm-generic-tflops.csv");
    ASSERT_TRUE(r.ok) << r.error;
    const auto& g = r.sessions.at(0).gemms;
    ASSERT_EQ(g.size(), 2u);
    EXPECT_EQ(g[0].dtype, "float8_e4m3");
    EXPECT_DOUBLE_EQ(g[0].gflops, 1300.5e3);
    EXPECT_NEAR(g[0].timeUs, 2.0 * 8192 * 8192 * 8192 / 1300.5e12 * 1e6, 1e-9);
}

TEST(ImportGemm, TruncatedCsvKeepsCompleteRows)
{
    const auto r = importFile(kData + "gemm-generic-truncated.csv", {}, "gemm-csv");
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.sessions.at(0).gemms.size(), 1u);
    EXPECT_EQ(r.warnings.size(), 1u);
}

TEST(ImportGemm, EmptyAndBinaryFilesFailWithTheFileName)
{
    for (const char* name : {"empty.txt", "binary.bin"}) {
        const auto r = importFile(kData + name, {}, "hipblaslt-bench");
        EXPECT_FALSE(r.ok) << name;
        EXPECT_NE(r.error.find(name), std::string::npos) << r.error;
    }
}

TEST(ImportGemm, DtypeNames)
{
    EXPECT_EQ(gemmDtype("f32_r"), "float32");
    EXPECT_EQ(gemmDtype("xf32_r"), "tf32");
    EXPECT_EQ(gemmDtype("bf8_r"), "float8_e5m2");
    EXPECT_EQ(gemmDtype("i8_r"), "int8");
    EXPECT_EQ(gemmDtype("weird"), "weird");
    EXPECT_EQ(gemmElementBytes("float8_e5m2"), 1);
    EXPECT_EQ(gemmElementBytes("bfloat16"), 2);
    EXPECT_EQ(gemmElementBytes("weird"), 0);
}

// A live hipblaslt-bench run hands its stdout over line by line: each value row gives its point at once.
TEST(GemmTableStream, LinesFedOneByOneGiveTheImportersPoints)
{
    std::ifstream in(kPrimus);
    ASSERT_TRUE(in);
    GemmTableStream stream(GemmTableFlavor::HipblasltBench);
    std::vector<GemmPoint> live;
    std::string line;
    std::int64_t n = 0;
    while (std::getline(in, line))
        if (auto p = stream.feed(line, {++n, 0}))
            live.push_back(*p);
    const auto r = importFile(kPrimus);
    ASSERT_TRUE(r.ok);
    const auto& want = r.sessions[0].gemms;
    ASSERT_EQ(live.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        EXPECT_EQ(live[i].m, want[i].m);
        EXPECT_DOUBLE_EQ(live[i].gflops, want[i].gflops);
    }
    EXPECT_EQ(stream.headers(), 12);
    EXPECT_EQ(stream.toolName(), "hipblaslt-bench");
}
