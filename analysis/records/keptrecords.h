#pragma once
// Records the store has no table for - a probe's attention rates, its timed steps and step summary,
// its bare-loop reference ratios, the dtypes or backends it skipped and why - are kept in the
// session's parameters, so a probe file imported later keeps what `ridgeline-cli run probe` kept
// while it ran. One list of which record goes under which key, for both.
#include <string>
#include <string_view>

#include "records/wireformat.h"

namespace rl {

// The params key a record is kept under ("attention", "timed_steps", "references", "skipped",
// "step_summary"), or empty when it is not kept.
std::string keptRecordKey(std::string_view record);

// Whether the kept record is a measured point of its session (an attention rate, a timed step), which
// counts toward a run's progress, rather than a fact about it.
bool keptRecordIsPoint(std::string_view record);

// Keeps the record (without its "record" field) in params: appended to the array under its key, or,
// for the one-per-session step summary, as the object itself. False when the record is not kept.
bool keepRecord(nlohmann::json& params, const wire::RawRecord& raw);
} // namespace rl
