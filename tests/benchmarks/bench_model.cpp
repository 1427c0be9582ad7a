// Configurations evaluated per second by the MoE sweep's hot path: parameters, FLOPs, memory,
// step time (GEMM roofline + communication) and decode latency for one config.
// Run: build/tests/benchmarks/bench_model   (items_per_second is configs/s on one core)
#include <benchmark/benchmark.h>

#include "model/moesweep.h"

using namespace rl::model;

namespace {
DeviceRates rates()
{
    rl::HardwareProfile hw;
    hw.id = "bench-mi300x";
    hw.peakTflops["bf16"] = {1307.4, "AMD CDNA3 white paper"};
    hw.hbmBandwidthGBs = {5300, "AMD"};
    hw.hbmCapacityGB = {192, "AMD"};
    hw.computeUnits = {304, "AMD"};
    hw.intraNodeLinkGBs = {448, "xGMI"};
    hw.nicGBsPerGpu = {50, "NIC"};
    return deviceRates(hw, "bf16");
}

void evaluate(benchmark::State& state, const char* preset)
{
    const auto r = rates();
    ProfileCollectiveTime coll(r);
    ModelConfig work = loadPreset(preset);
    ParallelConfig p;
    p.dp = 64;
    p.ep = 8;
    p.seqLen = 4096;
    InferenceOptions decode;
    decode.batch = 32;
    GemmTiming timing;
    const int experts[] = {8, 16, 32, 64, 128, 256};
    std::size_t i = 0;
    for (auto _ : state) {
        work.moe.experts = experts[i % 6];
        work.moe.topK = 1 + int(i % 8);
        work.moe.expertWidth = 512 + 64 * int(i % 16);
        ++i;
        auto row = evaluateMoeConfig(work, p, decode, r, timing, coll);
        benchmark::DoNotOptimize(row);
    }
    state.SetItemsProcessed(state.iterations());
}

void BM_EvaluateMoeConfig_OLMoE(benchmark::State& s) { evaluate(s, "olmoe-1b-7b"); }
void BM_EvaluateMoeConfig_DeepSeekV3(benchmark::State& s) { evaluate(s, "deepseek-v3"); }

void BM_RunMoeSweep(benchmark::State& state)
{
    const auto r = rates();
    ProfileCollectiveTime coll(r);
    MoeSweepSpec spec;
    spec.base = loadPreset("olmoe-1b-7b");
    spec.experts.clear();
    for (int e = 8; e <= 256; e += 8)
        spec.experts.push_back(e);
    spec.topK = {1, 2, 3, 4, 5, 6, 7, 8};
    spec.sharedExperts = {0, 1, 2};
    spec.parallel.dp = 64;
    spec.parallel.ep = 8;
    std::size_t rows = 0;
    for (auto _ : state) {
        auto res = runMoeSweep(spec, r, coll);
        rows += res.rows.size();
        benchmark::DoNotOptimize(res);
    }
    state.SetItemsProcessed(std::int64_t(rows));
}
} // namespace

BENCHMARK(BM_EvaluateMoeConfig_OLMoE);
BENCHMARK(BM_EvaluateMoeConfig_DeepSeekV3);
BENCHMARK(BM_RunMoeSweep)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
