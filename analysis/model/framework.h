#pragma once
// The training stack that runs a layout. Two stacks given the same degrees do not run the same
// step: they shard, gather, reduce and allocate differently. What each does differently is stated
// here once, each with the code it comes from, and read by the step and memory models.
#include <optional>
#include <string>
#include <string_view>

namespace rl::model {

enum class Framework {
    MegatronCore, // Megatron-LM / Megatron-Core with Transformer Engine (the default)
    DeepSpeed,    // DeepSpeed ZeRO (Megatron-DeepSpeed and DeepSpeed-wrapped models)
    Torchtitan,   // torchtitan, FSDP2 (fully_shard) per transformer block
    Composer,     // MosaicML Composer / llm-foundry, FSDP (FULL_SHARD) per block
};
inline constexpr int kFrameworks = 4;

// "megatron", "deepspeed", "torchtitan", "composer": the names the CLI, the tables and the GUI use.
const char* toString(Framework f);
// What a reader sees: "Megatron-Core", "DeepSpeed", "torchtitan (FSDP2)", "Composer (FSDP)".
const char* displayName(Framework f);
// Accepts the names above and common spellings ("megatron-core", "mcore", "megatron-deepspeed",
// "llm-foundry", "fsdp2"); nullopt otherwise.
std::optional<Framework> parseFramework(std::string_view name);
// "megatron, deepspeed, torchtitan, composer", for error messages and help.
std::string frameworkNames();

// How a fully sharded (ZeRO-3 / FSDP) step moves its parameters and gradients.
struct ShardingTraits
{
    // Separate parameter all_gathers (and gradient reduce_scatters) per transformer layer, each of
    // an even share of the layer. FSDP wraps a block as one unit: 1. DeepSpeed stage 3 fetches each
    // sub-module's own parameters when the sub-module runs (stage3.py, fetch_sub_module over
    // sub_module.named_parameters(recurse=False)) and reduce-scatters each parameter's gradient as
    // its own call (partition_parameters.py, _reduce_scatter_gradients, one reduce_scatter per
    // param): a layer's four weight matrices (QKV, output projection, the two MLP matrices) are
    // four of each.
    int callsPerLayer = 1;
    // Bytes per gradient element in the reduce_scatter: torchtitan reduces in fp32 by default
    // (config: training.mixed_precision_reduce = "float32", passed to fully_shard's
    // MixedPrecisionPolicy(reduce_dtype)); the others in the parameters' 16-bit type (llm-foundry's
    // default mixed_precision PURE; DeepSpeed's communication_data_type defaults to the model's).
    int reduceBytes = 2;
    // The last block is not resharded after its forward, so its backward needs no gather:
    // torchtitan's parallelize sets reshard_after_forward False for the last transformer block
    // (its comment: "the last layer ... will be all-gathered immediately in backward").
    bool keepsLastLayer = false;
};
ShardingTraits shardingTraits(Framework f);

// Bytes per gradient element in the buffer the gradients accumulate in, unsharded beside the 16-bit
// weights (memorymodel.h), for `gradDtype` as the run sets it ("fp32", "bf16", "fp16"), or, when it
// is empty, as the framework defaults:
// - Megatron-Core's DDP accumulates into an fp32 main-grad buffer when training in bf16 (FP8 runs
//   train in bf16 too): --main-grads-dtype defaults to fp32, and --bf16 then sets
//   accumulate_allreduce_grads_in_fp32 (megatron/training/arguments.py, "bfloat16 requires gradient
//   accumulation and all-reduce to be done in fp32"), which makes the buffer's grad_dtype torch.float
//   (core/distributed/distributed_data_parallel.py). NeMo's bf16_mixed plugin sets the same
//   (grad_reduce_in_fp32=True); NeMo's and Megatron-Bridge's performance recipes turn it off
//   (recipes' pretrain_performance_optimizations; perf_recipes/_common.py). The distributed
//   optimizer reduce-scatters within that buffer, so it stays whole. fp16 runs keep 16-bit gradients.
// - DeepSpeed's BF16_Optimizer (bf16 with ZeRO stage 0 or 1, as BLOOM and Megatron-DeepSpeed ran)
//   allocates an fp32 gradient buffer the size of the whole local bf16 model
//   (runtime/bf16_optimizer.py, _setup_for_real_optimizer: zeros_like(bf16_groups_flat,
//   dtype=grad_acc_dtype), fp32 by default).
// - otherwise the weights' type, `weightBytes`.
int gradientBytes(Framework f, const std::string& dtype, int zeroStage, const std::string& gradDtype, int weightBytes);

// Bytes per gradient element in the data-parallel reduction (the all_reduce, or the reduce_scatter
// under ZeRO): Megatron-Core reduces its buffer as it is (grad_reduce_in_fp32 is the same flag);
// ZeRO-3 / FSDP as its ShardingTraits say; DeepSpeed's communication_data_type defaults to the
// model's 16-bit type (runtime/engine.py) whatever its buffer holds.
int gradientReduceBytes(Framework f, const std::string& dtype, int zeroStage, const std::string& gradDtype,
                        int weightBytes);

// True for what gradDtype accepts: "fp32", "bf16", "fp16".
bool isGradientDtype(const std::string& name);
} // namespace rl::model
