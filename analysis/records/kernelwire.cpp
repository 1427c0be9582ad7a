// JSON-lines form of the kernel records (declared in records/wireformat.h).
#include "records/wireformat.h"

namespace rl::wire {
using nlohmann::json;

json toJson(const GemmPoint& p)
{
    json j{{"record", "gemm"},   {"dtype", p.dtype},     {"m", p.m},
           {"n", p.n},           {"k", p.k},             {"batch", p.batch},
           {"trans_a", p.transA}, {"trans_b", p.transB}, {"time_us", p.timeUs},
           {"gflops", p.gflops}, {"intensity", p.intensity}, {"efficiency", p.efficiency},
           {"threads", p.threads}, {"device", p.device}};
    if (!p.computeType.empty())
        j["compute_type"] = p.computeType;
    if (!p.outType.empty())
        j["out_type"] = p.outType;
    if (!p.solution.empty())
        j["solution"] = p.solution;
    return j;
}

GemmPoint gemmFromJson(const json& j)
{
    GemmPoint p;
    p.dtype = j.at("dtype").get<std::string>();
    p.computeType = j.value("compute_type", std::string{});
    p.outType = j.value("out_type", std::string{});
    p.transA = j.value("trans_a", std::string("N"));
    p.transB = j.value("trans_b", std::string("N"));
    p.m = integerField<std::int64_t>(j, "m");
    p.n = integerField<std::int64_t>(j, "n");
    p.k = integerField<std::int64_t>(j, "k");
    p.batch = integerField<std::int64_t>(j, "batch", 1);
    p.timeUs = j.at("time_us").get<double>();
    p.gflops = j.value("gflops", 0.0);
    p.intensity = j.value("intensity", 0.0);
    p.efficiency = j.value("efficiency", 0.0);
    p.threads = integerField<int>(j, "threads", 0);
    p.device = j.value("device", std::string{});
    p.solution = j.value("solution", std::string{});
    return p;
}

json toJson(const MemBwPoint& p)
{
    return json{{"record", "membw"}, {"kernel", p.kernel},           {"bytes", p.bytes},
                {"threads", p.threads}, {"best_time_us", p.bestTimeUs}, {"bandwidth_gbs", p.bandwidthGBs}};
}

MemBwPoint memBwFromJson(const json& j)
{
    MemBwPoint p;
    p.kernel = j.at("kernel").get<std::string>();
    p.bytes = integerField<std::int64_t>(j, "bytes");
    p.threads = integerField<int>(j, "threads", 1);
    p.bestTimeUs = j.value("best_time_us", 0.0);
    p.bandwidthGBs = j.at("bandwidth_gbs").get<double>();
    return p;
}

json toJson(const MemCeiling& c)
{
    return json{{"record", "membw_ceiling"}, {"level", c.level},     {"kernel", c.kernel},
                {"threads", c.threads},       {"from_bytes", c.fromBytes}, {"to_bytes", c.toBytes},
                {"bandwidth_gbs", c.bandwidthGBs}};
}

MemCeiling memCeilingFromJson(const json& j)
{
    MemCeiling c;
    c.level = j.at("level").get<std::string>();
    c.kernel = j.value("kernel", std::string("triad"));
    c.threads = integerField<int>(j, "threads", 1);
    c.fromBytes = integerField<std::int64_t>(j, "from_bytes", 0);
    c.toBytes = integerField<std::int64_t>(j, "to_bytes", 0);
    c.bandwidthGBs = j.at("bandwidth_gbs").get<double>();
    return c;
}

json toJson(const PeakFlopsPoint& p)
{
    return json{{"record", "peakflops"}, {"dtype", p.dtype},         {"threads", p.threads},
                {"gflops", p.gflops},    {"theoretical_gflops", p.theoreticalGflops},
                {"isa", p.isa},          {"clock_ghz", p.clockGHz},  {"clock_source", p.clockSource},
                {"fma_units", p.fmaUnits}, {"lanes", p.lanes},       {"derivation", p.derivation}};
}

PeakFlopsPoint peakFlopsFromJson(const json& j)
{
    PeakFlopsPoint p;
    p.dtype = j.at("dtype").get<std::string>();
    p.threads = integerField<int>(j, "threads", 1);
    p.gflops = j.at("gflops").get<double>();
    p.theoreticalGflops = j.value("theoretical_gflops", 0.0);
    p.isa = j.value("isa", std::string{});
    p.clockGHz = j.value("clock_ghz", 0.0);
    p.clockSource = j.value("clock_source", std::string{});
    p.fmaUnits = integerField<int>(j, "fma_units", 0);
    p.lanes = integerField<int>(j, "lanes", 0);
    p.derivation = j.value("derivation", std::string{});
    return p;
}
} // namespace rl::wire
