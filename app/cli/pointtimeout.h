#pragma once
// --point-timeout for `run collectives|pairs|io`: how long one point of ridgeline-bench may take
// (its default: runs::RunRequest::pointTimeout()).
// The runner's ranks each watch their own point (app/bench/pointwatchdog.h) and print a "waiting"
// record when it runs over; the first one stops the job (after a moment, so the other ranks'
// records arrive) and the session fails naming the point, the ranks that waited in it and the
// ranks that never reported (stopped, crashed, never started). Without any record - no rank could
// say anything - the job is stopped a little later by the launcher's silence timeout.
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace rl::cli {

// The runner's arguments with --point-timeout added (unless the user gave the runner one).
std::vector<std::string> withRunnerPointTimeout(std::vector<std::string> benchArgs, double seconds);

// Collects the "waiting" records of one run and says what they mean.
class StuckRanks
{
public:
    explicit StuckRanks(int ranks) : m_ranks(ranks) {}
    // True when the record was a "waiting" one (taken in).
    bool take(const nlohmann::json& record);
    bool any() const { return !m_waited.empty(); }
    // "all_reduce 1 MiB ran over 60 s (--point-timeout): ranks 0 and 2 waited in it; no word from
    // rank 1 (stopped, crashed or never started)".
    std::string message() const;

private:
    int m_ranks;
    std::string m_point;
    double m_seconds = 0;
    std::set<int> m_waited;
    std::set<std::string> m_points; // when ranks disagree on the point, every one is named
};
} // namespace rl::cli
