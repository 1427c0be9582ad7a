#pragma once
// "Is this number good?": the tier a collective session ran on (one node, or several joined by the
// scale-out network) and the bus bandwidth that tier can carry at most, from a hardware profile's
// topology, with the reasoning written out so a user can check it.
//
// busbw is nccl-tests' bus bandwidth (PERFORMANCE.md), so one ceiling per tier serves every op:
// - one node: each GPU's intra-node links (xGMI / NVLink), per direction;
// - several nodes: the node's NICs together (rings, one per rail, each cross the node boundary
//   through one NIC), never more than the intra-node links; in all_to_all every rank sends
//   (n - G) / (n - 1) of its bytes off the node (G ranks per node), so its ceiling is the node's
//   NICs / G over that share.
#include <optional>
#include <string>
#include <vector>

#include "model/hardwareprofile.h"
#include "records/session.h"

namespace rl {

struct TierPeak
{
    bool interNode = false;
    int nodes = 1;
    int ranks = 0;
    double peakBusGBs = 0;  // the tier's busbw ceiling, GB/s
    std::string profileId;
    std::string reasoning;  // "all_reduce over 2 nodes is bounded by 8 x 400 Gb/s NICs = 400 GB/s per node"
    std::string source;     // where the profile's figure comes from
};

// Nodes a session ran on: its "hosts" parameter, else its comma-separated host field; 0 if unknown.
int sessionNodes(const Session& s);
// Nodes one --split group of the session ran on (its "split_groups" entry's node count; 1 for a
// "node ..." group of a session that predates that count); the session's for no group.
int groupNodes(const Session& s, const std::string& group);

// The GPUs the session's tool says it ran on ("devices" lines: "NVIDIA H100 80GB HBM3" -> "H100"),
// in its order; empty when it names none.
std::vector<std::string> sessionDevices(const Session& s);
// The profile whose id names the session's devices ("NVIDIA H100 80GB HBM3" -> h100-sxm,
// "AMD Instinct MI300X" -> mi300x); empty when none or when the session names no device.
std::string profileForSession(const Session& s, const std::vector<HardwareProfile>& profiles);

// The ceiling of `op` on `ranks` ranks over `nodes` nodes; nullopt with the reason in *why when the
// op has no tier ceiling (point-to-point) or the profile lacks the figure the tier needs.
std::optional<TierPeak> tierPeak(const std::string& op, int ranks, int nodes, const HardwareProfile& hw,
                                 std::string* why = nullptr);

// The tier peak of a stored session's op: the profile `hardware` names (id or file; empty: the one
// the session's devices name) and `nodes` (0: from its hosts). nullopt with the reason and what to
// pass in *why. The CLI's results/fit and the bandwidth chart's peak line both ask this.
std::optional<TierPeak> sessionTierPeak(const Session& s, const std::string& op, int ranks, const std::string& hardware,
                                        int nodes, std::string* why);

// "busbw 185 GB/s is 46 % of it".
std::string describeShareOfPeak(const TierPeak& tier, double busbwGBs);
} // namespace rl
