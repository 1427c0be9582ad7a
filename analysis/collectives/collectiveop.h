#pragma once
// Collective operations and nccl-tests' PERFORMANCE.md conventions for size and bus bandwidth.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rl {

enum class CollectiveOp { AllReduce, ReduceScatter, AllGather, Broadcast, AllToAll, Reduce, SendRecv, AllToAllV };

const char* toString(CollectiveOp op); // canonical: "all_reduce", "reduce_scatter", ...
// Accepts canonical names and the spellings other tools use: "allreduce", "all_reduce_perf",
// "AllReduce", "osu_allreduce", "Allreduce" (IMB), "alltoall", "Reduce_scatter", "bcast", ...
std::optional<CollectiveOp> collectiveOpFromString(std::string_view name);
const std::vector<CollectiveOp>& benchmarkedOps(); // the five "all" stands for (all_to_allv needs a matrix)

// busbw = algbw x busFactor(op, n): 2(n-1)/n all_reduce; (n-1)/n reduce_scatter, all_gather,
// all_to_all, all_to_allv; 1 broadcast, reduce, send_recv.
double busFactor(CollectiveOp op, int nranks);
bool hasReduction(CollectiveOp op);
bool hasRoot(CollectiveOp op);

// Element sizes and names of the data types the runner and importers know.
std::optional<int> dtypeSize(std::string_view dtype);
// Normalises "float"/"fp32"/"float32" -> "float32", "double" -> "float64", "half" -> "float16",
// "bfloat16"/"bf16" -> "bfloat16", "int" -> "int32", ... Unknown names are returned unchanged.
std::string canonicalDtype(std::string_view dtype);
} // namespace rl
