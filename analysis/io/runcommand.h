#pragma once
// Runs a short-lived command (sbatch, squeue, scancel, fio, a tool asked for its version) without a shell and
// captures its stdout, stderr and exit status. Long-running children with streamed output are
// app/cli/launcher.h's job; this is for commands whose whole answer is read at the end.
#include <string>
#include <vector>

namespace rl::io {

struct CommandResult
{
    int exitCode = -1;    // when it exited normally
    int signal = 0;       // when it was killed by a signal
    bool timedOut = false; // killed by us after timeoutMs
    std::string out;
    std::string err;
    bool ok() const { return exitCode == 0 && signal == 0 && !timedOut; }
};

// argv[0] is looked up in PATH. stdin is /dev/null. Throws std::runtime_error when the command
// cannot be started (not found, not executable). timeoutMs <= 0: no limit.
CommandResult runCommand(const std::vector<std::string>& argv, int timeoutMs = 30000);
} // namespace rl::io
