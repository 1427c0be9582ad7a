#include <gtest/gtest.h>

#include <cmath>

#include "collectives/collectiveop.h"
#include "units/units.h"
#include "units/memory.h"

using namespace rl;

TEST(Units, FormatsBinarySizesLikeNcclTests)
{
    EXPECT_EQ(units::formatBytes(8), "8 B");
    EXPECT_EQ(units::formatBytes(1024), "1 KiB");
    EXPECT_EQ(units::formatBytes(1536), "1.50 KiB");
    EXPECT_EQ(units::formatBytes(16.0 * (1ull << 30)), "16 GiB");
}

TEST(Units, ParsesSizeArgumentsAsBinary)
{
    EXPECT_EQ(units::parseBytes("8"), 8);
    EXPECT_EQ(units::parseBytes("256M"), 256ll << 20);
    EXPECT_EQ(units::parseBytes("1G"), 1ll << 30);
    EXPECT_EQ(units::parseBytes("64KiB"), 64ll << 10);
    EXPECT_EQ(units::parseBytes("4 KB"), 4096);
    EXPECT_FALSE(units::parseBytes("12X"));
    EXPECT_FALSE(units::parseBytes(""));
    EXPECT_FALSE(units::parseBytes("-5"));
    EXPECT_FALSE(units::parseBytes("1e30"));
}

TEST(Units, StrictNumberParsing)
{
    EXPECT_DOUBLE_EQ(*units::parseDouble("1e+06"), 1e6);
    EXPECT_DOUBLE_EQ(*units::parseDouble(" 3.5 "), 3.5);
    EXPECT_FALSE(units::parseDouble("3.5x"));
    EXPECT_FALSE(units::parseInt("12.5"));
    EXPECT_EQ(units::wholeNumber(1e6), 1000000);
    EXPECT_EQ(units::wholeNumber(-3.0), -3);
    EXPECT_FALSE(units::wholeNumber(2.5));
    EXPECT_FALSE(units::wholeNumber(7.77778e+80)); // an int64 cast of this is undefined behaviour
    EXPECT_FALSE(units::wholeNumber(std::nan("")));
    EXPECT_FALSE(units::wholeNumber(INFINITY));
    EXPECT_EQ(units::parseInt("+42"), 42);
}

TEST(Units, FormatsTimeAndRates)
{
    EXPECT_EQ(units::formatTime(0.85), "850 ns");
    EXPECT_EQ(units::formatTime(12.3), "12.3 µs");
    EXPECT_EQ(units::formatTime(4560), "4.56 ms");
    EXPECT_EQ(units::formatFlops(989e12), "989 TFLOP/s");
    EXPECT_EQ(units::formatFlop(26.6e9), "26.6 GFLOP"); // a count: no "/s"
    EXPECT_EQ(units::formatFlop(1.2e15), "1.20 PFLOP");
    EXPECT_EQ(units::formatBandwidth(123.4), "123 GB/s");
}

TEST(CollectiveOp, BusFactorsFollowNcclTestsPerformanceMd)
{
    EXPECT_DOUBLE_EQ(busFactor(CollectiveOp::AllReduce, 8), 2.0 * 7 / 8);
    EXPECT_DOUBLE_EQ(busFactor(CollectiveOp::ReduceScatter, 8), 7.0 / 8);
    EXPECT_DOUBLE_EQ(busFactor(CollectiveOp::AllGather, 4), 3.0 / 4);
    EXPECT_DOUBLE_EQ(busFactor(CollectiveOp::AllToAll, 2), 0.5);
    EXPECT_DOUBLE_EQ(busFactor(CollectiveOp::Broadcast, 16), 1.0);
}

TEST(CollectiveOp, NamesFromEveryTool)
{
    for (const char* n : {"all_reduce", "allreduce", "all_reduce_perf", "AllReduce", "osu_allreduce", "Allreduce"})
        EXPECT_EQ(collectiveOpFromString(n), CollectiveOp::AllReduce) << n;
    EXPECT_EQ(collectiveOpFromString("Reduce_scatter"), CollectiveOp::ReduceScatter);
    EXPECT_EQ(collectiveOpFromString("alltoall_perf"), CollectiveOp::AllToAll);
    EXPECT_EQ(collectiveOpFromString("Bcast"), CollectiveOp::Broadcast);
    EXPECT_FALSE(collectiveOpFromString("gemm"));
    EXPECT_EQ(canonicalDtype("float"), "float32");
    EXPECT_EQ(canonicalDtype("bf16"), "bfloat16");
    EXPECT_EQ(dtypeSize("double"), 8);
}

// Memory per GPU is compared with HBM capacities as devices report them, in binary units
// (nvidia-smi: 81,559 MiB on an "80GB" H100; an MI300X's "192 GB" is 192 GiB), so it is printed
// in GiB: never "80 GB" for a device that holds 79.6 GiB.
TEST(Units, FormatsDeviceMemoryInGiB)
{
    EXPECT_EQ(units::formatMemory(192.0 * (1ull << 30)), "192 GiB");
    EXPECT_EQ(units::formatMemory(206.2 * (1ull << 30)), "206.2 GiB");
    EXPECT_EQ(units::formatMemory(81559.0 * (1 << 20)), "79.6 GiB");
    EXPECT_EQ(units::formatMemory(850.0 * (1 << 20)), "850 MiB");
}

// GiB/s is the same rate over 2^30 instead of 1e9 bytes; the display unit changes what
// formatBandwidth(x) says, the explicit form does not depend on it.
TEST(Units, BandwidthInTheChosenDisplayUnit)
{
    EXPECT_EQ(units::formatBandwidth(1.073741824, units::BandwidthUnit::GiBps), "1 GiB/s");
    EXPECT_EQ(units::formatBandwidth(450, units::BandwidthUnit::GiBps), "419 GiB/s");
    EXPECT_EQ(units::formatBandwidth(450, units::BandwidthUnit::GBps), "450 GB/s");
    EXPECT_EQ(units::displayBandwidthUnit(), units::BandwidthUnit::GBps) << "GB/s unless chosen";
    units::setDisplayBandwidthUnit(units::BandwidthUnit::GiBps);
    EXPECT_EQ(units::formatBandwidth(450), "419 GiB/s");
    EXPECT_EQ(units::formatBandwidth(450, units::BandwidthUnit::GBps), "450 GB/s");
    units::setDisplayBandwidthUnit(units::BandwidthUnit::GBps);
    EXPECT_EQ(units::formatBandwidth(450), "450 GB/s");
}

// A chart plots displayBandwidth() under bandwidthTitle(): both follow the display unit together.
TEST(Units, PlottedBandwidthAndItsTitleFollowTheDisplayUnit)
{
    EXPECT_DOUBLE_EQ(units::displayBandwidth(450), 450);
    EXPECT_EQ(units::bandwidthTitle("Bus bandwidth"), "Bus bandwidth (GB/s)");
    units::setDisplayBandwidthUnit(units::BandwidthUnit::GiBps);
    EXPECT_DOUBLE_EQ(units::displayBandwidth(450), 450e9 / 1073741824.0);
    EXPECT_EQ(units::bandwidthTitle("Bus bandwidth"), "Bus bandwidth (GiB/s)");
    units::setDisplayBandwidthUnit(units::BandwidthUnit::GBps);
}

TEST(Units, PercentWithFixedDecimalsAndSign)
{
    EXPECT_EQ(units::formatPercent(0.0492, 1), "4.9 %");
    EXPECT_EQ(units::formatPercent(0.97531, 2), "97.53 %");
    EXPECT_EQ(units::formatPercent(-0.139, 1, true), "-13.9 %");
    EXPECT_EQ(units::formatPercent(0.044, 1, true), "+4.4 %");
    EXPECT_EQ(units::formatPercent(0.5, 0), "50 %");
    EXPECT_EQ(units::formatPercent(std::nan(""), 1), "n/a");
}
