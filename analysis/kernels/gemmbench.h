#pragma once
// C = A·B through Eigen's API with OpenBLAS underneath (EIGEN_USE_BLAS, see gemmblas.cpp), swept
// over shapes: median of repeats after a warm-up, random inputs, a time budget per shape.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "records/kernelpoints.h"

namespace rl::kernels {

struct GemmShape
{
    std::int64_t m = 0, n = 0, k = 0;
};

struct GemmConfig
{
    std::vector<std::string> dtypes{"float64", "float32"};
    std::vector<GemmShape> shapes;
    int threads = 1;               // OpenBLAS threads
    int repeats = 5;               // timed runs per shape (median), after one warm-up
    double budgetSeconds = 2.0;    // per shape: stop repeating once spent (at least one timed run)
    double peakGflopsFp64 = 0;     // measured peaks for efficiency; 0 = not known
    double peakGflopsFp32 = 0;
};

// Every combination of the lists, in m-major order.
std::vector<GemmShape> gemmShapes(const std::vector<std::int64_t>& m, const std::vector<std::int64_t>& n,
                                  const std::vector<std::int64_t>& k);

bool runGemmSweep(const GemmConfig& config, const std::function<void(const GemmPoint&)>& onPoint);
GemmPoint measureGemm(const std::string& dtype, const GemmShape& shape, int repeats, double budgetSeconds);

// Flops over minimum bytes: 2MNK / ((MK + KN + MN) elemBytes).
double gemmIntensity(std::int64_t m, std::int64_t n, std::int64_t k, int elemBytes);

// The BLAS behind Eigen: OpenBLAS's config string ("OpenBLAS 0.3.21 ... Haswell MAX_THREADS=64")
// or empty when the linked BLAS is not OpenBLAS. Found at run time, so any BLAS links.
std::string blasLibrary();
// Sets OpenBLAS's thread count; false when the BLAS is not OpenBLAS.
bool setBlasThreads(int threads);
} // namespace rl::kernels
