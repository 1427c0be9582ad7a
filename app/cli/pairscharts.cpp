// `ridgeline-cli export SESSION --chart pairs-heatmap`: the GUI's pairs heatmap (bandwidth per pair
// of ranks, slow pairs at the default threshold outlined) as PNG/SVG/PDF (chartimages.h, the Qt
// build), or in any build every pair as CSV with both values, the ratios to the medians and the
// slow flag (analysis/views/pairsheatmapdata.h).
#include <stdexcept>

#include "chartexporters.h"
#include "chartimages.h"
#include "chartoutput.h"
#include "views/pairsheatmapdata.h"

namespace rl::cli {
namespace {
void exportPairsHeatmap(const ChartExportRequest& r)
{
    if (r.sessions.size() != 1)
        throw std::runtime_error("--chart pairs-heatmap draws one pairs session, got "
                                 + std::to_string(r.sessions.size()));
    const auto data = views::loadPairsSession(r.workspace, r.sessions.front());
    if (data.session.kind != kind::Pairs)
        throw std::runtime_error("session " + std::to_string(data.session.id) + " is not a pairs session "
                                 "(ridgeline-bench pairs)");
    if (data.pairs.empty())
        throw std::runtime_error("session " + std::to_string(data.session.id) + " has no measured pairs");
    // The chart's defaults: bandwidth, slow below kDefaultSlowPairFraction of the median.
    writeChartOutput(r.path,
                     [&] {
                         return views::pairsHeatmapCsv(
                             views::pairsHeatmap(data.pairs, views::PairMetric::Bandwidth, kDefaultSlowPairFraction));
                     },
                     [&] { writePairsHeatmapImage(r, data); });
}

const bool registered = [] {
    registerChartExporter({"pairs-heatmap", "one pairs session: point-to-point bandwidth of every pair of ranks as a "
                                            "heatmap, pairs below 80 % of the median outlined (CSV: every pair)",
                           &exportPairsHeatmap});
    return true;
}();
} // namespace
} // namespace rl::cli
