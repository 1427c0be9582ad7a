#pragma once
// Finds the cache plateaus (L1, L2, L3, DRAM) in a bandwidth-versus-working-set sweep: the
// log-size curve is split into flat segments by optimal piecewise-constant segmentation (BIC
// picks the number of segments), transition points are dropped, and the sysfs cache sizes, when
// given, name the levels. Each plateau becomes a bandwidth ceiling for the roofline.
#include <vector>

#include "kernels/cpuinfo.h"
#include "records/kernelpoints.h"

namespace rl::kernels {

struct PlateauOptions
{
    std::string kernel = "triad";
    int threads = 1;
    double mergeTolerance = 0.08; // adjacent plateaus closer than this (relative) are one level
};

// Uses only the points of options.kernel at options.threads. caches may be empty (levels are then
// named in order L1, L2, ... with the last one DRAM).
std::vector<MemCeiling> detectPlateaus(const std::vector<MemBwPoint>& points, const std::vector<CacheLevel>& caches,
                                       const PlateauOptions& options = {});

// Aggregate capacity of a cache level as `threads` threads see it (private caches add up).
double effectiveCapacity(const CacheLevel& cache, int threads);
} // namespace rl::kernels
