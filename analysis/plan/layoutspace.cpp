#include "plan/layoutspace.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "units/units.h"

namespace rl::plan {
namespace {
constexpr const char* kArgs = "Megatron-LM megatron/training/arguments.py (validate_args)";
constexpr const char* kConfig = "Megatron-LM megatron/core/transformer/transformer_config.py";

const RuleInfo kRules[kRuleCount] = {
    {"tp-heads", "tp does not divide the attention heads", "Megatron-LM megatron/core/transformer/transformer_config.py "
                                                           "(num_attention_heads % tensor_model_parallel_size)"},
    {"tp-kv-heads", "the KV heads are neither a multiple nor a divisor of tp",
     "Megatron-LM megatron/core/transformer/transformer_config.py (num_query_groups vs tensor_model_parallel_size)"},
    {"tp-across-nodes", "tp spans more than one node", "Ridgeline default: TP traffic is per layer; --allow tp-across-nodes"},
    {"cp-sequence", "the sequence is not divisible by 2 x cp", "Megatron-LM megatron/training/arguments.py "
                                                                "(seq_length % (context_parallel_size * 2))"},
    {"world-size", "tp x cp x pp does not divide the GPU count", "Megatron-LM megatron/training/arguments.py "
                                                                  "(world_size % total_model_size)"},
    {"pp-layers", "more pipeline stages than layers", kArgs},
    {"even-split", "the layers do not divide evenly over pp", "Megatron-LM megatron/training/arguments.py ('Number "
                                                              "of layers should be divisible by the pipeline-model-parallel size')"},
    {"uneven-split", "lighter first/last stages need pp > 1 (ends-lighter pp > 2) and the other stages' layers to divide evenly",
     "Megatron-LM megatron/training/arguments.py (--decoder-first/last-pipeline-num-layers)"},
    {"vpp-needs-pp", "interleaving needs pp > 1", "Megatron-LM megatron/training/arguments.py ('When interleaved "
                                                  "schedule is used, pipeline-model-parallel size should be greater than 1', "
                                                  "with the default --overlap-p2p-communication)"},
    {"vpp-layers", "the layers of a stage (first, last or the others) are not divisible by vpp",
     "Megatron-LM megatron/training/arguments.py ('number of layers per pipeline stage must be divisible') and "
     "megatron/core/transformer/transformer_config.py (first/last stage layers divisible by the virtual pipeline degree, "
     "the embedding or loss counted as a layer with --account-for-embedding/loss-in-pipeline-split)"},
    {"etp-same", "etp equal to tp is Megatron's default etp = tp (counted once)", "duplicate"},
    {"etp-width", "etp does not divide the expert width", "Ridgeline: expert MLP split over etp"},
    {"ep-experts", "ep does not divide the experts", "Megatron-LM megatron/training/arguments.py ('Number of experts "
                                                     "should be a multiple of expert model parallel_size')"},
    {"ep-group", "ep x etp does not divide tp x cp x dp", "Megatron-LM megatron/core/parallel_state.py (world_size % "
                                                           "expert_tensor_model_pipeline_parallel_size)"},
    {"ep-dense", "expert parallelism on a dense model", kArgs},
    {"global-batch", "micro-batch x dp does not divide the global batch", "Megatron-LM megatron/training/arguments.py "
                                                                           "(global batch divisible by micro-batch x DP)"},
    {"interleaved-micro-batches", "interleaving needs at least pp micro-batches", "Megatron-LM "
     "megatron/core/pipeline_parallel/schedules.py (microbatch_group_size_per_vp_stage in [PP, M])"},
    {"sp-needs-tp", "sequence parallel needs tp > 1", "Megatron-LM megatron/training/arguments.py ('Disabling "
                                                      "sequence parallelism because tensor model parallelism is disabled')"},
    {"moe-tp-needs-sp", "MoE with tp > 1 needs sequence parallel", "Megatron-LM megatron/core/transformer/moe/moe_layer.py "
                                                                    "('MoE and tensor parallelism ... without also enabling sequence parallelism')"},
    {"dtype", "the profile has no peak for this GEMM dtype", "the hardware profile"},
    {"attention-kernel", "the profile has no rates for this kernel at the model's head dim", "the hardware profile"},
    {"zero-with-pp", "ZeRO 2/3 (FSDP, DeepSpeed) with pipeline parallelism", "Megatron-LM megatron/training/arguments.py "
                                                                              "('--use-torch-fsdp2 is not supported with pipeline parallelism')"},
    {"zero3-with-ep", "ZeRO 3 / FSDP with expert parallelism", "Megatron-LM megatron/training/arguments.py "
                                                               "('--use-torch-fsdp2 is not supported with expert parallelism')"},
    {"one-dp-rank", "one data-parallel rank: ZeRO and DP overlap change nothing (counted once)", "duplicate"},
    {"ep-overlap-needs-ep", "EP overlap needs ep > 1", kConfig},
    {"ep-overlap-full-recompute", "EP overlap with full recompute", kConfig},
    {"ep-overlap-pp-needs-vpp", "EP overlap with pp > 1 needs interleaving", kConfig},
    {"flex-needs-ep", "the flex (DeepEP / HybridEP) dispatcher needs ep > 1", kConfig},
    {"tp-overlap-needs-sp", "TP communication overlap needs sequence parallel", "Megatron-LM megatron/training/arguments.py "
                                                                                 "('Tensor parallel communication/GEMM overlap can happen only when sequence parallelism is enabled')"},
};

const char* const kDimNames[kDimCount] = {"tp", "cp", "pp", "stages", "vpp", "etp", "ep", "micro-batch", "recompute", "sp",
                                          "dtype", "attention", "zero", "dp-overlap", "ep-overlap", "dispatcher", "tp-overlap"};

std::vector<int> divisorsUpTo(int n, int limit)
{
    std::vector<int> d;
    for (int i = 1; i <= std::min(n, limit); ++i)
        if (n % i == 0)
            d.push_back(i);
    return d;
}

bool isOn(const std::string& v)
{
    if (v == "on" || v == "1" || v == "true" || v == "yes")
        return true;
    if (v == "off" || v == "0" || v == "false" || v == "no")
        return false;
    throw std::invalid_argument("'" + v + "' is not on or off");
}

std::vector<std::string> alternatives(const std::string& v)
{
    std::vector<std::string> out;
    std::stringstream ss(v);
    std::string item;
    while (std::getline(ss, item, '|'))
        out.push_back(item);
    if (out.empty())
        out.push_back({});
    return out;
}
} // namespace

std::string toString(const StageChoice& s)
{
    switch (s.split) {
    case StageSplit::Even: return "even";
    case StageSplit::LastLighter: return "last-lighter";
    case StageSplit::EndsLighter: return "ends-lighter";
    case StageSplit::Custom: return std::to_string(s.first) + "/" + std::to_string(s.last);
    }
    return "?";
}

const char* dimName(Dim d) { return kDimNames[int(d)]; }
const RuleInfo& ruleInfo(Rule r) { return kRules[int(r)]; }

std::size_t LayoutSpace::size(Dim d) const
{
    switch (d) {
    case Dim::Tp: return tp.size();
    case Dim::Cp: return cp.size();
    case Dim::Pp: return pp.size();
    case Dim::Stages: return stages.size();
    case Dim::Vpp: return vpp.size();
    case Dim::Etp: return etp.size();
    case Dim::Ep: return ep.size();
    case Dim::MicroBatch: return microBatch.size();
    case Dim::Recompute: return recompute.size();
    case Dim::Sp: return sp.size();
    case Dim::Dtype: return dtype.size();
    case Dim::Attention: return attention.size();
    case Dim::Zero: return zero.size();
    case Dim::DpOverlap: return dpOverlap.size();
    case Dim::EpOverlap: return epOverlap.size();
    case Dim::Dispatcher: return flexDispatch.size();
    case Dim::TpOverlap: return tpOverlap.size();
    case Dim::Count: break;
    }
    return 0;
}

double LayoutSpace::total() const
{
    double n = 1;
    for (int d = 0; d < kDimCount; ++d)
        n *= double(size(Dim(d)));
    return n;
}

LayoutSpace defaultSpace(const model::ModelConfig& c, const HardwareProfile& hw, const Cluster& cl,
                         const Allowances& allow)
{
    LayoutSpace s;
    s.tp = divisorsUpTo(cl.gpus, allow.tpAcrossNodes ? cl.gpus : std::max(1, cl.gpusPerNode));
    s.cp = divisorsUpTo(cl.gpus, 16);
    s.pp = divisorsUpTo(cl.gpus, std::max(1, c.layers));
    s.stages = {{StageSplit::Even}, {StageSplit::LastLighter}, {StageSplit::EndsLighter}};
    s.vpp = {1, 2, 3, 4, 5, 6, 7, 8};
    s.etp = c.isMoe() ? std::vector<int>{0, 1} : std::vector<int>{0};
    s.ep = c.isMoe() ? divisorsUpTo(c.moe.experts, c.moe.experts) : std::vector<int>{1};
    s.microBatch = divisorsUpTo(std::max(1, cl.globalBatch), 16);
    s.recompute = {model::Recompute::None, model::Recompute::Selective, model::Recompute::Full};
    s.sp = {0, 1};
    for (const char* dt : {"bf16", "fp8"})
        if (const auto it = hw.peakTflops.find(dt); it != hw.peakTflops.end() && it->second.value > 0)
            s.dtype.push_back(dt);
    if (s.dtype.empty())
        s.dtype.push_back("bf16");
    for (const auto& [name, sets] : hw.attentionKernels)
        for (const auto& k : sets)
            if (k.headDim == c.qkHeadDim() && k.headDim == c.vHeadDim()) {
                s.attention.push_back(name);
                break;
            }
    if (s.attention.empty())
        s.attention.push_back({});
    s.zero = {0, 1, 2, 3};
    s.dpOverlap = {1, 0};
    s.epOverlap = c.isMoe() ? std::vector<int>{0, 1} : std::vector<int>{0};
    s.flexDispatch = c.isMoe() ? std::vector<int>{0, 1} : std::vector<int>{0};
    s.tpOverlap = allow.tpOverlap ? std::vector<int>{0, 1} : std::vector<int>{0};
    return s;
}

void applyFix(LayoutSpace& s, const std::string& spec)
{
    std::stringstream ss(spec);
    std::string item;
    while (std::getline(ss, item, ',')) {
        if (item.empty())
            continue;
        const auto eq = item.find('=');
        if (eq == std::string::npos)
            throw std::invalid_argument("--fix item '" + item + "' is not name=value (e.g. tp=8,recompute=full|selective)");
        const std::string key = item.substr(0, eq);
        const auto values = alternatives(item.substr(eq + 1));
        auto ints = [&](int lo) {
            std::vector<int> out;
            for (const auto& v : values) {
                const auto n = units::parseInt(v);
                if (!n || *n < lo || *n > 1'000'000)
                    throw std::invalid_argument("--fix " + item + ": '" + v + "' is not a whole number from " +
                                                std::to_string(lo));
                out.push_back(int(*n));
            }
            return out;
        };
        auto switches = [&] {
            std::vector<int> out;
            for (const auto& v : values) {
                try {
                    out.push_back(isOn(v) ? 1 : 0);
                } catch (const std::invalid_argument& e) {
                    throw std::invalid_argument("--fix " + item + ": " + e.what());
                }
            }
            return out;
        };
        if (key == "tp") s.tp = ints(1);
        else if (key == "cp") s.cp = ints(1);
        else if (key == "pp") s.pp = ints(1);
        else if (key == "vpp") s.vpp = ints(1);
        else if (key == "ep") s.ep = ints(1);
        else if (key == "micro-batch" || key == "mb") s.microBatch = ints(1);
        else if (key == "zero") {
            s.zero = ints(0);
            for (int z : s.zero)
                if (z > 3)
                    throw std::invalid_argument("--fix " + item + ": ZeRO stages are 0..3");
        } else if (key == "etp") {
            s.etp.clear();
            for (const auto& v : values) {
                if (v == "tp") {
                    s.etp.push_back(0);
                    continue;
                }
                const auto n = units::parseInt(v);
                if (!n || *n < 1 || *n > 1'000'000)
                    throw std::invalid_argument("--fix " + item + ": etp is 'tp' (Megatron's default) or a size (1: "
                                                "experts folded over the TP ranks)");
                s.etp.push_back(int(*n));
            }
        } else if (key == "stages") {
            s.stages.clear();
            for (const auto& v : values) {
                const auto slash = v.find('/');
                if (v == "even") s.stages.push_back({StageSplit::Even});
                else if (v == "last-lighter") s.stages.push_back({StageSplit::LastLighter});
                else if (v == "ends-lighter") s.stages.push_back({StageSplit::EndsLighter});
                else if (slash != std::string::npos) {
                    const auto first = units::parseInt(v.substr(0, slash)), last = units::parseInt(v.substr(slash + 1));
                    if (!first || !last || *first < 0 || *last < 0 || *first > 100000 || *last > 100000)
                        throw std::invalid_argument("--fix " + item + ": F/L takes the first and last stages' layer "
                                                    "counts (0: the others' share), e.g. 15/15");
                    s.stages.push_back({StageSplit::Custom, int(*first), int(*last)});
                } else
                    throw std::invalid_argument("--fix " + item + ": stages are even, last-lighter, ends-lighter or "
                                                "F/L (first and last stages' layers, e.g. 15/15)");
            }
        } else if (key == "recompute") {
            s.recompute.clear();
            for (const auto& v : values) {
                if (v != "none" && v != "selective" && v != "full")
                    throw std::invalid_argument("--fix " + item + ": recompute is none, selective or full");
                s.recompute.push_back(model::recomputeFromString(v));
            }
        } else if (key == "sp") s.sp = switches();
        else if (key == "dp-overlap") s.dpOverlap = switches();
        else if (key == "ep-overlap") s.epOverlap = switches();
        else if (key == "tp-overlap") s.tpOverlap = switches();
        else if (key == "dispatcher") {
            s.flexDispatch.clear();
            for (const auto& v : values) {
                if (v != "alltoall" && v != "flex")
                    throw std::invalid_argument("--fix " + item + ": the dispatcher is alltoall or flex");
                s.flexDispatch.push_back(v == "flex" ? 1 : 0);
            }
        } else if (key == "dtype") s.dtype = values;
        else if (key == "attention") {
            s.attention.clear();
            for (const auto& v : values)
                s.attention.push_back(v == "shape" ? std::string() : v);
        } else {
            std::string names;
            for (const char* n : kDimNames)
                names += std::string(names.empty() ? "" : ", ") + n;
            throw std::invalid_argument("--fix: unknown dimension '" + key + "' (" + names + ")");
        }
    }
}

Allowances parseAllowances(const std::string& spec)
{
    Allowances a;
    std::stringstream ss(spec);
    std::string item;
    while (std::getline(ss, item, ',')) {
        if (item.empty())
            continue;
        if (item == "tp-across-nodes") a.tpAcrossNodes = true;
        else if (item == "tp-overlap") a.tpOverlap = true;
        else throw std::invalid_argument("--allow: unknown item '" + item + "' (tp-across-nodes, tp-overlap)");
    }
    return a;
}
} // namespace rl::plan
