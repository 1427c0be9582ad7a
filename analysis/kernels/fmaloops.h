#pragma once
// FMA-bound loops per ISA and element size (fmaloops.cpp), for peakflops.
#include <cstdint>

#include "kernels/cpuinfo.h"

namespace rl::kernels {
struct FmaLoop
{
    double (*run)(std::int64_t iterations) = nullptr; // returns a value that depends on every FMA
    double flopsPerIteration = 0;
};
// The widest loop the ISA allows; SSE2 and scalar CPUs get the 128-bit multiply-add loop.
FmaLoop fmaLoopFor(VectorIsa isa, int elementBytes);
} // namespace rl::kernels
