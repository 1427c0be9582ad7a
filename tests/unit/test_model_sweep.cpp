// The MoE sweep: exact Pareto front on a hand-checked set, held quantities, cancel, CSV.
#include <gtest/gtest.h>

#include "model/moesweep.h"

using namespace rl::model;

namespace {
DeviceRates testRates()
{
    rl::HardwareProfile hw;
    hw.id = "test-mi300x";
    hw.peakTflops["bf16"] = {1307.4, "AMD CDNA3 white paper"};
    hw.hbmBandwidthGBs = {5300, "AMD"};
    hw.hbmCapacityGB = {192, "AMD"};
    hw.computeUnits = {304, "AMD"};
    hw.intraNodeLinkGBs = {448, "xGMI"};
    hw.nicGBsPerGpu = {50, "NIC"};
    return deviceRates(hw, "bf16");
}

MoeSweepRow row(double thr, double lat)
{
    MoeSweepRow r;
    r.tokensPerSecond = thr;
    r.decodeSecondsPerToken = lat;
    return r;
}
} // namespace

TEST(MoeSweep, ParetoFrontHandChecked)
{
    std::vector<MoeSweepRow> rows{row(10, 5), row(8, 3), row(8, 4), row(5, 3), row(10, 6),
                                  row(2, 1),  row(10, 5), row(1, 2)};
    markParetoFront(rows);
    const bool expected[] = {true, true, false, false, false, true, true, false};
    for (std::size_t i = 0; i < rows.size(); ++i)
        EXPECT_EQ(rows[i].pareto, expected[i]) << "row " << i;
}

TEST(MoeSweep, HoldsActiveParamsAndMarksAFront)
{
    MoeSweepSpec spec;
    spec.base = loadPreset("olmoe-1b-7b");
    spec.experts = {8, 16, 32, 64, 128};
    spec.topK = {1, 2, 4, 8};
    spec.sharedExperts = {0, 1};
    spec.parallel.dp = 8;
    spec.parallel.ep = 8;
    spec.parallel.seqLen = 4096;
    const auto rates = testRates();
    ProfileCollectiveTime coll(rates);
    const auto res = runMoeSweep(spec, rates, coll);
    ASSERT_EQ(res.rows.size(), 5u * 4 * 2);
    const double baseActive = countParams(spec.base).active();
    int front = 0;
    for (const auto& r : res.rows) {
        EXPECT_NEAR(r.activeParams / baseActive, 1.0, 0.03) << r.experts << "x" << r.topK << "+" << r.sharedExperts;
        EXPECT_EQ(r.expertWidth % 64, 0);
        EXPECT_GT(r.tokensPerSecond, 0);
        EXPECT_GT(r.decodeSecondsPerToken, 0);
        front += r.pareto ? 1 : 0;
        if (!r.pareto)
            continue;
        for (const auto& o : res.rows) // nothing on the front is dominated
            EXPECT_FALSE(o.tokensPerSecond >= r.tokensPerSecond && o.decodeSecondsPerToken <= r.decodeSecondsPerToken
                             && (o.tokensPerSecond > r.tokensPerSecond
                                 || o.decodeSecondsPerToken < r.decodeSecondsPerToken));
    }
    EXPECT_GE(front, 1);
    // More experts at constant active parameters: more total parameters.
    EXPECT_GT(res.rows.back().totalParams, res.rows.front().totalParams);
}

TEST(MoeSweep, HoldsTotalParamsAndFlops)
{
    MoeSweepSpec spec;
    spec.base = loadPreset("mixtral-8x7b");
    spec.experts = {8, 16, 64};
    spec.topK = {1, 2};
    spec.sharedExperts = {0};
    const auto rates = testRates();
    ProfileCollectiveTime coll(rates);
    spec.hold = SweepHold::TotalParams;
    const double baseTotal = countParams(spec.base).total();
    for (const auto& r : runMoeSweep(spec, rates, coll).rows)
        EXPECT_NEAR(r.totalParams / baseTotal, 1.0, 0.01);
    spec.hold = SweepHold::FlopsPerToken;
    const double baseFlops = forwardFlopsPerToken(spec.base, {4096, true}).forward();
    for (const auto& r : runMoeSweep(spec, rates, coll).rows)
        EXPECT_NEAR(r.flopsPerToken / baseFlops, 1.0, 0.01);
}

TEST(MoeSweep, CancelsFromTheProgressCallback)
{
    MoeSweepSpec spec;
    spec.base = loadPreset("olmoe-1b-7b");
    spec.experts.clear();
    for (int e = 8; e <= 256; ++e)
        spec.experts.push_back(e);
    spec.topK = {1, 2, 3, 4, 5, 6, 7, 8};
    spec.sharedExperts = {0, 1, 2};
    const auto rates = testRates();
    ProfileCollectiveTime coll(rates);
    std::size_t calls = 0;
    const auto res = runMoeSweep(spec, rates, coll, [&calls](std::size_t done, std::size_t total) {
        ++calls;
        EXPECT_EQ(total, 249u * 8 * 3);
        return done < 4096;
    });
    EXPECT_TRUE(res.cancelled);
    EXPECT_EQ(calls, 1u);
    EXPECT_LT(res.rows.size(), 4096u);
}

TEST(MoeSweep, CsvHasHeaderAndOneLinePerRow)
{
    MoeSweepResult r;
    r.rows = {row(10, 0.002), row(5, 0.001)};
    r.rows[0].experts = 64;
    markParetoFront(r.rows);
    const auto csv = toCsv(r);
    EXPECT_TRUE(csv.starts_with("\"experts\",\"top_k\""));
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 3);
    EXPECT_NE(csv.find("\"64\""), std::string::npos);
    EXPECT_NE(csv.find("\"2\",\"yes\""), std::string::npos); // 2 ms per token, on the front
}

TEST(MoeSweep, RejectsADenseBase)
{
    MoeSweepSpec spec;
    spec.base = loadPreset("llama-3-8b");
    const auto rates = testRates();
    ProfileCollectiveTime coll(rates);
    EXPECT_THROW(runMoeSweep(spec, rates, coll), std::invalid_argument);
}

// A configuration that needs more memory per GPU than the device has cannot be run as swept: it is
// marked and kept off the Pareto front, so a point that fits takes its place there.
TEST(MoeSweep, RowsThatDoNotFitTheDeviceAreOffTheFront)
{
    std::vector<MoeSweepRow> rows{row(10, 1), row(8, 2), row(5, 3)};
    rows[0].fits = false; // fastest and lowest latency, but out of memory: dominates everything
    markParetoFront(rows);
    EXPECT_FALSE(rows[0].pareto);
    EXPECT_TRUE(rows[1].pareto);
    EXPECT_FALSE(rows[2].pareto);

    MoeSweepSpec spec;
    spec.base = loadPreset("mixtral-8x7b");
    spec.experts = {8, 64, 256};
    spec.topK = {1, 2, 8};
    spec.sharedExperts = {0};
    spec.hold = SweepHold::TotalParams;
    spec.parallel.dp = 8;
    spec.parallel.ep = 8;
    spec.parallel.zeroStage = 1;
    const auto rates = testRates();
    ProfileCollectiveTime coll(rates);
    const auto res = runMoeSweep(spec, rates, coll);
    EXPECT_DOUBLE_EQ(res.deviceMemoryBytes, 192e9);
    int fit = 0, over = 0;
    for (const auto& r : res.rows) {
        EXPECT_EQ(r.fits, r.memoryPerGpuBytes <= (192e9 - kFrameworkContextBytes) / (1 + kAllocatorSlack)) << r.experts << "x" << r.topK;
        if (!r.fits) {
            EXPECT_FALSE(r.pareto) << r.experts << "x" << r.topK;
        }
        (r.fits ? fit : over) += 1;
    }
    EXPECT_GT(over, 0) << "mixtral's 47 B parameters on 8 GPUs need more than 192 GiB with ZeRO 1";
}

TEST(MoeSweep, NamesWhatDoesNotFitInTheDevicesUnit)
{
    const double gib = 1ull << 30;
    // (192 - 0.75 GiB of context) / 1.05 of allocator slack = 182.14 GiB usable.
    EXPECT_EQ(memoryFitProblem(206.2 * gib, 192 * gib),
              "does not fit: 206.2 GiB needed, 182.1 GiB usable of 192 GiB (9.9 GiB kept for the framework)");
    EXPECT_EQ(memoryFitProblem(182.2 * gib, 192 * gib),
              "does not fit: 182.2 GiB needed, 182.1 GiB usable of 192 GiB (9.9 GiB kept for the framework)");
    EXPECT_EQ(memoryFitProblem(182.1 * gib, 192 * gib), "");
    EXPECT_EQ(memoryFitProblem(300e9, 0), ""); // capacity unknown: nothing to say
}
