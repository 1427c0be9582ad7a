#include "kernels/streamkernels.h"

namespace rl::kernels {
namespace {
constexpr double kScalar = 3.0; // STREAM's scalar

// The barrier keeps the compiler from merging or dropping the back-to-back repetitions.
inline void compilerBarrier() { asm volatile("" ::: "memory"); }

// no-tree-loop-distribute-patterns: keep copy a loop, as STREAM measures it, instead of a memcpy
// call that may switch to non-temporal stores.
__attribute__((target_clones("avx512f", "avx2", "default"), optimize("no-tree-loop-distribute-patterns")))
void copyLoop(const double* __restrict a, double* __restrict c, std::int64_t n, int times)
{
    for (int t = 0; t < times; ++t) {
        for (std::int64_t i = 0; i < n; ++i)
            c[i] = a[i];
        compilerBarrier();
    }
}

__attribute__((target_clones("avx512f", "avx2", "default")))
void scaleLoop(double* __restrict b, const double* __restrict c, std::int64_t n, int times)
{
    for (int t = 0; t < times; ++t) {
        for (std::int64_t i = 0; i < n; ++i)
            b[i] = kScalar * c[i];
        compilerBarrier();
    }
}

__attribute__((target_clones("avx512f", "avx2", "default")))
void addLoop(const double* __restrict a, const double* __restrict b, double* __restrict c, std::int64_t n, int times)
{
    for (int t = 0; t < times; ++t) {
        for (std::int64_t i = 0; i < n; ++i)
            c[i] = a[i] + b[i];
        compilerBarrier();
    }
}

__attribute__((target_clones("avx512f", "avx2", "default")))
void triadLoop(double* __restrict a, const double* __restrict b, const double* __restrict c, std::int64_t n, int times)
{
    for (int t = 0; t < times; ++t) {
        for (std::int64_t i = 0; i < n; ++i)
            a[i] = b[i] + kScalar * c[i];
        compilerBarrier();
    }
}
} // namespace

const char* toString(StreamKernel k)
{
    switch (k) {
    case StreamKernel::Copy: return "copy";
    case StreamKernel::Scale: return "scale";
    case StreamKernel::Add: return "add";
    case StreamKernel::Triad: return "triad";
    }
    return "triad";
}

bool streamKernelFromString(std::string_view name, StreamKernel& out)
{
    for (auto k : {StreamKernel::Copy, StreamKernel::Scale, StreamKernel::Add, StreamKernel::Triad}) {
        if (name == toString(k)) {
            out = k;
            return true;
        }
    }
    return false;
}

int streamBytesPerElement(StreamKernel k) { return streamArrays(k) * static_cast<int>(sizeof(double)); }
int streamArrays(StreamKernel k) { return k == StreamKernel::Copy || k == StreamKernel::Scale ? 2 : 3; }

void runStreamKernel(StreamKernel k, double* a, double* b, double* c, std::int64_t n, int times)
{
    switch (k) {
    case StreamKernel::Copy: copyLoop(a, c, n, times); break;
    case StreamKernel::Scale: scaleLoop(b, c, n, times); break;
    case StreamKernel::Add: addLoop(a, b, c, n, times); break;
    case StreamKernel::Triad: triadLoop(a, b, c, n, times); break;
    }
}
} // namespace rl::kernels
