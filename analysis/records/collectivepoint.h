#pragma once
// One measured collective point, in nccl-tests' PERFORMANCE.md conventions whatever the source:
// bytes is the nccl-tests "size" (full buffer for reduce_scatter/all_gather), algbw = bytes / time,
// busbw = algbw x the op's bus factor (collectives/collectiveop.h).
#include <cstdint>
#include <string>

namespace rl {
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

    friend bool operator==(const CollectivePoint&, const CollectivePoint&) = default;
};
} // namespace rl
