#include "model/framework.h"

#include <algorithm>
#include <cctype>

namespace rl::model {

const char* toString(Framework f)
{
    switch (f) {
    case Framework::MegatronCore: return "megatron";
    case Framework::DeepSpeed: return "deepspeed";
    case Framework::Torchtitan: return "torchtitan";
    case Framework::Composer: return "composer";
    }
    return "megatron";
}

const char* displayName(Framework f)
{
    switch (f) {
    case Framework::MegatronCore: return "Megatron-Core";
    case Framework::DeepSpeed: return "DeepSpeed";
    case Framework::Torchtitan: return "torchtitan (FSDP2)";
    case Framework::Composer: return "Composer (FSDP)";
    }
    return "Megatron-Core";
}

std::optional<Framework> parseFramework(std::string_view name)
{
    std::string s(name);
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    std::replace(s.begin(), s.end(), '_', '-');
    if (s == "megatron" || s == "megatron-core" || s == "megatron-lm" || s == "mcore" || s == "nemo" ||
        s == "megatron-bridge")
        return Framework::MegatronCore;
    if (s == "deepspeed" || s == "megatron-deepspeed" || s == "zero")
        return Framework::DeepSpeed;
    if (s == "torchtitan" || s == "fsdp2")
        return Framework::Torchtitan;
    if (s == "composer" || s == "llm-foundry" || s == "fsdp")
        return Framework::Composer;
    return std::nullopt;
}

std::string frameworkNames()
{
    std::string out;
    for (int i = 0; i < kFrameworks; ++i)
        out += std::string(i ? ", " : "") + toString(Framework(i));
    return out;
}

ShardingTraits shardingTraits(Framework f)
{
    ShardingTraits t;
    if (f == Framework::DeepSpeed)
        t.callsPerLayer = 4;
    if (f == Framework::Torchtitan) {
        t.reduceBytes = 4;
        t.keepsLastLayer = true;
    }
    return t;
}

double fp32GradientBytes(Framework f, const std::string& dtype, int zeroStage)
{
    return f == Framework::DeepSpeed && dtype == "bf16" && zeroStage <= 1 ? 4.0 : 0.0;
}
} // namespace rl::model
