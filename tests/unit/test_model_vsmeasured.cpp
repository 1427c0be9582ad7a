// Predicted versus measured on hand-built inputs with known answers.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "model/predictedvsmeasured.h"

using namespace rl;
using namespace rl::model;

namespace {
StepBreakdown step(int rank, std::int64_t n, double stepMs, double computeMs, double exposedMs, double idleMs)
{
    StepBreakdown s;
    s.rank = rank;
    s.step = n;
    s.stepUs = stepMs * 1e3;
    s.computeBusyUs = computeMs * 1e3;
    s.exposedCommUs = exposedMs * 1e3;
    s.idleUs = idleMs * 1e3;
    return s;
}

SizingReport predicted(double stepS, double computeS, double exposedS, double mfu)
{
    SizingReport r;
    r.step.stepSeconds = stepS;
    r.step.computeSeconds = computeS;
    r.step.exposedCommSeconds = exposedS;
    r.step.mfu = mfu;
    r.step.modelTflopsPerGpu = 500;
    return r;
}
} // namespace

TEST(VsMeasured, TraceTakesTheSlowestRankPerStepThenTheMedianStep)
{
    // Step 1: rank 1 is the straggler (120 ms); steps 2 and 3 are 100 and 110 ms on their slowest ranks.
    const std::vector<StepBreakdown> steps{step(0, 1, 90, 80, 5, 5),   step(1, 1, 120, 80, 30, 10),
                                           step(0, 2, 100, 85, 10, 5), step(1, 2, 95, 85, 5, 5),
                                           step(0, 3, 105, 90, 10, 5), step(1, 3, 110, 90, 15, 5)};
    const auto m = measuredFromTrace(steps);
    EXPECT_DOUBLE_EQ(m.stepSeconds, 0.110);      // median of 120, 100, 110
    EXPECT_DOUBLE_EQ(m.computeSeconds, 0.085);   // of 80, 85, 90
    EXPECT_DOUBLE_EQ(m.exposedCommSeconds, 0.015); // of 30, 10, 15
    EXPECT_TRUE(std::isnan(m.mfu));
    EXPECT_NE(m.source.find("3 step(s)"), std::string::npos);
    EXPECT_NE(m.source.find("2 rank(s)"), std::string::npos);
    EXPECT_THROW(measuredFromTrace({}), std::invalid_argument);
}

TEST(VsMeasured, LogUsesMedianStepAndSkipsRedoneSteps)
{
    std::vector<TrainStep> steps(5);
    const double ms[] = {1000, 1100, 900, 5000, 1050};
    for (int i = 0; i < 5; ++i) {
        steps[static_cast<size_t>(i)].step = i + 1;
        steps[static_cast<size_t>(i)].stepTimeMs = ms[i];
        steps[static_cast<size_t>(i)].mfu = 0.40;
    }
    steps[3].redone = true; // the 5 s step was lost to a restart
    const auto m = measuredFromTrainLog(steps);
    EXPECT_DOUBLE_EQ(m.stepSeconds, 1.025); // median of 1.0, 1.1, 0.9, 1.05
    EXPECT_DOUBLE_EQ(m.mfu, 0.40);
    EXPECT_THROW(measuredFromTrainLog({}), std::invalid_argument);
}

TEST(VsMeasured, GapsAreOrderedAndMfuFollowsTheMeasuredStep)
{
    MeasuredStep m;
    m.stepSeconds = 0.150;
    m.computeSeconds = 0.100;
    m.exposedCommSeconds = 0.040;
    m.idleSeconds = 0.015;
    const auto c = comparePrediction(predicted(0.100, 0.090, 0.010, 0.45), m);
    ASSERT_EQ(c.rows.size(), 6u);
    EXPECT_EQ(c.rows[0].quantity, "step time");
    EXPECT_NEAR(c.rows[0].gap(), 0.050, 1e-12);
    // 0.45 x 100 ms / 150 ms
    EXPECT_NEAR(c.rows[4].measured, 0.30, 1e-12);
    EXPECT_NEAR(c.rows[5].measured, 500 * 100.0 / 150.0, 1e-9);
    ASSERT_EQ(c.largestGaps.size(), 3u);
    EXPECT_EQ(c.largestGaps[0].rfind("exposed communication: measured 40", 0), 0u) << c.largestGaps[0];
    EXPECT_EQ(c.largestGaps[1].rfind("idle and bubble", 0), 0u) << c.largestGaps[1];
    EXPECT_EQ(c.largestGaps[2].rfind("compute", 0), 0u) << c.largestGaps[2];
}

TEST(VsMeasured, SessionKindPicksTheRecordsAndOtherKindsAreRefused)
{
    const std::vector<StepBreakdown> trace{step(0, 1, 100, 60, 30, 10), step(1, 1, 120, 70, 40, 10)};
    TrainStep logged;
    logged.step = 10;
    logged.stepTimeMs = 500;
    const std::vector<TrainStep> log{logged};
    Session s;
    s.id = 7;
    s.kind = kind::Trace;
    EXPECT_DOUBLE_EQ(measuredFromSession(s, trace, log).stepSeconds, 0.120); // the slowest rank
    s.kind = kind::TrainingLog;
    EXPECT_DOUBLE_EQ(measuredFromSession(s, trace, log).stepSeconds, 0.500);
    s.kind = kind::Collectives;
    try {
        measuredFromSession(s, trace, log);
        FAIL() << "a collective session has no step to compare";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("needs a trace or a training log"), std::string::npos) << e.what();
    }
}

TEST(VsMeasured, ParallelLayoutKeepsTheBaseAndChecksTheModel)
{
    ModelConfig dense;
    dense.layers = 32;
    ParallelConfig base;
    base.microBatch = 4;
    base.zeroStage = 1;
    const auto p = parallelLayout(dense, "dp=16,tp=2", base);
    EXPECT_EQ(p.dp, 16);
    EXPECT_EQ(p.tp, 2);
    EXPECT_EQ(p.microBatch, 4);
    EXPECT_EQ(p.zeroStage, 1);
    EXPECT_THROW(parallelLayout(dense, "dp=8,pp=40", base), std::invalid_argument); // 32 layers, 40 stages
    EXPECT_NO_THROW(parallelLayout(dense, "dp=8,pp=3", base)); // uneven: the busiest stage holds 11
    EXPECT_THROW(parallelLayout(dense, "dp=x", base), std::invalid_argument);
}
