#pragma once
// One measured collective point, in nccl-tests' PERFORMANCE.md conventions whatever the source:
// bytes is the nccl-tests "size" (full buffer for reduce_scatter/all_gather), algbw = bytes / time,
// busbw = algbw x the op's bus factor (collectives/collectiveop.h).
#include <cstdint>
#include <optional>
#include <string>

namespace rl {
// How the runner's time was measured: the distribution over the timed calls. Each statistic is
// taken per rank over that rank's samples, then the maximum over ranks is kept (the slowest rank
// decides when a collective is done; IMB's t_max is the max over ranks of the mean).
struct CallStats
{
    int iters = 0;          // timed calls per rank
    int warmup = 0;         // untimed calls before them (including the calls that sized the loop)
    int callsPerSample = 1; // calls timed back to back per sample: calls shorter than ~1 µs are
                            // grouped so one clock read costs under 1 % of a sample
    double meanUs = 0;      // = CollectivePoint::timeUs
    double minUs = 0;
    double maxUs = 0;
    double p50Us = 0;
    double p99Us = 0;
    double cv = 0;          // standard deviation / mean of the samples (0 for one sample)

    friend bool operator==(const CallStats&, const CallStats&) = default;
};

struct CollectivePoint
{
    std::string op;    // canonical op name: all_reduce, reduce_scatter, all_gather, broadcast, all_to_all, ...
    int nranks = 0;
    std::string dtype; // float32, float64, int32, bfloat16, ...
    std::string redop; // sum, max, min, prod, avg; empty for ops without reduction
    std::int64_t bytes = 0;
    std::int64_t count = 0; // elements
    bool inPlace = false;
    int root = -1;          // -1 when the op has no root
    double timeUs = 0;
    double algbwGBs = 0;
    double busbwGBs = 0;
    std::int64_t wrong = 0; // wrong elements in the checked call; -1 when not checked
    std::optional<CallStats> stats = {}; // the runner's points; imports of other tools have none
    // all_to_allv: max over ranks of max(bytes sent, received) / mean bytes sent per rank (1 =
    // balanced; collectives/routingmatrix.h); 0 for every other op.
    double imbalance = 0;
    // `ridgeline-bench collectives --split`: the group of ranks that measured the point on its own
    // communicator ("node vm", "nodes a+b", "ranks 0-1", "world"); empty for a run of all ranks.
    std::string group = {}; // "= {}" like stats: aggregate initializers leave it out unwarned

    friend bool operator==(const CollectivePoint&, const CollectivePoint&) = default;
};
} // namespace rl
