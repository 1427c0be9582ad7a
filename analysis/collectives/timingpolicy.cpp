#include "collectives/timingpolicy.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace rl {
namespace {
constexpr int kMaxPilot = 100;
constexpr int kMinPilot = 3;
constexpr double kSlowFirstCallUs = 20e3;
constexpr double kPilotSeconds = 2e-3;
constexpr std::int64_t kPage = 4096;

int clampToInt(double v, int lo, int hi)
{
    if (!(v == v)) // NaN
        return lo;
    return static_cast<int>(std::clamp(v, double(lo), double(hi)));
}
} // namespace

void validate(const TimingPolicy& p)
{
    if (p.iters && *p.iters < 1)
        throw std::invalid_argument("--iters must be at least 1");
    if (p.warmup && *p.warmup < 0)
        throw std::invalid_argument("--warmup must not be negative");
    if (p.warmup && *p.warmup == 0 && !p.iters)
        throw std::invalid_argument("--warmup 0 needs --iters: the time budget sizes each loop from warm-up calls");
    if (p.minIters < 1)
        throw std::invalid_argument("--min-iters must be at least 1");
    if (p.maxIters < p.minIters)
        throw std::invalid_argument("--max-iters (" + std::to_string(p.maxIters) + ") is below --min-iters (" +
                                    std::to_string(p.minIters) + ")");
    if (!(p.secondsPerPoint > 0))
        throw std::invalid_argument("--time-per-size must be positive (seconds)");
    if (!(p.totalSeconds >= 0))
        throw std::invalid_argument("--time-budget must not be negative (seconds; 0 = no limit)");
    if (!(p.warmupFraction >= 0) || p.minWarmup < 0 || !(p.minSampleUs >= 0))
        throw std::invalid_argument("bad warm-up or sample settings");
}

int pilotCalls(const TimingPolicy& p, double firstCallUs)
{
    // At least kMinPilot calls after the first unless that one was really slow: the first calls at
    // a new size can run 10x slow (Open MPI's shared-memory transport switching protocol at 512 KiB
    // was seen), and one more call alone sized a 0.2 s loop at 76 calls of 288 us.
    const int fewest = firstCallUs < kSlowFirstCallUs ? kMinPilot : 1;
    int n = firstCallUs > 0 ? clampToInt(std::floor(kPilotSeconds * 1e6 / firstCallUs), fewest, kMaxPilot) : kMaxPilot;
    if (p.warmup)
        n = std::min(n, std::max(*p.warmup - 1, 0));
    return n;
}

double pointBudgetSeconds(const TimingPolicy& p, double elapsedSeconds, std::int64_t pointsLeft)
{
    double budget = p.secondsPerPoint;
    if (p.totalSeconds > 0)
        budget = std::min(budget, std::max(p.totalSeconds - elapsedSeconds, 0.0) / double(std::max<std::int64_t>(pointsLeft, 1)));
    return budget;
}

Repetitions chooseRepetitions(const TimingPolicy& p, double estCallUs, double budgetSeconds)
{
    Repetitions r;
    const double est = std::max(estCallUs, 1e-3); // a call under 1 ns is a clock artefact
    r.callsPerSample = clampToInt(std::ceil(p.minSampleUs / est), 1, 1 << 20);
    if (p.iters) {
        r.iters = *p.iters;
    } else {
        const double perCall = est * 1e-6 * (1.0 + p.warmupFraction);
        r.iters = clampToInt(std::floor(std::max(budgetSeconds, 0.0) / perCall), p.minIters, p.maxIters);
    }
    r.callsPerSample = std::min(r.callsPerSample, r.iters);
    if (!p.iters) // full samples only; a fixed -n is kept exactly (the last sample may be short)
        r.iters = (r.iters + r.callsPerSample - 1) / r.callsPerSample * r.callsPerSample;
    r.warmup = p.warmup ? *p.warmup
                        : std::max(p.minWarmup, clampToInt(std::ceil(r.iters * p.warmupFraction), 0, 1 << 30));
    return r;
}

std::int64_t OffCacheLayout::poolBytes() const { return std::int64_t(slotCount - 1) * stride + bufferBytes; }

OffCacheLayout offCacheLayout(std::int64_t bufferBytes, std::int64_t cacheBytes)
{
    OffCacheLayout l;
    l.bufferBytes = std::max<std::int64_t>(bufferBytes, 0);
    // Page-aligned slots keep every call's alignment the same as the unrotated buffer's.
    l.stride = std::max<std::int64_t>((l.bufferBytes + kPage - 1) / kPage * kPage, kPage);
    if (cacheBytes > 0 && l.bufferBytes < cacheBytes)
        l.slotCount = static_cast<int>(1 + (cacheBytes + l.stride - 1) / l.stride);
    return l;
}

nlohmann::json toJson(const TimingPolicy& p)
{
    nlohmann::json j{{"policy", p.iters ? "fixed" : "time budget (IMB-like)"},
                     {"seconds_per_point", p.secondsPerPoint},
                     {"total_seconds", p.totalSeconds},
                     {"min_iters", p.minIters},
                     {"max_iters", p.maxIters},
                     {"warmup_fraction", p.warmupFraction},
                     {"min_warmup", p.minWarmup},
                     {"min_sample_us", p.minSampleUs}};
    j["iters"] = p.iters ? nlohmann::json(*p.iters) : nlohmann::json("auto");
    j["warmup_iters"] = p.warmup ? nlohmann::json(*p.warmup) : nlohmann::json("auto");
    return j;
}
} // namespace rl
