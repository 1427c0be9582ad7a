#pragma once
// Kernel benchmark records: GEMM points, memory-bandwidth points and the cache-level ceilings
// detected from them, and measured compute ceilings. Produced by ridgeline-bench (gemm, membw,
// peakflops) and by the GEMM/STREAM/HPCC importers; the roofline and the measured hardware
// profile read them.
#include <cstdint>
#include <string>

namespace rl {

struct GemmPoint
{
    std::string dtype;        // input type: "float64", "float32", "bfloat16", "float16", "float8", "int8", ...
    std::string computeType;  // accumulate type when the tool reports one ("float32"), else empty
    std::string outType;      // C/D type when the tool reports one, else empty
    std::string transA = "N"; // "N" or "T"
    std::string transB = "N";
    std::int64_t m = 0;
    std::int64_t n = 0;
    std::int64_t k = 0;
    std::int64_t batch = 1;
    double timeUs = 0;        // per GEMM (median for our runs)
    double gflops = 0;        // 2·M·N·K·batch / time, GFLOP/s (1e9)
    // FLOPs over the minimum bytes moved: 2MNK / ((MK + KN + MN)·elem size); 0 when the element
    // size is unknown.
    double intensity = 0;
    double efficiency = 0;    // gflops / measured peak of the same dtype; 0 when no peak is known
    int threads = 0;          // CPU threads (ridgeline-bench); 0 for devices
    std::string device;       // "cpu", "gfx950", ... as the tool reports it
    std::string solution;     // kernel / solution index when reported

    friend bool operator==(const GemmPoint&, const GemmPoint&) = default;
};

// One STREAM kernel at one working-set size and thread count; bandwidth counts bytes as STREAM
// does (copy/scale 2 arrays, add/triad 3 arrays, 8 bytes per double, no write-allocate traffic).
struct MemBwPoint
{
    std::string kernel;       // "copy", "scale", "add", "triad"
    std::int64_t bytes = 0;   // working set: all arrays the kernel touches together
    int threads = 1;
    double bestTimeUs = 0;    // best of the repeats, as STREAM reports
    double bandwidthGBs = 0;  // counted bytes / best time, GB/s (1e9)

    friend bool operator==(const MemBwPoint&, const MemBwPoint&) = default;
};

// A bandwidth plateau of the membw sweep: one memory level's ceiling for the roofline.
struct MemCeiling
{
    std::string level;        // "L1", "L2", "L3", "DRAM"
    std::string kernel;       // which STREAM kernel it was detected on (triad by default)
    int threads = 1;
    std::int64_t fromBytes = 0; // working-set range of the plateau
    std::int64_t toBytes = 0;
    double bandwidthGBs = 0;  // median bandwidth over the plateau, GB/s

    friend bool operator==(const MemCeiling&, const MemCeiling&) = default;
};

// Measured compute ceiling of one dtype at one thread count, with how the theory was derived.
struct PeakFlopsPoint
{
    std::string dtype;        // "float64", "float32"
    int threads = 1;
    double gflops = 0;        // measured, GFLOP/s
    double theoreticalGflops = 0; // cores x clock x FMA units x lanes x 2; 0 when unknown
    std::string isa;          // "avx512", "avx2+fma", "sse2", ...
    double clockGHz = 0;
    std::string clockSource;  // "/sys/.../cpuinfo_max_freq", "/proc/cpuinfo cpu MHz", ...
    int fmaUnits = 0;         // FMA pipes per core assumed in the theory
    int lanes = 0;            // SIMD lanes of dtype per vector
    std::string derivation;   // human text: "2 cores x 2.60 GHz x 2 FMA x 8 lanes x 2 FLOP"

    friend bool operator==(const PeakFlopsPoint&, const PeakFlopsPoint&) = default;
};
} // namespace rl
