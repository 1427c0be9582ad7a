// NVIDIA's C-level tools through the importer registry: cutlass_profiler's CSV report, BabelStream
// (4.0 table in MiB/s, the newer --csv naming), nvbandwidth (-j JSON, text); broken files name
// file and line. Fixtures in tests/data/kernels are written in each tool's layout from its source,
// with H100 SXM figures (see tests/standins/nvidia_standins.cpp).
#include <gtest/gtest.h>

#include "importers/cutlassprofiler.h"
#include "importers/importerregistry.h"

using namespace rl;

namespace {
const std::string kData = std::string(RIDGELINE_TEST_DATA) + "/kernels/";
}

TEST(ImportNvTools, CutlassCsvReportGivesGemmPointsInMsAndSkipsWhatDidNotRun)
{
    const auto r = importFile(kData + "cutlass-profiler-h100.gemm.csv");
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.format, "cutlass_profiler");
    ASSERT_EQ(r.sessions.size(), 1u);
    const auto& s = r.sessions[0];
    EXPECT_EQ(s.session.kind, "gemm");
    EXPECT_EQ(s.session.tool, "cutlass_profiler");
    ASSERT_EQ(s.gemms.size(), 2u);
    const auto& bf16 = s.gemms[0];
    EXPECT_EQ(bf16.m, 8192);
    EXPECT_EQ(bf16.k, 8192);
    EXPECT_EQ(bf16.dtype, "bfloat16");
    EXPECT_EQ(bf16.outType, "bfloat16");
    EXPECT_EQ(bf16.computeType, "float32");
    EXPECT_EQ(bf16.transA, "T"); // A row-major
    EXPECT_EQ(bf16.transB, "N");
    EXPECT_NEAR(bf16.timeUs, 1546.7, 1e-6); // Runtime is in ms
    EXPECT_NEAR(bf16.gflops, 710876, 1);     // the GFLOPs column, 6 digits
    EXPECT_NE(bf16.solution.find("128x256x64_1x2x1"), std::string::npos);
    const auto& fp8 = s.gemms[1];
    EXPECT_EQ(fp8.dtype, "float8_e4m3");
    EXPECT_EQ(fp8.n, 4096);
    EXPECT_NEAR(fp8.gflops, 1.35341e6, 1);
    // The not-supported kernel has no timing: a warning naming its line, no point.
    ASSERT_EQ(r.warnings.size(), 1u);
    EXPECT_EQ(r.warnings[0].where.line, 4);
    EXPECT_NE(r.warnings[0].message.find("error_not_supported"), std::string::npos) << r.warnings[0].message;
}

TEST(ImportNvTools, CutlassConsoleBlocksAndTheirTrailingCsvCountOnce)
{
    // --verbose without --output: each result as a block, then the same results as CSV.
    CutlassProfilerStream stream;
    const std::vector<std::string> lines{
        "=============================", "  Problem ID: 1", "", "        Provider: CUTLASS", "   OperationKind: gemm",
        "       Operation: cutlass3x_sm90_tensorop_gemm_f16_f16_f32_f16_f16_128x256x64_1x2x1_0_nnn_align8", "",
        "          Status: Success", "     Disposition: Incorrect", "",
        "       Arguments: --gemm_kind=universal --m=4096 --n=2048 --k=1024 --A=f16:column --B=f16:row  \\",
        "                  --C=f16:column --D=f16:column --batch_count=2 --accum=f32", "",
        "           Bytes: 50331648  bytes", "         Runtime: 0.08  ms", "            Math: 429497 GFLOP/s", "",
        "CSV Results:", "", "Problem,Provider,OperationKind,Operation,Disposition,Status,gemm_kind,m,n,k,Runtime,GFLOPs",
        "1,CUTLASS,gemm,x,incorrect,success,universal,4096,2048,1024,0.08,429497"};
    std::vector<GemmPoint> points;
    std::int64_t n = 0;
    for (const auto& l : lines)
        if (auto p = stream.feed(l, {++n, 0}))
            points.push_back(*p);
    ASSERT_EQ(points.size(), 1u);
    EXPECT_EQ(points[0].m, 4096);
    EXPECT_EQ(points[0].batch, 2);
    EXPECT_EQ(points[0].transB, "T");
    EXPECT_EQ(points[0].dtype, "float16");
    EXPECT_NEAR(points[0].timeUs, 80, 1e-9);
    EXPECT_NEAR(points[0].gflops, 429497, 1e-9);
    ASSERT_EQ(stream.incorrect().size(), 1u); // the profiler's own verdict is kept
}

TEST(ImportNvTools, BabelStreamTableInMibibytesStoresGBsAndStreamsByteCounts)
{
    const auto r = importFile(kData + "babelstream-4.0-cuda-mibibytes.txt");
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.format, "babelstream");
    ASSERT_EQ(r.sessions.size(), 1u);
    const auto& s = r.sessions[0];
    EXPECT_EQ(s.session.kind, "membw");
    EXPECT_EQ(s.session.toolVersion, "4.0");
    EXPECT_EQ(s.session.params["unit"], "MiB");
    EXPECT_EQ(s.session.params["device"], "NVIDIA H100 80GB HBM3");
    ASSERT_EQ(s.membw.size(), 5u);
    // "Array size: 256.0 MiB" of doubles: 2^25 elements; copy moves 2 arrays, triad 3.
    EXPECT_EQ(s.membw[0].kernel, "copy");
    EXPECT_EQ(s.membw[0].bytes, 2LL * 8 * 33554432);
    EXPECT_NEAR(s.membw[0].bandwidthGBs, 2934.0, 0.001); // 2798080.444 MiB/s x 2^20 / 1e9
    EXPECT_EQ(s.membw[1].kernel, "scale");               // BabelStream's Mul
    EXPECT_EQ(s.membw[3].kernel, "triad");
    EXPECT_EQ(s.membw[3].bytes, 3LL * 8 * 33554432);
    EXPECT_NEAR(s.membw[3].bandwidthGBs, 3041.0, 0.001);
    EXPECT_NEAR(s.membw[3].bestTimeUs, 3.0 * 8 * 33554432 / 3041.0e3, 1e-6);
    EXPECT_EQ(s.membw[4].kernel, "dot");
    EXPECT_TRUE(r.warnings.empty());
}

TEST(ImportNvTools, BabelStreamCsvInMegabytesWithFloats)
{
    const auto r = importFile(kData + "babelstream-csv-float.csv");
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.format, "babelstream");
    const auto& s = r.sessions.at(0);
    ASSERT_EQ(s.membw.size(), 5u);
    EXPECT_EQ(s.session.params["element_bytes"], 4);
    EXPECT_EQ(s.membw[2].kernel, "add");
    EXPECT_EQ(s.membw[2].bytes, 3LL * 4 * 67108864);
    EXPECT_NEAR(s.membw[2].bandwidthGBs, 3038.0, 1e-9); // MB = 1e6 B
}

TEST(ImportNvTools, NvbandwidthJsonKeepsEveryMatrixWithNotMeasuredPairs)
{
    const auto r = importFile(kData + "nvbandwidth-v0.8-4gpu.json");
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.format, "nvbandwidth");
    const auto& s = r.sessions.at(0);
    EXPECT_EQ(s.session.kind, "copybw");
    EXPECT_EQ(s.session.toolVersion, "v0.8");
    const auto& m = s.session.params["matrices"];
    ASSERT_EQ(m.size(), 2u);
    EXPECT_EQ(m[0]["testcase"], "host_to_device_memcpy_ce");
    EXPECT_EQ(m[0]["unit"], "GB/s");
    ASSERT_EQ(m[0]["values"].size(), 1u);
    EXPECT_DOUBLE_EQ(m[0]["values"][0][1].get<double>(), 55.3);
    EXPECT_DOUBLE_EQ(m[0]["sum"].get<double>(), 221.38);
    ASSERT_EQ(m[1]["values"].size(), 4u);
    EXPECT_TRUE(m[1]["values"][2][2].is_null()); // a GPU with itself: N/A
    EXPECT_DOUBLE_EQ(m[1]["values"][0][1].get<double>(), 389.61);
    EXPECT_EQ(s.session.params["not_run"][0], "host_to_device_bidirectional_memcpy_ce: Waived");
    EXPECT_EQ(s.session.params["devices"].size(), 4u);
}

struct BrokenFile
{
    const char* file;
    const char* format; // importer the content is sniffed as
    int line;
    const char* says;
};

class ImportNvToolsBroken : public ::testing::TestWithParam<BrokenFile>
{};

TEST_P(ImportNvToolsBroken, NamesFileAndLine)
{
    const BrokenFile b = GetParam();
    const auto r = importFile(kData + b.file);
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.format, b.format);
    EXPECT_NE(r.error.find(kData + b.file + ":" + std::to_string(b.line) + ": "), std::string::npos) << r.error;
    EXPECT_NE(r.error.find(b.says), std::string::npos) << r.error;
}

INSTANTIATE_TEST_SUITE_P(
    Files, ImportNvToolsBroken,
    ::testing::Values(BrokenFile{"cutlass-profiler-bad-m.gemm.csv", "cutlass_profiler", 2, "bad M '40x6'"},
                      BrokenFile{"babelstream-no-array-size.txt", "babelstream", 7, "before the array size"},
                      BrokenFile{"nvbandwidth-short-row.txt", "nvbandwidth", 16, "1 values for 2 columns"}));
