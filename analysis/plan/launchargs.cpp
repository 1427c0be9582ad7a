#include "plan/launchargs.h"

#include <cstdio>

#include "plan/layoutrules.h"

namespace rl::plan {
namespace {
std::string num(int v) { return std::to_string(v); }

// Megatron's --attention-backend for a profile's kernel name: cuDNN's fused attention is "fused",
// the FlashAttention kernels "flash"; Triton and CK kernels have no backend of their own there.
std::string megatronBackend(const std::string& kernel)
{
    if (kernel == "cudnn")
        return "fused";
    if (kernel == "fa2" || kernel == "fa3")
        return "flash";
    return {};
}
} // namespace

std::vector<std::string> megatronArgs(const model::ModelConfig& c, const Layout& l, const Cluster& cl,
                                      const model::ParallelConfig& recipe)
{
    std::vector<std::string> a{"--tensor-model-parallel-size " + num(l.tp), "--pipeline-model-parallel-size " + num(l.pp)};
    if (l.cp > 1)
        a.push_back("--context-parallel-size " + num(l.cp));
    if (c.isMoe()) {
        a.push_back("--expert-model-parallel-size " + num(l.ep));
        a.push_back("--expert-tensor-parallel-size " + num(l.etpSize()));
        a.push_back(std::string("--moe-token-dispatcher-type ") + (l.flexDispatch ? "flex" : "alltoall"));
        if (l.epOverlap)
            a.push_back("--overlap-moe-expert-parallel-comm");
    }
    if (l.vpp > 1)
        a.push_back("--num-virtual-stages-per-pipeline-rank " + num(l.vpp));
    int first = 0, last = 0;
    LayoutRules::stageLayers(c.layers, l.pp, l.stages, first, last);
    if (first > 0)
        a.push_back("--decoder-first-pipeline-num-layers " + num(first));
    if (last > 0)
        a.push_back("--decoder-last-pipeline-num-layers " + num(last));
    a.push_back("--micro-batch-size " + num(l.microBatch));
    a.push_back("--global-batch-size " + num(cl.globalBatch));
    a.push_back("--seq-length " + num(cl.seqLen));
    if (l.sp)
        a.push_back("--sequence-parallel");
    if (l.recompute == model::Recompute::Selective)
        a.push_back("--recompute-granularity selective");
    else if (l.recompute == model::Recompute::Full)
        a.push_back("--recompute-granularity full --recompute-method uniform --recompute-num-layers 1");
    // ZeRO 1 is the distributed optimizer; 2 and 3 Megatron's own FSDP with that sharding.
    if (l.zero == 1)
        a.push_back("--use-distributed-optimizer");
    else if (l.zero >= 2)
        a.push_back(std::string("--use-megatron-fsdp --data-parallel-sharding-strategy ") +
                    (l.zero == 2 ? "optim_grads" : "optim_grads_params"));
    if (l.dpOverlap && l.dp(cl) * l.cp > 1)
        a.push_back(l.zero == 1 ? "--overlap-grad-reduce --overlap-param-gather" : "--overlap-grad-reduce");
    if (l.tpOverlap)
        a.push_back("--tp-comm-overlap");
    a.push_back("--bf16");
    if (l.dtype == "fp8")
        a.push_back("--fp8-format hybrid");
    else if (l.dtype == "fp16")
        a.back() = "--fp16";
    // Megatron's default is fp32 main grads in bf16 and 16-bit ones in fp16 (model::gradientBytes).
    if (recipe.gradDtype == "bf16" && l.dtype != "fp16")
        a.push_back("--grad-reduce-in-bf16");
    else if (recipe.gradDtype == "fp32" && l.dtype == "fp16")
        a.push_back("--accumulate-allreduce-grads-in-fp32");
    if (const auto backend = megatronBackend(l.attention); !backend.empty())
        a.push_back("--attention-backend " + backend);
    return a;
}

std::string torchtitanToml(const model::ModelConfig& c, const Layout& l, const Cluster& cl)
{
    const int dp = l.dp(cl);
    // FSDP2 shards over data_parallel_shard_degree (ZeRO 3), or replicates over
    // data_parallel_replicate_degree (DDP); torchtitan has no ZeRO 1 or 2.
    const bool shard = l.zero == 3;
    std::string s = "[parallelism]\n";
    s += "tensor_parallel_degree = " + num(l.tp) + "\n";
    s += "pipeline_parallel_degree = " + num(l.pp) + "\n";
    s += "context_parallel_degree = " + num(l.cp) + "\n";
    s += "data_parallel_shard_degree = " + num(shard ? dp : 1) + "\n";
    s += "data_parallel_replicate_degree = " + num(shard ? 1 : dp) + "\n";
    if (c.isMoe()) {
        s += "expert_parallel_degree = " + num(l.ep) + "\n";
        s += "expert_tensor_parallel_degree = " + num(l.etpSize()) + "\n";
    }
    if (l.pp > 1) {
        s += "pipeline_parallel_microbatch_size = " + num(l.microBatch) + "\n";
        s += std::string("pipeline_parallel_schedule = \"") + (l.vpp > 1 ? "Interleaved1F1B" : "1F1B") + "\"\n";
    }
    s += "enable_async_tensor_parallel = " + std::string(l.tpOverlap ? "true" : "false") + "\n";
    s += "\n[training]\n";
    s += "global_batch_size = " + num(cl.globalBatch) + "\n";
    s += "local_batch_size = " + num(cl.globalBatch / std::max(1, dp)) + "\n";
    s += "seq_len = " + num(cl.seqLen) + "\n";
    s += "\n[activation_checkpoint]\n";
    s += std::string("mode = \"") + model::toString(l.recompute) + "\"\n";
    if (l.recompute == model::Recompute::Selective)
        s += "selective_ac_option = \"op\"\n";
    std::string notes;
    if (l.zero == 1 || l.zero == 2)
        notes += "# ZeRO " + num(l.zero) + ": torchtitan has FSDP2 (ZeRO 3) or DDP, no optimizer-only sharding\n";
    if (l.stages.split != StageSplit::Even)
        notes += "# uneven pipeline stages: torchtitan splits by module, not by a first/last layer count\n";
    if (l.flexDispatch)
        notes += "# flex (DeepEP) dispatch: set in torchtitan's MoE args where your version has it\n";
    if (l.dtype == "fp8")
        notes += "# fp8: [quantize.linear.float8] in torchtitan (Float8Linear), not the same recipe as TE's\n";
    if (l.sp && l.tp > 1)
        notes += "# sequence parallel: torchtitan's TP plan always shards norms and dropout over the sequence\n";
    return s + (notes.empty() ? "" : "\n" + notes);
}

std::string sizeCommand(const std::string& config, const std::string& hardware, const model::ModelConfig& c,
                        const Layout& l, const Cluster& cl, const model::ParallelConfig& recipe)
{
    const int dp = l.dp(cl);
    std::string s = "ridgeline-cli size " + config + " --hardware " + hardware + " --gpus-per-node " + num(cl.gpusPerNode);
    s += " --parallel dp=" + num(dp) + ",tp=" + num(l.tp) + ",pp=" + num(l.pp) + ",cp=" + num(l.cp) + ",ep=" + num(l.ep);
    if (l.etp != 0)
        s += ",etp=" + num(l.etp);
    if (l.vpp > 1)
        s += ",vpp=" + num(l.vpp);
    s += " --micro-batch " + num(l.microBatch) + " --micro-batches " + num(cl.globalBatch / std::max(1, l.microBatch * dp));
    s += " --seq " + num(cl.seqLen) + " --zero " + num(l.zero) + " --recompute " + model::toString(l.recompute);
    s += " --dtype " + l.dtype;
    if (l.sp)
        s += " --sp";
    if (!l.dpOverlap)
        s += " --dp-overlap 0";
    if (l.tpOverlap) {
        char b[32];
        std::snprintf(b, sizeof b, "%.17g", double(l.tp - 1) / l.tp);
        s += std::string(" --tp-overlap ") + b;
    }
    if (l.epOverlap)
        s += " --ep-overlap";
    if (l.flexDispatch)
        s += " --ep-dispatcher flex";
    int first = 0, last = 0;
    LayoutRules::stageLayers(c.layers, l.pp, l.stages, first, last);
    if (first > 0)
        s += " --first-stage-layers " + num(first);
    if (last > 0)
        s += " --last-stage-layers " + num(last);
    if (!l.attention.empty())
        s += " --attention " + l.attention;
    if (recipe.framework != model::Framework::MegatronCore)
        s += std::string(" --framework ") + model::toString(recipe.framework);
    if (!recipe.gradDtype.empty())
        s += " --grad-dtype " + recipe.gradDtype;
    return s;
}

std::string shellLines(const std::vector<std::string>& args)
{
    std::string s;
    for (std::size_t i = 0; i < args.size(); ++i)
        s += "    " + args[i] + (i + 1 < args.size() ? " \\\n" : "\n");
    return s;
}
} // namespace rl::plan
