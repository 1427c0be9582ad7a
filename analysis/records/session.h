#pragma once
// A session is one benchmark run or one imported source: metadata plus typed records in the store.
#include <ctime>
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace rl {

// Kinds are stored as text so later issues can add kinds without a migration.
namespace kind {
inline constexpr const char* Collectives = "collectives";
inline constexpr const char* Gemm = "gemm";
inline constexpr const char* MemBandwidth = "membw";
inline constexpr const char* PeakFlops = "peakflops";
inline constexpr const char* Trace = "trace";
inline constexpr const char* TrainingLog = "trainlog";
inline constexpr const char* Storage = "storage"; // ridgeline-bench io, fio, IOR
inline constexpr const char* Pairs = "pairs"; // point-to-point matrix of `ridgeline-bench pairs`
// Host-device and device-device copy bandwidth matrices (nvbandwidth), kept in the session's
// params (importers/nvbandwidth.h says why not as pairs).
inline constexpr const char* CopyBandwidth = "copybw";
// The PyTorch probe's: attention rates and timed training steps, kept in the session's params
inline constexpr const char* Attention = "attention";
inline constexpr const char* Step = "step";
} // namespace kind

enum class SessionStatus { Running, Complete, Cancelled, Failed, Incomplete };
const char* toString(SessionStatus s);
std::optional<SessionStatus> sessionStatusFromString(std::string_view s);

struct Session
{
    std::int64_t id = 0;
    std::string kind = kind::Collectives;
    std::string title;       // short human name, e.g. "all_reduce_perf 8 ranks (nccl-tests 2.13)"
    std::string created;     // ISO 8601 UTC
    // Where the data came from: the run's own host (ridgeline-bench, launched runs), or the host(s)
    // an imported file names (nccl-tests "on <host>", IOR "Machine", hpcc "Hostname"); empty when
    // the file does not say. Never the importing machine: that would label a trace recorded on a
    // cluster node with the laptop that opened it.
    std::string host;
    std::string tool;        // "ridgeline-bench", "nccl-tests", "rccl-tests", "osu", "imb", ...
    std::string toolVersion;
    std::string commandLine;
    nlohmann::json params = nlohmann::json::object(); // sweep parameters, header facts, conventions
    std::string notes;
    SessionStatus status = SessionStatus::Complete;
    std::optional<std::int64_t> sourceFileId; // imported_files row for imports
    std::int64_t writerPid = 0;               // for running sessions: who writes them
};

std::string nowIso8601();
// Seconds since the epoch (UTC) as "2026-03-14T08:00:47Z".
std::string iso8601(std::time_t utcSeconds);
// Session::params key an importer sets when Session::created is a date the file itself carries
// (the value says where in the file it was read); without it an imported session's created is
// the time of the import, and the report says "imported" instead of "recorded".
inline constexpr const char* kCreatedFromParam = "created_from";
std::string hostName();
} // namespace rl
