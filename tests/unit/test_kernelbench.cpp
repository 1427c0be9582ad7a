// The kernel benchmarks run briefly (tiny sizes, well under 10 s in all) and give sane figures.
#include <gtest/gtest.h>

#include "kernels/cancelflag.h"
#include "kernels/cpuinfo.h"
#include "kernels/gemmbench.h"
#include "kernels/membw.h"
#include "kernels/peakflops.h"
#include "kernels/sizelist.h"

using namespace rl;
using namespace rl::kernels;

TEST(KernelBench, CpuDetection)
{
    const auto cpu = detectCpu();
    EXPECT_GE(cpu.logicalCpus, 1);
    EXPECT_GT(cpu.clockGHz, 0.1);
    EXPECT_FALSE(cpu.clockSource.empty());
    EXPECT_GE(cpu.fmaUnits, 1);
    EXPECT_EQ(vectorBits(VectorIsa::Avx512), 512);
    // 2 cores x 2.5 GHz x 2 FMA x 8 doubles x 2 = 160 GFLOP/s.
    CpuInfo fake;
    fake.isa = VectorIsa::Avx512;
    fake.clockGHz = 2.5;
    fake.fmaUnits = 2;
    EXPECT_DOUBLE_EQ(theoreticalGflops(fake, 2, 8), 160);
    EXPECT_DOUBLE_EQ(theoreticalGflops(fake, 1, 4), 160);
}

TEST(KernelBench, PeakFlopsMeasuresSomethingBelowTheoryTimesMargin)
{
    resetCancel();
    const auto cpu = detectCpu();
    PeakFlopsConfig config;
    config.threads = {1};
    config.secondsPerPoint = 0.1;
    config.repeats = 2;
    std::vector<PeakFlopsPoint> points;
    ASSERT_TRUE(runPeakFlops(config, cpu, [&](const PeakFlopsPoint& p) { points.push_back(p); }));
    ASSERT_EQ(points.size(), 2u);
    for (const auto& p : points) {
        EXPECT_GT(p.gflops, 0) << p.dtype; // no speed floor: sanitizer builds run this unoptimised
        EXPECT_GT(p.theoreticalGflops, 0) << p.dtype;
        // The theory uses the measured clock (boost included): the loop cannot beat it by more
        // than clock drift between the two measurements.
        EXPECT_LT(p.gflops, 1.1 * p.theoreticalGflops) << p.derivation;
        EXPECT_NE(p.clockSource.find("measured"), std::string::npos) << p.clockSource;
        EXPECT_NE(p.derivation.find("GFLOP/s"), std::string::npos);
    }
    EXPECT_EQ(points[0].lanes * 2, points[1].lanes); // float64 then float32
}

TEST(KernelBench, MeasuredClockIsAPlausibleCpuClock)
{
    const double ghz = measureCoreClockGHz(0.01);
#if defined(__x86_64__)
    EXPECT_GT(ghz, 0.5);
    EXPECT_LT(ghz, 7.0);
#else
    EXPECT_EQ(ghz, 0);
#endif
}

TEST(KernelBench, MemBwTinySweep)
{
    resetCancel();
    const auto cpu = detectCpu();
    MemBwConfig config;
    config.minBytes = 4096;
    config.maxBytes = 256 * 1024;
    config.stepsPerOctave = 1;
    config.repeats = 2;
    config.minRepSeconds = 0.0005;
    const auto sizes = sweepSizes(config, cpu);
    ASSERT_EQ(sizes.size(), 7u); // 4K .. 256K in octaves
    EXPECT_GE(sizes.front(), 4096);
    std::vector<MemBwPoint> points;
    ASSERT_TRUE(runMemBw(config, cpu, [&](const MemBwPoint& p) { points.push_back(p); }));
    ASSERT_EQ(points.size(), 7u * 4);
    for (const auto& p : points) {
        EXPECT_GT(p.bandwidthGBs, 0.05) << p.kernel << " " << p.bytes;
        EXPECT_LT(p.bandwidthGBs, 5000) << p.kernel << " " << p.bytes;
        EXPECT_NEAR(p.bytes / (p.bestTimeUs * 1e-6) / 1e9, p.bandwidthGBs, p.bandwidthGBs * 1e-9);
    }
    EXPECT_EQ(points[0].kernel, "copy");
    EXPECT_EQ(points[0].bytes * 3, points[3].bytes * 2); // copy counts 2 arrays, triad 3
}

TEST(KernelBench, CancelStopsBetweenPoints)
{
    const auto cpu = detectCpu();
    MemBwConfig config;
    config.maxBytes = 64 * 1024;
    config.repeats = 1;
    int seen = 0;
    resetCancel();
    const bool done = runMemBw(config, cpu, [&](const MemBwPoint&) {
        if (++seen == 3)
            requestCancel();
    });
    EXPECT_FALSE(done);
    EXPECT_EQ(seen, 3);
    resetCancel();
}

TEST(KernelBench, GemmGoesThroughOpenBlas)
{
#ifndef EIGEN_USE_BLAS
    FAIL() << "ridgeline_analysis users must see EIGEN_USE_BLAS";
#endif
    resetCancel();
    const auto blas = blasLibrary();
    if (blas.empty())
        GTEST_SKIP() << "the linked BLAS is not OpenBLAS";
    EXPECT_NE(blas.find("OpenBLAS"), std::string::npos);
    ASSERT_TRUE(setBlasThreads(1));
    const auto p = measureGemm("float64", {384, 384, 384}, 3, 1.0);
    EXPECT_GT(p.gflops, 0.1);
    EXPECT_EQ(p.solution, "eigen+blas");
}

TEST(KernelBench, GemmSweepReportsIntensityAndEfficiency)
{
    resetCancel();
    GemmConfig config;
    config.shapes = gemmShapes({64, 128}, {96}, {32});
    config.repeats = 3;
    config.budgetSeconds = 0.5;
    config.peakGflopsFp64 = 1000;
    config.peakGflopsFp32 = 2000;
    std::vector<GemmPoint> points;
    ASSERT_TRUE(runGemmSweep(config, [&](const GemmPoint& p) { points.push_back(p); }));
    ASSERT_EQ(points.size(), 4u);
    EXPECT_EQ(points[0].dtype, "float64");
    EXPECT_EQ(points[2].dtype, "float32");
    EXPECT_EQ(points[1].m, 128);
    EXPECT_DOUBLE_EQ(points[0].intensity, 2.0 * 64 * 96 * 32 / ((64.0 * 32 + 32 * 96 + 64 * 96) * 8));
    EXPECT_DOUBLE_EQ(points[2].intensity, points[0].intensity * 2);
    for (const auto& p : points) {
        EXPECT_GT(p.gflops, 0);
        EXPECT_NEAR(p.efficiency, p.gflops / (p.dtype == "float32" ? 2000 : 1000), 1e-12);
        EXPECT_NEAR(2.0 * p.m * p.n * p.k / (p.timeUs * 1e3), p.gflops, p.gflops * 1e-9);
    }
}

TEST(KernelBench, IntLists)
{
    EXPECT_EQ(parseIntList("1024:1280:128"), (std::vector<std::int64_t>{1024, 1152, 1280}));
    EXPECT_EQ(parseIntList("1,2, 4"), (std::vector<std::int64_t>{1, 2, 4}));
    EXPECT_EQ(parseIntList("1:3,8,4K"), (std::vector<std::int64_t>{1, 2, 3, 8, 4096}));
    EXPECT_EQ(parseIntList("1024:8192:64").size(), 113u);
    EXPECT_THROW(parseIntList("8:1"), std::invalid_argument);
    EXPECT_THROW(parseIntList("1,,2"), std::invalid_argument);
    EXPECT_THROW(parseIntList("x"), std::invalid_argument);
    EXPECT_THROW(parseIntList("1:100000000", 1000), std::invalid_argument);
}
