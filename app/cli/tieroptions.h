#pragma once
// --hardware / --nodes for the commands that say how good a collective figure is (results, fit):
// the tier's busbw ceiling of a session's op, from the named profile or the one its devices name.
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "collectives/tierpeak.h"

namespace rl::cli {

struct TierArgs
{
    std::string hardware; // profile id or file; empty: the profile the session's devices name
    int nodes = 0;        // 0: from the session's hosts
};

void addTierOptions(CLI::App* cmd, TierArgs& args);

// nullopt with the reason (and what to pass) in *why. `group`: a --split group's points are held
// to the tier of the nodes that group ran on (--nodes still overrides).
std::optional<TierPeak> resolveTier(const Session& s, const std::string& op, int ranks, const TierArgs& args,
                                    std::string* why, const std::string& group = {});
} // namespace rl::cli
