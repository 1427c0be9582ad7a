#pragma once
// The JSON-lines wire format between ridgeline-bench and everything else. One object per line:
//   {"record":"session", "kind":"collectives", "tool":"ridgeline-bench", "version":..., "host":...,
//    "command_line":..., "params":{...}}                              first line of a run
//   {"record":"collective", "op":..., "nranks":..., "dtype":..., "redop":..., "bytes":..., "count":...,
//    "in_place":..., "root":..., "time_us":..., "algbw_gbs":..., "busbw_gbs":..., "wrong":...,
//    "stats":{"iters", "warmup", "calls_per_sample", "mean_us", "min_us", "max_us", "p50_us",
//             "p99_us", "cv"}, "imbalance":..., "group":...}
//     stats: runner points; imbalance: all_to_allv; group: --split runs (absent when empty)
//   {"record":"end", "status":"complete"|"cancelled"|"failed", "message":...}   last line
// Lines with another "record" are passed through as RawRecord so later kinds can add their own.
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>

#include <nlohmann/json.hpp>

#include "records/collectivepoint.h"
#include "records/kernelpoints.h"
#include "io/textbuffer.h"
#include "records/pairpoint.h"
#include "records/session.h"
#include "records/storagepoint.h"

namespace rl::wire {

struct SessionHeader
{
    Session session;
};
struct End
{
    SessionStatus status = SessionStatus::Complete;
    std::string message;
};
struct RawRecord
{
    std::string record;
    nlohmann::json object;
};
using Record = std::variant<SessionHeader, CollectivePoint, End, RawRecord, GemmPoint, MemBwPoint, MemCeiling,
                            PeakFlopsPoint, StoragePoint, PairPoint>;

nlohmann::json toJson(const CollectivePoint& p);
nlohmann::json toJson(const CallStats& s);
// toJson(p).dump() and a line break, written straight into the buffer: the same keys in the same
// order with the same values (doubles in shortest round-trip form, non-finite ones as null), at
// a tenth of the cost, for exports of millions of points.
void writeJsonLine(io::TextBuffer& out, const CollectivePoint& p);
// The members writeJsonLine writes, without the braces, for a caller that adds its own after them
// with writeJsonNumber, writeJsonText and writeJsonFlag (",\"key\":value"; a non-finite double is null).
void writeJsonMembers(io::TextBuffer& out, const CollectivePoint& p);
void writeJsonNumber(io::TextBuffer& out, std::string_view key, double v);
void writeJsonText(io::TextBuffer& out, std::string_view key, std::string_view v);
void writeJsonFlag(io::TextBuffer& out, std::string_view key, bool v);
CallStats callStatsFromJson(const nlohmann::json& j); // throws nlohmann::json::exception
// {"record":"pair", "rank_a", "rank_b", "host_a", "host_b", "latency_bytes", "latency_us",
//  "bandwidth_bytes", "bandwidth_gbs", "iters"}
nlohmann::json toJson(const PairPoint& p);
PairPoint pairFromJson(const nlohmann::json& j);
CollectivePoint collectiveFromJson(const nlohmann::json& j); // throws nlohmann::json::exception
nlohmann::json toJson(const Session& s);                     // as a "session" header record
Session sessionFromJson(const nlohmann::json& j);
// Kernel records (records/kernelwire.cpp): "gemm", "membw", "membw_ceiling", "peakflops".
nlohmann::json toJson(const GemmPoint& p);
nlohmann::json toJson(const MemBwPoint& p);
nlohmann::json toJson(const MemCeiling& c);
nlohmann::json toJson(const PeakFlopsPoint& p);
GemmPoint gemmFromJson(const nlohmann::json& j);          // throws nlohmann::json::exception
MemBwPoint memBwFromJson(const nlohmann::json& j);
MemCeiling memCeilingFromJson(const nlohmann::json& j);
PeakFlopsPoint peakFlopsFromJson(const nlohmann::json& j);
// Storage records (records/storagewire.cpp): "storage".
nlohmann::json toJson(const StoragePoint& p);
StoragePoint storageFromJson(const nlohmann::json& j); // throws nlohmann::json::exception, std::invalid_argument
// An integer field, range-checked: nlohmann's get<int>() casts 1e97 or 3.5 without a check, which is
// undefined behaviour on hostile input. Integral floats (1e6) are accepted. Throws
// std::invalid_argument naming the key when the field is missing (and no fallback), not a number,
// fractional or out of range.
template <typename T>
T integerField(const nlohmann::json& j, const char* key, std::optional<T> fallback = std::nullopt)
{
    using Limits = std::numeric_limits<T>;
    const auto it = j.find(key);
    if (it == j.end() || it->is_null()) {
        if (fallback)
            return *fallback;
        throw std::invalid_argument(std::string("missing \"") + key + "\"");
    }
    const auto bad = [key](const char* why) { return std::invalid_argument(std::string("\"") + key + "\" " + why); };
    if (it->is_number_unsigned()) {
        const auto v = it->template get<std::uint64_t>();
        if (v > static_cast<std::uint64_t>(Limits::max()))
            throw bad("is out of range");
        return static_cast<T>(v);
    }
    if (it->is_number_integer()) {
        const auto v = it->template get<std::int64_t>();
        if (v < static_cast<std::int64_t>(Limits::min()) || v > static_cast<std::int64_t>(Limits::max()))
            throw bad("is out of range");
        return static_cast<T>(v);
    }
    if (it->is_number_float()) {
        const double d = it->template get<double>();
        if (!std::isfinite(d) || d != std::floor(d))
            throw bad("is not a whole number");
        if (d < static_cast<double>(Limits::min()) || d >= std::ldexp(1.0, Limits::digits))
            throw bad("is out of range");
        return static_cast<T>(d);
    }
    throw bad("is not a number");
}

nlohmann::json endRecord(SessionStatus status, const std::string& message = {});

// Parses one line. Returns nullopt for blank lines; throws std::runtime_error with a reason for
// lines that are not a JSON object or miss required keys.
std::optional<Record> parseLine(std::string_view line);
// A record as ridgeline-cli echoes it once stored, with the "session_id" it was stored under
// (absent on lines the CLI did not store). Parsed once: a live run's points are many.
struct StoredLine
{
    Record record;
    std::optional<std::int64_t> sessionId;
};
std::optional<StoredLine> parseStoredLine(std::string_view line);
} // namespace rl::wire
