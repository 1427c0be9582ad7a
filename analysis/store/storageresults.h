#pragma once
// Typed writes and reads of storage benchmark points (schema version 6).
#include <cstdint>
#include <vector>

#include "records/importresult.h"
#include "store/database.h"

namespace rl::store {
// The caller owns the transaction.
void insertStorage(Database& db, std::int64_t sessionId, const StoragePoint& p);
void insertStorageRecords(Database& db, std::int64_t sessionId, const SessionData& data);
// In insertion order.
std::vector<StoragePoint> storagePoints(Database& db, std::int64_t sessionId);
} // namespace rl::store
