#pragma once
// Typed writes and reads of trace and training-log tables (schema version 3).
#include <cstdint>
#include <vector>

#include "records/importresult.h"
#include "store/database.h"

namespace rl::store {

// Inserts every trace and training-log record of data under sessionId; the caller owns the
// transaction.
void insertTraceRecords(Database& db, std::int64_t sessionId, const SessionData& data);

// Ordered by rank, then step.
std::vector<StepBreakdown> stepBreakdowns(Database& db, std::int64_t sessionId);
// By total time, descending; rank < 0 = all ranks; limit 0 = all rows.
std::vector<KernelStat> kernelStats(Database& db, std::int64_t sessionId, int rank = -1, int limit = 0);
std::vector<TraceCollective> traceCollectives(Database& db, std::int64_t sessionId);
// The representative step's GPU activity; rank < 0 = all ranks. By rank, then start time.
std::vector<TimelineEvent> traceTimeline(Database& db, std::int64_t sessionId, int rank = -1);
// In log order.
std::vector<TrainStep> trainSteps(Database& db, std::int64_t sessionId);
std::vector<TrainEvent> trainEvents(Database& db, std::int64_t sessionId);
} // namespace rl::store
