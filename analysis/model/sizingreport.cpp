#include "model/sizingreport.h"

#include <stdexcept>

namespace rl::model {

SizingReport evaluateSizing(const ModelConfig& c, const ParallelConfig& p, const DeviceRates& r,
                            const GemmTiming& timing, const CollectiveTimeSource& collectives,
                            InferenceOptions inference)
{
    if (const auto why = checkParallel(c, p); !why.empty())
        throw std::invalid_argument("parallel layout: " + why);
    SizingReport s;
    s.params = countParams(c);
    s.forward = forwardFlopsPerToken(c, {p.seqLen, true});
    s.training = trainingFlopsPerToken(s.forward, p.recompute);
    s.step = estimateStep(c, s.params, s.forward, p, r, timing, collectives);
    inference.tp = p.tp;
    s.inference = inference;
    s.decode = decodeStep(c, s.params, inference, r, timing);
    s.prefillSeconds = prefillSeconds(c, inference, r, timing);
    RuleOptions ro;
    ro.tp = p.tp;
    ro.ep = p.ep;
    ro.microBatch = p.microBatch;
    ro.seqLen = p.seqLen;
    if (r.computeUnits > 0)
        ro.computeUnits = r.computeUnits;
    s.findings = checkSizingRules(c, ro);
    return s;
}
} // namespace rl::model
