// Trace collectives on the measured bandwidth curve: log-log interpolation between benchmark
// sizes, and the handmade trace's all_reduce against a real nccl-tests log.
#include <gtest/gtest.h>

#include <cmath>

#include "importers/importerregistry.h"
#include "trace/tracevsbenchmark.h"

using namespace rl;

namespace {
CollectivePoint point(const char* op, std::int64_t bytes, double busbw, bool inPlace = false)
{
    CollectivePoint p;
    p.op = op;
    p.bytes = bytes;
    p.busbwGBs = busbw;
    p.inPlace = inPlace;
    p.nranks = 8;
    return p;
}
} // namespace

TEST(TraceVsBenchmark, InterpolatesLogLogBetweenMeasuredSizes)
{
    const std::vector<CollectivePoint> bench{point("all_reduce", 1 << 20, 10), point("all_reduce", 1 << 22, 40),
                                             point("all_reduce", 1 << 22, 1000, true), // in-place: ignored
                                             point("all_gather", 1 << 21, 99)};
    EXPECT_DOUBLE_EQ(trace::benchmarkBusbwAt(bench, "all_reduce", 1 << 20), 10);
    // 2 MiB is halfway in log size between 1 and 4 MiB: the geometric mean of 10 and 40.
    EXPECT_NEAR(trace::benchmarkBusbwAt(bench, "all_reduce", 1 << 21), 20, 1e-9);
    EXPECT_TRUE(std::isnan(trace::benchmarkBusbwAt(bench, "all_reduce", 1 << 19))); // below the sweep
    EXPECT_TRUE(std::isnan(trace::benchmarkBusbwAt(bench, "all_reduce", 1 << 23))); // above it
    EXPECT_TRUE(std::isnan(trace::benchmarkBusbwAt(bench, "broadcast", 1 << 21)));
}

TEST(TraceVsBenchmark, HandmadeTraceAllReduceAgainstAnNcclTestsRun)
{
    const auto trace = importFile(std::string(RIDGELINE_TEST_DATA) + "/traces/handmade_two_steps.json");
    ASSERT_TRUE(trace.ok) << trace.error;
    const auto bench = importFile(std::string(RIDGELINE_TEST_DATA) + "/collectives/nccl_2.13_allreduce_8xh100.txt");
    ASSERT_TRUE(bench.ok) << bench.error;
    const auto rows = trace::compareWithBenchmark(trace.sessions[0].traceCollectives, bench.sessions[0].collectives);
    ASSERT_EQ(rows.size(), 1u);
    const auto& r = rows[0];
    EXPECT_EQ(r.call.bytes, 2097152);
    // The benchmark measured 2 MiB exactly: its out-of-place busbw is the reference.
    double expected = 0;
    for (const auto& p : bench.sessions[0].collectives)
        if (p.bytes == 2097152 && !p.inPlace)
            expected = p.busbwGBs;
    ASSERT_GT(expected, 0);
    EXPECT_DOUBLE_EQ(r.benchmarkBusbwGBs, expected);
    EXPECT_NEAR(r.meanEfficiency(), r.call.busbwGBs / expected, 1e-12);
    EXPECT_LT(r.meanEfficiency(), 1.0);
}
