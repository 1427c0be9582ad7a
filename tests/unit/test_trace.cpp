// Kineto trace import and analysis: real samples with independently computed numbers, small
// hand-built traces with known breakdowns, and broken inputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <numeric>
#include <sstream>

#include "importers/importerregistry.h"
#include "io/inputfile.h"
#include "store/fileimport.h"
#include "store/traceresults.h"
#include "trace/intervals.h"
#include "trace/kinetoreader.h"
#include "trace/traceanalysis.h"
#include "trace/traceimport.h"
#include "tempdir.h"

using namespace rl;
namespace fs = std::filesystem;

namespace {
const std::string kSamples = std::string(RIDGELINE_SHARED_SAMPLES) + "/traces/";
const std::string kData = std::string(RIDGELINE_TEST_DATA) + "/traces/";

struct SampleCase
{
    const char* file;
    std::int64_t kernels;
    double kernelUs;
    std::size_t steps;
    const char* schema;
};

// Expected numbers from python3: json.load(gzip.open(f)); kernels = events with ph == "X" and
// cat.lower() == "kernel"; kernelUs = sum of their "dur"; steps = ProfilerStep#N CPU annotations.
const SampleCase kSampleCases[] = {
    {"hta_amd_mi250_minitoy_train_ROCm6_2_kineto.json.gz", 14, 110.881, 2, "current"},
    {"hta_nccl_parser_config_nccl_data.json.gz", 2700, 162532.34, 3, "current"},
    {"hta_trace_filter_sampled_rank-0.json.gz", 1154, 606519.0, 2, "current"},
    {"kineto_tb_plugin_resnet50_num_workers_0_worker0.pt.trace.json.gz", 9564, 640354.0, 6, "2021"},
};

trace::TraceData readFile(const std::string& path, std::size_t chunk = 4 << 20)
{
    io::InputFile f(path);
    trace::TraceData d;
    d.path = path;
    EXPECT_TRUE(trace::readKinetoTrace(f.stream(), d, {}, chunk));
    return d;
}
} // namespace

class SampleTrace : public ::testing::TestWithParam<SampleCase>
{
};

TEST_P(SampleTrace, ImportsExactKernelCountAndTime)
{
    const auto& c = GetParam();
    const ImportResult r = importFile(kSamples + c.file);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.format, "kineto");
    ASSERT_EQ(r.sessions.size(), 1u);
    const auto& s = r.sessions[0];
    EXPECT_EQ(s.session.kind, kind::Trace);
    std::int64_t count = 0;
    double us = 0;
    for (const auto& k : s.kernelStats) {
        count += k.count;
        us += k.totalUs;
    }
    EXPECT_EQ(count, c.kernels);
    EXPECT_NEAR(us, c.kernelUs, 0.01);
    EXPECT_EQ(s.steps.size(), c.steps);
    EXPECT_EQ(s.session.params["ranks"][0]["schema"], c.schema);
    double share = 0;
    for (const auto& k : s.kernelStats)
        share += k.share;
    EXPECT_NEAR(share, 1.0, 1e-9);
    for (const auto& st : s.steps) {
        EXPECT_GE(st.idleUs, -1e-6) << "step " << st.step;
        EXPECT_LE(st.gpuBusyUs, st.stepUs + 1e-6);
        EXPECT_NEAR(st.exposedCommUs + st.overlapUs, st.communicationBusyUs, 1e-6);
    }
}

TEST_P(SampleTrace, SmallChunksGiveTheSameResult)
{
    // Events cut by every chunk boundary must be stitched back exactly.
    const auto& c = GetParam();
    const auto big = readFile(kSamples + c.file);
    const auto small = readFile(kSamples + c.file, 4096);
    ASSERT_EQ(big.gpu.size(), small.gpu.size());
    EXPECT_EQ(big.eventCount, small.eventCount);
    for (std::size_t i = 0; i < big.gpu.size(); ++i) {
        ASSERT_EQ(big.gpu[i].startNs, small.gpu[i].startNs);
        ASSERT_EQ(big.names.at(big.gpu[i].name), small.names.at(small.gpu[i].name));
    }
}

INSTANTIATE_TEST_SUITE_P(Samples, SampleTrace, ::testing::ValuesIn(kSampleCases));

TEST(TraceSamples, RocmTraceIsRecognised)
{
    const auto d = readFile(kSamples + "hta_amd_mi250_minitoy_train_ROCm6_2_kineto.json.gz");
    EXPECT_TRUE(d.rocm);
    EXPECT_EQ(d.gpu.size(), 16u); // 14 kernels + 2 gpu_memcpy
    // Its two steps are 9288 us with all the GPU work and a 49 us stub with none: the timeline is
    // the step with work (the lower median of the two would be the empty stub).
    const std::vector<KernelClass> classOf(d.names.size(), KernelClass::Other);
    const auto t = trace::stepTimeline(d, classOf, trace::stepBreakdown(d, classOf));
    ASSERT_EQ(t.size(), 16u);
    EXPECT_EQ(t[0].step, 1);
}

TEST(TraceSamples, SampledTraceWithoutFlowsAndRankFromDistributedInfo)
{
    const auto d = readFile(kSamples + "hta_trace_filter_sampled_rank-0.json.gz");
    EXPECT_EQ(d.flowEventCount, 0);
    EXPECT_EQ(d.worldSize, 128);
    EXPECT_EQ(d.rank, 0);
    ASSERT_EQ(d.steps.size(), 2u);
    EXPECT_EQ(d.steps[0].step, 551);
    EXPECT_EQ(d.steps[0].durNs, 607312000);
}

TEST(TraceSamples, NcclCollectivesFromKernelArgs)
{
    // Expected from python3: kernels with "Collective name" args grouped by (name, dtype, nelems);
    // bytes = nelems x 4 (Float) or 8 (Long); busbw = bytes / mean dur x busFactor (2(n-1)/n
    // for allreduce with Group size 2 = 1).
    const ImportResult r = importFile(kSamples + "hta_nccl_parser_config_nccl_data.json.gz");
    ASSERT_TRUE(r.ok) << r.error;
    const auto& cs = r.sessions[0].traceCollectives;
    ASSERT_EQ(cs.size(), 7u);
    int allReduce = 0, broadcast = 0;
    for (const auto& c : cs) {
        EXPECT_EQ(c.count, 3);
        EXPECT_EQ(c.nranks, 2);
        allReduce += c.op == "all_reduce";
        broadcast += c.op == "broadcast";
        if (c.op == "all_reduce" && c.bytes == 26550272) {
            EXPECT_EQ(c.dtype, "float32");
            EXPECT_NEAR(c.totalUs, 7214.656, 1e-6);
            EXPECT_NEAR(c.busbwGBs, 11.040140513975995, 1e-9);
        }
        if (c.op == "broadcast" && c.dtype == "int64") {
            EXPECT_EQ(c.bytes, 424);
        }
    }
    EXPECT_EQ(allReduce, 5);
    EXPECT_EQ(broadcast, 2);
}

TEST(TraceBreakdown, HandBuiltTwoStepTrace)
{
    const ImportResult r = importFile(kData + "handmade_two_steps.json");
    ASSERT_TRUE(r.ok) << r.error;
    const auto& s = r.sessions[0];
    ASSERT_EQ(s.steps.size(), 2u);
    const auto& a = s.steps[0];
    EXPECT_EQ(a.rank, 3);
    EXPECT_EQ(a.step, 1);
    EXPECT_DOUBLE_EQ(a.stepUs, 1000);
    EXPECT_DOUBLE_EQ(a.gemmUs, 300);
    EXPECT_DOUBLE_EQ(a.communicationUs, 300);
    EXPECT_DOUBLE_EQ(a.memcpyUs, 50);
    EXPECT_DOUBLE_EQ(a.otherUs, 150);     // 50 elementwise + 100 of a kernel clipped at the step end
    EXPECT_DOUBLE_EQ(a.attentionUs, 0);
    EXPECT_DOUBLE_EQ(a.computeBusyUs, 450);
    EXPECT_DOUBLE_EQ(a.communicationBusyUs, 300);
    EXPECT_DOUBLE_EQ(a.overlapUs, 150);   // [1300,1400) with the GEMM + [1500,1550) elementwise
    EXPECT_DOUBLE_EQ(a.exposedCommUs, 150);
    EXPECT_DOUBLE_EQ(a.gpuBusyUs, 650);
    EXPECT_DOUBLE_EQ(a.idleUs, 350);
    EXPECT_EQ(a.kernelCount, 4);
    const auto& b = s.steps[1];
    EXPECT_DOUBLE_EQ(b.otherUs, 100);
    EXPECT_DOUBLE_EQ(b.attentionUs, 300);
    EXPECT_DOUBLE_EQ(b.gpuBusyUs, 400);
    EXPECT_DOUBLE_EQ(b.idleUs, 600);
    EXPECT_DOUBLE_EQ(b.exposedCommUs, 0);

    ASSERT_EQ(s.traceCollectives.size(), 1u);
    const auto& c = s.traceCollectives[0];
    EXPECT_EQ(c.op, "all_reduce");
    EXPECT_EQ(c.dtype, "bfloat16");
    EXPECT_EQ(c.nranks, 8);
    EXPECT_EQ(c.bytes, 2097152);
    EXPECT_NEAR(c.algbwGBs, 2097152.0 / 300 / 1e3, 1e-12);
    EXPECT_NEAR(c.busbwGBs, 2097152.0 / 300 / 1e3 * 1.75, 1e-12);

    const auto roof = trace::rooflinePoints(s.kernelStats);
    ASSERT_EQ(roof.size(), 1u);
    EXPECT_EQ(roof[0].kernelClass, KernelClass::Gemm);
    EXPECT_NEAR(roof[0].intensity, 2000, 1e-3);       // 6e11 FLOP / 0.3e9 B
    EXPECT_NEAR(roof[0].flopsPerSec, 2e15, 2e15 * 1e-6); // 6e11 FLOP / 300 µs
    EXPECT_EQ(s.session.params["nccl_version"], "2.21.5");
}

// The timeline keeps the GPU activity of the median step (both last 1000 µs: the earlier one),
// relative to its start, in start order; the annotation is not activity, the kernel running past
// the step end is kept whole, and the next step's attention kernel is not in it.
TEST(TraceTimeline, RepresentativeStepPerStream)
{
    const ImportResult r = importFile(kData + "handmade_two_steps.json");
    ASSERT_TRUE(r.ok) << r.error;
    const auto& t = r.sessions[0].timeline;
    ASSERT_EQ(t.size(), 5u);
    const double starts[] = {100, 300, 500, 700, 900}, durations[] = {300, 300, 50, 50, 200};
    const int streams[] = {7, 20, 7, 7, 7};
    const KernelClass classes[] = {KernelClass::Gemm, KernelClass::Communication, KernelClass::Other,
                                   KernelClass::Memcpy, KernelClass::Other};
    for (std::size_t i = 0; i < t.size(); ++i) {
        EXPECT_EQ(t[i].rank, 3);
        EXPECT_EQ(t[i].step, 1);
        EXPECT_DOUBLE_EQ(t[i].startUs, starts[i]) << i;
        EXPECT_DOUBLE_EQ(t[i].durUs, durations[i]) << i;
        EXPECT_EQ(t[i].stream, streams[i]) << i;
        EXPECT_EQ(t[i].kernelClass, classes[i]) << i;
    }
    EXPECT_EQ(t[1].name.rfind("ncclDevKernel_AllReduce", 0), 0u);

    // The median by duration, and the cap.
    trace::TraceData d;
    d.rank = 1;
    const auto k = d.names.intern("k");
    d.steps = {{1, 0, 100}, {2, 100, 300}, {3, 400, 200}}; // ns: durations 100, 300, 200 -> step 3
    for (std::int64_t at = 0; at < 600; at += 50)
        d.gpu.push_back({at, 10, k, at % 100 == 0 ? 1 : 2, 0, trace::EventCategory::Kernel, -1, 0, 0});
    const std::vector<KernelClass> classOf(d.names.size(), KernelClass::Gemm);
    bool truncated = true;
    auto step3 = trace::stepTimeline(d, classOf, trace::stepBreakdown(d, classOf), 100, &truncated);
    EXPECT_FALSE(truncated);
    ASSERT_EQ(step3.size(), 4u); // 400, 450, 500, 550 ns
    EXPECT_EQ(step3[0].step, 3);
    EXPECT_DOUBLE_EQ(step3[1].startUs, 0.05);
    EXPECT_EQ(step3[1].stream, 2);
    auto capped = trace::stepTimeline(d, classOf, trace::stepBreakdown(d, classOf), 3, &truncated);
    EXPECT_TRUE(truncated);
    EXPECT_EQ(capped.size(), 3u);

    // Steps without GPU activity are not candidates: counted, the two 10-20 ns stubs would make
    // step 1 (100 ns) the median of five.
    d.steps.push_back({4, 1000, 10});
    d.steps.push_back({5, 1100, 20});
    EXPECT_EQ(trace::stepTimeline(d, classOf, trace::stepBreakdown(d, classOf)).at(0).step, 3);
    // No step with activity at all: the whole trace from its first event.
    d.steps = {{9, 5000, 100}};
    const auto whole = trace::stepTimeline(d, classOf, trace::stepBreakdown(d, classOf));
    ASSERT_EQ(whole.size(), 12u);
    EXPECT_EQ(whole[0].step, -1);
    EXPECT_DOUBLE_EQ(whole[11].startUs, 0.55);
}

TEST(TraceBreakdown, FolderOfRanksAndStragglers)
{
    const ImportResult r = trace::importKinetoFolder(kData + "ranks");
    ASSERT_TRUE(r.ok) << r.error;
    ASSERT_EQ(r.sessions.size(), 1u);
    const auto& steps = r.sessions[0].steps;
    ASSERT_EQ(steps.size(), 4u);
    const auto st = trace::stragglers(steps);
    ASSERT_EQ(st.size(), 2u);
    EXPECT_EQ(st[0].step, 7);
    EXPECT_DOUBLE_EQ(st[0].spreadUs, 0);
    EXPECT_EQ(st[1].step, 8);
    EXPECT_DOUBLE_EQ(st[1].spreadUs, 300);
    EXPECT_EQ(st[1].slowestRank, 1);
    EXPECT_DOUBLE_EQ(st[1].medianUs, 1350);
    EXPECT_EQ(r.sessions[0].kernelStats.size(), 2u); // one row per kernel name per rank
}

// Step 1 of the hand-built trace: compute busy 450 µs of which 150 hid communication, so GEMM
// (300 µs of kernel time) and other compute (150) split the remaining 300 as 2 : 1; 150 exposed
// communication, 50 µs of a copy under nothing else, 350 idle: 1000 µs, the step.
TEST(TraceBreakdown, StepSharesDoNotOverlapAndAddUpToTheStep)
{
    const ImportResult r = importFile(kData + "handmade_two_steps.json");
    ASSERT_TRUE(r.ok) << r.error;
    const auto s = trace::stepShares(r.sessions[0].steps[0]);
    EXPECT_DOUBLE_EQ(s.gemmUs, 200);
    EXPECT_DOUBLE_EQ(s.otherUs, 100);
    EXPECT_DOUBLE_EQ(s.attentionUs, 0);
    EXPECT_DOUBLE_EQ(s.commUnderComputeUs, 150);
    EXPECT_DOUBLE_EQ(s.exposedCommUs, 150);
    EXPECT_DOUBLE_EQ(s.memcpyAloneUs, 50);
    EXPECT_DOUBLE_EQ(s.idleUs, 350);
    EXPECT_DOUBLE_EQ(s.totalUs(), 1000);
    // Step 2 has no communication: the classes keep their whole kernel time.
    const auto t = trace::stepShares(r.sessions[0].steps[1]);
    EXPECT_DOUBLE_EQ(t.attentionUs, 300);
    EXPECT_DOUBLE_EQ(t.otherUs, 100);
    EXPECT_DOUBLE_EQ(t.commUnderComputeUs, 0);
    EXPECT_DOUBLE_EQ(t.totalUs(), 1000);
}

// The bundled sample trace overlaps most of its communication with compute: summed class times
// stand ~4 % above the step (the old bars), the shares must not.
TEST(TraceBreakdown, StepSharesOfTheBundledSampleAddUpToEveryStep)
{
    const std::string sample = std::string(RIDGELINE_TEST_DATA) + "/../../sample_data/kineto_sampled_trace_rank0_hta.json.gz";
    const ImportResult r = importFile(sample);
    ASSERT_TRUE(r.ok) << r.error;
    const auto& steps = r.sessions.at(0).steps;
    ASSERT_FALSE(steps.empty());
    bool classesOverrun = false;
    for (const auto& b : steps) {
        const auto s = trace::stepShares(b);
        EXPECT_NEAR(s.totalUs(), b.stepUs, b.stepUs * 1e-9) << "step " << b.step;
        EXPECT_NEAR(s.idleUs, b.idleUs, 1e-6) << "step " << b.step;
        EXPECT_NEAR(s.exposedCommUs, b.exposedCommUs, 1e-9) << "step " << b.step;
        EXPECT_NEAR(s.gemmUs + s.attentionUs + s.otherUs + s.commUnderComputeUs, b.computeBusyUs, 1e-6);
        for (double v : {s.gemmUs, s.attentionUs, s.otherUs, s.commUnderComputeUs, s.memcpyAloneUs, s.exposedCommUs, s.idleUs})
            EXPECT_GE(v, 0);
        classesOverrun |= b.gemmUs + b.attentionUs + b.otherUs + b.memcpyUs + b.communicationUs + b.idleUs > b.stepUs * 1.01;
    }
    EXPECT_TRUE(classesOverrun) << "the sample no longer shows why the shares are needed";
}

TEST(TraceIntervals, UnionAndIntersection)
{
    using trace::Interval;
    const auto u = trace::unionOf({{5, 10}, {0, 3}, {2, 4}, {10, 12}, {20, 20}});
    ASSERT_EQ(u, (std::vector<Interval>{{0, 4}, {5, 12}}));
    EXPECT_EQ(trace::totalLength(u), 11);
    const auto v = trace::unionOf({{3, 6}, {11, 30}});
    EXPECT_EQ(trace::intersectionLength(u, v), 1 + 1 + 1);
    EXPECT_EQ(trace::intersectionLength(u, {}), 0);
}

TEST(TraceReader, MicrosecondTokensToNanoseconds)
{
    std::int64_t ns = 0;
    ASSERT_TRUE(trace::parseMicrosToNs("4458676983543.183", ns));
    EXPECT_EQ(ns, 4458676983543183);
    ASSERT_TRUE(trace::parseMicrosToNs("1682725898082228", ns));
    EXPECT_EQ(ns, 1682725898082228000);
    ASSERT_TRUE(trace::parseMicrosToNs("41.4075", ns));
    EXPECT_EQ(ns, 41408);
    ASSERT_TRUE(trace::parseMicrosToNs("1.5e3 ", ns));
    EXPECT_EQ(ns, 1500000);
    EXPECT_FALSE(trace::parseMicrosToNs("\"abc\"", ns));
}

TEST(KernelClasses, DefaultRules)
{
    const trace::KernelClassifier k;
    EXPECT_EQ(k.classify("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64"), KernelClass::Gemm);
    EXPECT_EQ(k.classify("Cijk_Ailk_Bljk_HHS_BH_MT128x128x32_MI32x32x8x1_SN"), KernelClass::Gemm);
    EXPECT_EQ(k.classify("nvjet_tst_128x256_64x4_1x2_h_bz_coopA_NTN"), KernelClass::Gemm);
    EXPECT_EQ(k.classify("ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_64x3_tn"), KernelClass::Gemm);
    EXPECT_EQ(k.classify("flash_fwd_kernel<Flash_fwd_kernel_traits<128, 64, 64, 4>>"), KernelClass::Attention);
    EXPECT_EQ(k.classify("fmha_cutlassF_bf16_aligned_64x128_rf_sm80"), KernelClass::Attention);
    EXPECT_EQ(k.classify("ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)"),
              KernelClass::Communication);
    EXPECT_EQ(k.classify("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)"),
              KernelClass::Communication);
    EXPECT_EQ(k.classify("Memcpy DtoD (Device -> Device)"), KernelClass::Memcpy);
    EXPECT_EQ(k.classify("void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>>"),
              KernelClass::Other);
}

// fbgemm_gpu's embedding, quantize and permute kernels are no GEMMs, although "fbgemm" (in their
// namespace or their argument types) contains "gemm"; the sample DLRM-style trace has them next to
// real cutlass and cuBLAS GEMMs, which must stay GEMMs.
TEST(KernelClasses, FbgemmKernelsOfARealTraceAreNotGemm)
{
    const auto d = readFile(kSamples + "hta_trace_filter_sampled_rank-0.json.gz");
    const trace::KernelClassifier k;
    int fbgemm = 0, gemm = 0;
    for (const auto& e : d.gpu) {
        const std::string name(d.names.at(e.name));
        if (name.find("fbgemm") != std::string::npos || name.find("split_embedding") != std::string::npos) {
            ++fbgemm;
            EXPECT_NE(k.classify(name), KernelClass::Gemm) << name;
        } else if (name.find("cutlass_80_tensorop_s1688gemm") != std::string::npos ||
                   name.find("ampere_sgemm") != std::string::npos || name.find("gemmk1_kernel") != std::string::npos) {
            ++gemm;
            EXPECT_EQ(k.classify(name), KernelClass::Gemm) << name;
        }
    }
    EXPECT_GT(fbgemm, 20); // split_embedding_*, _FP8rowwise_to_float, permute_2D_data, ... (52 in the sample)
    EXPECT_GT(gemm, 100);
    EXPECT_EQ(k.classify("void fbgemm_gpu::(anonymous namespace)::_FP8rowwise_to_float_cuda_kernel<float>"
                         "(unsigned char const*, int, int, float*, bool)"),
              KernelClass::Other);
    EXPECT_EQ(k.classify("void fbgemm_gpu::permute_2D_data_kernel<false, int, int, decltype(nullptr)>(int, int)"),
              KernelClass::Other);
    // A GEMM that also mentions fbgemm still is one; so is a name that starts with "bgemm".
    EXPECT_EQ(k.classify("void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x64>(fbgemm_gpu::FixedDivisor)"),
              KernelClass::Gemm);
    EXPECT_EQ(k.classify("bgemm_strided_batched"), KernelClass::Gemm);
    EXPECT_EQ(k.classify("void gemmSN_TN_kernel<float, 128>"), KernelClass::Gemm);
}

TEST(KernelClasses, RulesFromJsonAndErrors)
{
    const auto k = trace::KernelClassifier::fromJson(nlohmann::json::parse(
        R"([{"class": "attention", "regex": "^my_.*softmax"}, {"class": "gemm", "substring": "MATMUL"}])"));
    EXPECT_EQ(k.classify("my_fused_softmax"), KernelClass::Attention);
    EXPECT_EQ(k.classify("triton_matmul_kernel"), KernelClass::Gemm);
    EXPECT_EQ(k.classify("sm90_xmma_gemm"), KernelClass::Other); // custom rules replace the defaults
    EXPECT_THROW(trace::KernelClassifier::fromJson(nlohmann::json::parse(R"([{"class": "gemm", "regex": "("}])")),
                 std::runtime_error);
    EXPECT_THROW(trace::KernelClassifier::fromJson(nlohmann::json::parse(R"([{"class": "magic", "substring": "x"}])")),
                 std::runtime_error);
    // Round trip through JSON keeps the defaults.
    const auto again = trace::KernelClassifier::fromJson(trace::KernelClassifier().toJson());
    EXPECT_EQ(again.rules().size(), trace::KernelClassifier::defaultRules().size());
}

TEST(TraceBenchmarkCurve, InterpolatesBusbwAtTraceSize)
{
    std::vector<CollectivePoint> pts;
    auto add = [&](std::int64_t bytes, double busbw, int n) {
        CollectivePoint p;
        p.op = "all_reduce";
        p.nranks = n;
        p.bytes = bytes;
        p.busbwGBs = busbw;
        pts.push_back(p);
    };
    add(1 << 20, 10, 8);
    add(4 << 20, 40, 8);
    add(2 << 20, 999, 16); // other rank count: ignored while same-count points exist
    TraceCollective c;
    c.op = "all_reduce";
    c.nranks = 8;
    c.bytes = 2 << 20;
    c.busbwGBs = 10;
    const auto cmp = trace::compareToBenchmark(c, pts);
    ASSERT_TRUE(cmp);
    EXPECT_TRUE(cmp->sameRankCount);
    EXPECT_FALSE(cmp->outsideRange);
    EXPECT_NEAR(cmp->benchmarkBusbwGBs, 20, 1e-9); // halfway in log size between 10 and 40 (log-log)
    EXPECT_NEAR(cmp->ratio, 0.5, 1e-9);
    c.bytes = 64 << 20;
    EXPECT_TRUE(trace::compareToBenchmark(c, pts)->outsideRange);
    c.op = "all_gather";
    EXPECT_FALSE(trace::compareToBenchmark(c, pts));
}

struct BrokenCase
{
    const char* file;
    const char* format; // "" = let the registry sniff
    const char* expect; // part of the error
    bool byteOffset;    // the error names a byte offset
};

class BrokenTrace : public ::testing::TestWithParam<BrokenCase>
{
};

TEST_P(BrokenTrace, RejectedWithFileAndPlaceAndNothingStored)
{
    const auto& c = GetParam();
    const std::string path = kData + c.file;
    const ImportResult r = importFile(path, {}, c.format);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find(path), std::string::npos) << r.error;
    EXPECT_NE(r.error.find(c.expect), std::string::npos) << r.error;
    std::cout << r.error << "\n";
    if (c.byteOffset) {
        EXPECT_NE(r.error.find(": byte "), std::string::npos) << r.error;
    }

    test::TempDir dir;
    const fs::path db = dir.path / "broken.db";
    {
        store::Workspace ws(db.string());
        const auto out = store::importIntoWorkspace(ws, path, {}, c.format);
        EXPECT_FALSE(out.ok);
        EXPECT_TRUE(ws.sessions().empty());
    }
}

INSTANTIATE_TEST_SUITE_P(
    Broken, BrokenTrace,
    ::testing::Values(BrokenCase{"truncated_gzip.json.gz", "", "unexpected end", true},
                      BrokenCase{"corrupt_gzip.json.gz", "", "", true},
                      BrokenCase{"truncated_json.json", "", "truncated", true},
                      BrokenCase{"empty.json", "", "empty", false},
                      BrokenCase{"binary.json", "", "binary", false},
                      BrokenCase{"not_a_trace.json", "", "unrecognised format", false},
                      BrokenCase{"not_a_trace.json", "kineto", "not a trace", false},
                      BrokenCase{"events_not_array.json", "", "not an array", true},
                      BrokenCase{"bad_event.json", "", "\"ts\" is not a number", true}));

TEST(TraceImport, CancelStopsTheImport)
{
    int calls = 0;
    ImportOptions o;
    o.progress = [&](std::int64_t, std::int64_t) { return ++calls < 2; };
    const ImportResult r = importFile(kSamples + "kineto_tb_plugin_resnet50_num_workers_0_worker0.pt.trace.json.gz", o);
    EXPECT_TRUE(r.cancelled);
    EXPECT_GE(calls, 2);
}

TEST(TraceStore, RoundTripAggregatedRows)
{
    test::TempDir dir;
    const fs::path db = dir.path / "traces.db";
    {
        store::Workspace ws(db.string());
        const std::string path = kSamples + "hta_nccl_parser_config_nccl_data.json.gz";
        const auto out = store::importIntoWorkspace(ws, path);
        ASSERT_TRUE(out.ok) << out.error;
        ASSERT_EQ(out.sessionIds.size(), 1u);
        const auto id = out.sessionIds[0];
        EXPECT_EQ(ws.session(id)->kind, kind::Trace);
        const auto steps = store::stepBreakdowns(ws.database(), id);
        ASSERT_EQ(steps.size(), 3u);
        EXPECT_EQ(steps[0].step, 4);
        const auto kernels = store::kernelStats(ws.database(), id);
        std::int64_t n = 0;
        for (const auto& k : kernels)
            n += k.count;
        EXPECT_EQ(n, 2700);
        const auto top = store::kernelStats(ws.database(), id, 0, 5);
        ASSERT_EQ(top.size(), 5u);
        EXPECT_EQ(top[0].name, kernels[0].name);
        EXPECT_GE(top[0].totalUs, top[4].totalUs);
        const auto cs = store::traceCollectives(ws.database(), id);
        EXPECT_EQ(cs.size(), 7u);
        // The timeline of the representative step comes back in start order, inside that step.
        const auto timeline = store::traceTimeline(ws.database(), id);
        ASSERT_FALSE(timeline.empty());
        const auto step = std::find_if(steps.begin(), steps.end(), [&](const StepBreakdown& b) {
            return b.step == timeline[0].step;
        });
        ASSERT_NE(step, steps.end());
        for (std::size_t i = 0; i < timeline.size(); ++i) {
            EXPECT_LT(timeline[i].startUs, step->stepUs);
            EXPECT_GT(timeline[i].startUs + timeline[i].durUs, 0.0);
            if (i) {
                EXPECT_GE(timeline[i].startUs, timeline[i - 1].startUs);
            }
        }
        EXPECT_TRUE(store::traceTimeline(ws.database(), id, 99).empty());
    }
}

TEST(TraceReader, TruncatedJsonPointsAtTheCutEvent)
{
    const std::string path = kData + "truncated_json.json";
    std::ifstream f(path, std::ios::binary);
    const std::string content((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    std::istringstream in(content);
    trace::TraceData d;
    try {
        trace::readKinetoTrace(in, d, {}, 4096); // small chunks: the cut event spans refills
        FAIL() << "truncated trace accepted";
    } catch (const trace::TraceError& e) {
        ASSERT_LT(e.byteOffset(), static_cast<std::int64_t>(content.size()));
        const auto at = static_cast<std::size_t>(e.byteOffset());
        EXPECT_EQ(content[at], '{');
        // the last event (each starts with its "ph" key), not one before it
        EXPECT_LT(content.find("\"ph\"", at), at + 16);
        EXPECT_EQ(content.find("\"ph\"", at + 16), std::string::npos);
    }
}

TEST(TraceReader, HugeTimestampsAreRejectedNotOverflowed)
{
    std::int64_t ns = 0;
    EXPECT_FALSE(trace::parseMicrosToNs("99999999999999999999999", ns));
    EXPECT_FALSE(trace::parseMicrosToNs("1e300", ns));
    ASSERT_TRUE(trace::parseMicrosToNs("9000000000000000", ns)); // 16 digits still fit
    EXPECT_EQ(ns, 9000000000000000000);
}
