#pragma once
// The timed GEMM calls (gemmblas.cpp: Eigen on OpenBLAS). Returns the per-run times in seconds.
#include <cstdint>
#include <vector>

namespace rl::kernels::detail {
std::vector<double> timeGemmBlas(bool f64, std::int64_t m, std::int64_t n, std::int64_t k, int repeats, double budget);
} // namespace rl::kernels::detail
