#include "records/wireformat.h"

#include <charconv>
#include <cmath>
#include <stdexcept>

namespace rl::wire {
using nlohmann::json;

json toJson(const CallStats& s)
{
    return json{{"iters", s.iters},   {"warmup", s.warmup}, {"calls_per_sample", s.callsPerSample},
                {"mean_us", s.meanUs}, {"min_us", s.minUs}, {"max_us", s.maxUs},
                {"p50_us", s.p50Us},   {"p99_us", s.p99Us}, {"cv", s.cv}};
}

CallStats callStatsFromJson(const json& j)
{
    CallStats s;
    s.iters = integerField<int>(j, "iters", 0);
    s.warmup = integerField<int>(j, "warmup", 0);
    s.callsPerSample = integerField<int>(j, "calls_per_sample", 1);
    s.meanUs = j.at("mean_us").get<double>();
    s.minUs = j.value("min_us", 0.0);
    s.maxUs = j.value("max_us", 0.0);
    s.p50Us = j.value("p50_us", 0.0);
    s.p99Us = j.value("p99_us", 0.0);
    s.cv = j.value("cv", 0.0);
    return s;
}

json toJson(const PairPoint& p)
{
    return json{{"record", "pair"},           {"rank_a", p.rankA},         {"rank_b", p.rankB},
                {"host_a", p.hostA},          {"host_b", p.hostB},         {"latency_bytes", p.latencyBytes},
                {"latency_us", p.latencyUs},  {"bandwidth_bytes", p.bandwidthBytes},
                {"bandwidth_gbs", p.bandwidthGBs}, {"iters", p.iters}};
}

PairPoint pairFromJson(const json& j)
{
    PairPoint p;
    p.rankA = integerField<int>(j, "rank_a");
    p.rankB = integerField<int>(j, "rank_b");
    p.hostA = j.value("host_a", std::string{});
    p.hostB = j.value("host_b", std::string{});
    p.latencyBytes = integerField<std::int64_t>(j, "latency_bytes", 0);
    p.latencyUs = j.at("latency_us").get<double>();
    p.bandwidthBytes = integerField<std::int64_t>(j, "bandwidth_bytes", 0);
    p.bandwidthGBs = j.at("bandwidth_gbs").get<double>();
    p.iters = integerField<int>(j, "iters", 0);
    return p;
}

namespace {
void jsonString(io::TextBuffer& out, std::string_view s)
{
    bool plain = true;
    for (unsigned char c : s)
        plain = plain && c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
    if (plain) {
        out.ch('"').text(s).ch('"');
        return;
    }
    out.text(json(std::string(s)).dump()); // escapes, and refuses invalid UTF-8 as the json path does
}

void jsonReal(io::TextBuffer& out, double v)
{
    if (!std::isfinite(v)) {
        out.text("null"); // what nlohmann::json writes for inf and nan
        return;
    }
    char tmp[32];
    const auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
    const std::string_view digits(tmp, static_cast<std::size_t>(r.ptr - tmp));
    out.text(digits);
    if (digits.find_first_of(".e") == std::string_view::npos)
        out.text(".0"); // stays a floating-point number when read back, as nlohmann writes it
}

template <typename Int>
void jsonKey(io::TextBuffer& out, std::string_view key, Int v, bool first = false)
{
    out.text(first ? "\"" : ",\"").text(key).text("\":").integer(static_cast<std::int64_t>(v));
}
void jsonKeyReal(io::TextBuffer& out, std::string_view key, double v, bool first = false)
{
    out.text(first ? "\"" : ",\"").text(key).text("\":");
    jsonReal(out, v);
}
void jsonKeyString(io::TextBuffer& out, std::string_view key, std::string_view v)
{
    out.text(",\"").text(key).text("\":");
    jsonString(out, v);
}
} // namespace

void writeJsonMembers(io::TextBuffer& out, const CollectivePoint& p)
{
    // nlohmann::json objects keep their keys sorted: the same order here.
    jsonKeyReal(out, "algbw_gbs", p.algbwGBs, true);
    jsonKeyReal(out, "busbw_gbs", p.busbwGBs);
    jsonKey(out, "bytes", p.bytes);
    jsonKey(out, "count", p.count);
    jsonKeyString(out, "dtype", p.dtype);
    if (!p.group.empty())
        jsonKeyString(out, "group", p.group);
    if (p.imbalance > 0)
        jsonKeyReal(out, "imbalance", p.imbalance);
    out.text(p.inPlace ? ",\"in_place\":true" : ",\"in_place\":false");
    jsonKey(out, "nranks", p.nranks);
    jsonKeyString(out, "op", p.op);
    out.text(",\"record\":\"collective\"");
    jsonKeyString(out, "redop", p.redop);
    jsonKey(out, "root", p.root);
    if (const auto& s = p.stats) {
        out.text(",\"stats\":{");
        jsonKey(out, "calls_per_sample", s->callsPerSample, true);
        jsonKeyReal(out, "cv", s->cv);
        jsonKey(out, "iters", s->iters);
        jsonKeyReal(out, "max_us", s->maxUs);
        jsonKeyReal(out, "mean_us", s->meanUs);
        jsonKeyReal(out, "min_us", s->minUs);
        jsonKeyReal(out, "p50_us", s->p50Us);
        jsonKeyReal(out, "p99_us", s->p99Us);
        jsonKey(out, "warmup", s->warmup);
        out.ch('}');
    }
    jsonKeyReal(out, "time_us", p.timeUs);
    jsonKey(out, "wrong", p.wrong);
}

void writeJsonNumber(io::TextBuffer& out, std::string_view key, double v) { jsonKeyReal(out, key, v); }
void writeJsonText(io::TextBuffer& out, std::string_view key, std::string_view v) { jsonKeyString(out, key, v); }
void writeJsonFlag(io::TextBuffer& out, std::string_view key, bool v)
{
    out.text(",\"").text(key).text(v ? "\":true" : "\":false");
}

void writeJsonLine(io::TextBuffer& out, const CollectivePoint& p)
{
    out.ch('{');
    writeJsonMembers(out, p);
    out.text("}\n");
    out.endRow();
}

json toJson(const CollectivePoint& p)
{
    json j{{"record", "collective"}, {"op", p.op},           {"nranks", p.nranks},
           {"dtype", p.dtype},       {"redop", p.redop},     {"bytes", p.bytes},
           {"count", p.count},       {"in_place", p.inPlace}, {"root", p.root},
           {"time_us", p.timeUs},    {"algbw_gbs", p.algbwGBs}, {"busbw_gbs", p.busbwGBs},
           {"wrong", p.wrong}};
    if (p.stats)
        j["stats"] = toJson(*p.stats);
    if (p.imbalance > 0)
        j["imbalance"] = p.imbalance;
    if (!p.group.empty())
        j["group"] = p.group;
    return j;
}

CollectivePoint collectiveFromJson(const json& j)
{
    CollectivePoint p;
    p.op = j.at("op").get<std::string>();
    p.nranks = integerField<int>(j, "nranks");
    p.dtype = j.value("dtype", std::string{});
    p.redop = j.value("redop", std::string{});
    p.bytes = integerField<std::int64_t>(j, "bytes");
    p.count = integerField<std::int64_t>(j, "count", 0);
    const auto& ip = j.value("in_place", json(false));
    p.inPlace = ip.is_boolean() ? ip.get<bool>() : integerField<int>(j, "in_place") != 0;
    p.root = integerField<int>(j, "root", -1);
    p.timeUs = j.at("time_us").get<double>();
    p.algbwGBs = j.value("algbw_gbs", 0.0);
    p.busbwGBs = j.value("busbw_gbs", 0.0);
    p.wrong = integerField<std::int64_t>(j, "wrong", 0);
    if (const auto it = j.find("stats"); it != j.end() && it->is_object())
        p.stats = callStatsFromJson(*it);
    p.imbalance = j.value("imbalance", 0.0);
    p.group = j.value("group", std::string{});
    return p;
}

json toJson(const Session& s)
{
    return json{{"record", "session"},       {"kind", s.kind},         {"title", s.title},
                {"created", s.created},      {"host", s.host},         {"tool", s.tool},
                {"version", s.toolVersion},  {"command_line", s.commandLine},
                {"params", s.params},        {"notes", s.notes}};
}

Session sessionFromJson(const json& j)
{
    Session s;
    s.kind = j.value("kind", std::string(kind::Collectives));
    s.title = j.value("title", std::string{});
    s.created = j.value("created", std::string{});
    s.host = j.value("host", std::string{});
    s.tool = j.value("tool", std::string{});
    s.toolVersion = j.value("version", std::string{});
    s.commandLine = j.value("command_line", std::string{});
    s.params = j.value("params", json::object());
    s.notes = j.value("notes", std::string{});
    return s;
}

json endRecord(SessionStatus status, const std::string& message)
{
    json j{{"record", "end"}, {"status", toString(status)}};
    if (!message.empty())
        j["message"] = message;
    return j;
}

namespace {
// The line as a JSON object; nullopt for a blank line.
std::optional<json> objectOfLine(std::string_view line)
{
    while (!line.empty() && (line.back() == '\r' || line.back() == ' '))
        line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos)
        return std::nullopt;
    json j = json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded() || !j.is_object())
        throw std::runtime_error("not a JSON object");
    return j;
}

Record recordOf(json j)
{
    try {
        // Points without "record" are collectives (the keys the issue names are enough).
        const std::string record = j.value("record", j.contains("op") ? std::string("collective") : std::string{});
        if (record == "collective")
            return collectiveFromJson(j);
        if (record == "session")
            return SessionHeader{sessionFromJson(j)};
        if (record == "end") {
            End e;
            e.status = sessionStatusFromString(j.value("status", std::string("complete")))
                           .value_or(SessionStatus::Complete);
            e.message = j.value("message", std::string{});
            return e;
        }
        if (record == "gemm")
            return gemmFromJson(j);
        if (record == "membw")
            return memBwFromJson(j);
        if (record == "membw_ceiling")
            return memCeilingFromJson(j);
        if (record == "peakflops")
            return peakFlopsFromJson(j);
        if (record == "storage")
            return storageFromJson(j);
        if (record == "pair")
            return pairFromJson(j);
        return RawRecord{record, std::move(j)};
    } catch (const json::exception& e) {
        throw std::runtime_error(std::string("bad record: ") + e.what());
    }
}
} // namespace

std::optional<Record> parseLine(std::string_view line)
{
    auto j = objectOfLine(line);
    if (!j)
        return std::nullopt;
    return recordOf(std::move(*j));
}

std::optional<StoredLine> parseStoredLine(std::string_view line)
{
    auto j = objectOfLine(line);
    if (!j)
        return std::nullopt;
    std::optional<std::int64_t> sessionId;
    try {
        if (j->contains("session_id"))
            sessionId = integerField<std::int64_t>(*j, "session_id");
    } catch (const std::invalid_argument& e) {
        throw std::runtime_error(std::string("bad record: ") + e.what());
    }
    return StoredLine{recordOf(std::move(*j)), sessionId};
}
} // namespace rl::wire
