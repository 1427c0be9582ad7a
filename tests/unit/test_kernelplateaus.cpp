// Cache-level detection on a synthetic sweep with known plateaus and on a sweep recorded here.
#include <gtest/gtest.h>

#include <cmath>

#include "importers/importerregistry.h"
#include "kernels/cacheplateaus.h"

using namespace rl;
using namespace rl::kernels;

namespace {
// 4 KiB .. 256 MiB, 4 steps per octave; plateaus 200 / 100 / 50 / 15 GB/s with log-linear
// transitions around 48 KiB, 1 MiB and 32 MiB, and +-2 % deterministic ripple.
std::vector<MemBwPoint> synthetic()
{
    std::vector<MemBwPoint> pts;
    const double edges[] = {std::log2(48.0 * 1024), std::log2(1024.0 * 1024), std::log2(32.0 * 1024 * 1024)};
    const double levels[] = {200, 100, 50, 15};
    for (int i = 0; i <= 16 * 4; ++i) {
        const double x = 12 + i / 4.0;
        double y = levels[3];
        for (int l = 0; l < 3; ++l) {
            if (x < edges[l] - 0.25) { y = levels[l]; break; }
            if (x < edges[l] + 0.75) { // one octave of transition
                const double t = (x - (edges[l] - 0.25)) / 1.0;
                y = std::exp(std::log(levels[l]) * (1 - t) + std::log(levels[l + 1]) * t);
                break;
            }
        }
        y *= 1.0 + 0.02 * std::sin(i * 1.7);
        pts.push_back({"triad", static_cast<std::int64_t>(std::exp2(x)), 1, 1.0, y});
    }
    return pts;
}

const std::vector<CacheLevel> kZen5Caches{{1, 48 * 1024, 1}, {2, 1024 * 1024, 1}, {3, 32 * 1024 * 1024, 2}};
} // namespace

TEST(KernelPlateaus, SyntheticFourLevels)
{
    const auto c = detectPlateaus(synthetic(), kZen5Caches);
    ASSERT_EQ(c.size(), 4u);
    const char* names[] = {"L1", "L2", "L3", "DRAM"};
    const double bw[] = {200, 100, 50, 15};
    for (int i = 0; i < 4; ++i) {
        EXPECT_EQ(c[i].level, names[i]);
        EXPECT_NEAR(c[i].bandwidthGBs, bw[i], bw[i] * 0.03) << names[i];
    }
    EXPECT_LE(c[0].toBytes, 48 * 1024);
    EXPECT_GE(c[3].fromBytes, 32 * 1024 * 1024);
}

TEST(KernelPlateaus, SyntheticWithoutHintsNamesInOrder)
{
    const auto c = detectPlateaus(synthetic(), {});
    ASSERT_EQ(c.size(), 4u);
    EXPECT_EQ(c[0].level, "L1");
    EXPECT_EQ(c[3].level, "DRAM");
}

TEST(KernelPlateaus, FlatCurveIsOneLevel)
{
    std::vector<MemBwPoint> pts;
    for (int i = 0; i < 20; ++i)
        pts.push_back({"triad", 4096LL << i, 1, 1.0, 30.0 * (1 + 0.01 * ((i % 3) - 1))});
    const auto c = detectPlateaus(pts, {});
    ASSERT_EQ(c.size(), 1u);
    EXPECT_NEAR(c[0].bandwidthGBs, 30, 0.5);
    EXPECT_TRUE(detectPlateaus({}, {}).empty());
}

TEST(KernelPlateaus, RecordedSweepOnThisMachine)
{
    // Recorded with `ridgeline-bench membw --threads 1,2 --repeats 5` on a 2-vCPU Zen 5 KVM guest
    // while other builds were running (load average ~11): the 1-thread curve is usable.
    const auto r = importFile(std::string(RIDGELINE_TEST_DATA) + "/kernels/membw-zen5-2cpu-kvm.jsonl");
    ASSERT_TRUE(r.ok) << r.error;
    const auto& points = r.sessions.at(0).membw;
    const auto c = detectPlateaus(points, kZen5Caches);
    ASSERT_GE(c.size(), 3u);
    EXPECT_EQ(c.back().level, "DRAM");
    EXPECT_GE(c.back().fromBytes, 32 * 1024 * 1024);
    EXPECT_NEAR(c.back().bandwidthGBs, 13.7, 2.0);
    // Cache plateaus are faster than DRAM, and ordered by size.
    for (std::size_t i = 0; i + 1 < c.size(); ++i) {
        EXPECT_GT(c[i].bandwidthGBs, c.back().bandwidthGBs * 2) << c[i].level;
        EXPECT_LT(c[i].toBytes, c[i + 1].fromBytes);
    }
    // Same result as the run itself stored.
    const auto& stored = r.sessions.at(0).memCeilings;
    std::vector<MemCeiling> stored1;
    for (const auto& s : stored)
        if (s.threads == 1)
            stored1.push_back(s);
    EXPECT_EQ(stored1, c);
}

TEST(KernelPlateaus, SlowTinyWorkingSetsOnSeveralThreadsAreNotALevel)
{
    // The 2-thread curve of the recorded sweep: 4-8 KiB split over two threads is dominated by
    // waking the threads (0.2 GB/s); it is not a cache level slower than the ones beyond it.
    const auto r = importFile(std::string(RIDGELINE_TEST_DATA) + "/kernels/membw-zen5-2cpu-kvm.jsonl");
    ASSERT_TRUE(r.ok) << r.error;
    PlateauOptions two;
    two.threads = 2;
    const auto c = detectPlateaus(r.sessions.at(0).membw, kZen5Caches, two);
    ASSERT_FALSE(c.empty());
    for (std::size_t i = 0; i + 1 < c.size(); ++i)
        EXPECT_GE(c[i].bandwidthGBs, c[i + 1].bandwidthGBs) << c[i].level << " slower than " << c[i + 1].level;
    EXPECT_GT(c.front().bandwidthGBs, 1.0);
}
