#pragma once
// Chart kinds of `ridgeline-cli export --chart KIND` beyond the collective charts (roofline, memory
// bandwidth, trace breakdown, ...) register here, each from its own file:
//   static const bool registered = rl::cli::registerChartExporter({"roofline", "...", &exportRoofline});
// The exporter runs with a QApplication in place; the file format follows the suffix of `path`
// (.png/.svg/.pdf for the image, .csv for its data). It throws std::runtime_error on failure.
// Exporters draw with the GUI's chart code, so only the Qt build registers any (chartimages.h).
#include <cstdint>
#include <string>
#include <vector>

namespace rl::store {
class Workspace;
}

namespace rl::cli {
struct CliContext;

struct ChartExportRequest
{
    store::Workspace& workspace;
    std::vector<std::int64_t> sessions;
    std::string path;
    int width = 1200;
    int height = 800;
    std::string title;          // empty: derived from the chart
    std::string hardware;       // --hardware: a profile name or file (two, comma-separated, for the roofline)
    std::string model;          // --model: a config whose predicted GEMMs the roofline draws
    std::string parallel;       // --parallel: the layout for --model
    const CliContext* context = nullptr; // for loading --model from the workspace's saved configs
};

struct ChartExporter
{
    std::string kind;
    std::string help; // one line for --help
    void (*run)(const ChartExportRequest& request);
};

bool registerChartExporter(const ChartExporter& exporter);
const ChartExporter* findChartExporter(const std::string& kind);
const std::vector<ChartExporter>& chartExporters();
} // namespace rl::cli
