#pragma once
// What the kernel benchmarks need to know about this CPU: vector ISA, clock (and where it came
// from), core count, FMA pipes per core and the cache sizes sysfs reports.
#include <cstdint>
#include <string>
#include <vector>

namespace rl::kernels {

enum class VectorIsa { Scalar, Sse2, Avx2Fma, Avx512 };
const char* toString(VectorIsa isa); // "scalar", "sse2", "avx2+fma", "avx512"
int vectorBits(VectorIsa isa);       // 64 (one double), 128, 256, 512

struct CacheLevel
{
    int level = 0;             // 1, 2, 3
    std::int64_t sizeBytes = 0; // per instance
    int sharedByCpus = 1;      // CPUs sharing one instance
};

struct CpuInfo
{
    std::string model;
    std::string vendor;        // "AuthenticAMD", "GenuineIntel"
    int family = 0;
    int modelNumber = 0;
    int logicalCpus = 1;
    VectorIsa isa = VectorIsa::Scalar;
    double clockGHz = 0;
    std::string clockSource;   // which file and field the clock came from
    int fmaUnits = 1;          // FMA pipes per core at the ISA's full width
    std::string fmaUnitsReason; // why that number
    std::vector<CacheLevel> dataCaches; // L1d, L2, L3 (unified), ascending
};

// Reads /proc/cpuinfo and /sys; never throws (unknown fields stay at their defaults).
CpuInfo detectCpu();
// The best ISA the running CPU supports (__builtin_cpu_supports).
VectorIsa detectIsa();

// The clock this core runs at now, measured: a chain of dependent integer adds retires one per
// cycle on every x86-64 core, so adds per nanosecond is GHz, boost included (which /sys and
// /proc do not show inside a VM). 0 where it cannot be measured (not x86-64).
double measureCoreClockGHz(double seconds = 0.02);

// Theoretical peak GFLOP/s: threads x clock x FMA units x lanes(dtype) x 2.
double theoreticalGflops(const CpuInfo& cpu, int threads, int elementBytes);
std::string theoryDerivation(const CpuInfo& cpu, int threads, int elementBytes);
} // namespace rl::kernels
