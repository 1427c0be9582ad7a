// The runner's repetition policy (IMB-like time budget), its off-cache buffer rotation and the
// statistics of the timed samples, against hand-computed values.
#include <gtest/gtest.h>

#include <vector>

#include "collectives/callstats.h"
#include "collectives/collectivesweep.h"
#include "collectives/timingpolicy.h"

using namespace rl;

TEST(CallStats, OneToTenMatchesNumpy)
{
    // numpy: mean 5.5, median 5.5, percentile(99) 9.91, std(ddof=1) 3.0276503540974917.
    const SampleSummary s = summarizeSamples({10, 9, 8, 7, 6, 5, 4, 3, 2, 1});
    EXPECT_DOUBLE_EQ(s.mean, 5.5);
    EXPECT_DOUBLE_EQ(s.min, 1);
    EXPECT_DOUBLE_EQ(s.max, 10);
    EXPECT_DOUBLE_EQ(s.p50, 5.5);
    EXPECT_NEAR(s.p99, 9.91, 1e-12);
    EXPECT_NEAR(s.cv, 3.0276503540974917 / 5.5, 1e-12);
}

TEST(CallStats, OneSlowCallInAHundredShowsInP99AndCvNotInTheMedian)
{
    std::vector<double> v(99, 1.0);
    v.push_back(101.0);
    const SampleSummary s = summarizeSamples(v);
    EXPECT_DOUBLE_EQ(s.mean, 2.0);  // (99 + 101) / 100
    EXPECT_DOUBLE_EQ(s.p50, 1.0);
    EXPECT_NEAR(s.p99, 2.0, 1e-9);  // position 98.01: 1 + 0.01 x (101 - 1)
    EXPECT_DOUBLE_EQ(s.max, 101.0);
    EXPECT_DOUBLE_EQ(s.cv, 5.0);    // sqrt((99 x 1 + 99^2) / 99) = 10, over the mean 2
}

TEST(CallStats, EmptyAndSingleSamples)
{
    const SampleSummary e = summarizeSamples({});
    EXPECT_EQ(e.mean, 0);
    EXPECT_EQ(e.cv, 0);
    const SampleSummary one = summarizeSamples({3.0});
    EXPECT_EQ(one.p50, 3.0);
    EXPECT_EQ(one.p99, 3.0);
    EXPECT_EQ(one.cv, 0);
}

TEST(TimingPolicy, SmallCallsGetTheMaximumCountInSamplesOfAtLeastOneMicrosecond)
{
    const TimingPolicy p; // 0.2 s per point, 10..1000 calls, warm-up a tenth
    const Repetitions half = chooseRepetitions(p, 0.5, 0.2);
    EXPECT_EQ(half.iters, 1000);
    EXPECT_EQ(half.warmup, 100);
    EXPECT_EQ(half.callsPerSample, 2);
    const Repetitions small = chooseRepetitions(p, 0.3, 0.2);
    EXPECT_EQ(small.callsPerSample, 4); // ceil(1 / 0.3)
    EXPECT_EQ(small.iters % small.callsPerSample, 0);
}

TEST(TimingPolicy, LargeCallsAreCutByTheBudgetButNotBelowTheMinimum)
{
    const TimingPolicy p;
    const Repetitions r = chooseRepetitions(p, 10000.0, 0.2); // 10 ms: 0.2 / (0.01 x 1.1) = 18.2
    EXPECT_EQ(r.iters, 18);
    EXPECT_EQ(r.warmup, 2); // ceil(1.8)
    EXPECT_EQ(r.callsPerSample, 1);
    EXPECT_EQ(chooseRepetitions(p, 100000.0, 0.2).iters, 10); // 1.8 calls fit: the minimum wins
    EXPECT_EQ(chooseRepetitions(p, 100.0, 0.2).iters, 1000);  // 1818 fit: IMB's cap
    EXPECT_EQ(chooseRepetitions(p, 100.0, 0.0).iters, 10);    // budget spent: the minimum
}

TEST(TimingPolicy, FixedCountsOverrideTheBudget)
{
    TimingPolicy p;
    p.iters = 20;
    p.warmup = 5;
    const Repetitions r = chooseRepetitions(p, 0.5, 0.2);
    EXPECT_EQ(r.iters, 20);
    EXPECT_EQ(r.warmup, 5);
    EXPECT_EQ(r.callsPerSample, 2);
    p.iters = 7;
    const Repetitions odd = chooseRepetitions(p, 0.3, 0.2);
    EXPECT_EQ(odd.iters, 7); // kept exactly; the last sample is short
    EXPECT_EQ(odd.callsPerSample, 4);
    p.iters = 1;
    EXPECT_EQ(chooseRepetitions(p, 0.3, 0.2).callsPerSample, 1);
}

TEST(TimingPolicy, PointBudgetSharesWhatIsLeftOfTheOverallBudget)
{
    TimingPolicy p;
    p.totalSeconds = 10;
    EXPECT_DOUBLE_EQ(pointBudgetSeconds(p, 0, 10), 0.2);    // per-point limit
    EXPECT_DOUBLE_EQ(pointBudgetSeconds(p, 9, 10), 0.1);    // 1 s left for 10 points
    EXPECT_DOUBLE_EQ(pointBudgetSeconds(p, 11, 10), 0.0);   // over budget
    p.totalSeconds = 0;
    EXPECT_DOUBLE_EQ(pointBudgetSeconds(p, 1e6, 10), 0.2);  // no overall limit
}

TEST(TimingPolicy, PilotIsAboutTwoMillisecondsOfCallsCappedByAFixedWarmup)
{
    TimingPolicy p;
    EXPECT_EQ(pilotCalls(p, 0.5), 100);  // 4000 fit, capped
    EXPECT_EQ(pilotCalls(p, 100.0), 20);
    EXPECT_EQ(pilotCalls(p, 1e4), 3);    // a slow first call still gets three more
    EXPECT_EQ(pilotCalls(p, 5e4), 1);    // unless it took over 20 ms
    p.warmup = 5;
    EXPECT_EQ(pilotCalls(p, 0.5), 4);    // the first call plus 4 is the whole warm-up
    p.warmup = 1;
    EXPECT_EQ(pilotCalls(p, 0.5), 0);
}

TEST(TimingPolicy, ValidateNamesTheOption)
{
    const auto message = [](TimingPolicy p) {
        try {
            validate(p);
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    TimingPolicy p;
    EXPECT_EQ(message(p), "");
    p.warmup = 0;
    EXPECT_NE(message(p).find("--warmup 0 needs --iters"), std::string::npos);
    p.iters = 3;
    EXPECT_EQ(message(p), "");
    p.iters = 0;
    EXPECT_NE(message(p).find("--iters"), std::string::npos);
    p = {};
    p.maxIters = 5;
    EXPECT_NE(message(p).find("--max-iters (5) is below --min-iters (10)"), std::string::npos);
    p = {};
    p.secondsPerPoint = 0;
    EXPECT_NE(message(p).find("--time-per-size"), std::string::npos);
}

TEST(OffCache, SmallBuffersRotateThroughTheCacheSizeLargeOnesDoNot)
{
    const OffCacheLayout small = offCacheLayout(1000, 64 << 10);
    EXPECT_EQ(small.stride, 4096);
    EXPECT_EQ(small.slotCount, 17); // one, plus 64 KiB of others between two uses
    EXPECT_EQ(small.poolBytes(), 16 * 4096 + 1000);
    const OffCacheLayout odd = offCacheLayout(5000, 64 << 10);
    EXPECT_EQ(odd.stride, 8192);
    EXPECT_EQ(odd.slotCount, 9);
    EXPECT_EQ(offCacheLayout(1 << 20, 64 << 10).slotCount, 1);
    EXPECT_EQ(offCacheLayout(1000, 0).slotCount, 1);
    EXPECT_EQ(offCacheLayout(1000, 0).poolBytes(), 1000);
}

TEST(OffCache, BufferPoolsHoldEveryRotationSlot)
{
    SweepParams p;
    p.ops = {CollectiveOp::AllReduce};
    p.minBytes = 1024;
    p.maxBytes = 1024;
    p.inPlace = InPlaceMode::OutOfPlace;
    const auto plan = planSweep(p, 2);
    EXPECT_EQ(bufferBytes(plan).send, 1024);
    const BufferBytes b = bufferBytes(plan, 64 << 10);
    EXPECT_EQ(b.send, 16 * 4096 + 1024);
    EXPECT_EQ(b.recv, 16 * 4096 + 1024);
}
