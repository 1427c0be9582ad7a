#pragma once
// Runs a child command in its own process group and hands its stdout (and, when asked, its stderr)
// to callbacks line by line. SIGTERM/SIGINT to us are forwarded to the whole group (every MPI
// rank), then SIGKILL after a grace period. SIGPIPE is ignored so a vanished reader (a closed GUI)
// never stops a run. The group never outlives us: a watcher process stops it when we die in any
// way (SIGKILL included), and a callback that throws (a full disk) stops it before the exception
// leaves run().
#include <chrono>
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
    bool stoppedByCaller = false; // a callback called Launcher::stop()
    std::string stderrTail;   // last few KiB of the child's stderr (also echoed to ours)
};

class Launcher
{
public:
    using LineFn = std::function<void(const std::string& line)>;
    // Throws std::runtime_error when the command cannot be started. idleTimeoutMs > 0: a child
    // that prints no stdout line for that long (a hung GPU, a stuck rank) is stopped like a
    // cancelled one and the result says so. onStderrLine, when set, sees every stderr line too
    // (which is still echoed to ours and kept in stderrTail).
    ChildResult run(const std::vector<std::string>& argv, const LineFn& onStdoutLine, int idleTimeoutMs = 0,
                    const LineFn& onStderrLine = {});
    // From a callback: stop the group as a cancel would (SIGTERM, SIGKILL after the grace period),
    // now or after afterMs more of the child's output; the result says stoppedByCaller.
    void stop(int afterMs = 0);
    bool stopRequested() const { return m_stopRequested; }
    // The job has been told to stop (cancel, silence or stop()): what it prints now is its end.
    bool stopping() const { return m_stopping; }

private:
    bool m_stopRequested = false;
    bool m_stopping = false;
    std::chrono::steady_clock::time_point m_stopAt;
};
} // namespace rl::cli
