#pragma once
// Body of the GEMM timing loop (gemmblas.cpp).
#include <chrono>
#include <cstdint>
#include <vector>

#include <Eigen/Dense>

namespace rl::kernels::detail {
namespace {
template <typename Scalar>
std::vector<double> timeGemm(std::int64_t m, std::int64_t n, std::int64_t k, int repeats, double budget)
{
    using Matrix = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;
    using Clock = std::chrono::steady_clock;
    // Random in [-1, 1] (Eigen's Random); shifted away from 0 so no operand is an exact zero.
    Matrix a = Matrix::Random(m, k).array() + Scalar(2);
    Matrix b = Matrix::Random(k, n).array() + Scalar(2);
    Matrix c(m, n);
    const auto start = Clock::now();
    c.noalias() = a * b; // warm-up: page faults, BLAS thread start-up, caches
    asm volatile("" : : "r"(c.data()), "r"(a.data()), "r"(b.data()) : "memory");
    std::vector<double> times;
    for (int r = 0; r < repeats; ++r) {
        const auto t0 = Clock::now();
        c.noalias() = a * b;
        // The result escapes here: the compiler sees every product and must not merge or drop any.
        asm volatile("" : : "r"(c.data()), "r"(a.data()), "r"(b.data()) : "memory");
        const auto t1 = Clock::now();
        times.push_back(std::chrono::duration<double>(t1 - t0).count());
        if (std::chrono::duration<double>(t1 - start).count() > budget)
            break;
    }
    // Keep the result alive for the optimiser.
    volatile Scalar sink = c(m - 1, n - 1);
    (void)sink;
    return times;
}
} // namespace
} // namespace rl::kernels::detail
