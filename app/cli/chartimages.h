#pragma once
// The images ridgeline-cli draws with the GUI's own chart code. The Qt build compiles
// chartimages.cpp (and registers the other chart kinds, chartexporters.h); a build without Qt
// (RIDGELINE_GUI=OFF, as on a cluster node) compiles nochartimages.cpp, whose functions throw
// saying what that build writes instead: every chart's data as CSV, and every other command.
#include <string>
#include <vector>

#include "model/moesweep.h"
#include "resilience/resilienceplan.h"
#include "views/chartdata.h"

#ifdef RIDGELINE_CLI_CHARTS
#include <functional>

#include <QString>
QT_BEGIN_NAMESPACE
class QApplication;
QT_END_NAMESPACE
#endif

namespace rl::cli {
// False in a build without Qt.
bool chartImagesAvailable();
// Why a chart image cannot be drawn in this build ("" in the Qt build).
std::string chartImagesMissing();
// For --version: "Qt 6.4.2" (and the version built with, when it differs), or that there is none.
std::string qtVersionLine();

// The collective chart of sessions as PNG/SVG/PDF, by the suffix of path. Throws std::runtime_error.
void writeCollectiveChartImage(charts::ChartKind kind, const std::vector<charts::SessionCurves>& sessions,
                               const charts::ChartOptions& options, const std::string& path);
// The MoE explorer's scatter of a sweep (tokens/s or MFU against latency) as PNG/SVG/PDF.
void writeMoeSweepImage(const model::MoeSweepResult& sweep, bool mfu, const std::string& path);
// Goodput vs checkpoint interval with the optimum marked, or (vsNodes) goodput vs nodes, as
// PNG/SVG/PDF (widgets/goodputchart, as the GUI's Resilience view draws it); subject and basis
// name the model and where the inputs came from.
void writeGoodputChart(const resilience::ResiliencePlan& plan, bool vsNodes, const std::string& subject,
                       const std::string& basis, const std::string& path);

#ifdef RIDGELINE_CLI_CHARTS
// The one QApplication every chart drawn by ridgeline-cli needs (offscreen without a display).
QApplication& chartApplication();
// Runs a chart's export (PNG/SVG/PDF/CSV by suffix) with the application in place; throws the
// writer's error as std::runtime_error.
void drawChart(const std::string& path, const std::function<bool(const QString& path, QString* error)>& exportTo);
#endif
} // namespace rl::cli
