#pragma once
// The MPI side of `ridgeline-bench collectives`: the sweep on every rank, all ranks together or in
// the groups of --split, with rank 0 printing the session header, the points and the end record.
#include <string>
#include <vector>

#include "collectives/collectivesweep.h"
#include "collectives/splitgroups.h"
#include "routingoptions.h"

namespace rl::bench {

struct RunOptions
{
    bool ncclFormat = false;
    std::vector<SplitLevel> split; // empty: one sweep of all ranks, points without a group
    int delayRank = -1;            // testing: the rank that sleeps delayUs before every call
    double delayUs = 0;
    double pointTimeoutSeconds = 0; // PointWatchdog: 0 = off
};

// Runs on every rank (MPI_Init to MPI_Finalize); returns the exit code.
int runCollectives(SweepParams params, const RoutingOptions& routing, const RunOptions& run);
} // namespace rl::bench
