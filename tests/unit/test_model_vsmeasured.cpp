// Predicted versus measured on hand-built inputs with known answers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "importers/importerregistry.h"
#include "model/measuredrun.h"
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

// The sample Megatron log states its run: world size 16 = dp 2 x tp 8, micro-batch 2, global batch
// 128, sequence 4096, and H100 in its file name. The prediction models that run (dp=2,tp=8, 32
// micro-batches per step, an H100 profile), not a default dp=8 / micro-batch 1 / mi300x one.
TEST(VsMeasured, TheSampleMegatronLogSuppliesItsLayoutBatchAndDevice)
{
    const auto r = importFile(std::string(RIDGELINE_TEST_DATA) +
                              "/../../sample_data/megatron-lm_gpt-8b_16xH100_pretrain.log");
    ASSERT_TRUE(r.ok) << r.error;
    ASSERT_EQ(r.sessions.size(), 1u);
    const MeasuredRun run = measuredRunOf(r.sessions[0].session);
    EXPECT_EQ(run.worldSize, 16);
    EXPECT_EQ(run.dp, 2);
    EXPECT_EQ(run.tp, 8);
    EXPECT_EQ(run.pp, 1);
    EXPECT_EQ(run.microBatch, 2);
    EXPECT_EQ(run.globalBatch, 128);
    EXPECT_EQ(run.seqLen, 4096);
    EXPECT_EQ(run.device, "H100");
    EXPECT_EQ(run.deviceFrom, "file name");

    const std::vector<std::string> ids{"a100-80gb", "b200", "h100-sxm", "h200", "mi300x", "mi325x", "mi355x"};
    ParallelConfig base; // what the panel and the CLI start from: dp=8, micro-batch 1
    base.dp = 8;
    const RunInputs in = applyMeasuredRun(run, base, "mi300x", ids);
    EXPECT_EQ(parallelSpec(in.parallel), "dp=2,tp=8");
    EXPECT_EQ(in.parallel.microBatch, 2);
    EXPECT_EQ(in.parallel.effectiveMicroBatches(), 32); // 128 / (2 x 2)
    EXPECT_EQ(in.parallel.tokensPerStep(), 128.0 * 4096);
    EXPECT_EQ(in.parallel.seqLen, 4096);
    EXPECT_EQ(in.hardware, "h100-sxm");
    ASSERT_EQ(in.taken.size(), 5u);
    EXPECT_EQ(in.taken[0], "layout dp=2,tp=8 (Megatron-LM arguments)");
    EXPECT_EQ(in.taken[4], "hardware h100-sxm (H100 from the file name)");
    for (const auto& a : in.assumed)
        EXPECT_EQ(a.find("hardware"), std::string::npos) << a;

    // What the user sets explicitly wins, and is then reported as given.
    const RunInputs given = applyMeasuredRun(run, base, "mi300x", ids, {true, false, false, true});
    EXPECT_EQ(parallelSpec(given.parallel), "dp=8");
    EXPECT_EQ(given.hardware, "");
    EXPECT_NE(std::find(given.assumed.begin(), given.assumed.end(), "hardware mi300x (given)"), given.assumed.end());
}

// A log's TFLOP/s per GPU states its MFU over the device's peak; it is not re-derived from step times.
TEST(VsMeasured, MeasuredTflopsGiveTheMeasuredMfu)
{
    MeasuredStep m;
    m.stepSeconds = 2.0;
    m.tflopsPerGpu = 400;
    // Predicted: 500 TFLOP/s at 50 % MFU, so the peak is 1000 TFLOP/s; the step is 1 s.
    const auto c = comparePrediction(predicted(1.0, 0.8, 0.1, 0.5), m);
    EXPECT_NEAR(c.rows[4].measured, 0.40, 1e-12); // 400 / 1000, not 0.5 x 1 / 2
    EXPECT_NEAR(c.rows[5].measured, 400, 1e-12);
}

TEST(VsMeasured, DeviceFromKernelNamesAndFileNames)
{
    std::string why;
    EXPECT_EQ(deviceFromKernelNames({"ncclDevKernel_AllReduce_Sum_bf16_RING_LL", "sm90_xmma_gemm_bf16bf16_bf16f32"}, &why),
              "H100");
    EXPECT_EQ(why, "sm90_xmma_gemm_bf16bf16_bf16f32");
    EXPECT_EQ(deviceFromKernelNames({"ampere_bf16_s16816gemm_bf16_128x128"}), "A100");
    EXPECT_EQ(deviceFromKernelNames({"void cutlass::Kernel<cutlass_80_tensorop>"}), "NVIDIA");
    EXPECT_EQ(deviceFromKernelNames({"Cijk_Alik_Bljk_BBS_BH_MT256x256x64", "ncclKernel_AllReduce_RING_LL_Sum_bfloat16"}),
              "AMD"); // Tensile first; RCCL keeps NCCL's kernel names
    EXPECT_EQ(deviceFromKernelNames({"elementwise_kernel"}), "");
    const std::vector<std::string> ids{"a100-80gb", "h100-sxm", "mi300x", "mi355x"};
    EXPECT_EQ(matchHardwareProfile("NVIDIA", ids), "h100-sxm");
    EXPECT_EQ(matchHardwareProfile("AMD", ids), "mi300x");
    EXPECT_EQ(matchHardwareProfile("A100", ids), "a100-80gb");
    EXPECT_EQ(matchHardwareProfile("B200", ids), "");
    EXPECT_EQ(deviceInText("rccl-tests_8xMI300X_all_collectives.txt"), "MI300X");
    EXPECT_EQ(deviceInText("megatron-lm_gpt-8b_16xH100_pretrain.log"), "H100");
    EXPECT_EQ(deviceInText("run_h1000.log"), "");
}

// Issue 24 item 1: a recommender trace sized as llama-3-8b gave a "measured" MFU of 103 % (321
// TFLOP/s per GPU on a 312 TFLOP/s A100). Nothing runs above its peak: the rows stay empty and the
// comparison says why, for a derived MFU and for one a log states alike.
TEST(VsMeasured, AnMfuAboveThePeakIsNotShown)
{
    MeasuredStep m;
    m.stepSeconds = 0.0389; // the trace's step
    // Predicted: 124.8 TFLOP/s at 40 % MFU (peak 312), a step of 100 ms: 0.40 x 100 / 38.9 = 103 %.
    auto a100 = predicted(0.100, 0.090, 0.010, 0.40);
    a100.step.modelTflopsPerGpu = 124.8;
    auto c = comparePrediction(a100, m);
    EXPECT_TRUE(std::isnan(c.rows[4].measured)) << c.rows[4].measured;
    EXPECT_TRUE(std::isnan(c.rows[5].measured)) << c.rows[5].measured;
    ASSERT_EQ(c.problems.size(), 1u);
    EXPECT_NE(c.problems[0].find("the measured MFU would be 103 %"), std::string::npos) << c.problems[0];
    EXPECT_NE(c.problems[0].find("(321 TFLOP/s per GPU on a device of 312 TFLOP/s peak)"), std::string::npos)
        << c.problems[0];
    EXPECT_NEAR(c.rows[0].measured, 0.0389, 1e-12) << "the step time is still a measurement";

    MeasuredStep log;
    log.stepSeconds = 0.2;
    log.mfu = 1.2;
    c = comparePrediction(predicted(0.100, 0.090, 0.010, 0.40), log);
    EXPECT_TRUE(std::isnan(c.rows[4].measured));
    EXPECT_EQ(c.problems.size(), 1u);

    log.mfu = 0.35; // a plausible one is shown as before
    c = comparePrediction(predicted(0.100, 0.090, 0.010, 0.40), log);
    EXPECT_NEAR(c.rows[4].measured, 0.35, 1e-12);
    EXPECT_TRUE(c.problems.empty());
}
