#include "kernels/peakflops.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>

#include "kernels/cancelflag.h"
#include "kernels/fmaloops.h"
#include "kernels/workerteam.h"

namespace rl::kernels {
namespace {
using Clock = std::chrono::steady_clock;

int elementBytesOf(const std::string& dtype) { return dtype == "float32" ? 4 : 8; }

// Keeps the loops' results observable so the compiler cannot drop them.
std::atomic<double> g_sink{0};

double secondsSince(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }
} // namespace

double measureFmaGflops(const std::string& dtype, int threads, double seconds, int repeats)
{
    const FmaLoop loop = fmaLoopFor(detectIsa(), elementBytesOf(dtype));
    WorkerTeam team(threads);
    // Calibrate on the team itself so frequency and sharing match the timed runs.
    std::int64_t iterations = 1 << 14;
    for (;;) {
        const auto t0 = Clock::now();
        team.run([&](int) { g_sink.store(loop.run(iterations), std::memory_order_relaxed); });
        const double t = secondsSince(t0);
        if (t > 0.02 || iterations > (std::int64_t{1} << 40))
            break;
        iterations *= 4;
    }
    // Size one repeat to seconds / repeats from the last calibration step.
    {
        const auto t0 = Clock::now();
        team.run([&](int) { g_sink.store(loop.run(iterations), std::memory_order_relaxed); });
        const double t = std::max(secondsSince(t0), 1e-6);
        iterations = std::max<std::int64_t>(1, static_cast<std::int64_t>(iterations * (seconds / repeats) / t));
    }
    double best = 0;
    for (int r = 0; r < std::max(1, repeats); ++r) {
        const auto t0 = Clock::now();
        team.run([&](int) { g_sink.store(loop.run(iterations), std::memory_order_relaxed); });
        const double t = secondsSince(t0);
        best = std::max(best, loop.flopsPerIteration * static_cast<double>(iterations) * threads / t / 1e9);
    }
    return best;
}

bool runPeakFlops(const PeakFlopsConfig& config, const CpuInfo& cpuIn,
                  const std::function<void(const PeakFlopsPoint&)>& onPoint)
{
    CpuInfo cpu = cpuIn;
    if (config.fmaUnitsOverride > 0) {
        cpu.fmaUnits = config.fmaUnitsOverride;
        cpu.fmaUnitsReason = "--fma-units";
    }
    if (config.clockGHzOverride > 0) {
        cpu.clockGHz = config.clockGHzOverride;
        cpu.clockSource = "--clock-ghz";
    }
    double highestGHz = 0;
    for (const auto& dtype : config.dtypes) {
        for (int threads : config.threads) {
            if (cancelRequested())
                return false;
            PeakFlopsPoint p;
            p.dtype = dtype;
            p.threads = threads;
            p.gflops = measureFmaGflops(dtype, threads, config.secondsPerPoint, config.repeats);
            // The clock right after the loop, boost included; /sys gives the nominal one. One
            // thread's clock: with more threads the all-core clock can only be lower, so the
            // theory errs high and the measured share low, never the other way.
            if (config.clockGHzOverride <= 0) {
                // A descheduled read only reads slower: the highest of this run's reads, and read
                // again (twice at most) while the loop beat the theory at the clock read, which
                // says the read was descheduled (ctest -j2 on 2 cores: 143 GFLOP/s against 98).
                double ghz = std::max(highestGHz, measureCoreClockGHz());
                const int cores = std::min(threads, cpu.logicalCpus);
                for (int again = 0; again < 2 && ghz > 0; ++again) {
                    CpuInfo at = cpu;
                    at.clockGHz = ghz;
                    if (p.gflops <= theoreticalGflops(at, cores, elementBytesOf(dtype)))
                        break;
                    ghz = std::max(ghz, measureCoreClockGHz());
                }
                highestGHz = ghz;
                if (ghz > 0) {
                    char text[160];
                    std::snprintf(text, sizeof text, "measured %.3f GHz (dependent-add chain, 1 thread); nominal %.3f GHz from %s",
                                  ghz, cpuIn.clockGHz, cpuIn.clockSource.c_str());
                    cpu.clockGHz = ghz;
                    cpu.clockSource = text;
                }
            }
            const int bytes = elementBytesOf(dtype);
            p.isa = toString(cpu.isa);
            p.clockGHz = cpu.clockGHz;
            p.clockSource = cpu.clockSource;
            p.fmaUnits = cpu.fmaUnits;
            p.lanes = vectorBits(cpu.isa) / (8 * bytes);
            // Theory counts cores, not SMT siblings: more threads than CPUs do not add FMA pipes.
            const int cores = std::min(threads, cpu.logicalCpus);
            p.theoreticalGflops = theoreticalGflops(cpu, cores, bytes);
            p.derivation = theoryDerivation(cpu, cores, bytes) + "; FMA units: " + cpu.fmaUnitsReason +
                           "; clock: " + cpu.clockSource;
            onPoint(p);
        }
    }
    return true;
}
} // namespace rl::kernels
