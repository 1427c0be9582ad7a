#include "collectives/tierpeak.h"

#include "model/hardwareprofileloader.h"
#include "model/measuredrun.h"
#include "units/units.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace rl {
namespace {
void setWhy(std::string* why, std::string text)
{
    if (why)
        *why = std::move(text);
}
} // namespace

int sessionNodes(const Session& s)
{
    if (const auto it = s.params.find("hosts"); it != s.params.end() && it->is_array() && !it->empty())
        return int(it->size());
    if (s.host.empty())
        return 0;
    return int(std::count(s.host.begin(), s.host.end(), ',')) + 1;
}

int groupNodes(const Session& s, const std::string& group)
{
    if (group.empty())
        return sessionNodes(s);
    if (const auto it = s.params.find("split_groups"); it != s.params.end() && it->is_array())
        for (const auto& g : *it)
            if (g.is_object() && g.value("group", std::string{}) == group && g.contains("nodes") &&
                g["nodes"].is_number_integer())
                return g["nodes"].get<int>();
    if (group.rfind("node ", 0) == 0)
        return 1;
    return sessionNodes(s);
}

std::vector<std::string> sessionDevices(const Session& s)
{
    std::vector<std::string> out;
    if (!s.params.is_object())
        return out;
    const auto it = s.params.find("devices");
    if (it == s.params.end() || !it->is_array())
        return out;
    // The same device reading as a measured run's (model/measuredrun).
    for (const auto& d : *it)
        if (d.is_string())
            if (auto device = model::deviceInText(d.get<std::string>()); !device.empty())
                out.push_back(std::move(device));
    return out;
}

std::string profileForSession(const Session& s, const std::vector<HardwareProfile>& profiles)
{
    std::vector<std::string> ids;
    for (const auto& p : profiles)
        ids.push_back(p.id);
    for (const auto& device : sessionDevices(s))
        if (auto id = model::matchHardwareProfile(device, ids); !id.empty())
            return id;
    return {};
}

std::optional<TierPeak> tierPeak(const std::string& op, int ranks, int nodes, const HardwareProfile& hw,
                                 std::string* why)
{
    static const char* const collectives[] = {"all_reduce", "reduce_scatter", "all_gather", "broadcast", "reduce",
                                              "all_to_all", "all_to_allv"};
    if (std::find(std::begin(collectives), std::end(collectives), op) == std::end(collectives)) {
        setWhy(why, op + " is point-to-point: its bandwidth is one link's, not a tier's");
        return std::nullopt;
    }
    if (ranks < 2 || nodes < 1) {
        setWhy(why, "the session does not say how many ranks and nodes it ran on");
        return std::nullopt;
    }
    TierPeak t;
    t.ranks = ranks;
    t.nodes = nodes;
    t.interNode = nodes > 1;
    t.profileId = hw.id;
    const double link = hw.intraNodeLinkGBs.value;
    std::ostringstream r;
    if (!t.interNode) {
        if (link <= 0) {
            setWhy(why, "profile " + hw.id + " has no intra-node link bandwidth");
            return std::nullopt;
        }
        t.peakBusGBs = link;
        t.source = hw.intraNodeLinkGBs.source;
        r << op << " on one node is bounded by each GPU's intra-node links (" << hw.id << ": "
          << (hw.intraNodeTopology.empty() ? std::string("xGMI / NVLink") : hw.intraNodeTopology) << ") = "
          << units::formatBandwidth(link) << " per direction";
        if (op == "all_reduce" && hw.inSwitchReduction.value > 0) {
            // The switch reduces (NVLS): each GPU sends its buffer once and receives the sum once, so
            // algbw reaches the link and busbw = algbw x 2(n-1)/n can pass it.
            t.peakBusGBs = link * 2.0 * (ranks - 1) / ranks;
            t.source = hw.inSwitchReduction.source;
            r << "; the switch reduces in the network (NVLink SHARP / NVLS), so each GPU moves its buffer once "
                 "each way: algbw up to "
              << units::formatBandwidth(link) << ", busbw up to 2(n-1)/n x that = " << units::formatBandwidth(t.peakBusGBs);
        }
        t.reasoning = r.str();
        return t;
    }
    const double nics = hw.nicsPerNode.value, lineGbps = hw.nicLineRateGbps.value;
    if (nics <= 0 || lineGbps <= 0) {
        setWhy(why, "profile " + hw.id + " has no scale-out network (NICs per node and line rate)");
        return std::nullopt;
    }
    const double nodeNic = nics * lineGbps / 8; // Gb/s to GB/s
    double peak = nodeNic;
    char nicText[96];
    std::snprintf(nicText, sizeof nicText, "%.0f x %.0f Gb/s NICs = %s per node", nics, lineGbps, units::formatBandwidth(nodeNic).c_str());
    r << op << " over " << nodes << " nodes is bounded by " << nicText;
    if (op == "all_to_all" || op == "all_to_allv") {
        // Every rank sends to every other: per rank, the node's NICs shared by its G ranks, over the
        // share of its bytes that leaves the node.
        const double perNode = double(ranks) / nodes;
        const double offNode = (ranks - perNode) / (ranks - 1);
        peak = nodeNic / perNode / offNode;
        char b[160];
        std::snprintf(b, sizeof b, ", shared by %g ranks per node = %s per rank, of whose bytes %s leave the node "
                      "(%g of %d peers elsewhere): %s",
                      perNode, units::formatBandwidth(nodeNic / perNode).c_str(), units::formatPercent(offNode, 0).c_str(),
                      ranks - perNode, ranks - 1, units::formatBandwidth(peak).c_str());
        r << b;
    }
    if (link > 0 && link < peak) {
        peak = link;
        r << ", capped by the intra-node links at " << units::formatBandwidth(link);
    }
    t.peakBusGBs = peak;
    t.source = hw.nicsPerNode.source;
    t.reasoning = r.str();
    return t;
}

std::string describeShareOfPeak(const TierPeak& tier, double busbwGBs)
{
    char b[96];
    std::snprintf(b, sizeof b, "busbw %s is %s of it", units::formatBandwidth(busbwGBs).c_str(),
                  units::formatPercent(tier.peakBusGBs > 0 ? busbwGBs / tier.peakBusGBs : 0.0, 0).c_str());
    return b;
}
std::optional<TierPeak> sessionTierPeak(const Session& s, const std::string& op, int ranks, const std::string& hardware,
                                        int nodes, std::string* why)
{
    const std::string profile = hardware.empty() ? profileForSession(s, availableHardwareProfiles()) : hardware;
    if (profile.empty()) {
        *why = "the session names no device a profile matches; pass --hardware PROFILE (ridgeline-cli profile list)";
        return std::nullopt;
    }
    if (nodes <= 0)
        nodes = sessionNodes(s);
    if (nodes <= 0) {
        *why = "the session does not say which hosts it ran on; pass --nodes N";
        return std::nullopt;
    }
    return tierPeak(op, ranks, nodes, findHardwareProfile(profile), why);
}
} // namespace rl
