#include "store/storageresults.h"

#include <nlohmann/json.hpp>

namespace rl::store {

void insertStorage(Database& db, std::int64_t sessionId, const StoragePoint& p)
{
    Statement q(db, "INSERT INTO storage_results (session_id, op, access, nranks, file_bytes, block_bytes, fsync,"
                    " direct, aggregate_gbs, mean_rank_gbs, min_rank_gbs, max_rank_gbs, slowest_rank, time_s,"
                    " first_byte_us, first_byte_mean_us, repeats, rank_gbs)"
                    " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    q.bind(1, sessionId).bind(2, p.op).bind(3, p.access).bind(4, p.nranks).bind(5, p.fileBytes);
    q.bind(6, p.blockBytes).bind(7, p.fsync ? 1 : 0).bind(8, p.direct ? 1 : 0).bind(9, p.aggregateGBs);
    q.bind(10, p.meanRankGBs).bind(11, p.minRankGBs).bind(12, p.maxRankGBs).bind(13, p.slowestRank);
    q.bind(14, p.timeS).bind(15, p.firstByteUs).bind(16, p.firstByteMeanUs).bind(17, p.repeats);
    q.bind(18, nlohmann::json(p.rankGBs).dump());
    q.run();
}

void insertStorageRecords(Database& db, std::int64_t sessionId, const SessionData& data)
{
    for (const auto& p : data.storage)
        insertStorage(db, sessionId, p);
}

std::vector<StoragePoint> storagePoints(Database& db, std::int64_t sessionId)
{
    Statement q(db, "SELECT op, access, nranks, file_bytes, block_bytes, fsync, direct, aggregate_gbs, mean_rank_gbs,"
                    " min_rank_gbs, max_rank_gbs, slowest_rank, time_s, first_byte_us, first_byte_mean_us, repeats,"
                    " rank_gbs FROM storage_results WHERE session_id = ? ORDER BY id");
    q.bind(1, sessionId);
    std::vector<StoragePoint> out;
    while (q.step()) {
        StoragePoint p;
        p.op = q.text(0);
        p.access = q.text(1);
        p.nranks = static_cast<int>(q.int64(2));
        p.fileBytes = q.int64(3);
        p.blockBytes = q.int64(4);
        p.fsync = q.int64(5) != 0;
        p.direct = q.int64(6) != 0;
        p.aggregateGBs = q.real(7);
        p.meanRankGBs = q.real(8);
        p.minRankGBs = q.real(9);
        p.maxRankGBs = q.real(10);
        p.slowestRank = static_cast<int>(q.int64(11));
        p.timeS = q.real(12);
        p.firstByteUs = q.real(13);
        p.firstByteMeanUs = q.real(14);
        p.repeats = static_cast<int>(q.int64(15));
        const auto ranks = nlohmann::json::parse(q.text(16), nullptr, false);
        if (ranks.is_array())
            for (const auto& v : ranks)
                if (v.is_number())
                    p.rankGBs.push_back(v.get<double>());
        out.push_back(std::move(p));
    }
    return out;
}
} // namespace rl::store
