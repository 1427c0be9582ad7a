#include "model/sizingreport.h"

#include <stdexcept>

#include "model/memorymodel.h"
#include "units/units.h"
#include "units/memory.h"

namespace rl::model {

ModelSizing evaluateModelSizing(const ModelConfig& c, const ParallelConfig& p, int computeUnits)
{
    if (const auto why = checkParallel(c, p); !why.empty())
        throw std::invalid_argument("parallel layout: " + why);
    ModelSizing m;
    m.params = countParams(c);
    m.forward = forwardFlopsPerToken(c, {p.seqLen, true});
    m.training = trainingFlopsPerToken(m.forward, p.recompute);
    m.memory = trainingMemory(c, m.params, p);
    RuleOptions ro;
    ro.tp = p.tp;
    ro.ep = p.ep;
    ro.microBatch = p.microBatch;
    ro.seqLen = p.seqLen;
    ro.computeUnits = computeUnits;
    m.findings = checkSizingRules(c, ro);
    return m;
}

RuleFinding memoryFinding(const StepEstimate& step)
{
    RuleFinding f;
    f.rule = "memory";
    const double needed = step.memory.total();
    const std::string problem = memoryFitProblem(needed, step.memoryCapacity);
    if (problem.empty()) {
        f.message = "memory per GPU " + units::formatMemory(needed) + " of " +
                    units::formatMemory(step.usableMemory()) + " usable";
        return f;
    }
    f.severity = RuleSeverity::Warning;
    f.message = "memory per GPU " + problem +
                ": this layout cannot run; its step time, throughput and MFU are what it would reach if it fit";
    f.proposal = "shard more (zero=3, tp, pp, ep), recompute=full or a smaller micro-batch; `ridgeline-cli plan` "
                 "lists the layouts that fit";
    return f;
}

SizingReport evaluateSizing(const ModelConfig& c, const ParallelConfig& p, const DeviceRates& r,
                            const GemmTiming& timing, const CollectiveTimeSource& collectives,
                            InferenceOptions inference)
{
    // A device without a compute-unit count is judged as the rules' default device.
    ModelSizing m = evaluateModelSizing(c, p, r.computeUnits > 0 ? r.computeUnits : RuleOptions{}.computeUnits);
    SizingReport s;
    s.params = m.params;
    s.forward = m.forward;
    s.training = m.training;
    s.findings = std::move(m.findings);
    s.step = estimateStep(c, s.params, s.forward, p, r, timing, collectives); // its memory is m.memory
    if (s.step.memoryCapacity > 0)
        s.findings.insert(s.findings.begin(), memoryFinding(s.step));
    inference.tp = p.tp;
    s.inference = inference;
    s.decode = decodeStep(c, s.params, inference, r, timing);
    s.prefillSeconds = prefillSeconds(c, inference, r, timing);
    return s;
}
} // namespace rl::model
