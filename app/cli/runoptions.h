#pragma once
// `ridgeline-cli run KIND`: every kind's options bound into one runs::RunRequest (analysis/runs),
// the same request the GUI's run dialogs fill. The options a kind takes follow from what the kind
// is (runs::info): launch options for MPI runs and GPU tools, --env and --tool-dir for tools, the
// GEMM shape options for hipblaslt/rocblas. --dry-run prints the command the request launches,
// --print-request the request itself (as JSON), both without running anything.
#include <functional>

#include <CLI/CLI.hpp>

#include "runs/runrequest.h"

namespace rl::cli {

struct RunCommandLine
{
    runs::RunRequest request;
    bool dryRun = false;
    bool printRequest = false;
};

// Adds `run SUBCOMMAND` for the kind. When it is parsed, the launch mode the options imply is
// settled, the request validated (a usage error, exit 2, when not) and, unless --print-request,
// handed to `start`, whose non-zero return becomes the exit code.
CLI::App* addRunSubcommand(CLI::App* run, runs::RunKind kind, const std::string& help,
                           std::function<int(const RunCommandLine&)> start);

// Open MPI refuses root without these (containers, CI); MPICH ignores them.
void allowOpenMpiAsRoot();
} // namespace rl::cli
