#pragma once
// What an importer or a benchmark produces: sessions with typed records, plus non-fatal warnings.
#include <cstdint>
#include <string>
#include <vector>

#include "records/collectivepoint.h"
#include "records/pairpoint.h"
#include "records/kernelpoints.h"
#include "records/session.h"
#include "records/storagepoint.h"
#include "records/trainlogrecords.h"
#include "records/tracerecords.h"

namespace rl {

// A problem at a place in the input: line (1-based, 0 = unknown) and byte offset.
struct SourceLocation
{
    std::int64_t line = 0;
    std::int64_t byteOffset = 0;
};

struct ImportWarning
{
    SourceLocation where;
    std::string message;
};

// Everything one session carries; later kinds add their record vectors here.
struct SessionData
{
    Session session;
    std::vector<CollectivePoint> collectives;
    // Kernel records (default-initialised so `{session, collectives}` initialisers stay valid).
    std::vector<GemmPoint> gemms = {};
    std::vector<MemBwPoint> membw = {};
    std::vector<MemCeiling> memCeilings = {};
    std::vector<PeakFlopsPoint> peaks = {};
    // Trace and training-log records (analysis/trace, importers/kineto*, trainlog*).
    std::vector<StepBreakdown> steps = {};
    std::vector<KernelStat> kernelStats = {};
    std::vector<TraceCollective> traceCollectives = {};
    std::vector<TimelineEvent> timeline = {};
    std::vector<TrainStep> trainSteps = {};
    std::vector<TrainEvent> trainEvents = {};
    std::vector<StoragePoint> storage = {}; // storage benchmark points (ridgeline-bench io, fio, IOR)
    std::vector<PairPoint> pairs = {}; // `ridgeline-bench pairs` matrix
};

struct ImportResult
{
    std::string format;                 // importer id that produced it
    std::vector<SessionData> sessions;
    std::vector<ImportWarning> warnings;
    bool ok = true;                     // false: error says why, sessions must not be stored
    bool cancelled = false;
    std::string error;                  // "file:line: message" style, set when !ok
    SourceLocation errorAt;
};

// Where byte `byte` of a whole text is: its line (1-based) and the offset (JSON parsers say bytes).
SourceLocation locationOfByte(const std::string& text, std::size_t byte);

// Formats "path:line: message" (or "path: byte N: message" when the line is unknown).
std::string describeLocation(const std::string& path, const SourceLocation& where);
} // namespace rl
