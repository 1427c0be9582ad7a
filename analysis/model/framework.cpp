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

namespace {
int dtypeBytes(const std::string& name, int otherwise)
{
    if (name == "fp32")
        return 4;
    if (name == "bf16" || name == "fp16")
        return 2;
    return otherwise;
}
} // namespace

bool isGradientDtype(const std::string& name)
{
    return dtypeBytes(name, 0) > 0;
}

int gradientBytes(Framework f, const std::string& dtype, int zeroStage, const std::string& gradDtype, int weightBytes)
{
    if (!gradDtype.empty())
        return dtypeBytes(gradDtype, weightBytes);
    if (f == Framework::DeepSpeed && dtype == "bf16" && zeroStage <= 1)
        return 4;
    if (f == Framework::MegatronCore && dtype != "fp16" && zeroStage <= 2)
        return 4;
    return weightBytes;
}

int gradientReduceBytes(Framework f, const std::string& dtype, int zeroStage, const std::string& gradDtype,
                        int weightBytes)
{
    if (zeroStage >= 3)
        return shardingTraits(f).reduceBytes;
    if (f == Framework::MegatronCore)
        return gradientBytes(f, dtype, zeroStage, gradDtype, weightBytes);
    return weightBytes;
}
} // namespace rl::model
