#pragma once
// The four STREAM kernels over one thread's slice, each repeated `times` times back to back.
// Compiled with -O3 and target clones (AVX-512 / AVX2 / baseline) in streamkernels.cpp.
#include <cstdint>
#include <string_view>

namespace rl::kernels {

enum class StreamKernel { Copy, Scale, Add, Triad };
const char* toString(StreamKernel k);
bool streamKernelFromString(std::string_view name, StreamKernel& out);
// Bytes STREAM counts per element: copy and scale 16, add and triad 24 (no write-allocate).
int streamBytesPerElement(StreamKernel k);
int streamArrays(StreamKernel k); // 2 or 3

void runStreamKernel(StreamKernel k, double* a, double* b, double* c, std::int64_t n, int times);
} // namespace rl::kernels
