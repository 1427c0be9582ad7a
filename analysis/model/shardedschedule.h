#pragma once
// The exposed data-parallel communication of a fully sharded step (ZeRO-3, FSDP FULL_SHARD,
// DeepSpeed stage 3), from its schedule rather than a flat fraction.
//
// Each unit (one transformer layer, as torchtitan and Megatron-FSDP wrap them) gathers its
// parameters before its forward and again before its backward, and reduce-scatters its gradients
// after its backward, every micro-batch (gradient accumulation without no_sync, as FSDP2 and
// DeepSpeed stage 3 run it). PyTorch's FSDP notes ("FSDP Prefetch Nuances",
// docs.pytorch.org/docs/stable/notes/fsdp.html) state the overlap:
// - forward: the all-gather of unit i+1 runs on its own stream under unit i's forward; "the 1st
//   all-gather will not be able to overlap with anything";
// - backward (BACKWARD_PRE, FSDP2's default): the all-gather of unit i-1 and the reduce-scatter of
//   unit i+1 run under unit i's backward; the two share one process group, so they serialize with
//   each other; the last reduce-scatter has no compute left to hide behind.
// What a unit's communication cannot hide is exposed; nothing is carried over to the next unit
// (a gather that overruns delays the next unit's compute start by exactly the overrun).
namespace rl::model {

struct ShardedUnitTimes
{
    double forward = 0;       // one unit's forward compute, one micro-batch (s)
    double backward = 0;      // its backward, recompute included (s)
    double gather = 0;        // one unit's parameter all_gather (s)
    double reduceScatter = 0; // one unit's gradient reduce_scatter (s)
};

struct ShardedExposure
{
    double forward = 0, backward = 0; // exposed seconds per step, all micro-batches
    double total() const { return forward + backward; }
};

// `units` layers on this rank, `microBatches` per step. lastUnitKept: the last unit stays gathered
// from its forward to its backward (torchtitan, framework.h keepsLastLayer), so the backward starts
// without a gather: "the last layer ... will be all-gathered immediately in backward" is what
// torchtitan's parallelize avoids, and unit L-1's gather is issued as unit L's backward starts.
ShardedExposure shardedExposure(int units, double microBatches, const ShardedUnitTimes& t, bool lastUnitKept = false);
} // namespace rl::model
