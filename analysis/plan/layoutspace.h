#pragma once
// The space of training layouts a search enumerates for one model on one cluster: the candidate
// values of every dimension (tp, cp, pp, stage split, vpp, etp, ep, micro-batch, recompute, sequence
// parallel, GEMM dtype, attention kernel, ZeRO, DP / EP / TP overlap, EP dispatcher), and the rules
// that make a combination illegal, each with the check it follows (Megatron-LM's own argument
// checks where it has one, cited by file).
//
// The enumerated space is the full product of the candidate lists, so its size is known up front
// and every combination is accounted for: illegal (by the first rule it breaks), out of memory (by
// its largest memory component) or ranked.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "model/hardwareprofile.h"
#include "model/modelconfig.h"
#include "model/modelcounts.h"

namespace rl::plan {

// How the layers go onto the pipeline stages (Megatron's --decoder-first/last-pipeline-num-layers).
enum class StageSplit : int {
    Even = 0,        // layers / pp on every stage
    LastLighter = 1, // the last stage one layer short, for the LM head
    EndsLighter = 2, // the first and last stages one layer short, for the embedding and the LM head
    Custom = 3,      // the first and last stages' layer counts given (a published layout; never enumerated)
};
struct StageChoice
{
    StageSplit split = StageSplit::Even;
    int first = 0, last = 0; // Custom only; 0: that end takes the others' share
    bool operator==(const StageChoice&) const = default;
};
// "even", "last-lighter", "ends-lighter", or "F/L" for a custom split ("15/15").
std::string toString(const StageChoice& s);

enum class Dim : int {
    Tp, Cp, Pp, Stages, Vpp, Etp, Ep, MicroBatch, Recompute, Sp, Dtype, Attention, Zero, DpOverlap, EpOverlap,
    Dispatcher, TpOverlap, Count
};
inline constexpr int kDimCount = int(Dim::Count);
// The name --fix uses ("tp", "stages", "micro-batch", "dp-overlap", ...).
const char* dimName(Dim d);

// Why a combination is not a layout one can run. The order is the order they are checked in.
enum class Rule : int {
    TpHeads, TpKvHeads, TpAcrossNodes, CpSequence, WorldSize, PpLayers, EvenSplit, UnevenSplit, VppNeedsPp,
    VppLayers, EtpSameAsTp, EtpWidth, EpExperts, EpGroup, EpDense, GlobalBatch, InterleavedMicroBatches,
    SpNeedsTp, MoeTpNeedsSp, Dtype, AttentionKernel, ZeroWithPp, ZeroWithEp, OneDpRank, EpOverlapNeedsEp,
    EpOverlapFullRecompute, EpOverlapPpNeedsVpp, FlexNeedsEp, TpOverlapNeedsSp, Count
};
inline constexpr int kRuleCount = int(Rule::Count);
struct RuleInfo
{
    const char* id;     // "tp-heads"
    const char* text;   // "tp does not divide the attention heads"
    const char* source; // "Megatron-LM megatron/core/transformer/transformer_config.py (num_attention_heads % tp)"
};
const RuleInfo& ruleInfo(Rule r);

// What the search may widen beyond the defaults (--allow).
struct Allowances
{
    bool tpAcrossNodes = false; // tensor parallel groups larger than a node (never Megatron's default)
    bool tpOverlap = false;     // also search TP communication overlap, (tp-1)/tp hidden (not validated)
};

struct LayoutSpace
{
    std::vector<int> tp, cp, pp, vpp, ep, microBatch, zero;
    std::vector<StageChoice> stages;
    std::vector<int> etp;                 // 0: = tp (Megatron's default), else that size (1: experts folded over the TP ranks)
    std::vector<model::Recompute> recompute;
    std::vector<int> sp, dpOverlap, epOverlap, flexDispatch, tpOverlap; // 0 / 1
    std::vector<std::string> dtype;
    std::vector<std::string> attention;   // kernel names; "" = by GEMM shape

    std::size_t size(Dim d) const;
    // The number of combinations: the product of the lists' sizes.
    double total() const;
};

// The cluster and batch a space is built for.
struct Cluster
{
    int gpus = 0;
    int gpusPerNode = 8;
    int globalBatch = 0; // sequences per step
    int seqLen = 4096;
};

// Every candidate the defaults consider: tp the divisors of the GPU count up to a node (or beyond
// with tpAcrossNodes), cp the divisors up to 16, pp the divisors up to the layer count, vpp 1..8,
// ep the divisors of the expert count (1 for a dense model), micro-batches the divisors of the
// global batch up to 16, every recompute mode, ZeRO 0-3, the overlaps on and off, both EP
// dispatchers, the GEMM dtypes the profile rates (bf16, fp8), and the attention kernels it has
// measured rates for at the model's head dim (none: by GEMM shape).
LayoutSpace defaultSpace(const model::ModelConfig& c, const HardwareProfile& hw, const Cluster& cl,
                         const Allowances& allow);

// "tp=8,ep=8,recompute=full|selective,zero=1,dtype=bf16,attention=cudnn,stages=even|15/15,sp=on": each
// named dimension keeps only the values given ('|' separates alternatives). Throws
// std::invalid_argument naming the bad item and the dimension names.
void applyFix(LayoutSpace& space, const std::string& spec);
// "tp-across-nodes,tp-overlap" -> Allowances; throws std::invalid_argument naming an unknown item.
Allowances parseAllowances(const std::string& spec);
} // namespace rl::plan
