#pragma once
// Runs a child command in its own process group and hands its stdout to a callback line by line.
// SIGTERM/SIGINT to us are forwarded to the whole group (every MPI rank), then SIGKILL after a
// grace period. SIGPIPE is ignored so a vanished reader (a closed GUI) never stops a run.
#include <functional>
#include <string>
#include <vector>

namespace rl::cli {

struct ChildResult
{
    int exitCode = -1;  // when exited normally
    int signal = 0;     // when killed by a signal
    bool interrupted = false; // we forwarded a SIGTERM/SIGINT
    bool idleTimedOut = false; // it printed nothing for idleTimeoutMs and was stopped
    std::string stderrTail;   // last few KiB of the child's stderr (also echoed to ours)
};

class Launcher
{
public:
    using LineFn = std::function<void(const std::string& line)>;
    // Throws std::runtime_error when the command cannot be started. idleTimeoutMs > 0: a child
    // that prints no stdout line for that long (a hung GPU, a stuck rank) is stopped like a
    // cancelled one and the result says so.
    ChildResult run(const std::vector<std::string>& argv, const LineFn& onStdoutLine, int idleTimeoutMs = 0);
};
} // namespace rl::cli
