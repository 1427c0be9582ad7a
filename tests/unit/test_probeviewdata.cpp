// What the probe's sessions show, from its real H200 run (tests/data/probe/h200): the attention
// chart's curves per backend, pass, mask and head dim from the records kept in the session's
// params, the default filter, a hardware profile's published references, hover text and CSV; and
// a step session's timed steps and summary.
#include <gtest/gtest.h>

#include <set>

#include "model/hardwareprofileloader.h"
#include "probefixtures.h"
#include "views/attentionchartdata.h"
#include "views/stepsessiondata.h"

using namespace rl;
using namespace rl::charts;

namespace {
KernelSession h200Attention(std::int64_t id = 1)
{
    KernelSession k;
    k.session = rl::test::h200ProbeSession("attention.jsonl");
    k.session.id = id;
    return k;
}

const AttentionCurve* curveNamed(const AttentionGeometry& g, const std::string& name)
{
    for (const auto& c : g.curves)
        if (c.name == name)
            return &c;
    return nullptr;
}
} // namespace

TEST(AttentionChartData, EveryKeptRecordIsAPoint)
{
    const auto points = attentionPoints(h200Attention().session);
    EXPECT_EQ(points.size(), 160u);
    std::set<std::string> backends;
    for (const auto& p : points)
        backends.insert(p.backend);
    EXPECT_EQ(backends, (std::set<std::string>{"flash", "cudnn", "efficient", "math"}));
}

TEST(AttentionChartData, AllPointsUnfilteredAre32CurvesOfFiveSequenceLengths)
{
    KernelChartData data{{h200Attention()}};
    const auto g = attentionGeometry(data, {});
    EXPECT_EQ(g.measuredCurves, 32); // 4 backends x 2 passes x 2 masks x 2 head dims
    EXPECT_EQ(g.curves.size(), 32u);
    EXPECT_EQ(g.allMeasuredPoints, 160);
    for (const auto& c : g.curves)
        EXPECT_EQ(c.points.size(), 5u) << c.name;
    EXPECT_EQ(g.seqMin, 512);
    EXPECT_EQ(g.seqMax, 8192);
    EXPECT_EQ(g.curves.front().name, "flash forward, d=64") << "backend, pass, no mask first, head dim";
}

TEST(AttentionChartData, TheDefaultIsHeadDim128ForwardWithoutTheMask)
{
    KernelChartData data{{h200Attention()}};
    const auto choices = attentionChoices(data);
    EXPECT_EQ(choices.headDims, (std::vector<int>{64, 128}));
    EXPECT_EQ(choices.passes, (std::vector<std::string>{"forward", "backward"}));
    EXPECT_TRUE(choices.causal && choices.nonCausal);
    AttentionChartOptions o;
    o.filter = defaultAttentionFilter(choices);
    EXPECT_EQ(o.filter.headDim, 128);
    EXPECT_EQ(o.filter.pass, "forward");
    ASSERT_TRUE(o.filter.causal.has_value());
    EXPECT_FALSE(*o.filter.causal);

    const auto g = attentionGeometry(data, o);
    ASSERT_EQ(g.curves.size(), 4u);
    EXPECT_EQ(g.curves[0].name, "flash forward, d=128");
    EXPECT_EQ(g.curves[1].name, "cudnn forward, d=128");
    EXPECT_EQ(g.curves[2].name, "efficient forward, d=128");
    EXPECT_EQ(g.curves[3].name, "math forward, d=128");
    const auto& cudnn = g.curves[1];
    ASSERT_EQ(cudnn.points.size(), 5u);
    EXPECT_EQ(cudnn.points[3].seq, 4096);
    EXPECT_NEAR(cudnn.points[3].tflops, 655.0, 0.5); // the H200's measured cuDNN forward at 4k
    EXPECT_NEAR(g.tflopsMax, 677.9, 0.5);
    EXPECT_FALSE(g.referenceNote.empty()) << "without a profile, the chart says how to get references";
}

TEST(AttentionChartData, TheFilterPicksPassMaskAndHeadDim)
{
    KernelChartData data{{h200Attention()}};
    AttentionChartOptions o;
    o.filter.pass = "backward";
    o.filter.causal = true;
    o.filter.headDim = 64;
    const auto g = attentionGeometry(data, o);
    ASSERT_EQ(g.curves.size(), 4u);
    for (const auto& c : g.curves) {
        EXPECT_EQ(c.pass, "backward");
        EXPECT_TRUE(c.causal);
        EXPECT_EQ(c.headDim, 64);
    }
    EXPECT_TRUE(curveNamed(g, "cudnn backward causal, d=64"));
    o.filter.causal.reset();
    EXPECT_EQ(attentionGeometry(data, o).curves.size(), 8u);
}

TEST(AttentionChartData, AProfilesPublishedRatesAreDashedReferences)
{
    KernelChartData data{{h200Attention()}};
    AttentionChartOptions o;
    o.filter = defaultAttentionFilter(attentionChoices(data));
    o.hardware = findHardwareProfile("h100-sxm");
    const auto g = attentionGeometry(data, o);
    EXPECT_EQ(g.measuredCurves, 4);
    ASSERT_GT(g.curves.size(), 4u);
    const auto* fa3 = curveNamed(g, "fa3 forward, d=128 (h100-sxm, published)");
    ASSERT_TRUE(fa3);
    EXPECT_TRUE(fa3->reference);
    EXPECT_EQ(fa3->sessionId, 0);
    EXPECT_NE(fa3->source.find("FlashAttention-3"), std::string::npos);
    const auto* cudnn = curveNamed(g, "cudnn forward, d=128 (h100-sxm, published)");
    ASSERT_TRUE(cudnn);
    EXPECT_EQ(cudnn->points.front().seq, 512);
    EXPECT_DOUBLE_EQ(cudnn->points.front().tflops, 497); // the paper's H100 bar
    EXPECT_EQ(g.seqMax, 16384) << "the published rates reach further than the run";
    EXPECT_TRUE(g.referenceNote.empty());
    for (std::size_t i = g.measuredCurves; i < g.curves.size(); ++i)
        EXPECT_FALSE(g.curves[i].causal) << g.curves[i].name;

    o.filter.pass = "backward";
    o.filter.causal = true; // the profile has no causal backward
    const auto none = attentionGeometry(data, o);
    EXPECT_EQ(none.curves.size(), std::size_t(none.measuredCurves));
    EXPECT_NE(none.referenceNote.find("h100-sxm"), std::string::npos) << none.referenceNote;
}

TEST(AttentionChartData, HoverNamesBackendPassSeqAndRate)
{
    KernelChartData data{{h200Attention()}};
    AttentionChartOptions o;
    o.filter = defaultAttentionFilter(attentionChoices(data));
    const auto g = attentionGeometry(data, o);
    const std::string text = describeAttentionPoint(g.curves[1], 3);
    EXPECT_NE(text.find("cudnn forward, d=128"), std::string::npos) << text;
    EXPECT_NE(text.find("seq 4096 tokens: 655 TFLOP/s"), std::string::npos) << text;
    EXPECT_NE(text.find("per call"), std::string::npos) << text;
}

TEST(AttentionChartData, SeveralSessionsNameTheirCurvesAndOthersAddNothing)
{
    KernelSession gemm;
    gemm.session.id = 7;
    gemm.session.kind = kind::Gemm;
    auto second = h200Attention(2);
    second.session.title = "second run";
    KernelChartData data{{h200Attention(), gemm, second}};
    AttentionChartOptions o;
    o.filter = defaultAttentionFilter(attentionChoices(data));
    const auto g = attentionGeometry(data, o);
    ASSERT_EQ(g.curves.size(), 8u);
    EXPECT_EQ(g.curves[0].name, "PyTorch attention on NVIDIA H200: flash forward, d=128");
    EXPECT_EQ(g.curves[4].sessionId, 2);
    EXPECT_EQ(g.curves[4].name, "second run: flash forward, d=128");
}

TEST(AttentionChartData, MalformedRecordsAreLeftOut)
{
    Session s;
    s.params["attention"] = nlohmann::json::array(
        {{{"backend", "flash"}, {"pass", "forward"}, {"causal", false}, {"head_dim", 64}, {"seq", 512}, {"tflops", 10.0}},
         {{"backend", "flash"}, {"pass", "forward"}, {"head_dim", 64}, {"seq", "512"}, {"tflops", 10.0}},
         {{"backend", "flash"}, {"pass", "forward"}, {"head_dim", 64}, {"seq", 1024}, {"tflops", 0.0}},
         "not an object"});
    EXPECT_EQ(attentionPoints(s).size(), 1u);
    s.params["attention"] = "not a list";
    EXPECT_TRUE(attentionPoints(s).empty());
}

TEST(AttentionChartData, CsvHasARowPerDrawnPoint)
{
    KernelChartData data{{h200Attention()}};
    AttentionChartOptions o;
    o.filter = defaultAttentionFilter(attentionChoices(data));
    const std::string csv = attentionCsv(data, o);
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 4 * 5);
    EXPECT_EQ(csv.rfind("session_id,reference,backend,pass,causal,head_dim,seq,tflops", 0), 0u) << csv;
    EXPECT_NE(csv.find("1,0,cudnn,forward,0,128,4096,655."), std::string::npos) << csv;
}

TEST(StepSessionData, TimedStepsAndTheSummaryOfTheH200Step)
{
    const Session s = rl::test::h200ProbeSession("step.jsonl");
    const auto steps = timedSteps(s);
    ASSERT_EQ(steps.size(), 8u);
    EXPECT_EQ(steps[3].step, 3);
    EXPECT_NEAR(steps[3].timeMs, 166.94, 0.01);
    EXPECT_NEAR(steps[0].tokensPerS, 52013.7, 0.1);
    EXPECT_NEAR(steps[0].tflops, 457.2, 0.1);
    const std::string summary = describeStepSummary(s);
    EXPECT_NE(summary.find("8 timed steps, median 157.93 ms (155.56 to 166.94 ms)"), std::string::npos) << summary;
    EXPECT_NE(summary.find("8192 tokens per step, 51873 tokens/s"), std::string::npos) << summary;
    EXPECT_NE(summary.find("1.92 B parameters, 72.0 TFLOP per step (model FLOPs): 456 TFLOP/s"), std::string::npos) << summary;
    EXPECT_NE(summary.find("4302 ops"), std::string::npos) << summary;
    EXPECT_FALSE(stepTraceSession(s)) << "an imported file names no trace session";
}

// The step measured with its memory counters (probe_memory_gpu.sh): the summary says what the GPU held.
TEST(StepSessionData, TheH200StepsMemoryIsInItsSummary)
{
    const Session s = rl::test::h200ProbeSession("step-memory-b2-s4096.jsonl");
    const std::string summary = describeStepSummary(s);
    EXPECT_NE(summary.find("memory: peak 45.3 GiB allocated, 46.8 GiB reserved by the allocator, 21.6 GiB between steps, "
                           "767 MiB outside the allocator"), std::string::npos) << summary;
    EXPECT_EQ(describeStepSummary(rl::test::h200ProbeSession("step.jsonl")).find("memory:"), std::string::npos)
        << "a step recorded before the probe measured memory says nothing of it";
}

TEST(StepSessionData, ATraceSessionIsNamedAndBadRecordsAreLeftOut)
{
    Session s;
    s.params["trace_session"] = 12;
    s.params["timed_steps"] = nlohmann::json::array({{{"step", 0}, {"time_ms", 10.0}}, {{"step", 1}, {"time_ms", "x"}}, 3});
    EXPECT_EQ(stepTraceSession(s), 12);
    ASSERT_EQ(timedSteps(s).size(), 1u);
    EXPECT_EQ(timedSteps(s)[0].tokensPerS, 0);
    EXPECT_EQ(describeStepSummary(s), "");
    s.params["trace_session"] = "12";
    EXPECT_FALSE(stepTraceSession(s));
}
