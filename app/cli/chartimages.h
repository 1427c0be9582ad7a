#pragma once
// The chart images ridgeline-cli draws with the GUI's own chart code, headless. Every function
// takes Qt-free chart data (analysis/views) and writes PNG, SVG or PDF by the suffix of the path
// at the size asked for. The Qt build compiles chartimages.cpp and sessionchartimages.cpp; a build
// without Qt (RIDGELINE_GUI=OFF, as on a cluster node) compiles nochartimages.cpp, whose functions
// throw chartImagesMissing(): the data of every chart is still written as CSV (chartoutput.h).
#include <string>
#include <vector>

#include "chartexporters.h"
#include "model/moesweep.h"
#include "resilience/resilienceplan.h"
#include "views/chartdata.h"
#include "views/kernelchartdata.h"
#include "views/pairsheatmapdata.h"
#include "views/storagechartdata.h"
#include "views/tracechartdata.h"

#ifdef RIDGELINE_CLI_CHARTS
#include <functional>

#include <QString>
QT_BEGIN_NAMESPACE
class QApplication;
QT_END_NAMESPACE
#endif

namespace rl::cli {
struct ImageSize;

// False in a build without Qt.
bool chartImagesAvailable();
// Why a chart image cannot be drawn in this build ("" in the Qt build).
std::string chartImagesMissing();
// For --version: "Qt 6.4.2" (and the version built with, when it differs), or that there is none.
std::string qtVersionLine();

// The collective chart of sessions, sized by options.width/height.
void writeCollectiveChartImage(charts::ChartKind kind, const std::vector<charts::SessionCurves>& sessions,
                               const charts::ChartOptions& options, const std::string& path);
// The MoE explorer's scatter of a sweep (tokens/s or MFU against latency).
void writeMoeSweepImage(const model::MoeSweepResult& sweep, bool mfu, const ImageSize& size, const std::string& path);
// Goodput vs checkpoint interval with the optimum marked, or (vsNodes) goodput vs nodes
// (widgets/goodputchart, as the GUI's Resilience view draws it); subject and basis name the model
// and where the inputs came from.
void writeGoodputChart(const resilience::ResiliencePlan& plan, bool vsNodes, const std::string& subject,
                       const std::string& basis, const ImageSize& size, const std::string& path);

// The charts of stored sessions, at request.width x request.height to request.path, titled
// request.title (empty: derived).
void writeRooflineImage(const ChartExportRequest& request, const charts::KernelChartData& data,
                        const charts::RooflineOptions& options);
void writeMemBwImage(const ChartExportRequest& request, const charts::KernelChartData& data);
void writeGemmEfficiencyImage(const ChartExportRequest& request, const charts::KernelChartData& data,
                              const charts::GemmEfficiencyOptions& options);
void writeStepBreakdownImage(const ChartExportRequest& request, const charts::TraceChartData& data,
                             charts::StepChartMode mode);
void writeTimelineImage(const ChartExportRequest& request, const charts::TraceChartData& data);
void writeTrainLogImage(const ChartExportRequest& request, const charts::TraceChartData& data,
                        charts::TrainMetric metric);
void writeStorageImage(const ChartExportRequest& request, const std::vector<storage::StorageSessionData>& sessions,
                       storage::StorageAxis axis);
void writePairsHeatmapImage(const ChartExportRequest& request, const views::PairsSessionData& data);

#ifdef RIDGELINE_CLI_CHARTS
// The one QApplication every chart drawn by ridgeline-cli needs (offscreen without a display).
QApplication& chartApplication();
// Runs a chart's image export with the application in place; throws the writer's error as
// std::runtime_error.
void drawChart(const std::string& path, const std::function<bool(const QString& path, QString* error)>& exportTo);
#endif
} // namespace rl::cli
