#include "pointtimeout.h"

#include <algorithm>
#include <cmath>

#include <cstdio>

#include "runs/runrequest.h"

namespace rl::cli {
namespace {
// "0, 2 and 3" / "rank 1" / "ranks 1 and 4"
std::string rankList(const std::vector<int>& ranks)
{
    std::string s = ranks.size() == 1 ? "rank " : "ranks ";
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        if (i > 0)
            s += i + 1 == ranks.size() ? " and " : ", ";
        s += std::to_string(ranks[i]);
    }
    return s;
}
} // namespace

std::vector<std::string> withRunnerPointTimeout(std::vector<std::string> benchArgs, double seconds)
{
    if (runs::optionValue(benchArgs, "--point-timeout"))
        return benchArgs;
    char text[32];
    std::snprintf(text, sizeof text, "%g", seconds);
    benchArgs.insert(benchArgs.end(), {"--point-timeout", text});
    return benchArgs;
}

bool StuckRanks::take(const nlohmann::json& record)
{
    if (record.value("record", "") != "waiting")
        return false;
    const auto rank = record.find("rank");
    if (rank == record.end() || !rank->is_number_integer())
        return true; // ours, but unreadable: nothing to say about it
    m_waited.insert(rank->get<int>());
    if (const auto p = record.find("point"); p != record.end() && p->is_string()) {
        m_points.insert(p->get<std::string>());
        if (m_point.empty())
            m_point = p->get<std::string>();
    }
    if (const auto s = record.find("seconds"); s != record.end() && s->is_number())
        m_seconds = s->get<double>();
    return true;
}

std::string StuckRanks::message() const
{
    std::string points;
    for (const auto& p : m_points)
        points += (points.empty() ? "" : " / ") + p;
    char secs[32];
    std::snprintf(secs, sizeof secs, "%g", m_seconds);
    std::string m = (points.empty() ? std::string("a point") : points) + " ran over " + secs +
                    " s (--point-timeout): " + rankList({m_waited.begin(), m_waited.end()}) + " waited in it";
    std::vector<int> silent;
    for (int r = 0; r < m_ranks; ++r)
        if (!m_waited.count(r))
            silent.push_back(r);
    if (!silent.empty())
        m += "; no word from " + rankList(silent) + " (stopped, crashed or never started)";
    else
        m += "; every rank is waiting (a deadlock or a link that stopped)";
    return m;
}
} // namespace rl::cli
