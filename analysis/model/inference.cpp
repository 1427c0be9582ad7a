#include "model/inference.h"

#include <algorithm>
#include <cmath>

#include "model/memorymodel.h"

namespace rl::model {

double expectedDistinctExperts(int experts, int topK, double tokens)
{
    if (experts <= 0 || topK <= 0 || tokens <= 0)
        return 0;
    const double E = experts;
    return E * (1 - std::pow(1 - double(std::min(topK, experts)) / E, tokens));
}

double prefillSeconds(const ModelConfig& c, const InferenceOptions& o, const DeviceRates& r, const GemmTiming& t)
{
    ParallelConfig p;
    p.tp = o.tp;
    p.ep = 1;
    p.microBatch = o.batch;
    p.seqLen = o.promptTokens;
    double seconds = 0;
    for (int i = 0; i < c.layers; ++i) {
        GemmSet set;
        layerGemms(c, p, {c.isMoeLayer(i), c.isSlidingLayer(i)}, false, set);
        seconds += totalSeconds(set, r, t);
    }
    // Only the last position of each prompt needs logits.
    const Gemm head{"lm_head", double(o.batch), double(c.vocab) / o.tp, double(c.dModel)};
    return seconds + gemmSeconds(head, r, t);
}

DecodeEstimate decodeStep(const ModelConfig& c, const ParamCounts& params, const InferenceOptions& o,
                          const DeviceRates& r, const GemmTiming& t)
{
    DecodeEstimate d;
    const double b = o.batch;
    // Attention at decode: one query against the context (window-capped on sliding layers).
    const int sliding = c.slidingLayerCount();
    const double ctxSliding = c.slidingWindow > 0 ? std::min<double>(c.slidingWindow, o.contextTokens) : o.contextTokens;
    const double scores = 2.0 * c.heads * (c.qkHeadDim() + c.vHeadDim())
                          * ((c.layers - sliding) * double(o.contextTokens) + sliding * ctxSliding);
    const double flops = b * (2 * params.matmulActive() + scores);
    // Decode's GEMMs are skinny: the compute side at the flat default, else at the ceiling (the
    // roofline's memory side decides anyway at small batch).
    const double rate = t.defaultEfficiency > 0 ? std::min(r.peakFlops * t.defaultEfficiency, r.maxAchievableFlops)
                                                : r.maxAchievableFlops;
    d.computeSeconds = flops / (rate * o.tp);

    double expertBytes = 0;
    if (c.isMoe()) {
        d.distinctExperts = expectedDistinctExperts(c.moe.experts, c.moe.topK, b);
        expertBytes = params.experts / c.moe.experts * d.distinctExperts * o.weightBytes;
    }
    d.weightBytes = (params.total() - params.experts - params.embedding) * o.weightBytes + expertBytes
                    + b * c.dModel * o.weightBytes; // embedding rows of the batch
    d.kvBytes = b * kvCacheBytes(c, o.contextTokens, o.kvBytes);
    d.memorySeconds = (d.weightBytes + d.kvBytes) / (r.hbmBytesPerSec * o.tp);
    d.secondsPerToken = std::max(d.computeSeconds, d.memorySeconds);
    return d;
}
} // namespace rl::model
