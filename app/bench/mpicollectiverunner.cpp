#include "mpicollectiverunner.h"

#include <algorithm>
#include <cstring>
#include <new>

#include "collectives/collectivecheck.h"

namespace rl {
namespace {
constexpr std::align_val_t kAlign{4096};

std::byte* allocate(std::size_t bytes)
{
    // At least one byte so every call gets a valid pointer, even for 0-count points.
    auto* p = static_cast<std::byte*>(::operator new(std::max<std::size_t>(bytes, 1), kAlign));
    std::memset(p, 0, std::max<std::size_t>(bytes, 1)); // fault the pages in before timing
    return p;
}
} // namespace

MPI_Datatype mpiType(DataType t)
{
    switch (t) {
    case DataType::Float32: return MPI_FLOAT;
    case DataType::Float64: return MPI_DOUBLE;
    case DataType::Int32: return MPI_INT32_T;
    }
    return MPI_FLOAT;
}

MPI_Op mpiOp(ReduceOp r)
{
    switch (r) {
    case ReduceOp::Sum: return MPI_SUM;
    case ReduceOp::Max: return MPI_MAX;
    case ReduceOp::Min: return MPI_MIN;
    }
    return MPI_SUM;
}

std::string mpiLibraryVersion()
{
    char buf[MPI_MAX_LIBRARY_VERSION_STRING] = {};
    int len = 0;
    MPI_Get_library_version(buf, &len);
    std::string v(buf, static_cast<std::size_t>(std::max(len, 0)));
    v = v.substr(0, v.find_first_of("\r\n"));
    while (!v.empty() && (v.back() == ' ' || v.back() == ',' || v.back() == '\0'))
        v.pop_back();
    return v;
}

MpiCollectiveRunner::MpiCollectiveRunner(MPI_Comm comm, BufferBytes sizes)
    : m_comm(comm), m_sendBytes(std::size_t(sizes.send)), m_recvBytes(std::size_t(sizes.recv))
{
    MPI_Comm_rank(comm, &m_rank);
    MPI_Comm_size(comm, &m_size);
    m_send = allocate(m_sendBytes);
    try {
        m_recv = allocate(m_recvBytes);
    } catch (...) {
        ::operator delete(m_send, kAlign);
        throw;
    }
}

MpiCollectiveRunner::~MpiCollectiveRunner()
{
    ::operator delete(m_send, kAlign);
    ::operator delete(m_recv, kAlign);
}

void MpiCollectiveRunner::call(const PlannedPoint& p)
{
    const MPI_Datatype type = mpiType(p.dtype);
    const MPI_Op op = mpiOp(p.redop.value_or(ReduceOp::Sum));
    const int count = static_cast<int>(p.shape.count); // planSweep() keeps counts within int
    void* send = p.inPlace ? MPI_IN_PLACE : static_cast<void*>(m_send);
    switch (p.op) {
    case CollectiveOp::AllReduce: MPI_Allreduce(send, m_recv, count, type, op, m_comm); break;
    case CollectiveOp::ReduceScatter: MPI_Reduce_scatter_block(send, m_recv, count, type, op, m_comm); break;
    case CollectiveOp::AllGather:
        if (p.inPlace)
            MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, m_recv, count, type, m_comm);
        else
            MPI_Allgather(m_send, count, type, m_recv, count, type, m_comm);
        break;
    case CollectiveOp::Broadcast:
        // MPI_Bcast has one buffer: out of place the root sends from its send buffer and the
        // others receive into their receive buffer; in place everyone uses the receive buffer.
        MPI_Bcast(!p.inPlace && m_rank == p.root ? m_send : m_recv, count, type, p.root, m_comm);
        break;
    case CollectiveOp::AllToAll:
        if (p.inPlace)
            MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, m_recv, count, type, m_comm);
        else
            MPI_Alltoall(m_send, count, type, m_recv, count, type, m_comm);
        break;
    default: break; // planSweep() only plans the benchmarked ops
    }
}

double MpiCollectiveRunner::timeCalls(const PlannedPoint& p, int warmup, int iters)
{
    for (int i = 0; i < warmup; ++i)
        call(p);
    MPI_Barrier(m_comm);
    const double start = MPI_Wtime();
    for (int i = 0; i < iters; ++i)
        call(p);
    return (MPI_Wtime() - start) * 1e6 / std::max(iters, 1);
}

MpiCollectiveRunner::Result MpiCollectiveRunner::measure(const PlannedPoint& p, int warmup, int iters)
{
    Result r;
    const double meanUs = timeCalls(p, warmup, iters);
    MPI_Reduce(&meanUs, &r.timeUs, 1, MPI_DOUBLE, MPI_MAX, 0, m_comm);

    fillCheckBuffers(p, m_rank, m_size, m_send, m_recv);
    call(p);
    const long long wrong = countWrongElements(p, m_rank, m_size, m_send, m_recv);
    long long total = 0;
    MPI_Reduce(&wrong, &total, 1, MPI_LONG_LONG, MPI_SUM, 0, m_comm);
    r.wrong = total;
    return r;
}
} // namespace rl
