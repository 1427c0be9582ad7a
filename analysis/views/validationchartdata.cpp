#include "views/validationchartdata.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "io/csv.h"
#include "units/units.h"

namespace rl::views {

bool isDrawn(const model::ValidationRow& r)
{
    return !r.refused && r.predictedStepSeconds > 0 && r.run.measuredStepSeconds > 0;
}

ValidationChartData validationChartData(const model::ValidationSummary& summary)
{
    ValidationChartData d;
    double lo = INFINITY, hi = 0;
    for (std::size_t i = 0; i < summary.rows.size(); ++i) {
        const auto& r = summary.rows[i];
        if (!isDrawn(r))
            continue;
        ++d.predicted;
        for (const double v : {r.predictedStepSeconds, r.run.measuredStepSeconds})
            lo = std::min(lo, v), hi = std::max(hi, v);
        auto it = std::find_if(d.series.begin(), d.series.end(),
                               [&r](const ValidationSeries& s) { return s.device == r.run.hardware; });
        if (it == d.series.end())
            it = d.series.insert(d.series.end(), ValidationSeries{r.run.hardware, {}});
        it->rows.push_back(i);
    }
    if (d.predicted == 0)
        lo = 0.1, hi = 1;
    // Room for the bands at both ends; the same range on both axes keeps y = x the diagonal.
    d.log = hi / lo >= 10;
    if (d.log) {
        lo /= 1.4; // the ±25 % band and a margin; decades are labelled wherever the range ends
        hi *= 1.4;
    } else {
        const double pad = (hi - lo) * 0.1 + hi * 0.05;
        lo = std::max(0.0, lo - pad);
        hi = hi + pad;
    }
    d.lo = lo, d.hi = hi;
    d.description = std::to_string(d.predicted) + " of " + std::to_string(summary.rows.size()) +
                    " runs predicted; median |error| " + units::formatPercent(summary.medianAbsError, 1) + ", max " +
                    units::formatPercent(summary.maxAbsError, 1);
    return d;
}

std::string validationPointText(const model::ValidationRow& r)
{
    return r.run.id + " (" + r.run.hardware + ")\nmeasured " + units::formatTime(r.run.measuredStepSeconds * 1e6) +
           ", predicted " + units::formatTime(r.predictedStepSeconds * 1e6) + "\nerror " +
           units::formatPercent(r.error, 1, true);
}

std::string validationCsv(const model::ValidationSummary& summary)
{
    std::ostringstream out;
    io::writeCsvRow(out, {"run", "source", "hardware", "gpus", "measured_step_s", "predicted_step_s", "error",
                          "expected_median_abs_error", "expected_max_abs_error", "refused", "attention"});
    for (const auto& r : summary.rows) {
        const auto band = model::modelErrorBand(r.run.model.isMoe(), r.run.hardware, r.run.parallel.framework);
        io::writeCsvRow(out, {io::csvText(r.run.id), io::csvText(r.run.source), io::csvText(r.run.hardware), std::to_string(r.run.parallel.worldSize()),
                              io::csvNumber(r.run.measuredStepSeconds),
                              r.refused ? std::string() : io::csvNumber(r.predictedStepSeconds),
                              r.refused ? std::string() : io::csvNumber(r.error), io::csvNumber(band.median),
                              io::csvNumber(band.max), r.refused ? r.why : std::string(), r.attentionBasis});
    }
    return out.str();
}
} // namespace rl::views
