#pragma once
// Every chart kind of `ridgeline-cli export --chart KIND` registers here, each from its own file:
//   static const bool registered = rl::cli::registerChartExporter({"roofline", "...", &exportRoofline});
// Exporters are Qt-free and built in every ridgeline-cli: they load and check the sessions, then
// writeChartOutput (chartoutput.h) writes the data as CSV or draws the image through
// chartimages.h, which only the Qt build can (a build without Qt says so). They throw
// std::runtime_error on failure.
#include <cstdint>
#include <string>
#include <vector>

namespace rl::store {
class Workspace;
}

namespace rl::cli {
struct CliContext;

// The collective charts' own flags, as typed (parsed by the collective exporter).
struct CollectiveFlags
{
    std::string metric = "busbw";
    bool noFits = false;
    std::string fitMin = "0", fitMax, scalingSize = "256M";
};

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
    CollectiveFlags collective; // bandwidth, latency, scaling, compare
};

struct ChartExporter
{
    std::string kind;
    std::string help; // one line for --help
    void (*run)(const ChartExportRequest& request);
};

bool registerChartExporter(const ChartExporter& exporter);
const ChartExporter* findChartExporter(const std::string& kind);
// In registration order within a file; files in link order.
const std::vector<ChartExporter>& chartExporters();
} // namespace rl::cli
