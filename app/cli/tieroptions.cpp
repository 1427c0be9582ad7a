#include "tieroptions.h"

#include "model/hardwareprofileloader.h"

namespace rl::cli {

void addTierOptions(CLI::App* cmd, TierArgs& args)
{
    cmd->add_option("--hardware", args.hardware,
                    "Hardware profile for the tier's peak (default: the one the session's devices name)");
    cmd->add_option("--nodes", args.nodes, "Nodes the session ran on (default: from its hosts)")
        ->check(CLI::PositiveNumber);
}

std::optional<TierPeak> resolveTier(const Session& s, const std::string& op, int ranks, const TierArgs& args,
                                    std::string* why)
{
    const std::string profile = args.hardware.empty() ? profileForSession(s, availableHardwareProfiles()) : args.hardware;
    if (profile.empty()) {
        *why = "the session names no device a profile matches; pass --hardware PROFILE (ridgeline-cli profile list)";
        return std::nullopt;
    }
    const int nodes = args.nodes > 0 ? args.nodes : sessionNodes(s);
    if (nodes <= 0) {
        *why = "the session does not say which hosts it ran on; pass --nodes N";
        return std::nullopt;
    }
    return tierPeak(op, ranks, nodes, findHardwareProfile(profile), why);
}
} // namespace rl::cli
