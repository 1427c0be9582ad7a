#include "pointwatchdog.h"

#include <chrono>
#include <unistd.h>

#include <nlohmann/json.hpp>

namespace rl::bench {

PointWatchdog::PointWatchdog(double timeoutSeconds, int rank, std::string host)
    : m_timeoutSeconds(timeoutSeconds), m_rank(rank), m_host(std::move(host))
{
    if (m_timeoutSeconds > 0)
        m_thread = std::thread([this] { watch(); });
}

PointWatchdog::~PointWatchdog()
{
    {
        std::lock_guard lock(m_mutex);
        m_quit = true;
    }
    m_changed.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

void PointWatchdog::arm(std::string point)
{
    if (!m_thread.joinable())
        return;
    {
        std::lock_guard lock(m_mutex);
        m_point = std::move(point);
        ++m_generation;
    }
    m_changed.notify_all();
}

void PointWatchdog::disarm() { arm({}); }

void PointWatchdog::watch()
{
    const auto timeout = std::chrono::duration<double>(m_timeoutSeconds);
    std::unique_lock lock(m_mutex);
    while (!m_quit) {
        if (m_point.empty()) {
            m_changed.wait(lock);
            continue;
        }
        const std::uint64_t generation = m_generation;
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        if (m_changed.wait_until(lock, deadline, [&] { return m_quit || m_generation != generation; }))
            continue;
        // Still in the same point: say so once, then wait for the next change.
        const nlohmann::json j{{"record", "waiting"}, {"rank", m_rank},     {"host", m_host},
                               {"point", m_point},    {"seconds", m_timeoutSeconds}};
        const std::string line = j.dump() + '\n';
        // One write(2) per line: a line of this size reaches mpirun whole, never interleaved
        // with the main thread's buffered output.
        [[maybe_unused]] const auto n = ::write(STDOUT_FILENO, line.data(), line.size());
        m_changed.wait(lock, [&] { return m_quit || m_generation != generation; });
    }
}

void addPointTimeoutOption(CLI::App* cmd, double& seconds)
{
    cmd->add_option("--point-timeout", seconds,
                    "Seconds one point may take before this rank reports that it is still waiting in it "
                    "(ridgeline-cli passes its own; 0 = never)")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
}
} // namespace rl::bench
