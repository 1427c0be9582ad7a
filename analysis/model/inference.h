#pragma once
// Inference estimates on `tp` GPUs holding one copy of the model: prefill by GEMM roofline,
// decode per token at batch b as max(compute, bytes over HBM), where bytes are the weights the
// batch touches plus its KV cache. For MoE a step touches E·(1-(1-k/E)^tokens) distinct experts
// per layer in expectation (uniform routing).
#include "model/gemmlist.h"
#include "model/modelcounts.h"

namespace rl::model {

double expectedDistinctExperts(int experts, int topK, double tokens);

struct InferenceOptions
{
    int batch = 1;
    int promptTokens = 2048;
    int contextTokens = 2048; // KV length during decode
    int tp = 1;
    int weightBytes = 2;
    int kvBytes = 2;
};

struct DecodeEstimate
{
    double computeSeconds = 0;
    double memorySeconds = 0;
    double weightBytes = 0; // weights read per step (all GPUs)
    double kvBytes = 0;
    double distinctExperts = 0; // per MoE layer
    double secondsPerToken = 0; // one step: each of the batch's sequences gains one token
    bool memoryBound() const { return memorySeconds >= computeSeconds; }
};

double prefillSeconds(const ModelConfig& c, const InferenceOptions& o, const DeviceRates& r, const GemmTiming& t);
DecodeEstimate decodeStep(const ModelConfig& c, const ParamCounts& params, const InferenceOptions& o,
                          const DeviceRates& r, const GemmTiming& t);
} // namespace rl::model
