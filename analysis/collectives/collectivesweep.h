#pragma once
// Sweep planning for `ridgeline-bench collectives`, free of MPI so it is unit-tested without a
// launcher: option parsing, the size list (-b/-e/-f/-i as nccl-tests), and nccl-tests'
// PERFORMANCE.md rules for message size, element count and bandwidth.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "collectives/collectiveop.h"
#include "collectives/routingmatrix.h"
#include "collectives/timingpolicy.h"
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
    TimingPolicy timing;            // calls per point: a time budget, or fixed with -n/-w
    std::int64_t offCacheBytes = 0; // > 0: rotate buffers through this much memory (IMB -off_cache)
    int root = 0;
    // all_to_allv: who sends how much to whom (routingmatrix.h), scaled to each size of the sweep.
    std::shared_ptr<const RoutingMatrix> routing;
    std::string routingSource; // for the session header: "routing.csv", "moe experts=8 topk=2 zipf:1.2"
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
// all_to_allv at a requested size: bytes = the mean bytes a rank sends (all_to_all's size when the
// matrix is uniform), count = the mean elements per pair, sendElems/recvElems = the largest row /
// column of the rounded element matrix (every rank allocates for the busiest one).
PointShape allToAllVShape(const RoutingMatrix& m, double scale, int elemSize);

struct PlannedPoint
{
    CollectiveOp op = CollectiveOp::AllReduce;
    DataType dtype = DataType::Float32;
    std::optional<ReduceOp> redop; // only for ops with a reduction
    PointShape shape;
    bool inPlace = false;
    int root = -1; // -1 for ops without a root
    // all_to_allv only: the matrix and its scale at this size (pair counts: routingmatrix.h).
    std::shared_ptr<const RoutingMatrix> routing;
    double routingScale = 0;
};

// Every measurement in run order: op, dtype, redop, size, then out-of-place before in-place.
// Throws std::invalid_argument for a root outside the communicator, counts MPI cannot address
// (> INT_MAX elements) or a timing policy validate() rejects.
std::vector<PlannedPoint> planSweep(const SweepParams& params, int nranks);

// Buffer sizes to allocate once for the whole sweep (reusing them avoids the glibc mmap threshold
// trap that slows later sizes down when buffers are allocated per size). With an off-cache size
// the pools hold every rotation slot (timingpolicy.h).
struct BufferBytes
{
    std::int64_t send = 0;
    std::int64_t recv = 0;
};
BufferBytes bufferBytes(const std::vector<PlannedPoint>& plan, std::int64_t offCacheBytes = 0);
// Bytes of the send and receive buffers one call of the point uses (in place: receive only).
BufferBytes callBytes(const PlannedPoint& p);

// algbw = bytes / time, busbw = algbw x busFactor (collectiveop.h); GB/s are 1e9 B/s.
CollectivePoint makePoint(const PlannedPoint& p, int nranks, double timeUs, std::int64_t wrong);
CollectivePoint makePoint(const PlannedPoint& p, int nranks, const CallStats& stats, std::int64_t wrong);

// The sweep parameters for the session header's "params".
nlohmann::json toJson(const SweepParams& params);
} // namespace rl
