#pragma once
// Aggregated results of a Kineto trace session ("trace" kind): what the store keeps. Individual
// events stay in the trace file; a timeline re-reads it.
#include <cstdint>
#include <string>
#include <string_view>

namespace rl {

// Kernel classes, in the order the breakdown shows them.
enum class KernelClass { Gemm, Attention, Communication, Memcpy, Other };
const char* toString(KernelClass c); // "gemm", "attention", "communication", "memcpy", "other"
bool kernelClassFromString(std::string_view s, KernelClass& out);

// One step of one rank. Times in microseconds. The step window is the CPU-side ProfilerStep#N
// annotation; GPU work is clipped to it. Class times are sums over streams (they can exceed the
// step time when streams run concurrently); the *Busy fields are interval unions.
struct StepBreakdown
{
    int rank = 0;
    std::int64_t step = -1;     // ProfilerStep number; -1 = the whole trace (no step annotations)
    double startUs = 0;         // trace clock
    double stepUs = 0;
    double gemmUs = 0;
    double attentionUs = 0;
    double communicationUs = 0;
    double memcpyUs = 0;
    double otherUs = 0;
    double computeBusyUs = 0;   // union of non-communication kernels
    double communicationBusyUs = 0;
    double overlapUs = 0;       // communication overlapped by compute
    double exposedCommUs = 0;   // communicationBusy - overlap
    double gpuBusyUs = 0;       // union of all GPU activity
    double idleUs = 0;          // stepUs - gpuBusyUs
    std::int64_t kernelCount = 0;
};

// One kernel name on one rank over the whole trace.
struct KernelStat
{
    int rank = 0;
    std::string name;
    KernelClass kernelClass = KernelClass::Other;
    std::int64_t count = 0;
    double totalUs = 0;
    double minUs = 0;
    double maxUs = 0;
    double share = 0;           // of the rank's total kernel time, 0..1
    double flops = 0;           // summed kernel_flop args (0 = not recorded)
    double bytes = 0;           // summed kernel_num_gb args x 1e9 (0 = not recorded)
    double meanUs() const { return count ? totalUs / double(count) : 0; }
};

// One GPU activity of the representative step of a rank, for the per-stream timeline. Times are
// relative to the step's start.
struct TimelineEvent
{
    int rank = 0;
    std::int64_t step = -1;     // as StepBreakdown::step
    int stream = 0;
    std::string name;
    KernelClass kernelClass = KernelClass::Other;
    double startUs = 0;
    double durUs = 0;

    friend bool operator==(const TimelineEvent&, const TimelineEvent&) = default;
};

// Collective calls of one shape on one rank (op, dtype, group size, bytes), from NCCL/RCCL kernel
// args. bytes follows nccl-tests' "size" (full buffer), so busbw is comparable with benchmarks.
struct TraceCollective
{
    int rank = 0;
    std::string op;             // canonical (collectives/collectiveop.h)
    std::string dtype;
    int nranks = 0;
    std::int64_t bytes = 0;
    std::int64_t count = 0;     // calls
    double totalUs = 0;
    double minUs = 0;
    double algbwGBs = 0;        // from the mean time
    double busbwGBs = 0;
    double bestBusbwGBs = 0;    // from the fastest call (NCCL kernels include waiting for peers)
    double meanUs() const { return count ? totalUs / double(count) : 0; }
};
} // namespace rl
