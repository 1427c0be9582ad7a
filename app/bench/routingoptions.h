#pragma once
// The all_to_allv options of `ridgeline-bench collectives`: a routing matrix from a CSV file or
// generated from MoE parameters. The MoE matrix needs the rank count, so it is built after MPI
// starts (applyRouting); a CSV file is read before, so a bad file fails before any launch.
#include <string>

#include <CLI/CLI.hpp>

#include "collectives/collectivesweep.h"

namespace rl::bench {

struct RoutingOptions
{
    std::string csv;
    int experts = 0;
    int topK = 2;
    std::int64_t tokens = 4096;
    std::int64_t hidden = 4096;
    std::string dtype = "bf16";
    std::string skew = "uniform";
    bool sizesGiven = false; // -b or -e given: scale the matrix over the sweep instead of its own size
};

void addRoutingOptions(CLI::App& cmd, RoutingOptions& o);
// Reads the CSV (before MPI). Throws std::invalid_argument.
void readRoutingCsv(const RoutingOptions& o, SweepParams& p);
// Builds the MoE matrix for `nranks` when asked for, and without -b/-e makes the sweep the matrix's
// own size (one point: the mean bytes a rank sends). Throws std::invalid_argument.
void applyRouting(const RoutingOptions& o, SweepParams& p, int nranks);
} // namespace rl::bench
