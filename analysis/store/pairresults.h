#pragma once
// Typed writes and reads of `pairs` sessions (schema version 6): one row per measured pair.
#include <cstdint>
#include <vector>

#include "records/pairpoint.h"
#include "store/database.h"

namespace rl::store {
void insertPair(Database& db, std::int64_t sessionId, const PairPoint& p); // the caller owns the transaction
std::vector<PairPoint> pairPoints(Database& db, std::int64_t sessionId);   // by rank_a, rank_b
} // namespace rl::store
