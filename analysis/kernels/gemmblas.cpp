// GEMM through OpenBLAS: EIGEN_USE_BLAS is a PUBLIC definition of ridgeline_analysis, so every
// Eigen product in the program takes the same (BLAS) path. Defining it in one file only would make
// Eigen's product templates differ between files (an ODR violation the linker resolves silently).
#include "kernels/gemmtimingimpl.h"
#include "kernels/gemmtiming.h"

#ifndef EIGEN_USE_BLAS
#error "ridgeline_analysis must define EIGEN_USE_BLAS for every user (analysis/CMakeLists.txt)"
#endif

namespace rl::kernels::detail {
std::vector<double> timeGemmBlas(bool f64, std::int64_t m, std::int64_t n, std::int64_t k, int repeats, double budget)
{
    return f64 ? timeGemm<double>(m, n, k, repeats, budget) : timeGemm<float>(m, n, k, repeats, budget);
}
} // namespace rl::kernels::detail
