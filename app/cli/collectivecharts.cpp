// `ridgeline-cli export SESSION... --chart bandwidth|latency|scaling|compare`: the collective
// charts, with --metric, the fit range and the scaling size. The data as CSV from
// analysis/views/collectivecsv.h in any build; the image by the GUI's own chart code (chartimages.h).
#include <climits>
#include <stdexcept>

#include "chartexporters.h"
#include "clicommands.h"
#include "chartimages.h"
#include "chartoutput.h"
#include "units/units.h"
#include "views/collectivecsv.h"

namespace rl::cli {
namespace {
std::int64_t sizeOption(const std::string& text, const char* option)
{
    const auto v = units::parseBytes(text);
    if (!v || *v < 0)
        throw UsageError(std::string("bad ") + option + " '" + text + "': use sizes like 8, 64K, 1M, 2G");
    return *v;
}

charts::ChartOptions optionsOf(const ChartExportRequest& r)
{
    const auto& f = r.collective;
    if (f.metric != "busbw" && f.metric != "algbw")
        throw UsageError("--metric is busbw or algbw, not '" + f.metric + "'");
    charts::ChartOptions o;
    o.metric = f.metric == "busbw" ? charts::BandwidthMetric::BusBw : charts::BandwidthMetric::AlgBw;
    o.showFits = !f.noFits;
    o.fitMinBytes = sizeOption(f.fitMin, "--fit-min");
    o.fitMaxBytes = f.fitMax.empty() ? INT64_MAX : sizeOption(f.fitMax, "--fit-max");
    o.scalingBytes = sizeOption(f.scalingSize, "--size");
    o.width = r.width;
    o.height = r.height;
    o.title = r.title;
    return o;
}

void exportCollective(const ChartExportRequest& r, charts::ChartKind kind)
{
    const auto o = optionsOf(r);
    // An image of the bandwidth or latency chart is drawn from a long session's outline as from every
    // point (store/collectiveoutline.h); the data (CSV) is every point.
    const auto part = charts::exportedPartFor(r.path);
    const auto read = part == charts::ExportedPart::Image && charts::drawnFromOutlines(kind)
                          ? charts::PointsRead::OutlineWhereStored
                          : charts::PointsRead::Every;
    const auto sessions = charts::loadSessionCurves(r.workspace, r.sessions, charts::MissingSession::Fail, {}, read);
    if (const std::string problem = charts::collectiveExportProblem(kind, sessions, part); !problem.empty())
        throw std::runtime_error(r.path + ": " + problem);
    writeChartOutput(r.path, [&] { return charts::collectiveCsv(kind, sessions, o); },
                     [&] { writeCollectiveChartImage(kind, sessions, o, r.path); });
}

template <charts::ChartKind K>
void exportKind(const ChartExportRequest& r)
{
    exportCollective(r, K);
}

const bool registered = [] {
    registerChartExporter({"bandwidth", "collective sessions: bus (or --metric algbw) bandwidth vs message size, "
                                        "with alpha-beta fits", &exportKind<charts::ChartKind::Bandwidth>});
    registerChartExporter({"latency", "collective sessions: time per call vs message size, with alpha-beta fits",
                           &exportKind<charts::ChartKind::Latency>});
    registerChartExporter({"scaling", "collective sessions: bandwidth at --size vs rank count",
                           &exportKind<charts::ChartKind::Scaling>});
    registerChartExporter({"compare", "two collective sessions: the ratio B / A per op and size",
                           &exportKind<charts::ChartKind::Compare>});
    return true;
}();
} // namespace
} // namespace rl::cli
