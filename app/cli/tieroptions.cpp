#include "tieroptions.h"


namespace rl::cli {

void addTierOptions(CLI::App* cmd, TierArgs& args)
{
    cmd->add_option("--hardware", args.hardware,
                    "Hardware profile for the tier's peak (default: the one the session's devices name)");
    cmd->add_option("--nodes", args.nodes, "Nodes the session ran on (default: from its hosts)")
        ->check(CLI::PositiveNumber);
}

std::optional<TierPeak> resolveTier(const Session& s, const std::string& op, int ranks, const TierArgs& args,
                                    std::string* why, const std::string& group)
{
    return sessionTierPeak(s, op, ranks, args.hardware, args.nodes > 0 ? args.nodes : groupNodes(s, group), why);
}
} // namespace rl::cli
