#pragma once
// One training step on a parallel layout: GEMM time by roofline (per micro-batch, on the busiest
// pipeline stage), element-wise kernels (norms, residuals, activations, dropout, softmax outside
// flash attention, MoE permutation) as bytes over HBM, the (interleaved) 1F1B bubble, recompute,
// communication by op and size, exposed communication after overlap, and the resulting
// throughput, TFLOP/s per GPU, MFU and HFU; and whether the step fits the device's memory.
#include <array>

#include "model/collectivetimesource.h"
#include "model/gemmlist.h"
#include "model/memorymodel.h"

namespace rl::model {

struct CommOp
{
    const char* what = ""; // "dp grad reduce_scatter", "tp all_reduce", ...
    CollectiveOp op = CollectiveOp::AllReduce;
    double bytes = 0;  // nccl-tests size of one call
    int ranks = 1;
    bool crossNode = false;
    double count = 0;  // calls per step
    double timeUs = 0; // one call
    bool measured = false;
    double routedImbalance = 0; // > 0: timed by a measured all_to_allv at this routing imbalance
    double totalSeconds() const { return count * timeUs * 1e-6; }
};

// Mixed-precision Adam: read fp32 grad, master, m, v (16 B), write master, m, v (12 B) and the
// bf16 weights (2 B) per parameter.
inline constexpr double kAdamBytesPerParam = 30;
// Unfused gradient accumulation, per parameter and micro-batch: read the micro-batch's gradient (the
// weights' type), read and write the buffer it accumulates in (gradientBytes: fp32 main grads by
// Megatron-Core's default, 10 B in all; 6 B where the run keeps bf16 gradients).
double gradAccumBytesPerParam(const ParallelConfig& p);
// Host-side cost of one kernel launch that the GPU cannot hide (small kernels back to back).
inline constexpr double kLaunchSeconds = 4e-6;

// What share of the expert all_to_all's cross-node bytes DeepEP / HybridEP still send: they move a
// token to a remote node once, however many of its top-k experts live there (balanced routing:
// each node of the EP group holds experts/nodes of them). 1 within a node or when the experts do
// not split evenly over the nodes.
double flexCrossNodeShare(int experts, int topK, int epRanks, int ranksPerNode);

struct StepEstimate
{
    double computeSeconds = 0;   // GEMMs and element-wise kernels of all micro-batches, recompute included
    double gemmSeconds = 0;      // of which GEMMs
    double elementwiseSeconds = 0; // of which element-wise (memory-bound) kernels
    double recomputeSeconds = 0;
    double bubbleSeconds = 0;    // (pp-1)/vpp micro-batch stage times
    double optimizerSeconds = 0; // the optimizer step (memory-bound)
    double gradAccumulationSeconds = 0; // unfused fp32 gradient accumulation, all micro-batches
    double commSeconds = 0;      // all communication
    double exposedCommSeconds = 0;
    // Of which exposed, by group: data parallel (gradients, ZeRO gathers), tensor parallel,
    // expert parallel (dispatch and combine), and the rest (pipeline send/receive, context parallel).
    double exposedDpSeconds = 0, exposedTpSeconds = 0, exposedEpSeconds = 0, exposedOtherSeconds = 0;
    double stepSeconds = 0;
    double tokensPerStep = 0;
    double tokensPerSecond = 0;
    double modelTflopsPerGpu = 0;
    double mfu = 0;              // against peak
    double mfuMaxAchievable = 0; // against the vendor's max-achievable figure
    double hfu = 0;
    double defaultEfficiency = 0; // 0: GEMM efficiency by shape
    bool measuredGemm = false;
    double stageLayers = 0;       // layers on the busiest pipeline stage
    TrainingMemory memory;
    double memoryCapacity = 0;    // bytes of the device (0: unknown)
    // What the parts may use of the device, after the framework's reserve (model/memorymodel.h).
    double usableMemory() const { return model::usableMemory(memoryCapacity); }
    // Fits when the total stays within usableMemory(); unknown capacity counts as fitting.
    bool fitsMemory() const { return model::fitsMemory(memory.total(), memoryCapacity); }
    std::array<CommOp, 12> comm{};
    int commCount = 0;
};

// Bytes the element-wise kernels of one layer move in one micro-batch's forward pass on one GPU,
// split into the attention-score part (softmax/dropout over s x s, 0 with flash attention) and
// the rest. Backward moves about twice as much.
struct ElementwiseBytes
{
    double scores = 0, other = 0;
    double total() const { return scores + other; }
};
ElementwiseBytes elementwiseBytesPerLayer(const ModelConfig& c, const ParallelConfig& p, LayerKind kind);

// What one micro-batch costs on one GPU, per layer (averaged over the model's layer kinds) and for the
// LM head. It depends on the layer shapes (tp, cp, ep, etp, micro-batch, sequence, recompute,
// sequence parallel, flash attention, dropout, dtype and attention kernel), not on pp, dp, ZeRO or
// the overlaps, so a layout search computes it once per shape and reuses it (plan/plansearch.h).
struct StageCosts
{
    double perLayer = 0;           // forward + backward, element-wise, FP8 casts and recompute
    double perLayerGemm = 0;       // of which GEMMs (flash backward's QK^T and launches included)
    double perLayerRecompute = 0;  // of which recompute
    double perLayerBwd = 0;        // the backward part (the window DP gradient traffic hides behind)
    double perLayerWeightCast = 0; // FP8 weight casts, once per step
    double head = 0;               // LM head GEMMs + softmax and cross-entropy
    double headGemm = 0;           // of which GEMMs
};
StageCosts stageCosts(const ModelConfig& c, const ParallelConfig& p, const DeviceRates& rates, const GemmTiming& timing);

StepEstimate estimateStep(const ModelConfig& c, const ParamCounts& params, const FlopCounts& fwd,
                          const ParallelConfig& p, const DeviceRates& rates, const GemmTiming& timing,
                          const CollectiveTimeSource& collectives);
// The same with the stage costs computed before (stageCosts of the same shape, rates and timing).
StepEstimate estimateStep(const ModelConfig& c, const ParamCounts& params, const FlopCounts& fwd,
                          const ParallelConfig& p, const DeviceRates& rates, const GemmTiming& timing,
                          const CollectiveTimeSource& collectives, const StageCosts& costs);
} // namespace rl::model
