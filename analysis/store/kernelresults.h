#pragma once
// Typed writes and reads of the kernel benchmark tables (schema version 2): GEMM points, STREAM
// bandwidth points and their detected ceilings, measured peak FLOP/s.
#include <cstdint>
#include <vector>

#include "records/importresult.h"
#include "store/database.h"

namespace rl::store {

// Inserts every kernel record of data under sessionId; the caller owns the transaction.
void insertKernelRecords(Database& db, std::int64_t sessionId, const SessionData& data);

void insertGemm(Database& db, std::int64_t sessionId, const GemmPoint& p);
void insertMemBw(Database& db, std::int64_t sessionId, const MemBwPoint& p);
void insertMemCeiling(Database& db, std::int64_t sessionId, const MemCeiling& c);
void insertPeakFlops(Database& db, std::int64_t sessionId, const PeakFlopsPoint& p);

// In insertion order.
std::vector<GemmPoint> gemmPoints(Database& db, std::int64_t sessionId);
std::vector<MemBwPoint> memBwPoints(Database& db, std::int64_t sessionId);
std::vector<MemCeiling> memCeilings(Database& db, std::int64_t sessionId);
std::vector<PeakFlopsPoint> peakFlopsPoints(Database& db, std::int64_t sessionId);
} // namespace rl::store
