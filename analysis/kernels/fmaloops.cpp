// The FMA loops, compiled per ISA with target attributes and picked at run time, so one binary
// runs everywhere and still issues full-width FMAs where the CPU has them.
#include "kernels/fmaloops.h"

#include <immintrin.h>

namespace rl::kernels {
namespace {
// acc = acc * m + c converges to c / (1 - m): no overflow, no denormals, however long it runs.
// 16 chains cover 4-cycle latency x 2 pipes with room to spare, and fit the 32 zmm registers.
constexpr int kChains = 16;

__attribute__((target("avx512f"))) double fma512d(std::int64_t iterations)
{
    __m512d acc[kChains];
    for (int i = 0; i < kChains; ++i)
        acc[i] = _mm512_set1_pd(1.0 + i * 1e-3);
    const __m512d m = _mm512_set1_pd(0.999999);
    const __m512d c = _mm512_set1_pd(1e-6);
    for (std::int64_t it = 0; it < iterations; ++it) {
#pragma GCC unroll 16
        for (int i = 0; i < kChains; ++i)
            acc[i] = _mm512_fmadd_pd(acc[i], m, c);
    }
    __m512d sum = acc[0];
    for (int i = 1; i < kChains; ++i)
        sum = _mm512_add_pd(sum, acc[i]);
    // Not _mm512_reduce_add_pd: GCC 12 warns inside it (-Wuninitialized on _mm256_undefined_pd).
    alignas(64) double out[8];
    _mm512_store_pd(out, sum);
    double s = 0;
    for (double v : out)
        s += v;
    return s;
}

__attribute__((target("avx512f"))) double fma512s(std::int64_t iterations)
{
    __m512 acc[kChains];
    for (int i = 0; i < kChains; ++i)
        acc[i] = _mm512_set1_ps(1.0f + i * 1e-3f);
    const __m512 m = _mm512_set1_ps(0.9999f);
    const __m512 c = _mm512_set1_ps(1e-4f);
    for (std::int64_t it = 0; it < iterations; ++it) {
#pragma GCC unroll 16
        for (int i = 0; i < kChains; ++i)
            acc[i] = _mm512_fmadd_ps(acc[i], m, c);
    }
    __m512 sum = acc[0];
    for (int i = 1; i < kChains; ++i)
        sum = _mm512_add_ps(sum, acc[i]);
    alignas(64) float out[16];
    _mm512_store_ps(out, sum);
    float s = 0;
    for (float v : out)
        s += v;
    return s;
}

__attribute__((target("avx2,fma"))) double fma256d(std::int64_t iterations)
{
    __m256d acc[kChains];
    for (int i = 0; i < kChains; ++i)
        acc[i] = _mm256_set1_pd(1.0 + i * 1e-3);
    const __m256d m = _mm256_set1_pd(0.999999);
    const __m256d c = _mm256_set1_pd(1e-6);
    for (std::int64_t it = 0; it < iterations; ++it) {
#pragma GCC unroll 16
        for (int i = 0; i < kChains; ++i)
            acc[i] = _mm256_fmadd_pd(acc[i], m, c);
    }
    alignas(32) double out[4];
    __m256d sum = acc[0];
    for (int i = 1; i < kChains; ++i)
        sum = _mm256_add_pd(sum, acc[i]);
    _mm256_store_pd(out, sum);
    return out[0] + out[1] + out[2] + out[3];
}

__attribute__((target("avx2,fma"))) double fma256s(std::int64_t iterations)
{
    __m256 acc[kChains];
    for (int i = 0; i < kChains; ++i)
        acc[i] = _mm256_set1_ps(1.0f + i * 1e-3f);
    const __m256 m = _mm256_set1_ps(0.9999f);
    const __m256 c = _mm256_set1_ps(1e-4f);
    for (std::int64_t it = 0; it < iterations; ++it) {
#pragma GCC unroll 16
        for (int i = 0; i < kChains; ++i)
            acc[i] = _mm256_fmadd_ps(acc[i], m, c);
    }
    alignas(32) float out[8];
    __m256 sum = acc[0];
    for (int i = 1; i < kChains; ++i)
        sum = _mm256_add_ps(sum, acc[i]);
    _mm256_store_ps(out, sum);
    float s = 0;
    for (float v : out)
        s += v;
    return s;
}

// SSE2 has no FMA: a multiply and an add per element, counted as the 2 FLOPs they are.
double mulAdd128d(std::int64_t iterations)
{
    __m128d acc[kChains];
    for (int i = 0; i < kChains; ++i)
        acc[i] = _mm_set1_pd(1.0 + i * 1e-3);
    const __m128d m = _mm_set1_pd(0.999999);
    const __m128d c = _mm_set1_pd(1e-6);
    for (std::int64_t it = 0; it < iterations; ++it) {
#pragma GCC unroll 16
        for (int i = 0; i < kChains; ++i)
            acc[i] = _mm_add_pd(_mm_mul_pd(acc[i], m), c);
    }
    alignas(16) double out[2];
    __m128d sum = acc[0];
    for (int i = 1; i < kChains; ++i)
        sum = _mm_add_pd(sum, acc[i]);
    _mm_store_pd(out, sum);
    return out[0] + out[1];
}

double mulAdd128s(std::int64_t iterations)
{
    __m128 acc[kChains];
    for (int i = 0; i < kChains; ++i)
        acc[i] = _mm_set1_ps(1.0f + i * 1e-3f);
    const __m128 m = _mm_set1_ps(0.9999f);
    const __m128 c = _mm_set1_ps(1e-4f);
    for (std::int64_t it = 0; it < iterations; ++it) {
#pragma GCC unroll 16
        for (int i = 0; i < kChains; ++i)
            acc[i] = _mm_add_ps(_mm_mul_ps(acc[i], m), c);
    }
    alignas(16) float out[4];
    __m128 sum = acc[0];
    for (int i = 1; i < kChains; ++i)
        sum = _mm_add_ps(sum, acc[i]);
    _mm_store_ps(out, sum);
    return out[0] + out[1] + out[2] + out[3];
}
} // namespace

FmaLoop fmaLoopFor(VectorIsa isa, int elementBytes)
{
    const bool f64 = elementBytes == 8;
    switch (isa) {
    case VectorIsa::Avx512:
        return {f64 ? fma512d : fma512s, 2.0 * kChains * (f64 ? 8 : 16)};
    case VectorIsa::Avx2Fma:
        return {f64 ? fma256d : fma256s, 2.0 * kChains * (f64 ? 4 : 8)};
    case VectorIsa::Sse2:
    case VectorIsa::Scalar:
        break;
    }
    return {f64 ? mulAdd128d : mulAdd128s, 2.0 * kChains * (f64 ? 2 : 4)};
}
} // namespace rl::kernels
