#include "collectives/collectivecheck.h"

#include <algorithm>
#include <array>
#include <limits>
#include <type_traits>

namespace rl {
namespace {
constexpr int kPeriod = 31;

int valueAt(int rank, std::int64_t index)
{
    return int((index % kPeriod * 7 + std::int64_t(rank % kPeriod) * 13) % kPeriod) - 15;
}

// Reduction over all ranks of v(rank, i), by i mod 31.
std::array<double, kPeriod> reducedTable(ReduceOp op, int nranks)
{
    std::array<double, kPeriod> t{};
    for (int k = 0; k < kPeriod; ++k) {
        double acc = valueAt(0, k);
        for (int r = 1; r < nranks; ++r) {
            const double v = valueAt(r, k);
            acc = op == ReduceOp::Sum ? acc + v : op == ReduceOp::Max ? std::max(acc, v) : std::min(acc, v);
        }
        t[std::size_t(k)] = acc;
    }
    return t;
}

// Results are integers within +-15 x nranks: a half or the lowest int32 is never a right answer.
template <typename T>
T sentinel()
{
    if constexpr (std::is_floating_point_v<T>)
        return T(0.5);
    else
        return std::numeric_limits<T>::min();
}

template <typename T>
void fill(const PlannedPoint& p, int rank, int nranks, T* send, T* recv)
{
    const std::int64_t c = p.shape.count;
    std::fill(recv, recv + p.shape.recvElems, sentinel<T>());
    // Out of place the inputs go to send; in place the call reads them from recv.
    T* in = p.inPlace ? recv : send;
    switch (p.op) {
    case CollectiveOp::AllGather:
        if (p.inPlace)
            in = recv + std::int64_t(rank) * c;
        for (std::int64_t j = 0; j < c; ++j)
            in[j] = T(valueAt(rank, j));
        break;
    case CollectiveOp::Broadcast:
        if (rank == p.root)
            for (std::int64_t i = 0; i < c; ++i)
                in[i] = T(valueAt(rank, i));
        break;
    default: // all_reduce, reduce_scatter, all_to_all: the full send layout
        for (std::int64_t i = 0; i < p.shape.sendElems; ++i)
            in[i] = T(valueAt(rank, i));
        break;
    }
    (void)nranks;
}

template <typename T>
std::int64_t countWrong(const PlannedPoint& p, int rank, int nranks, const T* send, const T* recv)
{
    const std::int64_t c = p.shape.count;
    std::int64_t wrong = 0;
    auto check = [&](T got, double want) {
        if (double(got) != want)
            ++wrong;
    };
    switch (p.op) {
    case CollectiveOp::AllReduce:
    case CollectiveOp::ReduceScatter: {
        const auto table = reducedTable(p.redop.value_or(ReduceOp::Sum), nranks);
        const std::int64_t offset = p.op == CollectiveOp::ReduceScatter ? std::int64_t(rank) * c : 0;
        for (std::int64_t i = 0; i < c; ++i)
            check(recv[i], table[std::size_t((offset + i) % kPeriod)]);
        break;
    }
    case CollectiveOp::AllGather:
        for (int q = 0; q < nranks; ++q)
            for (std::int64_t j = 0; j < c; ++j)
                check(recv[std::int64_t(q) * c + j], valueAt(q, j));
        break;
    case CollectiveOp::Broadcast: {
        // Out of place the root's data stays in its send buffer.
        const T* result = (!p.inPlace && rank == p.root) ? send : recv;
        for (std::int64_t i = 0; i < c; ++i)
            check(result[i], valueAt(p.root, i));
        break;
    }
    case CollectiveOp::AllToAll:
        for (int q = 0; q < nranks; ++q)
            for (std::int64_t j = 0; j < c; ++j)
                check(recv[std::int64_t(q) * c + j], valueAt(q, std::int64_t(rank) * c + j));
        break;
    case CollectiveOp::AllToAllV: {
        if (!p.routing)
            return -1;
        const int w = elementSize(p.dtype);
        std::int64_t at = 0; // where q's block lands in recv
        for (int q = 0; q < nranks; ++q) {
            std::int64_t from = 0; // where our block starts in q's send buffer
            for (int m = 0; m < rank; ++m)
                from += pairElements(*p.routing, p.routingScale, w, q, m);
            const std::int64_t len = pairElements(*p.routing, p.routingScale, w, q, rank);
            for (std::int64_t j = 0; j < len; ++j)
                check(recv[at + j], valueAt(q, from + j));
            at += len;
        }
        break;
    }
    default:
        return -1; // not an op the runner measures
    }
    return wrong;
}
} // namespace

double checkInputValue(int rank, std::int64_t index) { return valueAt(rank, index); }

void fillCheckBuffers(const PlannedPoint& p, int rank, int nranks, void* send, void* recv)
{
    switch (p.dtype) {
    case DataType::Float32: fill(p, rank, nranks, static_cast<float*>(send), static_cast<float*>(recv)); break;
    case DataType::Float64: fill(p, rank, nranks, static_cast<double*>(send), static_cast<double*>(recv)); break;
    case DataType::Int32:
        fill(p, rank, nranks, static_cast<std::int32_t*>(send), static_cast<std::int32_t*>(recv));
        break;
    }
}

std::int64_t countWrongElements(const PlannedPoint& p, int rank, int nranks, const void* send, const void* recv)
{
    switch (p.dtype) {
    case DataType::Float32:
        return countWrong(p, rank, nranks, static_cast<const float*>(send), static_cast<const float*>(recv));
    case DataType::Float64:
        return countWrong(p, rank, nranks, static_cast<const double*>(send), static_cast<const double*>(recv));
    case DataType::Int32:
        return countWrong(p, rank, nranks, static_cast<const std::int32_t*>(send),
                          static_cast<const std::int32_t*>(recv));
    }
    return -1;
}
} // namespace rl
