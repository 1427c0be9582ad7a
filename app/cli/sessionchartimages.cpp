// The Qt build's images of stored sessions' charts (chartimages.h), drawn by the GUI's own chart
// widgets' export code: roofline, memory bandwidth, GEMM efficiency, trace breakdown and timeline,
// training log, storage and the pairs heatmap.
#include "chartimages.h"

#include "gemmefficiencychart.h"
#include "membwchart.h"
#include "pairsheatmapchart.h"
#include "rooflinechart.h"
#include "stepbreakdownchart.h"
#include "storagechart.h"
#include "timelinechart.h"
#include "trainlogchart.h"

namespace rl::cli {
namespace {
QSize sizeOf(const ChartExportRequest& r) { return QSize(r.width, r.height); }
} // namespace

void writeRooflineImage(const ChartExportRequest& r, const charts::KernelChartData& data,
                        const charts::RooflineOptions& options)
{
    drawChart(r.path, [&](const QString& path, QString* error) {
        return charts::RooflineChart::exportChart(data, options, sizeOf(r), path, error);
    });
}

void writeMemBwImage(const ChartExportRequest& r, const charts::KernelChartData& data)
{
    charts::MemBwOptions o;
    o.title = r.title;
    drawChart(r.path, [&](const QString& path, QString* error) {
        return charts::MemBwChart::exportChart(data, o, sizeOf(r), path, error);
    });
}

void writeGemmEfficiencyImage(const ChartExportRequest& r, const charts::KernelChartData& data,
                              const charts::GemmEfficiencyOptions& options)
{
    drawChart(r.path, [&](const QString& path, QString* error) {
        return charts::GemmEfficiencyChart::exportChart(data, options, sizeOf(r), path, error);
    });
}

void writeStepBreakdownImage(const ChartExportRequest& r, const charts::TraceChartData& data,
                             charts::StepChartMode mode)
{
    charts::StepChartOptions o;
    o.mode = mode;
    o.title = r.title;
    drawChart(r.path, [&](const QString& path, QString* error) {
        return charts::StepBreakdownChart::exportChart(data, o, sizeOf(r), path, error);
    });
}

void writeTimelineImage(const ChartExportRequest& r, const charts::TraceChartData& data)
{
    charts::TimelineOptions o;
    o.title = r.title;
    drawChart(r.path, [&](const QString& path, QString* error) {
        return charts::TimelineChart::exportChart(data, o, sizeOf(r), path, error);
    });
}

void writeTrainLogImage(const ChartExportRequest& r, const charts::TraceChartData& data, charts::TrainMetric metric)
{
    charts::TrainChartOptions o;
    o.metric = metric;
    o.title = r.title;
    drawChart(r.path, [&](const QString& path, QString* error) {
        return charts::TrainLogChart::exportChart(data, o, sizeOf(r), path, error);
    });
}

void writeStorageImage(const ChartExportRequest& r, const std::vector<storage::StorageSessionData>& sessions,
                       storage::StorageAxis axis)
{
    charts::StorageChartOptions o;
    o.axis = axis;
    o.title = r.title;
    drawChart(r.path, [&](const QString& path, QString* error) {
        return charts::StorageChart::exportChart(sessions, o, sizeOf(r), path, error);
    });
}

void writePairsHeatmapImage(const ChartExportRequest& r, const views::PairsSessionData& data)
{
    charts::PairsHeatmapOptions o;
    o.title = r.title;
    drawChart(r.path, [&](const QString& path, QString* error) {
        return charts::PairsHeatmapChart::exportChart(data, o, sizeOf(r), path, error);
    });
}
} // namespace rl::cli
