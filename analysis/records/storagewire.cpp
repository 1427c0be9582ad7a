// JSON-lines form of storage records (declared in records/wireformat.h): "storage".
#include "records/wireformat.h"

namespace rl::wire {
using nlohmann::json;

json toJson(const StoragePoint& p)
{
    json j{{"record", "storage"},
           {"op", p.op},
           {"access", p.access},
           {"nranks", p.nranks},
           {"file_bytes", p.fileBytes},
           {"block_bytes", p.blockBytes},
           {"fsync", p.fsync},
           {"direct", p.direct},
           {"aggregate_gbs", p.aggregateGBs},
           {"mean_rank_gbs", p.meanRankGBs},
           {"min_rank_gbs", p.minRankGBs},
           {"max_rank_gbs", p.maxRankGBs},
           {"slowest_rank", p.slowestRank},
           {"time_s", p.timeS},
           {"first_byte_us", p.firstByteUs},
           {"first_byte_mean_us", p.firstByteMeanUs},
           {"repeats", p.repeats}};
    if (!p.rankGBs.empty())
        j["rank_gbs"] = p.rankGBs;
    return j;
}

StoragePoint storageFromJson(const json& j)
{
    StoragePoint p;
    p.op = j.at("op").get<std::string>();
    if (p.op != "write" && p.op != "read")
        throw std::invalid_argument("\"op\" must be \"write\" or \"read\"");
    p.access = j.value("access", std::string(storage_access::FilePerProcess));
    p.nranks = integerField<int>(j, "nranks");
    p.fileBytes = integerField<std::int64_t>(j, "file_bytes");
    p.blockBytes = integerField<std::int64_t>(j, "block_bytes", 0);
    p.fsync = j.value("fsync", false);
    p.direct = j.value("direct", false);
    p.aggregateGBs = j.at("aggregate_gbs").get<double>();
    p.meanRankGBs = j.value("mean_rank_gbs", 0.0);
    p.minRankGBs = j.value("min_rank_gbs", 0.0);
    p.maxRankGBs = j.value("max_rank_gbs", 0.0);
    p.slowestRank = integerField<int>(j, "slowest_rank", -1);
    p.timeS = j.value("time_s", 0.0);
    p.firstByteUs = j.value("first_byte_us", 0.0);
    p.firstByteMeanUs = j.value("first_byte_mean_us", 0.0);
    p.repeats = integerField<int>(j, "repeats", 1);
    if (const auto it = j.find("rank_gbs"); it != j.end() && it->is_array())
        p.rankGBs = it->get<std::vector<double>>();
    return p;
}
} // namespace rl::wire
