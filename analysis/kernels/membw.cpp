#include "kernels/membw.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <stdexcept>

#include "kernels/cancelflag.h"
#include "kernels/workerteam.h"

namespace rl::kernels {
namespace {
using Clock = std::chrono::steady_clock;

struct FreeDeleter
{
    void operator()(double* p) const { std::free(p); }
};
using Array = std::unique_ptr<double[], FreeDeleter>;

Array allocate(std::int64_t n)
{
    // Cache-line aligned like STREAM's static arrays; rounded up as aligned_alloc requires.
    const std::size_t bytes = (static_cast<std::size_t>(std::max<std::int64_t>(n, 8)) * sizeof(double) + 63) / 64 * 64;
    auto* p = static_cast<double*>(std::aligned_alloc(64, bytes));
    if (!p)
        throw std::runtime_error("membw: cannot allocate " + std::to_string(bytes) + " bytes");
    return Array(p);
}

// The three arrays, first touched by the threads that use them (page placement on NUMA nodes).
struct Arrays
{
    std::int64_t n = 0;
    Array a, b, c;
};

struct Slice
{
    std::int64_t begin = 0;
    std::int64_t count = 0;
};

// Splits n into per-thread slices on 8-element (cache line) boundaries.
Slice sliceOf(std::int64_t n, int threads, int member)
{
    const std::int64_t lines = (n + 7) / 8;
    const std::int64_t begin = std::min(n, lines * member / threads * 8);
    const std::int64_t end = std::min(n, lines * (member + 1) / threads * 8);
    return {begin, end - begin};
}

MemBwPoint measureOn(WorkerTeam& team, Arrays& arr, StreamKernel kernel, std::int64_t n, int repeats,
                     double minRepSeconds)
{
    const int threads = team.size();
    int inner = 1;
    auto timedRun = [&] {
        const auto t0 = Clock::now();
        team.run([&](int member) {
            const Slice s = sliceOf(n, threads, member);
            if (s.count > 0)
                runStreamKernel(kernel, arr.a.get() + s.begin, arr.b.get() + s.begin, arr.c.get() + s.begin,
                                s.count, inner);
        });
        return std::chrono::duration<double>(Clock::now() - t0).count();
    };
    // Warm-up (STREAM drops its first iteration), doubling as calibration of the inner count.
    for (;;) {
        const double t = timedRun();
        if (t >= minRepSeconds || inner >= (1 << 24))
            break;
        inner = std::min(1 << 24, std::max(inner * 2, static_cast<int>(inner * minRepSeconds / std::max(t, 1e-7) * 1.2)));
    }
    double best = 1e300;
    for (int r = 0; r < std::max(1, repeats); ++r)
        best = std::min(best, timedRun() / inner);
    MemBwPoint p;
    p.kernel = toString(kernel);
    p.threads = threads;
    p.bytes = n * streamBytesPerElement(kernel);
    p.bestTimeUs = best * 1e6;
    p.bandwidthGBs = static_cast<double>(p.bytes) / best / 1e9;
    return p;
}

Arrays makeArrays(WorkerTeam& team, std::int64_t n)
{
    Arrays arr{n, allocate(n), allocate(n), allocate(n)};
    team.run([&](int member) {
        const Slice s = sliceOf(n, team.size(), member);
        for (std::int64_t i = s.begin; i < s.begin + s.count; ++i) {
            arr.a[i] = 1.0; // STREAM's initial values
            arr.b[i] = 2.0;
            arr.c[i] = 0.0;
        }
    });
    return arr;
}
} // namespace

std::int64_t defaultMaxBytes(const CpuInfo& cpu)
{
    std::int64_t largest = 0;
    for (const auto& c : cpu.dataCaches)
        largest = std::max(largest, c.sizeBytes);
    return std::max<std::int64_t>(64 << 20, 4 * largest);
}

std::vector<std::int64_t> sweepSizes(const MemBwConfig& config, const CpuInfo& cpu)
{
    const std::int64_t lo = std::max<std::int64_t>(config.minBytes, 3 * 64);
    const std::int64_t hi = std::max(lo, config.maxBytes > 0 ? config.maxBytes : defaultMaxBytes(cpu));
    const int steps = std::max(1, config.stepsPerOctave);
    std::vector<std::int64_t> sizes;
    const double octaves = std::log2(static_cast<double>(hi) / static_cast<double>(lo));
    const int count = static_cast<int>(std::ceil(octaves * steps - 1e-9));
    for (int i = 0; i <= count; ++i) {
        const double bytes = std::min(static_cast<double>(hi), lo * std::exp2(static_cast<double>(i) / steps));
        // Whole cache lines per array: 3 arrays x 64 B.
        const auto rounded = std::max<std::int64_t>(192, (static_cast<std::int64_t>(bytes) + 191) / 192 * 192);
        if (sizes.empty() || rounded > sizes.back())
            sizes.push_back(rounded);
    }
    return sizes;
}

MemBwPoint measureStream(StreamKernel kernel, std::int64_t elementsPerArray, int threads, int repeats,
                         double minRepSeconds)
{
    WorkerTeam team(threads);
    Arrays arr = makeArrays(team, elementsPerArray);
    return measureOn(team, arr, kernel, elementsPerArray, repeats, minRepSeconds);
}

bool runMemBw(const MemBwConfig& config, const CpuInfo& cpu, const std::function<void(const MemBwPoint&)>& onPoint)
{
    const auto sizes = sweepSizes(config, cpu);
    for (int threads : config.threads) {
        WorkerTeam team(threads);
        Arrays arr = makeArrays(team, sizes.back() / 24);
        for (std::int64_t ws : sizes) {
            const std::int64_t n = ws / 24; // elements per array: triad touches 3 x 8 bytes each
            for (StreamKernel k : config.kernels) {
                if (cancelRequested())
                    return false;
                onPoint(measureOn(team, arr, k, n, config.repeats, config.minRepSeconds));
            }
        }
    }
    return true;
}
} // namespace rl::kernels
