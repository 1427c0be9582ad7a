#include "model/calibratedvalidation.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "fits/median.h"

#include "model/rankingvalidation.h"
#include "model/runcalibration.h"

namespace rl::model {
namespace {
// One model on one device at one dtype: the shape the rows state, not their ids.
std::string groupKey(const ValidationRun& r)
{
    const auto& c = r.model;
    std::string key = r.framework + " on " + r.hardware + " " + r.dtype + ", " + std::to_string(c.layers) + " layers, d_model " +
                      std::to_string(c.dModel) + ", " + std::to_string(c.heads) + "/" + std::to_string(c.kvHeads) +
                      " heads, MLP " + std::to_string(c.mlpWidth) + ", vocab " + std::to_string(c.vocab);
    if (c.isMoe())
        key += ", " + std::to_string(c.moe.experts) + " experts top-" + std::to_string(c.moe.topK) + " of " +
               std::to_string(c.moe.expertWidth);
    return key;
}

} // namespace

std::vector<ValidationRun> bundledValidationRuns()
{
    std::vector<ValidationRun> runs;
    appendBundledRuns(runs);
    for (auto& r : loadValidationRuns(rankingTablePath()))
        runs.push_back(std::move(r));
    return runs;
}

CalibratedSummary runCalibratedValidation(const std::vector<ValidationRun>& runs)
{
    std::map<std::string, std::vector<ValidationRun>> byKey;
    for (const auto& r : runs)
        if (!r.ranOutOfMemory)
            byKey[groupKey(r)].push_back(r);
    CalibratedSummary s;
    std::vector<double> errors, uncalibrated;
    for (auto& [key, members] : byKey) {
        if (members.size() < 2)
            continue;
        const auto validated = runValidation(members);
        CalibratedGroup g;
        g.key = key;
        for (const auto& row : validated.rows)
            g.runs.push_back(row.run.id);
        for (const auto& from : validated.rows) {
            if (from.refused)
                continue;
            MeasuredStep measured;
            measured.stepSeconds = from.run.measuredStepSeconds;
            const auto rates = fitRunRates(from.step, measured, from.run.id, from.rates);
            for (const auto& to : validated.rows) {
                if (to.refused || &to == &from)
                    continue;
                CalibratedPrediction p;
                p.from = from.run.id;
                p.to = to.run.id;
                p.measured = to.run.measuredStepSeconds;
                p.uncalibrated = to.predictedStepSeconds;
                p.calibrated = applyRunRates(to.step, rates, to.rates).stepSeconds;
                p.uncalibratedError = p.uncalibrated / p.measured - 1;
                p.error = p.calibrated / p.measured - 1;
                errors.push_back(std::abs(p.error));
                uncalibrated.push_back(std::abs(p.uncalibratedError));
                if (std::abs(p.error) > s.maxError) {
                    s.maxError = std::abs(p.error);
                    s.worst = p.from + " -> " + p.to;
                }
                g.predictions.push_back(p);
            }
        }
        s.groups.push_back(std::move(g));
    }
    s.predictions = int(errors.size());
    s.medianError = fits::median(errors);
    s.medianUncalibrated = fits::median(uncalibrated);
    return s;
}
} // namespace rl::model
