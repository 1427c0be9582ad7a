#include "collectives/splitgroups.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <tuple>

#include "collectives/callstats.h"
#include "units/units.h"

namespace rl {
namespace {
constexpr const char* kAccepted = "use node, nodes:K, ranks:K or world, comma separated";

SplitLevel parseLevel(std::string_view item)
{
    const auto bad = [&](const std::string& why) {
        return std::invalid_argument("--split: \"" + std::string(item) + "\" " + why);
    };
    if (item == "world")
        return {SplitLevel::Kind::World, 1};
    if (item == "node")
        return {SplitLevel::Kind::Node, 1};
    const auto colon = item.find(':');
    const std::string_view name = item.substr(0, colon);
    if (colon == std::string_view::npos || (name != "nodes" && name != "ranks"))
        throw bad(std::string("is not a level: ") + kAccepted);
    const auto k = units::parseInt(std::string(item.substr(colon + 1)));
    if (!k || *k < 1 || *k > 1'000'000)
        throw bad("needs a group size of at least 1 after the colon");
    return {name == "nodes" ? SplitLevel::Kind::Nodes : SplitLevel::Kind::Ranks, int(*k)};
}

// Several hosts in one label: all of them while it stays short, else the first and the last.
std::string hostsLabel(const std::vector<std::string>& hosts)
{
    if (hosts.size() <= 3) {
        std::string s;
        for (const auto& h : hosts)
            s += (s.empty() ? "" : "+") + h;
        return s;
    }
    return hosts.front() + ".." + hosts.back() + " (" + std::to_string(hosts.size()) + ")";
}
} // namespace

std::vector<SplitLevel> parseSplitSpec(std::string_view spec)
{
    std::vector<SplitLevel> out;
    std::size_t start = 0;
    while (start <= spec.size()) {
        const auto comma = spec.find(',', start);
        const auto item = spec.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
        if (item.empty())
            throw std::invalid_argument(std::string("--split: empty level; ") + kAccepted);
        out.push_back(parseLevel(item));
        if (comma == std::string_view::npos)
            break;
        start = comma + 1;
    }
    return out;
}

std::string toString(const SplitLevel& level)
{
    switch (level.kind) {
    case SplitLevel::Kind::World: return "world";
    case SplitLevel::Kind::Node: return "node";
    case SplitLevel::Kind::Nodes: return "nodes:" + std::to_string(level.k);
    case SplitLevel::Kind::Ranks: return "ranks:" + std::to_string(level.k);
    }
    return "world";
}

std::vector<SplitGroup> splitGroups(const SplitLevel& level, const std::vector<std::string>& hostOfRank)
{
    const int n = int(hostOfRank.size());
    std::vector<SplitGroup> out;
    if (level.kind == SplitLevel::Kind::World) {
        SplitGroup g{"world", {}};
        for (int r = 0; r < n; ++r)
            g.ranks.push_back(r);
        out.push_back(std::move(g));
        return out;
    }
    if (level.kind == SplitLevel::Kind::Ranks) {
        if (n % level.k != 0)
            throw std::invalid_argument("--split " + toString(level) + ": " + std::to_string(level.k) +
                                        " does not divide the " + std::to_string(n) + " ranks into equal groups");
        for (int first = 0; first < n; first += level.k) {
            SplitGroup g;
            g.label = level.k == 1 ? "rank " + std::to_string(first)
                                   : "ranks " + std::to_string(first) + "-" + std::to_string(first + level.k - 1);
            for (int r = first; r < first + level.k; ++r)
                g.ranks.push_back(r);
            out.push_back(std::move(g));
        }
        return out;
    }
    // Nodes in the order of their lowest rank, each with its ranks.
    std::vector<std::string> hosts;
    std::map<std::string, std::vector<int>> ranksOf;
    for (int r = 0; r < n; ++r) {
        auto& v = ranksOf[hostOfRank[std::size_t(r)]];
        if (v.empty())
            hosts.push_back(hostOfRank[std::size_t(r)]);
        v.push_back(r);
    }
    const int k = level.kind == SplitLevel::Kind::Node ? 1 : level.k;
    const int nodes = int(hosts.size());
    if (nodes % k != 0)
        throw std::invalid_argument("--split " + toString(level) + ": " + std::to_string(k) + " does not divide the " +
                                    std::to_string(nodes) + (nodes == 1 ? " node" : " nodes") + " into equal groups");
    for (int first = 0; first < nodes; first += k) {
        const std::vector<std::string> members(hosts.begin() + first, hosts.begin() + first + k);
        SplitGroup g;
        g.label = (k == 1 ? "node " : "nodes ") + hostsLabel(members);
        for (const auto& h : members)
            g.ranks.insert(g.ranks.end(), ranksOf[h].begin(), ranksOf[h].end());
        std::sort(g.ranks.begin(), g.ranks.end());
        out.push_back(std::move(g));
    }
    return out;
}

std::vector<int> groupColors(const std::vector<SplitGroup>& groups, int nranks)
{
    std::vector<int> color(std::size_t(std::max(nranks, 0)), -1);
    for (std::size_t g = 0; g < groups.size(); ++g)
        for (int r : groups[g].ranks)
            if (r >= 0 && r < nranks)
                color[std::size_t(r)] = int(g);
    return color;
}

std::string splitLevelOf(const std::string& group) { return group.substr(0, group.find(' ')); }

namespace {
// Groups are compared with the others of their level: same op and variant, same rank count,
// same kind of label ("node", "nodes", "ranks"); "world" has no peers.
SplitLevelKey levelKey(const CollectivePoint& p)
{
    return {p.op, p.inPlace, p.dtype, p.redop, p.nranks, splitLevelOf(p.group)};
}
} // namespace

void SlowestGroupFilter::see(const CollectivePoint& p)
{
    const std::int64_t ordinal = m_seen++;
    if (p.group.empty())
        return;
    auto [it, fresh] = m_slowest.try_emplace({levelKey(p), p.bytes}, Slowest{ordinal, p.timeUs});
    if (!fresh && p.timeUs > it->second.timeUs)
        it->second = {ordinal, p.timeUs};
}

bool SlowestGroupFilter::keeps(const CollectivePoint& p)
{
    const std::int64_t ordinal = m_asked++;
    return p.group.empty() || m_slowest.at({levelKey(p), p.bytes}).ordinal == ordinal;
}

std::vector<CollectivePoint> slowestGroupAtEachSize(const std::vector<CollectivePoint>& points)
{
    SlowestGroupFilter filter;
    for (const auto& p : points)
        filter.see(p);
    std::vector<CollectivePoint> out;
    for (const auto& p : points)
        if (filter.keeps(p))
            out.push_back(p);
    return out;
}

void SlowestGroupFinder::add(const CollectivePoint& p)
{
    if (!p.group.empty())
        m_busbw[levelKey(p)][p.bytes][p.group] = p.busbwGBs;
}

SlowestGroup SlowestGroupFinder::result() const
{
    SlowestGroup worst;
    for (const auto& [key, sizes] : m_busbw) {
        // The largest size at least two groups measured (a cancelled run may miss the last one).
        auto it = std::find_if(sizes.rbegin(), sizes.rend(), [](const auto& s) { return s.second.size() >= 2; });
        if (it == sizes.rend())
            continue;
        std::vector<double> values;
        for (const auto& [group, busbw] : it->second)
            values.push_back(busbw);
        std::sort(values.begin(), values.end());
        const double median = percentile(values, 0.5);
        if (median <= 0)
            continue;
        for (const auto& [group, busbw] : it->second) {
            const double fraction = busbw / median;
            if (worst.group.empty() || fraction < worst.fraction)
                worst = {group, std::get<0>(key), std::get<1>(key), std::get<4>(key), it->first, busbw, median, fraction};
        }
    }
    return worst;
}

SlowestGroup slowestGroup(const std::vector<CollectivePoint>& points)
{
    SlowestGroupFinder finder;
    for (const auto& p : points)
        finder.add(p);
    return finder.result();
}
} // namespace rl
