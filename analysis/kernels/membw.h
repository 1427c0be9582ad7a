#pragma once
// STREAM-style bandwidth sweep: copy, scale, add and triad over working sets from a few KiB to
// beyond the last-level cache, for each thread count; STREAM's byte counting, best of repeats.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "kernels/cpuinfo.h"
#include "kernels/streamkernels.h"
#include "records/kernelpoints.h"

namespace rl::kernels {

struct MemBwConfig
{
    std::int64_t minBytes = 4096;  // smallest triad working set (3 arrays)
    std::int64_t maxBytes = 0;     // 0: 4 x the last-level cache (at least 64 MiB)
    int stepsPerOctave = 2;        // log steps between min and max
    std::vector<int> threads{1};
    std::vector<StreamKernel> kernels{StreamKernel::Copy, StreamKernel::Scale, StreamKernel::Add, StreamKernel::Triad};
    int repeats = 10;              // STREAM's NTIMES; best time kept, the warm-up run excluded
    double minRepSeconds = 0.002;  // small sets repeat the kernel inside one timed run to reach this
};

// Triad working-set sizes of the sweep (bytes of all three arrays), ascending.
std::vector<std::int64_t> sweepSizes(const MemBwConfig& config, const CpuInfo& cpu);
// Default maximum: 4 x the largest cache (sysfs), at least 64 MiB.
std::int64_t defaultMaxBytes(const CpuInfo& cpu);

// Calls onPoint per finished (threads, size, kernel); false when cancelled between points.
bool runMemBw(const MemBwConfig& config, const CpuInfo& cpu, const std::function<void(const MemBwPoint&)>& onPoint);

// One measurement: best bandwidth (GB/s) of kernel on arrays of n doubles each over threads.
MemBwPoint measureStream(StreamKernel kernel, std::int64_t elementsPerArray, int threads, int repeats,
                         double minRepSeconds);
} // namespace rl::kernels
