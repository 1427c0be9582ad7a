// Speed of the layout search (plan/plansearch.h). Not a ctest test: run it by hand,
//   bench_plan [threads, default every core]
// 1. The same space searched with and without the per-shape caches (stage costs once per layer
//    shape, collective times once per call), on one thread, alternating rounds: layouts per second
//    each way and the cached / uncached speed ratio (the reference run is the uncached one, in the
//    same process).
// 2. The target space: Qwen3-235B-A22B on 1,024 MI300X, 8 per node, global batch 1,024 x 4,096
//    tokens, every dimension the defaults search (every dtype the profile rates, ZeRO 0-3, all
//    overlaps and dispatchers), on every core: combinations enumerated, layouts ranked, the time
//    (target: under 10 s on the project's 2-core machines for 10^7 layouts or more).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "model/hardwareprofileloader.h"
#include "plan/plansearch.h"

using namespace rl;
using namespace rl::plan;

namespace {
PlanRequest request(const HardwareProfile& hw, const std::string& fix)
{
    PlanRequest req;
    req.base.model = model::loadPreset("qwen3-235b-a22b");
    req.base.hardware = hw;
    req.cluster = {1024, hw.gpusPerNode, 1024, 4096};
    req.space = defaultSpace(req.base.model, hw, req.cluster, {});
    applyFix(req.space, fix);
    return req;
}
} // namespace

int main(int argc, char** argv)
{
    const unsigned threads = argc > 1 ? unsigned(std::atoi(argv[1])) : std::max(1u, std::thread::hardware_concurrency());
    const auto hw = findHardwareProfile("mi300x");
    const model::Calibration uncalibrated;

    // 1. Cached against uncached, one thread, alternating rounds on a slice of the space.
    auto slice = request(hw, "cp=1|2,pp=4|8|16,stages=ends-lighter,dtype=bf16,zero=1");
    slice.threads = 1;
    double cachedRate = 0, uncachedRate = 0;
    for (int round = 0; round < 3; ++round)
        for (bool cache : {false, true}) {
            slice.cacheShapes = cache;
            const auto r = runPlan(slice, uncalibrated);
            const double rate = r.counts.ranked / r.seconds;
            (cache ? cachedRate : uncachedRate) += rate / 3;
            std::printf("round %d %-8s %10.0f layouts ranked, %10.0f combinations, %.3f s: %.3g layouts/s\n", round,
                        cache ? "cached" : "uncached", r.counts.ranked, r.counts.enumerated, r.seconds, rate);
        }
    std::printf("one thread: cached %.3g layouts/s, uncached %.3g layouts/s, ratio %.1fx\n", cachedRate, uncachedRate,
                cachedRate / uncachedRate);

    // 2. The whole space.
    auto full = request(hw, "");
    full.threads = threads;
    const auto r = runPlan(full, uncalibrated);
    std::printf("Qwen3-235B-A22B, 1024 x mi300x, every dimension: %.4g combinations, %.4g illegal, %.4g out of memory, "
                "%.4g ranked, %zu layer shapes, %.2f s on %u thread(s): %.3g layouts/s (target: < 10 s)\n",
                r.counts.enumerated, r.counts.illegalTotal(), r.counts.outOfMemoryTotal(), r.counts.ranked,
                r.distinctShapes, r.seconds, r.threads, r.counts.ranked / r.seconds);
    if (!r.top.empty())
        std::printf("#1: %s, step %.3f s, MFU %.1f %%\n", toSpec(r.top.front().layout).c_str(), r.top.front().step.stepSeconds,
                    r.top.front().step.mfu * 100);
    return 0;
}
