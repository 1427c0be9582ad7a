#pragma once
// One home for a wire record on its way into a session: what a record is (a measured point, a
// record derived from the points, the header, the end, or a kind with no table), which view family
// a point feeds, its JSON line, and where it goes in a session being imported. store/appendrecord.h
// stores it in a workspace. The CLI's run, the JSON-lines importer and the GUI's run follower all
// dispatch through these, so a new record kind is added here and in its store insert, once.
#include <nlohmann/json.hpp>

#include "records/importresult.h"
#include "records/wireformat.h"

namespace rl::wire {

enum class RecordRole {
    Header,  // the session header (again, once the runner knows its expected points)
    Point,   // a measured point: stored, counts toward progress
    Derived, // derived from the points (a memory ceiling): stored, no progress of its own
    End,     // the end record with the status
    Raw      // a kind the store has no table for (kept or reported by the caller)
};
RecordRole roleOf(const Record& r);
// A point or derived record: one that goes into the session's tables.
bool isSessionData(const Record& r);

// Which charts a stored record feeds, for whoever refreshes them as a run goes.
enum class RecordFamily { None, Collective, Kernel, Storage };
RecordFamily familyOf(const Record& r);

// The JSON line of a point or derived record (toJson of its type); null for the others.
nlohmann::json toJson(const Record& r);
} // namespace rl::wire

namespace rl {
// Appends a point or derived record to the session being read; false (nothing appended) for a
// header, end or raw record.
bool appendRecord(SessionData& data, const wire::Record& r);
} // namespace rl
