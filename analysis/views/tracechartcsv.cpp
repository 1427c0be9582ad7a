// The CSV rows behind the trace and training-log charts (tracechartdata.h): what the GUI's Export
// as CSV and `ridgeline-cli export --chart trace-*|trainlog*` write.
#include <cmath>
#include <sstream>

#include "io/csv.h"
#include "views/tracechartdata.h"

namespace rl::charts {
namespace {
constexpr int kSegments = static_cast<int>(StepSegment::Count);

// Missing values are empty cells.
std::string num(double v) { return std::isfinite(v) ? io::csvNumber(v) : std::string(); }

const char* csvColumn(TrainMetric m)
{
    switch (m) {
    case TrainMetric::Loss: return "loss";
    case TrainMetric::StepTime: return "step_time_ms";
    case TrainMetric::Throughput: return "tokens_per_s";
    case TrainMetric::Tflops: return "tflops_per_gpu";
    case TrainMetric::Mfu: return "mfu_percent";
    }
    return "value";
}
} // namespace

std::string stepBreakdownCsv(const TraceChartData& data, StepChartMode mode, int rank)
{
    std::ostringstream out;
    std::vector<std::string> header;
    if (mode == StepChartMode::PerStep) {
        header = {"step", "rank"};
        for (int i = 0; i < kSegments; ++i)
            header.push_back(segmentKey(StepSegment(i)));
        header.insert(header.end(), {"step_ms", "min_step_ms", "max_step_ms", "ranks"});
        io::writeCsvRow(out, header);
        const std::string rankCell = rank == kAllRanksMean ? "mean" : std::to_string(rank);
        for (const auto& b : stepBars(data.steps, rank)) {
            std::vector<std::string> row{std::to_string(b.step), rankCell};
            for (double v : b.segmentsMs)
                row.push_back(io::csvNumber(v));
            row.insert(row.end(), {io::csvNumber(b.stepMs), io::csvNumber(b.minStepMs), io::csvNumber(b.maxStepMs),
                                   std::to_string(b.ranks)});
            io::writeCsvRow(out, row);
        }
    } else {
        header = {"rank", "steps"};
        for (int i = 0; i < kSegments; ++i)
            header.push_back(segmentKey(StepSegment(i)));
        header.push_back("step_ms");
        io::writeCsvRow(out, header);
        for (const auto& t : rankTotals(data.steps, rank)) {
            std::vector<std::string> row{std::to_string(t.rank), std::to_string(t.steps)};
            for (double v : t.segmentsMs)
                row.push_back(io::csvNumber(v));
            row.push_back(io::csvNumber(t.stepMs));
            io::writeCsvRow(out, row);
        }
    }
    return out.str();
}

int timelineRank(const TraceChartData& data, int asked)
{
    for (const auto& e : data.timeline)
        if (e.rank == asked)
            return asked;
    return data.timeline.empty() ? 0 : data.timeline.front().rank;
}

std::vector<const TimelineEvent*> timelineEvents(const TraceChartData& data, int rank)
{
    std::vector<const TimelineEvent*> out;
    for (const auto& e : data.timeline)
        if (e.rank == rank)
            out.push_back(&e);
    return out;
}

std::string timelineCsv(const TraceChartData& data, int rank)
{
    std::ostringstream out;
    io::writeCsvRow(out, {"rank", "step", "stream", "class", "start_us", "duration_us", "name"});
    for (const auto* e : timelineEvents(data, timelineRank(data, rank)))
        io::writeCsvRow(out, {std::to_string(e->rank), std::to_string(e->step), std::to_string(e->stream),
                              toString(e->kernelClass), io::csvNumber(e->startUs), io::csvNumber(e->durUs), io::csvText(e->name)});
    return out.str();
}

std::string trainLogCsv(const TraceChartData& data, TrainMetric metric)
{
    std::ostringstream out;
    const MfuPeak peak = metric == TrainMetric::Mfu ? mfuPeakOf(data) : MfuPeak{};
    io::writeCsvRow(out, {"step", "segment", "redone", "wall_s", csvColumn(metric)});
    for (const auto& s : data.trainSteps)
        io::writeCsvRow(out, {std::to_string(s.step), std::to_string(s.segment), s.redone ? "1" : "0",
                              num(s.wallTimeS), num(trainMetricValue(s, metric, peak.tflops))});
    // A second table after a blank line: the events the chart marks.
    out << '\n';
    io::writeCsvRow(out, {"event", "event_step", "event_wall_s", "lost_s", "message"});
    for (const auto& e : data.trainEvents)
        io::writeCsvRow(out, {toString(e.kind), std::to_string(e.step), num(e.wallTimeS), num(e.lostS), e.message});
    // A third where the MFU is Ridgeline's, not the log's: what it was divided by.
    if (!peak.basis.empty()) {
        out << '\n';
        io::writeCsvRow(out, {"column", "basis"});
        io::writeCsvRow(out, {csvColumn(metric), io::csvText(peak.basis)});
    }
    return out.str();
}
} // namespace rl::charts
