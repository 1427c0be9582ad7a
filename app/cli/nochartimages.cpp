// A build without Qt (chartimages.h): no chart images, and the error says what does work.
#include "chartimages.h"

#include <stdexcept>

#include "clicommands.h"

namespace rl::cli {
bool chartImagesAvailable() { return false; }

std::string qtVersionLine() { return "Qt: none (built without Qt: no chart images or reports)"; }

std::string chartImagesMissing()
{
    return "this ridgeline-cli was built without Qt (RIDGELINE_GUI=OFF), so it draws no chart images or "
           "reports; write the chart's data with -o FILE.csv here, or run the same command with the Qt build";
}

void writeCollectiveChartImage(charts::ChartKind, const std::vector<charts::SessionCurves>&,
                               const charts::ChartOptions&, const std::string& path)
{
    throw std::runtime_error(path + ": " + chartImagesMissing());
}

void writeMoeSweepImage(const model::MoeSweepResult&, bool, const std::string& path)
{
    throw std::runtime_error(path + ": " + chartImagesMissing());
}

void writeGoodputChart(const resilience::ResiliencePlan&, bool, const std::string&, const std::string&,
                       const std::string& path)
{
    throw std::runtime_error(path + ": " + chartImagesMissing());
}

namespace {
// `report` draws its charts with Qt: here it is a command that says so, not an unknown word.
void addReportCommand(CLI::App& app, CliContext&)
{
    auto* cmd = app.add_subcommand("report", "Not in this build: reports need the Qt build of ridgeline-cli");
    // Whatever follows is the Qt build's report arguments: keep them here (no fallthrough to the
    // global options) so the answer is the reason, not a parse error.
    cmd->fallthrough(false);
    cmd->prefix_command();
    cmd->allow_extras();
    cmd->callback([] { throw std::runtime_error("report: " + chartImagesMissing()); });
}

const bool registered = registerCommand(&addReportCommand);
} // namespace
} // namespace rl::cli
