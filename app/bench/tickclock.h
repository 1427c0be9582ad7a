#pragma once
// The cheapest clock the CPU has, for timing each sample of the measuring loop: the time-stamp
// counter on x86-64 (~10 ns a read on this KVM guest, against ~31 ns for steady_clock through the
// vDSO and 39 ns for MPI_Wtime), the virtual counter on AArch64, steady_clock elsewhere. Ticks
// are converted with a rate measured against steady_clock over the same loop, so no frequency is
// assumed; an invariant TSC (every x86-64 server CPU of the last decade) is.
#include <chrono>
#include <cstdint>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

namespace rl {

inline std::uint64_t readTicks()
{
#if defined(__x86_64__) || defined(__i386__)
    return __rdtsc();
#elif defined(__aarch64__)
    std::uint64_t v;
    asm volatile("mrs %0, cntvct_el0" : "=r"(v));
    return v;
#else
    return static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
#endif
}

inline double steadySeconds()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
} // namespace rl
