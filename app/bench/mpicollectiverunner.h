#pragma once
// The MPI measuring loop of `ridgeline-bench collectives` (library ridgeline_mpi_runner, built only
// when MPI is found). Planning, checking and bandwidth rules live MPI-free in analysis/collectives.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include <mpi.h>

#include "collectives/collectivesweep.h"

namespace rl {

class MpiCollectiveRunner
{
public:
    // Allocates and touches both buffers once for the whole sweep: allocating per size moves
    // glibc's mmap threshold and later sizes run several times slower. Throws std::bad_alloc.
    MpiCollectiveRunner(MPI_Comm comm, BufferBytes sizes);
    ~MpiCollectiveRunner();
    MpiCollectiveRunner(const MpiCollectiveRunner&) = delete;
    MpiCollectiveRunner& operator=(const MpiCollectiveRunner&) = delete;

    struct Result
    {
        double timeUs = 0;       // max over ranks of the mean time per call (valid on rank 0)
        std::int64_t wrong = -1; // wrong elements summed over ranks (valid on rank 0)
    };
    // warmup calls, barrier, `iters` timed calls, then one checked call on fresh inputs.
    Result measure(const PlannedPoint& p, int warmup, int iters);
    // Only the timing part: mean time per call on this rank, in µs (no reduction over ranks).
    double timeCalls(const PlannedPoint& p, int warmup, int iters);

    int rank() const { return m_rank; }
    int size() const { return m_size; }

private:
    void call(const PlannedPoint& p);

    MPI_Comm m_comm;
    int m_rank = 0;
    int m_size = 1;
    std::size_t m_sendBytes = 0;
    std::size_t m_recvBytes = 0;
    std::byte* m_send = nullptr;
    std::byte* m_recv = nullptr;
};

MPI_Datatype mpiType(DataType t);
MPI_Op mpiOp(ReduceOp r);
std::string mpiLibraryVersion(); // MPI_Get_library_version, first line
} // namespace rl
