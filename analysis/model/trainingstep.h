#pragma once
// One training step on a parallel layout: GEMM time by roofline (per micro-batch, per pipeline
// stage), pipeline bubble, recompute, communication by op and size, exposed communication after
// the overlap fraction, and the resulting throughput, TFLOP/s per GPU, MFU and HFU.
// Element-wise kernels (norms, activations, softmax outside flash attention) are not modelled.
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
    double totalSeconds() const { return count * timeUs * 1e-6; }
};

struct StepEstimate
{
    double computeSeconds = 0;   // GEMMs of all micro-batches, recompute included
    double recomputeSeconds = 0;
    double bubbleSeconds = 0;    // (pp-1) stage times
    double commSeconds = 0;      // all communication
    double exposedCommSeconds = 0;
    double stepSeconds = 0;
    double tokensPerStep = 0;
    double tokensPerSecond = 0;
    double modelTflopsPerGpu = 0;
    double mfu = 0;              // against peak
    double mfuMaxAchievable = 0; // against the vendor's max-achievable figure
    double hfu = 0;
    double defaultEfficiency = 0;
    bool measuredGemm = false;
    TrainingMemory memory;
    std::array<CommOp, 12> comm{};
    int commCount = 0;
};

StepEstimate estimateStep(const ModelConfig& c, const ParamCounts& params, const FlopCounts& fwd,
                          const ParallelConfig& p, const DeviceRates& rates, const GemmTiming& timing,
                          const CollectiveTimeSource& collectives);
} // namespace rl::model
