#pragma once
// The MPI measuring loop of `ridgeline-bench collectives` (library ridgeline_mpi_runner, built only
// when MPI is found). Planning, checking, bandwidth rules and the repetition policy live MPI-free
// in analysis/collectives.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <mpi.h>

#include "collectives/callstats.h"
#include "collectives/collectivesweep.h"

namespace rl {

class MpiCollectiveRunner
{
public:
    // Allocates and touches both buffers once for the whole sweep: allocating per size moves
    // glibc's mmap threshold and later sizes run several times slower. `sizes` must include the
    // off-cache pools (bufferBytes(plan, offCacheBytes)). Throws std::bad_alloc.
    MpiCollectiveRunner(MPI_Comm comm, BufferBytes sizes, std::int64_t offCacheBytes = 0);
    ~MpiCollectiveRunner();
    MpiCollectiveRunner(const MpiCollectiveRunner&) = delete;
    MpiCollectiveRunner& operator=(const MpiCollectiveRunner&) = delete;

    struct Result
    {
        double timeUs = 0;       // max over ranks of the mean time per call (valid on rank 0)
        std::int64_t wrong = -1; // wrong elements summed over ranks (valid on rank 0)
        CallStats stats;         // valid on rank 0
    };
    // Pilot calls size the loop (rank 0 applies the policy with budgetSeconds, its own choice, and
    // tells the others), the rest of the warm-up, barrier, the timed calls sample by sample, then
    // one checked call on fresh inputs.
    Result measure(const PlannedPoint& p, const TimingPolicy& policy, double budgetSeconds);
    // Fixed counts: `warmup` untimed calls, then `iters` timed ones.
    Result measure(const PlannedPoint& p, int warmup, int iters);

    // Testing: this rank sleeps this long before every call, a stand-in for a slow node (sleeping,
    // not spinning, so it takes no core from the other ranks of an oversubscribed test machine).
    void setStandInDelay(double us) { m_delayUs = us; }

    int rank() const { return m_rank; }
    int size() const { return m_size; }
    // The buffers every point uses, for `collectives-vs-mpi`'s bare loop: the same memory, so the
    // comparison measures the timing policy and loop, not where the pages happen to sit.
    std::byte* sendBuffer() const { return m_send; }
    std::byte* recvBuffer() const { return m_recv; }

private:
    // Every argument of one MPI call, resolved from the point (type, op, buffers, counts).
    struct CallArgs
    {
        CollectiveOp op;
        void* send;
        void* recv;
        int count;
        MPI_Datatype type;
        MPI_Op redop;
        int root;
        bool inPlace;
    };
    CallArgs arguments(const PlannedPoint& p); // advances the off-cache rotation
    void invoke(const CallArgs& a);
    void call(const PlannedPoint& p) { invoke(arguments(p)); }
    template <typename Call>
    SampleSummary sampleLoop(int iters, int callsPerSample, Call&& call);
    void setRotation(const PlannedPoint& p, bool on);
    double meanCallSeconds(const PlannedPoint& p, int calls); // this rank's mean, untimed by others
    double medianCallSeconds(const PlannedPoint& p, int calls); // each call timed: a slow few do not size the loop
    SampleSummary timedLoop(const PlannedPoint& p, int iters, int callsPerSample);

    MPI_Comm m_comm;
    int m_rank = 0;
    int m_size = 1;
    std::int64_t m_offCacheBytes = 0;
    std::size_t m_sendBytes = 0;
    std::size_t m_recvBytes = 0;
    std::byte* m_send = nullptr;
    std::byte* m_recv = nullptr;
    double m_secondsPerTick = 0;
    double m_delayUs = 0;
    std::vector<std::uint64_t> m_ticks;
    std::vector<double> m_samples;
    std::vector<double> m_pilot; // seconds per pilot call
    // Off-cache rotation of the current point: call i uses slot i mod slots.
    std::int64_t m_sendStride = 0, m_recvStride = 0;
    int m_sendSlots = 1, m_recvSlots = 1;
    int m_sendSlot = 0, m_recvSlot = 0;
    RankCounts m_v; // all_to_allv counts and displacements of the current point on this rank
};

MPI_Datatype mpiType(DataType t);
MPI_Op mpiOp(ReduceOp r);
std::string mpiLibraryVersion(); // MPI_Get_library_version, first line
} // namespace rl
