#pragma once
// How many calls the runner times at each point, chosen from a time budget the way the Intel MPI
// Benchmarks do (IMB_settings.h: at most 1000 calls per size, the count cut so one size stays
// within a time limit, warm-up a tenth of the timed calls), and the buffer rotation of IMB's
// -off_cache. MPI-free: the runner measures a pilot and asks these functions what to do next.
#include <cstdint>
#include <optional>

#include <nlohmann/json.hpp>

namespace rl {

struct TimingPolicy
{
    std::optional<int> iters;    // -n: the same number of timed calls at every point
    std::optional<int> warmup;   // -w: the same number of untimed calls before them
    double secondsPerPoint = 0.2; // timed + warm-up calls of one point stay within this ...
    double totalSeconds = 600;    // ... and the whole sweep within this (0: no overall limit)
    int minIters = 10;            // never fewer timed calls (the budgets give way)
    int maxIters = 1000;          // never more (IMB's MSGSPERSAMPLE)
    double warmupFraction = 0.1;  // untimed calls per timed call (IMB's WARMUP_PERCENT)
    int minWarmup = 2;
    double minSampleUs = 1.0;     // shorter calls are timed in groups of this length at least
};

// Throws std::invalid_argument naming the option for counts below 1 (iters, min/max) or below 0
// (warmup), min above max, a non-positive time, or -w 0 without -n (nothing to size the loop by).
void validate(const TimingPolicy& p);

struct Repetitions
{
    int warmup = 0;         // untimed calls in all, the pilot calls included
    int iters = 1;          // timed calls, a multiple of callsPerSample
    int callsPerSample = 1;
};

// The calls that size the loop: one, then this many more at the one call's time (about 2 ms
// worth, at least 3 unless the first took over 20 ms, at most 100), all of them counting as warm-up;
// the runner sizes the loop by their median. A fixed warm-up count caps them.
int pilotCalls(const TimingPolicy& p, double firstCallUs);

// The point's time budget: the per-point limit, or the overall time left shared by the points
// left when that is less.
double pointBudgetSeconds(const TimingPolicy& p, double elapsedSeconds, std::int64_t pointsLeft);

// Repetitions for a point whose calls take about estCallUs (measured by the pilot).
Repetitions chooseRepetitions(const TimingPolicy& p, double estCallUs, double budgetSeconds);

// IMB -off_cache: the buffer of one call is taken from a pool in turn, `slots` buffers `stride`
// bytes apart, so at least cacheBytes of other buffers are touched before one is used again.
// Buffers as large as the cache need no rotation (one slot).
struct OffCacheLayout
{
    std::int64_t stride = 0;
    int slotCount = 1; // not `slots`: a Qt keyword macro where this header meets Qt code
    std::int64_t poolBytes() const; // (slots - 1) x stride + the buffer
    std::int64_t bufferBytes = 0;
};
OffCacheLayout offCacheLayout(std::int64_t bufferBytes, std::int64_t cacheBytes);

nlohmann::json toJson(const TimingPolicy& p);
} // namespace rl
