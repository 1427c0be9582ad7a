#include "collectives/collectivesweep.h"

#include <algorithm>
#include <climits>
#include <stdexcept>

#include "io/linereader.h"

namespace rl {
namespace {
constexpr std::size_t kMaxSizes = 10000; // more is a typo in -i, not a sweep anyone wants

std::vector<std::string> splitList(std::string_view text, const char* what)
{
    std::vector<std::string> items;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        const std::string_view item = io::trim(text.substr(start, comma - start));
        if (item.empty())
            throw std::invalid_argument(std::string("empty item in the ") + what + " list \"" + std::string(text) + "\"");
        items.emplace_back(item);
        start = comma + 1;
    }
    return items;
}

template <typename T>
void appendUnique(std::vector<T>& list, T value)
{
    if (std::find(list.begin(), list.end(), value) == list.end())
        list.push_back(value);
}
} // namespace

const char* toString(DataType t)
{
    switch (t) {
    case DataType::Float32: return "float32";
    case DataType::Float64: return "float64";
    case DataType::Int32: return "int32";
    }
    return "float32";
}

const char* toString(ReduceOp r)
{
    switch (r) {
    case ReduceOp::Sum: return "sum";
    case ReduceOp::Max: return "max";
    case ReduceOp::Min: return "min";
    }
    return "sum";
}

int elementSize(DataType t) { return t == DataType::Float64 ? 8 : 4; }

std::vector<CollectiveOp> parseOpList(std::string_view text)
{
    std::vector<CollectiveOp> ops;
    for (const auto& item : splitList(text, "op")) {
        if (item == "all") {
            for (auto op : benchmarkedOps())
                appendUnique(ops, op);
            continue;
        }
        const auto op = collectiveOpFromString(item);
        const auto& known = benchmarkedOps();
        if (!op || (*op != CollectiveOp::AllToAllV && std::find(known.begin(), known.end(), *op) == known.end()))
            throw std::invalid_argument("unknown op \"" + item +
                                        "\" (use all_reduce, reduce_scatter, all_gather, broadcast, all_to_all, "
                                        "all_to_allv or all)");
        appendUnique(ops, *op);
    }
    return ops;
}

std::vector<DataType> parseDtypeList(std::string_view text)
{
    std::vector<DataType> types;
    for (const auto& item : splitList(text, "dtype")) {
        const std::string c = canonicalDtype(item);
        if (c == "float32")
            appendUnique(types, DataType::Float32);
        else if (c == "float64")
            appendUnique(types, DataType::Float64);
        else if (c == "int32")
            appendUnique(types, DataType::Int32);
        else
            throw std::invalid_argument("unsupported dtype \"" + item + "\" (use float32, float64 or int32)");
    }
    return types;
}

std::vector<ReduceOp> parseRedopList(std::string_view text)
{
    std::vector<ReduceOp> ops;
    for (const auto& item : splitList(text, "redop")) {
        if (item == "sum")
            appendUnique(ops, ReduceOp::Sum);
        else if (item == "max")
            appendUnique(ops, ReduceOp::Max);
        else if (item == "min")
            appendUnique(ops, ReduceOp::Min);
        else
            throw std::invalid_argument("unsupported redop \"" + item + "\" (use sum, max or min)");
    }
    return ops;
}

InPlaceMode parseInPlace(std::string_view text)
{
    if (text == "0")
        return InPlaceMode::OutOfPlace;
    if (text == "1")
        return InPlaceMode::InPlace;
    if (text == "both")
        return InPlaceMode::Both;
    throw std::invalid_argument("--inplace takes 0, 1 or both, not \"" + std::string(text) + "\"");
}

std::vector<std::int64_t> sweepSizes(const SweepParams& p)
{
    if (p.minBytes < 1)
        throw std::invalid_argument("the minimum size must be at least 1 B");
    if (p.maxBytes < p.minBytes)
        throw std::invalid_argument("the maximum size (" + std::to_string(p.maxBytes) +
                                    " B) is below the minimum size (" + std::to_string(p.minBytes) + " B)");
    if (p.stepBytes <= 0 && p.stepFactor < 2 && p.minBytes != p.maxBytes)
        throw std::invalid_argument("the step factor must be at least 2 (or give a step in bytes)");
    std::vector<std::int64_t> sizes;
    for (std::int64_t s = p.minBytes; s <= p.maxBytes;) {
        if (sizes.size() == kMaxSizes)
            throw std::invalid_argument("the sweep has more than " + std::to_string(kMaxSizes) + " sizes; use a larger step");
        sizes.push_back(s);
        if (p.minBytes == p.maxBytes)
            break;
        if (p.stepBytes > 0) {
            if (s > p.maxBytes - p.stepBytes)
                break;
            s += p.stepBytes;
        } else {
            if (s > p.maxBytes / p.stepFactor)
                break;
            s *= p.stepFactor;
        }
    }
    return sizes;
}

PointShape pointShape(CollectiveOp op, std::int64_t requestedBytes, int elemSize, int nranks)
{
    PointShape s;
    const std::int64_t count = requestedBytes / elemSize;
    const std::int64_t n = std::max(nranks, 1);
    switch (op) {
    case CollectiveOp::AllGather:
        s.count = count / n;
        s.sendElems = s.count;
        s.recvElems = s.count * n;
        s.bytes = s.recvElems * elemSize;
        break;
    case CollectiveOp::ReduceScatter:
        s.count = count / n;
        s.sendElems = s.count * n;
        s.recvElems = s.count;
        s.bytes = s.sendElems * elemSize;
        break;
    case CollectiveOp::AllToAll:
        s.count = count / n;
        s.sendElems = s.recvElems = s.count * n;
        s.bytes = s.sendElems * elemSize;
        break;
    default:
        s.count = s.sendElems = s.recvElems = count;
        s.bytes = count * elemSize;
        break;
    }
    return s;
}

PointShape allToAllVShape(const RoutingMatrix& m, double scale, int elemSize)
{
    PointShape s;
    std::int64_t total = 0;
    for (int i = 0; i < m.n; ++i) {
        std::int64_t row = 0, column = 0;
        for (int j = 0; j < m.n; ++j) {
            row += pairElements(m, scale, elemSize, i, j);
            column += pairElements(m, scale, elemSize, j, i);
        }
        total += row;
        s.sendElems = std::max(s.sendElems, row);
        s.recvElems = std::max(s.recvElems, column);
    }
    const std::int64_t n = std::max(m.n, 1);
    s.bytes = total * elemSize / n;
    s.count = total / (n * n);
    return s;
}

std::vector<PlannedPoint> planSweep(const SweepParams& p, int nranks)
{
    if (nranks < 1)
        throw std::invalid_argument("no ranks");
    validate(p.timing);
    if (p.offCacheBytes < 0)
        throw std::invalid_argument("--off-cache must not be negative");
    if (p.ops.empty() || p.dtypes.empty() || p.redops.empty())
        throw std::invalid_argument("nothing to run: empty op, dtype or redop list");
    const bool rooted = std::any_of(p.ops.begin(), p.ops.end(), hasRoot);
    if (rooted && (p.root < 0 || p.root >= nranks))
        throw std::invalid_argument("--root " + std::to_string(p.root) + " is outside the " + std::to_string(nranks) +
                                    " ranks (use 0.." + std::to_string(nranks - 1) + ")");
    const bool v = std::find(p.ops.begin(), p.ops.end(), CollectiveOp::AllToAllV) != p.ops.end();
    if (v && !p.routing)
        throw std::invalid_argument("all_to_allv needs a routing matrix: --routing FILE.csv or --moe-experts N");
    if (v && p.routing->n != nranks)
        throw std::invalid_argument("the routing matrix is " + std::to_string(p.routing->n) + " x " +
                                    std::to_string(p.routing->n) + " but the run has " + std::to_string(nranks) +
                                    " ranks");
    const auto sizes = sweepSizes(p);
    std::vector<bool> variants;
    if (p.inPlace != InPlaceMode::InPlace)
        variants.push_back(false);
    if (p.inPlace != InPlaceMode::OutOfPlace)
        variants.push_back(true);

    std::vector<PlannedPoint> plan;
    for (auto op : p.ops)
        for (auto dtype : p.dtypes) {
            std::vector<std::optional<ReduceOp>> redops;
            if (hasReduction(op))
                redops.assign(p.redops.begin(), p.redops.end());
            else
                redops.push_back(std::nullopt);
            for (const auto& redop : redops)
                for (auto size : sizes)
                    for (bool inPlace : variants) {
                        if (op == CollectiveOp::AllToAllV && inPlace)
                            continue; // MPI_IN_PLACE all_to_allv needs a symmetric matrix
                        PlannedPoint pt{op, dtype, redop, pointShape(op, size, elementSize(dtype), nranks), inPlace,
                                        hasRoot(op) ? p.root : -1, nullptr, 0.0};
                        if (op == CollectiveOp::AllToAllV) {
                            pt.routing = p.routing;
                            pt.routingScale = routingScale(*p.routing, size);
                            pt.shape = allToAllVShape(*p.routing, pt.routingScale, elementSize(dtype));
                            if (std::max(pt.shape.sendElems, pt.shape.recvElems) > INT_MAX)
                                throw std::invalid_argument(std::to_string(size) + " B is too large for all_to_allv: " +
                                                            "MPI counts and displacements stop at " +
                                                            std::to_string(INT_MAX) + " elements");
                        }
                        if (pt.shape.count > INT_MAX)
                            throw std::invalid_argument(std::to_string(size) + " B is too large for " + toString(op) +
                                                        " in " + toString(dtype) + ": MPI counts stop at " +
                                                        std::to_string(INT_MAX) + " elements");
                        plan.push_back(pt);
                    }
        }
    return plan;
}

BufferBytes callBytes(const PlannedPoint& p)
{
    const int w = elementSize(p.dtype);
    // In place, reduce_scatter's receive buffer holds the whole input.
    const std::int64_t recvElems = p.inPlace ? std::max(p.shape.sendElems, p.shape.recvElems) : p.shape.recvElems;
    return {p.inPlace ? 0 : p.shape.sendElems * w, recvElems * w};
}

BufferBytes bufferBytes(const std::vector<PlannedPoint>& plan, std::int64_t offCacheBytes)
{
    BufferBytes b;
    for (const auto& p : plan) {
        const BufferBytes c = callBytes(p);
        // The checked call fills the send buffer in place too (it is simply not read).
        b.send = std::max({b.send, p.shape.sendElems * elementSize(p.dtype),
                           offCacheBytes > 0 ? offCacheLayout(c.send, offCacheBytes).poolBytes() : 0});
        b.recv = std::max(b.recv, offCacheBytes > 0 ? offCacheLayout(c.recv, offCacheBytes).poolBytes() : c.recv);
    }
    return b;
}

CollectivePoint makePoint(const PlannedPoint& p, int nranks, double timeUs, std::int64_t wrong)
{
    CollectivePoint c;
    c.op = toString(p.op);
    c.nranks = nranks;
    c.dtype = toString(p.dtype);
    c.redop = p.redop ? toString(*p.redop) : "";
    c.bytes = p.shape.bytes;
    c.count = p.shape.count;
    c.inPlace = p.inPlace;
    c.root = p.root;
    c.timeUs = timeUs;
    c.algbwGBs = timeUs > 0 ? double(p.shape.bytes) / (timeUs * 1e-6) / 1e9 : 0.0;
    c.busbwGBs = c.algbwGBs * busFactor(p.op, nranks);
    c.wrong = wrong;
    if (p.routing)
        c.imbalance = loadImbalance(scaledMatrix(*p.routing, p.routingScale, elementSize(p.dtype)));
    return c;
}

CollectivePoint makePoint(const PlannedPoint& p, int nranks, const CallStats& stats, std::int64_t wrong)
{
    CollectivePoint c = makePoint(p, nranks, stats.meanUs, wrong);
    c.stats = stats;
    return c;
}

nlohmann::json toJson(const SweepParams& p)
{
    nlohmann::json ops = nlohmann::json::array(), dtypes = nlohmann::json::array(), redops = nlohmann::json::array();
    for (auto op : p.ops)
        ops.push_back(toString(op));
    for (auto t : p.dtypes)
        dtypes.push_back(toString(t));
    for (auto r : p.redops)
        redops.push_back(toString(r));
    return {{"ops", ops},
            {"min_bytes", p.minBytes},
            {"max_bytes", p.maxBytes},
            {"step_factor", p.stepBytes > 0 ? 1 : p.stepFactor},
            {"step_bytes", p.stepBytes},
            {"dtypes", dtypes},
            {"redops", redops},
            {"in_place", p.inPlace == InPlaceMode::Both ? "both" : p.inPlace == InPlaceMode::InPlace ? "1" : "0"},
            {"warmup_iters", p.timing.warmup ? nlohmann::json(*p.timing.warmup) : nlohmann::json("auto")},
            {"iters", p.timing.iters ? nlohmann::json(*p.timing.iters) : nlohmann::json("auto")},
            {"timing", toJson(p.timing)},
            {"off_cache_bytes", p.offCacheBytes},
            {"root", p.root},
            {"routing", p.routingSource},
            {"time", "max over ranks of the mean time per call"},
            {"stats", "mean, min, max, p50, p99 and CV over each rank's timed samples, each the max over ranks"},
            {"size_convention", "nccl-tests PERFORMANCE.md"}};
}
} // namespace rl
