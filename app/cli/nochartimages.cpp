// A build without Qt (chartimages.h): no chart images, and the error says what does work.
#include "chartimages.h"

#include <stdexcept>

#include "clicommands.h"

namespace rl::cli {
namespace {
[[noreturn]] void noImage(const std::string& path) { throw std::runtime_error(path + ": " + chartImagesMissing()); }
} // namespace

bool chartImagesAvailable() { return false; }

std::string qtVersionLine() { return "Qt: none (built without Qt: no chart images or reports)"; }

std::string chartImagesMissing()
{
    return "image export needs the GUI build (this ridgeline-cli was built without Qt, RIDGELINE_GUI=OFF); "
           "-o FILE.csv writes the data";
}

void writeCollectiveChartImage(charts::ChartKind, const std::vector<charts::SessionCurves>&,
                               const charts::ChartOptions&, const std::string& path)
{
    noImage(path);
}
void writeMoeSweepImage(const model::MoeSweepResult&, bool, const ImageSize&, const std::string& path) { noImage(path); }
void writeGoodputChart(const resilience::ResiliencePlan&, bool, const std::string&, const std::string&, const ImageSize&,
                       const std::string& path)
{
    noImage(path);
}
void writeRooflineImage(const ChartExportRequest& r, const charts::KernelChartData&, const charts::RooflineOptions&)
{
    noImage(r.path);
}
void writeMemBwImage(const ChartExportRequest& r, const charts::KernelChartData&) { noImage(r.path); }
void writeGemmEfficiencyImage(const ChartExportRequest& r, const charts::KernelChartData&,
                              const charts::GemmEfficiencyOptions&)
{
    noImage(r.path);
}
void writeStepBreakdownImage(const ChartExportRequest& r, const charts::TraceChartData&, charts::StepChartMode)
{
    noImage(r.path);
}
void writeTimelineImage(const ChartExportRequest& r, const charts::TraceChartData&) { noImage(r.path); }
void writeTrainLogImage(const ChartExportRequest& r, const charts::TraceChartData&, charts::TrainMetric)
{
    noImage(r.path);
}
void writeStorageImage(const ChartExportRequest& r, const std::vector<storage::StorageSessionData>&, storage::StorageAxis)
{
    noImage(r.path);
}
void writePairsHeatmapImage(const ChartExportRequest& r, const views::PairsSessionData&) { noImage(r.path); }

namespace {
// `report` writes HTML/PDF through Qt (widgets/reportwriter: QTextDocument, QPdfWriter, the
// charts as SVG): here it is a command that says so and what this build offers, not an unknown word.
void addReportCommand(CLI::App& app, CliContext&)
{
    auto* cmd = app.add_subcommand("report", "Not in this build: reports need the GUI build of ridgeline-cli");
    // Whatever follows is the Qt build's report arguments: keep them here (no fallthrough to the
    // global options) so the answer is the reason, not a parse error.
    cmd->fallthrough(false);
    cmd->prefix_command();
    cmd->allow_extras();
    cmd->callback([] {
        throw std::runtime_error(
            "report needs the GUI build (this ridgeline-cli was built without Qt, RIDGELINE_GUI=OFF): the report's "
            "HTML/PDF writer and its charts are Qt code. Here, `export SESSION... --chart KIND -o FILE.csv` writes "
            "each chart's data and `results SESSION` prints the tables");
    });
}

const bool registered = registerCommand(&addReportCommand);
} // namespace
} // namespace rl::cli
