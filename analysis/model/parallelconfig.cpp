#include "model/parallelconfig.h"

#include <sstream>
#include <stdexcept>

#include "units/units.h"

namespace rl::model {

void parseParallelSpec(const std::string& spec, ParallelConfig& into)
{
    std::stringstream ss(spec);
    std::string item;
    while (std::getline(ss, item, ',')) {
        if (item.empty())
            continue;
        const auto eq = item.find('=');
        if (eq == std::string::npos)
            throw std::invalid_argument("parallel spec item '" + item + "' is not key=value");
        const std::string key = item.substr(0, eq);
        const auto v = units::parseInt(item.substr(eq + 1));
        if (!v || *v <= 0 || *v > 1'000'000)
            throw std::invalid_argument("parallel spec item '" + item + "' needs a positive integer");
        const int n = int(*v);
        if (key == "dp") into.dp = n;
        else if (key == "tp") into.tp = n;
        else if (key == "pp") into.pp = n;
        else if (key == "ep") into.ep = n;
        else if (key == "cp") into.cp = n;
        else throw std::invalid_argument("unknown parallel degree '" + key + "' (dp, tp, pp, ep, cp)");
    }
}

std::string checkParallel(const ModelConfig& c, const ParallelConfig& p)
{
    auto str = [](int v) { return std::to_string(v); };
    if (p.dp % p.ep != 0)
        return "ep=" + str(p.ep) + " does not divide dp=" + str(p.dp);
    if (c.isMoe() && c.moe.experts % p.ep != 0)
        return "ep=" + str(p.ep) + " does not divide the " + str(c.moe.experts) + " experts";
    if (!c.isMoe() && p.ep > 1)
        return "ep=" + str(p.ep) + " on a dense model";
    if (c.layers % p.pp != 0)
        return "pp=" + str(p.pp) + " does not divide the " + str(c.layers) + " layers";
    if (p.seqLen % p.cp != 0)
        return "cp=" + str(p.cp) + " does not divide the sequence length " + str(p.seqLen);
    if (p.zeroStage < 0 || p.zeroStage > 3)
        return "ZeRO stage must be 0..3";
    if (p.overlap < 0 || p.overlap > 1)
        return "overlap must be within 0..1";
    return {};
}

ParallelConfig parallelLayout(const ModelConfig& c, const std::string& spec, ParallelConfig base)
{
    parseParallelSpec(spec, base);
    if (auto why = checkParallel(c, base); !why.empty())
        throw std::invalid_argument("parallel layout: " + why);
    return base;
}
} // namespace rl::model
