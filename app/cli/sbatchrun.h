#pragma once
// `--sbatch` for every `ridgeline-cli run ...`: the launch command runs inside a Slurm batch job
// instead of here. Ridgeline writes the job script (printed on stderr before it is submitted),
// submits it, streams the job's output file line by line into the same parser as a local run,
// and follows the job through squeue/scontrol until it ends; SIGTERM/SIGINT run scancel.
#include <string>
#include <utility>
#include <vector>

#include "launcher.h"
#include "runs/launch.h"

namespace rl::cli {

// Runs argv locally (Launcher) or, with --sbatch, as a batch job of `ranks` tasks unless the options
// size the allocation themselves; hands every stdout line to onLine. A job's end state comes back
// as a ChildResult: its exit code, interrupted when we cancelled it, the Slurm reason otherwise.
// `onSubmitted` gets the job id and the script path (for the session's parameters). `onStderrLine`
// sees a local run's stderr lines (a job's stderr is in its output file, which onLine reads). When
// onLine throws (the workspace cannot store), the job is cancelled before the error goes on.
// `launcher`, when given, is the one that runs a local command (its stop() works from onLine).
ChildResult runLocallyOrAsJob(const runs::Sbatch& sbatch, int ranks, const std::string& jobName,
                              const std::vector<std::string>& argv, const Launcher::LineFn& onLine, int idleTimeoutMs,
                              const std::function<void(const std::string& jobId, const std::string& script)>& onSubmitted = {},
                              const Launcher::LineFn& onStderrLine = {}, Launcher* launcher = nullptr);
} // namespace rl::cli
