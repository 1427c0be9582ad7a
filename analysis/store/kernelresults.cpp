#include "store/kernelresults.h"

namespace rl::store {

void insertGemm(Database& db, std::int64_t sessionId, const GemmPoint& p)
{
    Statement q(db, "INSERT INTO gemm_results (session_id, dtype, compute_type, out_type, trans_a, trans_b, m, n, k,"
                    " batch, time_us, gflops, intensity, efficiency, threads, device, solution)"
                    " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    q.bind(1, sessionId).bind(2, p.dtype).bind(3, p.computeType).bind(4, p.outType).bind(5, p.transA);
    q.bind(6, p.transB).bind(7, p.m).bind(8, p.n).bind(9, p.k).bind(10, p.batch).bind(11, p.timeUs);
    q.bind(12, p.gflops).bind(13, p.intensity).bind(14, p.efficiency).bind(15, p.threads).bind(16, p.device);
    q.bind(17, p.solution);
    q.run();
}

void insertMemBw(Database& db, std::int64_t sessionId, const MemBwPoint& p)
{
    Statement q(db, "INSERT INTO membw_results (session_id, kernel, bytes, threads, best_time_us, bandwidth_gbs)"
                    " VALUES (?,?,?,?,?,?)");
    q.bind(1, sessionId).bind(2, p.kernel).bind(3, p.bytes).bind(4, p.threads).bind(5, p.bestTimeUs);
    q.bind(6, p.bandwidthGBs);
    q.run();
}

void insertMemCeiling(Database& db, std::int64_t sessionId, const MemCeiling& c)
{
    Statement q(db, "INSERT INTO membw_ceilings (session_id, level, kernel, threads, from_bytes, to_bytes,"
                    " bandwidth_gbs) VALUES (?,?,?,?,?,?,?)");
    q.bind(1, sessionId).bind(2, c.level).bind(3, c.kernel).bind(4, c.threads).bind(5, c.fromBytes);
    q.bind(6, c.toBytes).bind(7, c.bandwidthGBs);
    q.run();
}

void insertPeakFlops(Database& db, std::int64_t sessionId, const PeakFlopsPoint& p)
{
    Statement q(db, "INSERT INTO peakflops_results (session_id, dtype, threads, gflops, theoretical_gflops, isa,"
                    " clock_ghz, clock_source, fma_units, lanes, derivation) VALUES (?,?,?,?,?,?,?,?,?,?,?)");
    q.bind(1, sessionId).bind(2, p.dtype).bind(3, p.threads).bind(4, p.gflops).bind(5, p.theoreticalGflops);
    q.bind(6, p.isa).bind(7, p.clockGHz).bind(8, p.clockSource).bind(9, p.fmaUnits).bind(10, p.lanes);
    q.bind(11, p.derivation);
    q.run();
}

void insertKernelRecords(Database& db, std::int64_t sessionId, const SessionData& data)
{
    for (const auto& p : data.gemms)
        insertGemm(db, sessionId, p);
    for (const auto& p : data.membw)
        insertMemBw(db, sessionId, p);
    for (const auto& c : data.memCeilings)
        insertMemCeiling(db, sessionId, c);
    for (const auto& p : data.peaks)
        insertPeakFlops(db, sessionId, p);
}

std::vector<GemmPoint> gemmPoints(Database& db, std::int64_t sessionId)
{
    Statement q(db, "SELECT dtype, compute_type, out_type, trans_a, trans_b, m, n, k, batch, time_us, gflops,"
                    " intensity, efficiency, threads, device, solution FROM gemm_results WHERE session_id = ? ORDER BY id");
    q.bind(1, sessionId);
    std::vector<GemmPoint> out;
    while (q.step()) {
        GemmPoint p;
        p.dtype = q.text(0);
        p.computeType = q.text(1);
        p.outType = q.text(2);
        p.transA = q.text(3);
        p.transB = q.text(4);
        p.m = q.int64(5);
        p.n = q.int64(6);
        p.k = q.int64(7);
        p.batch = q.int64(8);
        p.timeUs = q.real(9);
        p.gflops = q.real(10);
        p.intensity = q.real(11);
        p.efficiency = q.real(12);
        p.threads = static_cast<int>(q.int64(13));
        p.device = q.text(14);
        p.solution = q.text(15);
        out.push_back(std::move(p));
    }
    return out;
}

std::vector<MemBwPoint> memBwPoints(Database& db, std::int64_t sessionId)
{
    Statement q(db, "SELECT kernel, bytes, threads, best_time_us, bandwidth_gbs FROM membw_results"
                    " WHERE session_id = ? ORDER BY id");
    q.bind(1, sessionId);
    std::vector<MemBwPoint> out;
    while (q.step())
        out.push_back({q.text(0), q.int64(1), static_cast<int>(q.int64(2)), q.real(3), q.real(4)});
    return out;
}

std::vector<MemCeiling> memCeilings(Database& db, std::int64_t sessionId)
{
    Statement q(db, "SELECT level, kernel, threads, from_bytes, to_bytes, bandwidth_gbs FROM membw_ceilings"
                    " WHERE session_id = ? ORDER BY id");
    q.bind(1, sessionId);
    std::vector<MemCeiling> out;
    while (q.step())
        out.push_back({q.text(0), q.text(1), static_cast<int>(q.int64(2)), q.int64(3), q.int64(4), q.real(5)});
    return out;
}

std::vector<PeakFlopsPoint> peakFlopsPoints(Database& db, std::int64_t sessionId)
{
    Statement q(db, "SELECT dtype, threads, gflops, theoretical_gflops, isa, clock_ghz, clock_source, fma_units,"
                    " lanes, derivation FROM peakflops_results WHERE session_id = ? ORDER BY id");
    q.bind(1, sessionId);
    std::vector<PeakFlopsPoint> out;
    while (q.step()) {
        PeakFlopsPoint p;
        p.dtype = q.text(0);
        p.threads = static_cast<int>(q.int64(1));
        p.gflops = q.real(2);
        p.theoreticalGflops = q.real(3);
        p.isa = q.text(4);
        p.clockGHz = q.real(5);
        p.clockSource = q.text(6);
        p.fmaUnits = static_cast<int>(q.int64(7));
        p.lanes = static_cast<int>(q.int64(8));
        p.derivation = q.text(9);
        out.push_back(std::move(p));
    }
    return out;
}
} // namespace rl::store
