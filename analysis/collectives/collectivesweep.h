#pragma once
// Sweep planning for `ridgeline-bench collectives`, free of MPI so it is unit-tested without a
// launcher: option parsing, the size list (-b/-e/-f/-i as nccl-tests), and nccl-tests'
// PERFORMANCE.md rules for message size, element count and bandwidth.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "collectives/collectiveop.h"
#include "records/collectivepoint.h"

namespace rl {

enum class DataType { Float32, Float64, Int32 };
enum class ReduceOp { Sum, Max, Min };
enum class InPlaceMode { OutOfPlace, InPlace, Both };

const char* toString(DataType t); // "float32", "float64", "int32"
const char* toString(ReduceOp r); // "sum", "max", "min"
int elementSize(DataType t);

struct SweepParams
{
    std::vector<CollectiveOp> ops = benchmarkedOps();
    std::int64_t minBytes = 8;
    std::int64_t maxBytes = std::int64_t{256} << 20;
    int stepFactor = 2;        // multiply by this between sizes ...
    std::int64_t stepBytes = 0; // ... or, when > 0, add this many bytes instead
    std::vector<DataType> dtypes{DataType::Float32};
    std::vector<ReduceOp> redops{ReduceOp::Sum};
    InPlaceMode inPlace = InPlaceMode::Both;
    int warmup = 5;
    int iters = 20;
    int root = 0;
};

// Comma lists; each throws std::invalid_argument naming the bad item and what is accepted.
// "all" selects every benchmarked op.
std::vector<CollectiveOp> parseOpList(std::string_view text);
std::vector<DataType> parseDtypeList(std::string_view text);
std::vector<ReduceOp> parseRedopList(std::string_view text);
InPlaceMode parseInPlace(std::string_view text); // "0", "1", "both"

// Requested sizes in bytes, smallest first, exactly as nccl-tests walks them. Throws
// std::invalid_argument for an empty or endless sweep.
std::vector<std::int64_t> sweepSizes(const SweepParams& params);

// What one requested size means for an op (nccl-tests getCollByteCount): count = bytes / element
// size, then for all_gather, reduce_scatter and all_to_all the per-rank count is count / nranks,
// rounded down. `bytes` is nccl-tests' "size" column (the full buffer), `count` its "count" column
// (per-rank elements for those three ops, so bytes = count x nranks x element size).
struct PointShape
{
    std::int64_t bytes = 0;
    std::int64_t count = 0;
    std::int64_t sendElems = 0; // elements each rank's send buffer holds
    std::int64_t recvElems = 0; // elements each rank's receive buffer holds
};
PointShape pointShape(CollectiveOp op, std::int64_t requestedBytes, int elemSize, int nranks);

struct PlannedPoint
{
    CollectiveOp op = CollectiveOp::AllReduce;
    DataType dtype = DataType::Float32;
    std::optional<ReduceOp> redop; // only for ops with a reduction
    PointShape shape;
    bool inPlace = false;
    int root = -1; // -1 for ops without a root
};

// Every measurement in run order: op, dtype, redop, size, then out-of-place before in-place.
// Throws std::invalid_argument for a root outside the communicator, counts MPI cannot address
// (> INT_MAX elements), fewer than one iteration or a negative warmup.
std::vector<PlannedPoint> planSweep(const SweepParams& params, int nranks);

// Buffer sizes to allocate once for the whole sweep (reusing them avoids the glibc mmap threshold
// trap that slows later sizes down when buffers are allocated per size).
struct BufferBytes
{
    std::int64_t send = 0;
    std::int64_t recv = 0;
};
BufferBytes bufferBytes(const std::vector<PlannedPoint>& plan);

// algbw = bytes / time, busbw = algbw x busFactor (collectiveop.h); GB/s are 1e9 B/s.
CollectivePoint makePoint(const PlannedPoint& p, int nranks, double timeUs, std::int64_t wrong);

// The sweep parameters for the session header's "params".
nlohmann::json toJson(const SweepParams& params);
} // namespace rl
