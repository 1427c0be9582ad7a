#pragma once
// How one training step is laid out: parallel degrees (Megatron order tp-cp-ep-dp-pp, tp
// innermost), batch, ZeRO stage, recompute and overlap.
// Experts fold as in Megatron-Core: the tp·cp·dp ranks of a pipeline stage are regrouped into
// etp (expert tensor parallel) x ep x expert-DP, so ep may exceed dp (EP over DP x CP x TP ranks).
// Pipeline: 1F1B, interleaved with vpp virtual stages per rank (bubble (pp-1)/(vpp·m) of the
// step), uneven stages through firstStageLayers/lastStageLayers (Megatron's
// --decoder-first/last-pipeline-num-layers) or, when the layers do not divide, the slowest stage
// holding ceil(layers/pp).
#include <string>
#include <vector>

#include "model/framework.h"
#include "model/modelcounts.h"

namespace rl::model {

// The GEMM dtypes the GUI's sizing views offer (the CLI's --dtype takes any the profile rates).
inline const std::vector<std::string>& gemmDtypes()
{
    static const std::vector<std::string> dtypes{"bf16", "fp16", "fp8"};
    return dtypes;
}

struct ParallelConfig
{
    int dp = 1, tp = 1, pp = 1, ep = 1, cp = 1;
    int etp = 0;  // expert tensor parallel; 0: = tp (no folding)
    int vpp = 1;  // virtual pipeline stages per rank (interleaved 1F1B)
    int firstStageLayers = 0, lastStageLayers = 0; // 0: even split
    bool sequenceParallel = false;
    int microBatch = 1;     // sequences per micro-batch per DP rank
    int microBatches = 0;   // per DP rank per step; 0: 1 without PP, 4·pp with PP
    int seqLen = 4096;
    int zeroStage = 0;      // 0..3 (ZeRO paper: 1 optimizer, 2 + gradients, 3 + parameters)
    Recompute recompute = Recompute::None;
    bool flashAttention = true; // no s² softmax activations kept
    // Fraction of communication hidden behind compute, 0..1, for every kind; < 0: the defaults
    // below (dpOverlap, tpOverlap).
    double overlap = -1;
    // Data-parallel gradient reduce / parameter gather: < 0 (default) hides it behind the backward
    // (and, for ZeRO-3, forward) compute of the last micro-batch, as Megatron's
    // --overlap-grad-reduce/--overlap-param-gather and FSDP prefetch do; 0..1: that fraction hidden.
    double dpOverlap = -1;
    double tpOverlap = 0;   // TP collectives are on the critical path unless TP comm overlap is on
    // The expert all_to_all of one micro-batch runs under the other micro-batch's compute
    // (Megatron-Core's overlap_moe_expert_parallel_comm, "EP A2A overlap": the forward of one
    // micro-batch interleaved with the backward of another); false: on the critical path.
    bool epOverlap = false;
    // The tokens go out through DeepEP or HybridEP (Megatron-Core moe_token_dispatcher_type "flex"):
    // a token crosses to another node once, however many of its experts live there, and is
    // forwarded inside that node; false: the all_to_all dispatcher, one copy per expert.
    bool flexDispatch = false;
    bool dropout = false;   // attention/hidden dropout (GPT-3-era recipes); adds mask traffic
    // Weight gradients accumulate into the fp32 main grads inside the wgrad GEMM (Megatron's
    // --gradient-accumulation-fusion, on by default since Megatron-LM 3.0); false: a separate
    // kernel adds each micro-batch's bf16 gradient into them (read 2 + 4 B, write 4 B per parameter).
    bool gradAccumulationFusion = true;
    std::string dtype = "bf16";
    // The gradients' type, in the buffer they accumulate in and on the wire of the DP reduction:
    // "fp32", "bf16" or "fp16"; empty: the framework's default (model/framework.h, gradientBytes).
    std::string gradDtype;
    int weightBytes = 2;    // bf16 weights and gradients, fp32 optimizer states (12 B/param)
    Framework framework = Framework::MegatronCore; // the stack that runs it (model/framework.h)

    int worldSize() const { return dp * tp * pp * cp; } // EP is carved out of TP x CP x DP
    int effectiveMicroBatches() const { return microBatches > 0 ? microBatches : (pp > 1 ? 4 * pp : 1); }
    double tokensPerStep() const { return double(dp) * microBatch * effectiveMicroBatches() * seqLen; }
    int expertTensorParallel() const { return etp > 0 ? etp : tp; }
    // Ranks holding the same expert shard: tp·cp·dp / (etp·ep).
    int expertDataParallel() const
    {
        const int g = tp * cp * dp / (expertTensorParallel() * ep);
        return g > 0 ? g : 1;
    }
    double dpOverlapFraction() const { return overlap >= 0 ? overlap : dpOverlap; }
    double tpOverlapFraction() const { return overlap >= 0 ? overlap : tpOverlap; }
};

// Layers on the busiest pipeline stage (all its virtual stages together).
double stageLayers(const ModelConfig& c, const ParallelConfig& p);
// Layers on the first stage (which holds the embedding) and the last (the LM head).
double firstStageLayers(const ModelConfig& c, const ParallelConfig& p);
double lastStageLayers(const ModelConfig& c, const ParallelConfig& p);

// The training recipe beyond the degrees, for a reader: "seq 4096, micro-batch 1 x 32, ZeRO 1,
// recompute none, bf16" and what is on (", sequence parallel, EP overlap, flex dispatch", overlaps).
std::string recipeSummary(const ParallelConfig& p);

// "dp=64,tp=1,pp=1,ep=1,cp=1" (also etp, vpp) -> degrees; throws std::invalid_argument naming the bad item.
void parseParallelSpec(const std::string& spec, ParallelConfig& into);
// Empty when consistent, else why not (e.g. "ep=3 does not divide dp=8").
std::string checkParallel(const ModelConfig& c, const ParallelConfig& p);
// The degrees of `spec` on top of `base` (batch, sequence, ZeRO, ... kept), checked against the
// model: what the CLI's --parallel and the GUI's layout fields both mean. Throws
// std::invalid_argument naming the bad item, or "parallel layout: <checkParallel's reason>".
ParallelConfig parallelLayout(const ModelConfig& c, const std::string& spec, ParallelConfig base);
// parallelLayout with messages for the user who typed `spec` into `field` ("--parallel", "Parallel
// layout"): a syntax error gets an example, a layout the model refuses gets "change the degree".
ParallelConfig parallelLayoutOf(const ModelConfig& c, const std::string& spec, const ParallelConfig& base,
                                const std::string& field);
} // namespace rl::model
