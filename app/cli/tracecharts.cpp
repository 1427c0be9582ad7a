// `ridgeline-cli export SESSION --chart KIND` for trace and training-log sessions: the step
// breakdown of a Kineto trace (per step, mean over ranks; or summed over steps per rank), its
// timeline of one step per stream, and a
// training log's loss, step time, throughput, TFLOP/s or MFU with its restarts and stalls. The data
// as CSV from analysis/views/tracechartdata.h in any build; the image by the GUI's own chart code
// (chartimages.h).
#include <stdexcept>

#include "chartexporters.h"
#include "chartimages.h"
#include "chartoutput.h"
#include "views/tracechartdata.h"

namespace rl::cli {
namespace {
charts::TraceChartData loadOne(const ChartExportRequest& r, const char* wantedKind, const std::string& chart)
{
    if (r.sessions.size() != 1)
        throw std::runtime_error("--chart " + chart + " draws one session, got " + std::to_string(r.sessions.size()));
    auto data = std::move(charts::loadTraceCharts(r.workspace, r.sessions).front());
    if (data.session.kind != wantedKind)
        throw std::runtime_error("session " + std::to_string(data.session.id) + " is a '" + data.session.kind
                                 + "' session; --chart " + chart + " needs a '" + wantedKind + "' session");
    return data;
}

void exportSteps(const ChartExportRequest& r, charts::StepChartMode mode, const std::string& chart)
{
    const auto data = loadOne(r, kind::Trace, chart);
    writeChartOutput(r.path, [&] { return charts::stepBreakdownCsv(data, mode); },
                     [&] { writeStepBreakdownImage(r, data, mode); });
}

void exportTrainLog(const ChartExportRequest& r, charts::TrainMetric metric, const std::string& chart)
{
    const auto data = loadOne(r, kind::TrainingLog, chart);
    writeChartOutput(r.path, [&] { return charts::trainLogCsv(data, metric); },
                     [&] { writeTrainLogImage(r, data, metric); });
}

void exportTimeline(const ChartExportRequest& r)
{
    const auto data = loadOne(r, kind::Trace, "trace-timeline");
    writeChartOutput(r.path, [&] { return charts::timelineCsv(data); }, [&] { writeTimelineImage(r, data); });
}

// Exporters are plain function pointers, so one small function per kind.
template <charts::TrainMetric M>
void trainLog(const ChartExportRequest& r)
{
    exportTrainLog(r, M, std::string("trainlog-") + charts::toString(M));
}

const bool registered = [] {
    registerChartExporter({"trace-steps", "trace: per-step time by kernel class, mean over ranks, with the slowest "
                                          "and fastest rank",
                           [](const ChartExportRequest& r) { exportSteps(r, charts::StepChartMode::PerStep, "trace-steps"); }});
    registerChartExporter({"trace-totals", "trace: time by kernel class summed over steps, one bar per rank",
                           [](const ChartExportRequest& r) { exportSteps(r, charts::StepChartMode::Totals, "trace-totals"); }});
    registerChartExporter({"trace-timeline", "trace: the representative step of the first rank, one lane per GPU "
                                             "stream, every kernel a bar (ms)",
                           &exportTimeline});
    registerChartExporter({"trainlog", "training log: loss per step with restarts and stalls (= trainlog-loss)",
                           [](const ChartExportRequest& r) { exportTrainLog(r, charts::TrainMetric::Loss, "trainlog"); }});
    registerChartExporter({"trainlog-loss", "training log: loss per step", &trainLog<charts::TrainMetric::Loss>});
    registerChartExporter({"trainlog-steptime", "training log: step time (ms) per step",
                           &trainLog<charts::TrainMetric::StepTime>});
    registerChartExporter({"trainlog-throughput", "training log: tokens/s per step",
                           &trainLog<charts::TrainMetric::Throughput>});
    registerChartExporter({"trainlog-tflops", "training log: TFLOP/s per GPU per step",
                           &trainLog<charts::TrainMetric::Tflops>});
    registerChartExporter({"trainlog-mfu", "training log: MFU (%) per step", &trainLog<charts::TrainMetric::Mfu>});
    return true;
}();
} // namespace
} // namespace rl::cli
