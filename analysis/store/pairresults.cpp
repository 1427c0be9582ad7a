#include "store/pairresults.h"

namespace rl::store {

void insertPair(Database& db, std::int64_t sessionId, const PairPoint& p)
{
    Statement q(db, "INSERT INTO pair_results (session_id, rank_a, rank_b, host_a, host_b, latency_bytes, latency_us,"
                    " bandwidth_bytes, bandwidth_gbs, iters) VALUES (?,?,?,?,?,?,?,?,?,?)");
    q.bind(1, sessionId).bind(2, p.rankA).bind(3, p.rankB).bind(4, p.hostA).bind(5, p.hostB);
    q.bind(6, p.latencyBytes).bind(7, p.latencyUs).bind(8, p.bandwidthBytes).bind(9, p.bandwidthGBs);
    q.bind(10, p.iters);
    q.run();
}

std::vector<PairPoint> pairPoints(Database& db, std::int64_t sessionId)
{
    Statement q(db, "SELECT rank_a, rank_b, host_a, host_b, latency_bytes, latency_us, bandwidth_bytes, bandwidth_gbs,"
                    " iters FROM pair_results WHERE session_id = ? ORDER BY rank_a, rank_b, id");
    q.bind(1, sessionId);
    std::vector<PairPoint> out;
    while (q.step()) {
        PairPoint p;
        p.rankA = static_cast<int>(q.int64(0));
        p.rankB = static_cast<int>(q.int64(1));
        p.hostA = q.text(2);
        p.hostB = q.text(3);
        p.latencyBytes = q.int64(4);
        p.latencyUs = q.real(5);
        p.bandwidthBytes = q.int64(6);
        p.bandwidthGBs = q.real(7);
        p.iters = static_cast<int>(q.int64(8));
        out.push_back(std::move(p));
    }
    return out;
}
} // namespace rl::store
