#pragma once
// The GEMM shapes a vendor GEMM bench is run over: a square sweep, AMD's max-achievable-FLOPs
// recipe for a CU count, and the GEMMs of a model's training step from the sizing model. Each
// recipe says where its shapes come from, which the session keeps.
#include <cstdint>
#include <string>
#include <vector>

#include "model/modelconfig.h"
#include "model/parallelconfig.h"

namespace rl::tools {

struct GemmShape
{
    std::int64_t m = 0, n = 0, k = 0;
    std::int64_t batch = 1;
    std::string transA = "N", transB = "N";
    std::string label; // "square", "1 wave on 304 CUs", "qkv fwd", ...
    bool operator==(const GemmShape& o) const
    {
        return m == o.m && n == o.n && k == o.k && batch == o.batch && transA == o.transA && transB == o.transB;
    }
};

// M = N = K over powers of two from `from` to `to`.
std::vector<GemmShape> squareSweep(std::int64_t from, std::int64_t to);
// AMD's method for max-achievable FLOPs: output tiles of 256x256 spread over the CUs in whole waves
// (M/256 x N/256 = waves x CUs, M and N as close as the CU count's factors allow) with a long K
// (8192), so no CU idles at the tail: one shape per wave count in `waves`.
std::vector<GemmShape> maxAchievableShapes(int cus, const std::vector<int>& waves = {1, 2, 4});
// The distinct GEMMs of one training step on one GPU (the sizing model's list, forward and
// backward), labelled by name and pass; batched GEMMs (heads, local experts) keep their batch.
std::vector<GemmShape> modelStepShapes(const model::ModelConfig& c, const model::ParallelConfig& p);

// "4096x4096x4096" or "4096x4096x4096xNT" (transA, transB); throws std::invalid_argument naming it.
GemmShape parseShape(const std::string& text);
} // namespace rl::tools
