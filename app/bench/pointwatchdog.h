#pragma once
// Every rank of an MPI subcommand (collectives, pairs, io) watches its own current point. A rank
// that has been inside one point for --point-timeout seconds prints one "waiting" record on stdout
// (mpirun forwards every rank's stdout) and goes on waiting:
//   {"record":"waiting", "rank":1, "host":"node07", "point":"all_reduce 1 MiB", "seconds":60}
// A rank that is stopped (SIGSTOP), crashed or never started prints nothing, so ridgeline-cli,
// which stops the job, can name both the point and the ranks that did not arrive. The watchdog
// only reads a clock and writes a line: no MPI call leaves the main thread.
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include <CLI/CLI.hpp>

namespace rl::bench {

class PointWatchdog
{
public:
    // timeoutSeconds <= 0: never fires (and starts no thread).
    PointWatchdog(double timeoutSeconds, int rank, std::string host);
    ~PointWatchdog();
    PointWatchdog(const PointWatchdog&) = delete;
    PointWatchdog& operator=(const PointWatchdog&) = delete;

    // This rank starts `point` ("all_reduce 1 MiB"); replaces the previous one.
    void arm(std::string point);
    // This rank finished its point (or the sweep).
    void disarm();

private:
    void watch();

    const double m_timeoutSeconds;
    const int m_rank;
    const std::string m_host;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::string m_point;      // empty: not inside a point
    std::uint64_t m_generation = 0;
    bool m_quit = false;
    std::thread m_thread;
};

// --point-timeout for a subcommand: the CLI passes its own; 0 = off (the default when run by hand).
void addPointTimeoutOption(CLI::App* cmd, double& seconds);
} // namespace rl::bench
