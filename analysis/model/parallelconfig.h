#pragma once
// How one training step is laid out: parallel degrees (Megatron order tp-cp-ep-dp-pp, tp
// innermost), batch, ZeRO stage, recompute and overlap.
#include <string>

#include "model/modelcounts.h"

namespace rl::model {

struct ParallelConfig
{
    int dp = 1, tp = 1, pp = 1, ep = 1, cp = 1;
    bool sequenceParallel = false;
    int microBatch = 1;     // sequences per micro-batch per DP rank
    int microBatches = 0;   // per DP rank per step; 0: 1 without PP, 4·pp with PP
    int seqLen = 4096;
    int zeroStage = 0;      // 0..3 (ZeRO paper: 1 optimizer, 2 + gradients, 3 + parameters)
    Recompute recompute = Recompute::None;
    bool flashAttention = true; // no s² softmax activations kept
    double overlap = 0;     // fraction of communication hidden behind compute, 0..1
    std::string dtype = "bf16";
    int weightBytes = 2;    // bf16 weights and gradients, fp32 optimizer states (12 B/param)

    int worldSize() const { return dp * tp * pp * cp; } // EP is carved out of DP
    int effectiveMicroBatches() const { return microBatches > 0 ? microBatches : (pp > 1 ? 4 * pp : 1); }
    double tokensPerStep() const { return double(dp) * microBatch * effectiveMicroBatches() * seqLen; }
    int expertDataParallel() const { return dp / ep > 0 ? dp / ep : 1; }
};

// "dp=64,tp=1,pp=1,ep=1,cp=1" -> degrees; throws std::invalid_argument naming the bad item.
void parseParallelSpec(const std::string& spec, ParallelConfig& into);
// Empty when consistent, else why not (e.g. "ep=3 does not divide dp=8").
std::string checkParallel(const ModelConfig& c, const ParallelConfig& p);
// The degrees of `spec` on top of `base` (batch, sequence, ZeRO, ... kept), checked against the
// model: what the CLI's --parallel and the GUI's layout fields both mean. Throws
// std::invalid_argument naming the bad item, or "parallel layout: <checkParallel's reason>".
ParallelConfig parallelLayout(const ModelConfig& c, const std::string& spec, ParallelConfig base);
} // namespace rl::model
