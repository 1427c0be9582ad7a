#pragma once
// Restarts, stalls, skipped steps and goodput of a training log's per-step series.
#include <vector>

#include "records/trainlogrecords.h"

namespace rl::trace {

struct TrainLogOptions
{
    double stallFactor = 3.0;   // a step slower than this x the median step time is a stall
    double gapFactor = 10.0;    // unexplained wall time above this x the expected time is a gap...
    double minGapS = 60.0;      // ...and above this many seconds
};

struct TrainLogSummary
{
    double medianStepMs = kNoValue;
    double wallS = 0;           // first to last logged step (timestamps, or summed step times)
    double productiveS = 0;     // step time of iterations kept: not redone, not skipped
    double goodput = 0;         // productiveS / wallS
    bool wallFromTimestamps = false;
    int restarts = 0;
    int stalls = 0;
    int gaps = 0;
    std::int64_t skippedIterations = 0;
    std::int64_t redoneIterations = 0;
};

// Sets iterationsCovered, segment, redone and (when the log had no timestamps) wallTimeS on the
// steps, replaces events with the detected timeline (ordered by position in the log) and
// returns the summary.
TrainLogSummary analyzeTrainLog(std::vector<TrainStep>& steps, std::vector<TrainEvent>& events,
                                const TrainLogOptions& options = {});
} // namespace rl::trace
