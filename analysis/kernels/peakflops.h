#pragma once
// The measured compute ceiling: an FMA-bound loop with enough independent accumulator chains to
// cover FMA latency x throughput, run on every thread of a pinned team.
#include <functional>
#include <vector>

#include "kernels/cpuinfo.h"
#include "records/kernelpoints.h"

namespace rl::kernels {

struct PeakFlopsConfig
{
    std::vector<std::string> dtypes{"float64", "float32"};
    std::vector<int> threads{1};  // thread counts to measure
    double secondsPerPoint = 0.5; // time budget for one dtype x thread count
    int repeats = 5;              // best of
    int fmaUnitsOverride = 0;     // > 0: use instead of the per-microarchitecture table
    double clockGHzOverride = 0;  // > 0: use instead of /sys or /proc
};

// Calls onPoint after each finished point; stops between points when cancelRequested().
// Returns false when cancelled.
bool runPeakFlops(const PeakFlopsConfig& config, const CpuInfo& cpu,
                  const std::function<void(const PeakFlopsPoint&)>& onPoint);

// One FMA-loop measurement: GFLOP/s of dtype ("float64"/"float32") over threads.
double measureFmaGflops(const std::string& dtype, int threads, double seconds, int repeats);
} // namespace rl::kernels
