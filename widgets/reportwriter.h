#pragma once
// Writes a report (analysis/report/report.h) as one self-contained HTML file (CSS inline, every
// chart as inline SVG, no remote resources: it opens offline) or as a PDF (QTextDocument printed by
// QPdfWriter, each chart drawn from the same SVG). The charts are drawn by their own export code
// (chartexport.h, rooflinechart.h, membwchart.h), exactly as `ridgeline-cli export --chart` draws
// them. Used by `ridgeline-cli report` and the GUI's File > Report….
//
// Three steps, so the GUI keeps its thread free: loadReportCharts reads the charts' points (any
// thread, its own Workspace), renderReportCharts draws them (the thread QtCharts lives on: the
// GUI thread, or ridgeline-cli's main), writeReport writes the file (any thread).
#include <cstdint>
#include <optional>
#include <vector>

#include <QByteArray>
#include <QString>
#include <QStringList>

#include "views/chartdata.h"
#include "views/kernelchartdata.h"
#include "views/tracechartdata.h"
#include "model/hardwareprofile.h"
#include "report/report.h"

namespace rl::store {
class Workspace;
}

namespace rl::charts {

// The points one chart of the report needs.
struct ReportChartData
{
    report::Chart chart;
    std::vector<SessionCurves> curves; // bandwidth, latency
    KernelChartData kernels;           // roofline, membw
    TraceChartData trace;              // trace-steps, trainlog-<metric>
};

// Every chart of the report, in section order.
std::vector<ReportChartData> loadReportCharts(store::Workspace& ws, const report::Report& r);

// The SVG of each chart (same order); a chart that cannot be drawn gives an empty entry and a line
// in *problems.
// predicted: the sizing model's GEMMs (predictedGemms()) for the charts that ask for them.
std::vector<QByteArray> renderReportCharts(const std::vector<ReportChartData>& charts,
                                           const std::optional<HardwareProfile>& hardware, QStringList* problems,
                                           const std::optional<GemmScatter>& predicted = std::nullopt);

// The HTML file: one document, <style> inline, the SVGs inline.
QString reportHtml(const report::Report& r, const std::vector<QByteArray>& svgs);

// By suffix: .html/.htm or .pdf. Writes to a temporary file renamed into place.
bool writeReport(const report::Report& r, const std::vector<QByteArray>& svgs, const QString& path, QString* error);
bool isReportPath(const QString& path); // .html, .htm or .pdf
} // namespace rl::charts
