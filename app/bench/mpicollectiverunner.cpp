#include "mpicollectiverunner.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <new>
#include <thread>

#include "collectives/collectivecheck.h"
#include "tickclock.h"

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

// The tick rate against steady_clock over 10 ms: 60 ns of clock reads in 10 ms is 6 ppm.
double secondsPerTick()
{
    const double w0 = steadySeconds();
    const std::uint64_t t0 = readTicks();
    double w1 = w0;
    while (w1 - w0 < 0.01)
        w1 = steadySeconds();
    const std::uint64_t t1 = readTicks();
    return t1 > t0 ? (w1 - w0) / double(t1 - t0) : 1e-9;
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

MpiCollectiveRunner::MpiCollectiveRunner(MPI_Comm comm, BufferBytes sizes, std::int64_t offCacheBytes)
    : m_comm(comm), m_offCacheBytes(offCacheBytes), m_sendBytes(std::size_t(sizes.send)),
      m_recvBytes(std::size_t(sizes.recv))
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
    m_secondsPerTick = secondsPerTick();
}

MpiCollectiveRunner::~MpiCollectiveRunner()
{
    ::operator delete(m_send, kAlign);
    ::operator delete(m_recv, kAlign);
}

void MpiCollectiveRunner::setRotation(const PlannedPoint& p, bool on)
{
    const BufferBytes c = callBytes(p);
    const OffCacheLayout send = offCacheLayout(c.send, on ? m_offCacheBytes : 0);
    const OffCacheLayout recv = offCacheLayout(c.recv, on ? m_offCacheBytes : 0);
    m_sendStride = send.stride;
    m_recvStride = recv.stride;
    m_sendSlots = send.slotCount;
    m_recvSlots = recv.slotCount;
    m_sendSlot = m_recvSlot = 0;
    if (p.routing)
        m_v = rankCounts(*p.routing, p.routingScale, elementSize(p.dtype), m_rank);
}

MpiCollectiveRunner::CallArgs MpiCollectiveRunner::arguments(const PlannedPoint& p)
{
    if (m_delayUs > 0)
        std::this_thread::sleep_for(std::chrono::duration<double, std::micro>(m_delayUs));
    std::byte* sendBuf = m_send;
    std::byte* recvBuf = m_recv;
    if (m_sendSlots > 1) {
        sendBuf += m_sendSlot * m_sendStride;
        m_sendSlot = m_sendSlot + 1 == m_sendSlots ? 0 : m_sendSlot + 1;
    }
    if (m_recvSlots > 1) {
        recvBuf += m_recvSlot * m_recvStride;
        m_recvSlot = m_recvSlot + 1 == m_recvSlots ? 0 : m_recvSlot + 1;
    }
    return {p.op,
            sendBuf,
            recvBuf,
            static_cast<int>(p.shape.count), // planSweep() keeps counts within int
            mpiType(p.dtype),
            mpiOp(p.redop.value_or(ReduceOp::Sum)),
            p.root,
            p.inPlace};
}

void MpiCollectiveRunner::invoke(const CallArgs& a)
{
    void* const send = a.inPlace ? MPI_IN_PLACE : a.send;
    switch (a.op) {
    case CollectiveOp::AllReduce: MPI_Allreduce(send, a.recv, a.count, a.type, a.redop, m_comm); break;
    case CollectiveOp::ReduceScatter: MPI_Reduce_scatter_block(send, a.recv, a.count, a.type, a.redop, m_comm); break;
    case CollectiveOp::AllGather:
        if (a.inPlace)
            MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, a.recv, a.count, a.type, m_comm);
        else
            MPI_Allgather(a.send, a.count, a.type, a.recv, a.count, a.type, m_comm);
        break;
    case CollectiveOp::Broadcast:
        // MPI_Bcast has one buffer: out of place the root sends from its send buffer and the
        // others receive into their receive buffer; in place everyone uses the receive buffer.
        MPI_Bcast(!a.inPlace && m_rank == a.root ? a.send : a.recv, a.count, a.type, a.root, m_comm);
        break;
    case CollectiveOp::AllToAll:
        if (a.inPlace)
            MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, a.recv, a.count, a.type, m_comm);
        else
            MPI_Alltoall(a.send, a.count, a.type, a.recv, a.count, a.type, m_comm);
        break;
    case CollectiveOp::AllToAllV: // out of place only (planSweep)
        MPI_Alltoallv(a.send, m_v.sendCounts.data(), m_v.sendDispls.data(), a.type, a.recv, m_v.recvCounts.data(),
                      m_v.recvDispls.data(), a.type, m_comm);
        break;
    default: break; // planSweep() only plans the benchmarked ops
    }
}

double MpiCollectiveRunner::meanCallSeconds(const PlannedPoint& p, int calls)
{
    const std::uint64_t start = readTicks();
    for (int i = 0; i < calls; ++i)
        call(p);
    return double(readTicks() - start) * m_secondsPerTick / std::max(calls, 1);
}

double MpiCollectiveRunner::medianCallSeconds(const PlannedPoint& p, int calls)
{
    m_pilot.resize(std::size_t(std::max(calls, 1)));
    for (auto& t : m_pilot) {
        const std::uint64_t start = readTicks();
        call(p);
        t = double(readTicks() - start) * m_secondsPerTick;
    }
    auto mid = m_pilot.begin() + std::ptrdiff_t(m_pilot.size() / 2);
    std::nth_element(m_pilot.begin(), mid, m_pilot.end());
    return *mid;
}

template <typename Call>
SampleSummary MpiCollectiveRunner::sampleLoop(int iters, int callsPerSample, Call&& call)
{
    const int samples = (iters + callsPerSample - 1) / callsPerSample;
    m_ticks.assign(std::size_t(samples) + 1, 0);
    MPI_Barrier(m_comm);
    // One counter read per sample and nothing else: the loop is the bare MPI loop plus ~10 ns a
    // sample, and samples are at least minSampleUs long.
    std::uint64_t* tick = m_ticks.data();
    tick[0] = readTicks();
    int left = iters;
    for (int s = 1; s <= samples; ++s) {
        const int k = std::min(callsPerSample, left);
        for (int c = 0; c < k; ++c)
            call();
        left -= k;
        tick[s] = readTicks();
    }
    m_samples.resize(std::size_t(samples));
    left = iters;
    for (int s = 0; s < samples; ++s) {
        const int k = std::min(callsPerSample, left);
        left -= k;
        m_samples[std::size_t(s)] = double(tick[s + 1] - tick[s]) * m_secondsPerTick * 1e6 / k;
    }
    SampleSummary sum = summarizeSamples(m_samples);
    // The mean per call over the whole loop, as a bare loop reports it (a short last sample would
    // otherwise weigh as much as a full one).
    sum.mean = double(tick[samples] - tick[0]) * m_secondsPerTick * 1e6 / iters;
    return sum;
}

SampleSummary MpiCollectiveRunner::timedLoop(const PlannedPoint& p, int iters, int callsPerSample)
{
    // Rotating buffers or a stand-in delay resolve each call afresh; otherwise the arguments are
    // fixed once and the loop holds the MPI call alone, as a bare benchmark loop does (resolving
    // type, op and buffers per call cost up to ~20 ns, 5 % of a 360 ns all_reduce).
    if (m_delayUs > 0 || m_sendSlots > 1 || m_recvSlots > 1)
        return sampleLoop(iters, callsPerSample, [&] { call(p); });
    const CallArgs args = arguments(p);
    return sampleLoop(iters, callsPerSample, [&] { invoke(args); });
}

MpiCollectiveRunner::Result MpiCollectiveRunner::measure(const PlannedPoint& p, const TimingPolicy& policy,
                                                         double budgetSeconds)
{
    setRotation(p, true);
    // Pilot: one call, then a few more at its pace; their time sizes the loop. Every rank sees the
    // slowest rank's first call, so all of them run the same number of pilot calls.
    int pilot = 0;
    double pilotSeconds = 0;
    if (policy.warmup.value_or(1) > 0) {
        double first = meanCallSeconds(p, 1), slowest = 0;
        MPI_Allreduce(&first, &slowest, 1, MPI_DOUBLE, MPI_MAX, m_comm);
        const int more = pilotCalls(policy, slowest * 1e6);
        pilotSeconds = more > 0 ? medianCallSeconds(p, more) : slowest;
        pilot = 1 + more;
    }
    double pilotMax = 0;
    MPI_Reduce(&pilotSeconds, &pilotMax, 1, MPI_DOUBLE, MPI_MAX, 0, m_comm);
    // Rank 0 alone applies the budget (its clock decides what time is left) and tells the others.
    int reps[3] = {0, 0, 0};
    if (m_rank == 0) {
        const Repetitions r = chooseRepetitions(policy, pilot > 0 ? pilotMax * 1e6 : 0.0, budgetSeconds);
        reps[0] = r.warmup;
        reps[1] = r.iters;
        reps[2] = pilot > 0 ? r.callsPerSample : 1;
    }
    MPI_Bcast(reps, 3, MPI_INT, 0, m_comm);
    for (int i = pilot; i < reps[0]; ++i)
        call(p);
    const SampleSummary local = timedLoop(p, reps[1], reps[2]);

    Result r;
    const double mine[6] = {local.mean, local.min, local.max, local.p50, local.p99, local.cv};
    double worst[6] = {};
    MPI_Reduce(mine, worst, 6, MPI_DOUBLE, MPI_MAX, 0, m_comm);
    r.timeUs = worst[0];
    r.stats.iters = reps[1];
    r.stats.warmup = std::max(reps[0], pilot);
    r.stats.callsPerSample = reps[2];
    r.stats.meanUs = worst[0];
    r.stats.minUs = worst[1];
    r.stats.maxUs = worst[2];
    r.stats.p50Us = worst[3];
    r.stats.p99Us = worst[4];
    r.stats.cv = worst[5];

    setRotation(p, false);
    fillCheckBuffers(p, m_rank, m_size, m_send, m_recv);
    call(p);
    const long long wrong = countWrongElements(p, m_rank, m_size, m_send, m_recv);
    long long total = 0;
    MPI_Reduce(&wrong, &total, 1, MPI_LONG_LONG, MPI_SUM, 0, m_comm);
    r.wrong = total;
    return r;
}

MpiCollectiveRunner::Result MpiCollectiveRunner::measure(const PlannedPoint& p, int warmup, int iters)
{
    TimingPolicy fixed;
    fixed.warmup = warmup;
    fixed.iters = iters;
    return measure(p, fixed, 0.0);
}
} // namespace rl
