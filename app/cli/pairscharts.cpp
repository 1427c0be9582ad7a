// `ridgeline-cli export SESSION --chart pairs-heatmap`: the GUI's pairs heatmap (bandwidth per pair
// of ranks, slow pairs at the default threshold outlined) as PNG/SVG/PDF, or every pair as CSV with
// both values, the ratios to the medians and the slow flag. Drawn by widgets/pairsheatmapchart.h.
#include <stdexcept>

#include "chartexporters.h"
#include "chartimages.h"
#include "pairsheatmapchart.h"
#include "store/pairresults.h"
#include "store/workspace.h"

namespace rl::cli {
namespace {
void exportPairsHeatmap(const ChartExportRequest& r)
{
    if (r.sessions.size() != 1)
        throw std::runtime_error("--chart pairs-heatmap draws one pairs session, got "
                                 + std::to_string(r.sessions.size()));
    charts::PairsSessionData data;
    const auto s = r.workspace.session(r.sessions.front());
    if (!s || s->kind != kind::Pairs)
        throw std::runtime_error("session " + std::to_string(r.sessions.front()) + " is not a pairs session "
                                 "(ridgeline-bench pairs)");
    data.session = *s;
    data.pairs = store::pairPoints(r.workspace.database(), s->id);
    if (data.pairs.empty())
        throw std::runtime_error("session " + std::to_string(s->id) + " has no measured pairs");
    charts::PairsHeatmapOptions o;
    o.title = r.title;
    drawChart(r.path, [&](const QString& path, QString* error) {
        return charts::PairsHeatmapChart::exportChart(data, o, QSize(r.width, r.height), path, error);
    });
}

const bool registered = [] {
    registerChartExporter({"pairs-heatmap", "one pairs session: point-to-point bandwidth of every pair of ranks as a "
                                            "heatmap, pairs below 80 % of the median outlined (CSV: every pair)",
                           &exportPairsHeatmap});
    return true;
}();
} // namespace
} // namespace rl::cli
