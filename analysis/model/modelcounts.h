#pragma once
// Parameters by part and FLOPs per token of a ModelConfig, in closed form (no allocation), so the
// MoE sweep can evaluate millions of configurations per second.
#include <string_view>

#include "model/modelconfig.h"

namespace rl::model {

struct ParamCounts
{
    double embedding = 0; // input token embedding
    double attention = 0; // projections (+ biases)
    double mlp = 0;       // dense MLPs and shared experts
    double experts = 0;   // routed experts
    double router = 0;
    double norms = 0;
    double output = 0;    // LM head; 0 when tied to the embedding
    double mtp = 0;       // multi-token-prediction modules (unique weights), outside total()

    double activeExperts = 0; // routed-expert parameters one token passes through (top-k of them)

    double total() const { return embedding + attention + mlp + experts + router + norms + output; }
    // Every parameter a token touches, the input embedding row included (Mixtral's "12.9B active").
    double active() const { return total() - experts + activeExperts; }
    // Without the input embedding lookup (DeepSeek-V3's convention: "36.6B activated").
    double activeExclEmbedding() const { return active() - embedding; }
    // Parameters inside the matmuls of one token's forward pass (no norms, no embedding lookup).
    double matmulActive() const;
    // Expert weights are sharded over EP; everything else is "dense" for sharding.
    double denseTotal() const { return total() - experts; }
};

ParamCounts countParams(const ModelConfig& c);

struct FlopOptions
{
    int seqLen = 4096;
    bool causal = true; // the average query sees (s+1)/2 keys; false: all s (Megatron's convention)
};

// Forward FLOPs per token (2 per multiply-add), by part.
struct FlopCounts
{
    double attentionProj = 0;
    double attentionScores = 0; // QK^T and AV
    double mlp = 0;             // dense MLPs, shared and the top-k routed experts
    double router = 0;
    double output = 0;

    double forward() const { return attentionProj + attentionScores + mlp + router + output; }
    double layers() const { return forward() - output; }
};

FlopCounts forwardFlopsPerToken(const ModelConfig& c, const FlopOptions& opt);

enum class Recompute { None, Selective, Full };
const char* toString(Recompute r);
// "full" / "selective" / anything else ("none"): the mode as the CLI, the GUI and the validation
// tables spell it (toString's inverse).
Recompute recomputeFromString(std::string_view name);

// Training FLOPs per token: model FLOPs (what MFU counts: forward + backward = 3 x forward) and
// hardware FLOPs (what the GPU executes: recompute adds a forward of the layers for Full, of the
// attention scores for Selective; the output layer is never recomputed).
struct TrainingFlops
{
    double model = 0;
    double hardware = 0;
};
TrainingFlops trainingFlopsPerToken(const FlopCounts& fwd, Recompute recompute);

// Mean number of keys a query attends to in a sequence of length s with window w (0: none).
double meanContext(int seqLen, int window, bool causal);
} // namespace rl::model
