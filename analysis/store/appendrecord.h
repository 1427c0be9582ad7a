#pragma once
// Stores one wire record of a running session in the workspace, in its own transaction (a killed
// run keeps every point it finished): the store side of records/recordroute.h.
#include <cstdint>

#include "records/wireformat.h"

namespace rl::store {
class Workspace;

// Inserts a point or derived record (wire::roleOf) into its table; false, and nothing stored, for a
// header, end or raw record.
bool appendRecord(Workspace& workspace, std::int64_t sessionId, const wire::Record& record);
} // namespace rl::store
