#include "views/tracechartdata.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include "model/hardwareprofileloader.h"
#include "model/measuredrun.h"
#include "store/traceresults.h"
#include "store/workspace.h"
#include "trace/traceanalysis.h"
#include "trace/trainloganalysis.h"
#include "units/units.h"

namespace rl::charts {
namespace {
constexpr int kSegments = static_cast<int>(StepSegment::Count);

double numberParam(const nlohmann::json& params, const char* key, double fallback)
{
    const auto it = params.find(key);
    return it != params.end() && it->is_number() ? it->get<double>() : fallback;
}
} // namespace

std::vector<TraceChartData> loadTraceCharts(store::Workspace& workspace, const std::vector<std::int64_t>& ids)
{
    std::vector<TraceChartData> out;
    out.reserve(ids.size());
    for (const auto id : ids) {
        auto s = workspace.session(id);
        if (!s)
            throw std::runtime_error("no session " + std::to_string(id) + " in " + workspace.path());
        TraceChartData d;
        d.session = std::move(*s);
        auto& db = workspace.database();
        if (d.isTrace()) {
            d.steps = store::stepBreakdowns(db, id);
            d.kernels = store::kernelStats(db, id);
            d.collectives = store::traceCollectives(db, id);
            d.timeline = store::traceTimeline(db, id);
        } else if (d.isTrainingLog()) {
            d.trainSteps = store::trainSteps(db, id);
            d.trainEvents = store::trainEvents(db, id);
            const auto& p = d.session.params;
            if (p.contains("goodput")) {
                d.goodput = numberParam(p, "goodput", kNoValue);
                d.restarts = static_cast<int>(numberParam(p, "restarts", 0));
                d.stalls = static_cast<int>(numberParam(p, "stalls", 0));
            } else {
                // Older sessions without a stored summary: the analysis is deterministic, redo it.
                auto steps = d.trainSteps;
                auto events = d.trainEvents;
                const auto sum = trace::analyzeTrainLog(steps, events);
                d.goodput = sum.goodput;
                d.restarts = sum.restarts;
                d.stalls = sum.stalls;
            }
        }
        out.push_back(std::move(d));
    }
    return out;
}

const char* segmentName(StepSegment s)
{
    switch (s) {
    case StepSegment::Gemm: return "GEMM";
    case StepSegment::Attention: return "Attention";
    case StepSegment::Other: return "Other compute";
    case StepSegment::HiddenComm: return "Compute hiding communication";
    case StepSegment::Memcpy: return "Memcpy (no kernel running)";
    case StepSegment::ExposedComm: return "Exposed communication";
    case StepSegment::Idle: return "Idle";
    case StepSegment::Count: break;
    }
    return "?";
}

const char* segmentKey(StepSegment s)
{
    switch (s) {
    case StepSegment::Gemm: return "gemm_ms";
    case StepSegment::Attention: return "attention_ms";
    case StepSegment::Other: return "other_ms";
    case StepSegment::HiddenComm: return "compute_hiding_comm_ms";
    case StepSegment::Memcpy: return "memcpy_alone_ms";
    case StepSegment::ExposedComm: return "exposed_comm_ms";
    case StepSegment::Idle: return "idle_ms";
    case StepSegment::Count: break;
    }
    return "?";
}

void segmentsOf(const StepBreakdown& b, double (&out)[kSegments])
{
    const trace::StepShares s = trace::stepShares(b);
    out[int(StepSegment::Gemm)] = s.gemmUs / 1000;
    out[int(StepSegment::Attention)] = s.attentionUs / 1000;
    out[int(StepSegment::Other)] = s.otherUs / 1000;
    out[int(StepSegment::HiddenComm)] = s.commUnderComputeUs / 1000;
    out[int(StepSegment::Memcpy)] = s.memcpyAloneUs / 1000;
    out[int(StepSegment::ExposedComm)] = s.exposedCommUs / 1000;
    out[int(StepSegment::Idle)] = s.idleUs / 1000;
}

std::vector<int> ranksOf(const std::vector<StepBreakdown>& steps)
{
    std::vector<int> ranks;
    for (const auto& s : steps)
        ranks.push_back(s.rank);
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    return ranks;
}

std::vector<StepBar> stepBars(const std::vector<StepBreakdown>& steps, int rank)
{
    std::map<std::int64_t, StepBar> bars;
    for (const auto& b : steps) {
        auto [it, fresh] = bars.try_emplace(b.step);
        StepBar& bar = it->second;
        bar.step = b.step;
        const double ms = b.stepUs / 1000;
        bar.minStepMs = fresh ? ms : std::min(bar.minStepMs, ms);
        bar.maxStepMs = fresh ? ms : std::max(bar.maxStepMs, ms);
        ++bar.ranks;
        if (rank != kAllRanksMean && b.rank != rank)
            continue;
        double seg[kSegments];
        segmentsOf(b, seg);
        for (int i = 0; i < kSegments; ++i)
            bar.segmentsMs[i] += seg[i];
        bar.stepMs += ms;
    }
    std::vector<StepBar> out;
    for (auto& [step, bar] : bars) {
        if (rank == kAllRanksMean) {
            for (double& v : bar.segmentsMs)
                v /= bar.ranks;
            bar.stepMs /= bar.ranks;
        }
        out.push_back(bar);
    }
    if (rank != kAllRanksMean) // steps the chosen rank did not record have nothing to show
        std::erase_if(out, [&](const StepBar& b) {
            return std::none_of(steps.begin(), steps.end(),
                                [&](const StepBreakdown& s) { return s.rank == rank && s.step == b.step; });
        });
    return out;
}

std::vector<RankTotals> rankTotals(const std::vector<StepBreakdown>& steps, int rank)
{
    std::map<int, RankTotals> totals;
    for (const auto& b : steps) {
        if (rank != kAllRanksMean && b.rank != rank)
            continue;
        RankTotals& t = totals[b.rank];
        t.rank = b.rank;
        double seg[kSegments];
        segmentsOf(b, seg);
        for (int i = 0; i < kSegments; ++i)
            t.segmentsMs[i] += seg[i];
        t.stepMs += b.stepUs / 1000;
        ++t.steps;
    }
    std::vector<RankTotals> out;
    for (auto& [r, t] : totals)
        out.push_back(t);
    return out;
}

std::vector<KernelRow> kernelRows(const std::vector<KernelStat>& kernels, int rank, std::size_t limit)
{
    std::map<std::string, KernelRow> byName;
    double totalUs = 0;
    for (const auto& k : kernels) {
        if (rank != kAllRanksMean && k.rank != rank)
            continue;
        KernelRow& r = byName[k.name];
        r.name = k.name;
        r.kernelClass = k.kernelClass;
        r.count += k.count;
        r.totalMs += k.totalUs / 1000;
        totalUs += k.totalUs;
    }
    std::vector<KernelRow> rows;
    rows.reserve(byName.size());
    for (auto& [name, r] : byName) {
        r.meanUs = r.count ? r.totalMs * 1000 / double(r.count) : 0;
        r.sharePercent = totalUs > 0 ? r.totalMs * 1000 / totalUs * 100 : 0;
        rows.push_back(std::move(r));
    }
    std::stable_sort(rows.begin(), rows.end(), [](const KernelRow& a, const KernelRow& b) { return a.totalMs > b.totalMs; });
    if (limit && rows.size() > limit)
        rows.resize(limit);
    return rows;
}

const char* toString(TrainMetric m)
{
    switch (m) {
    case TrainMetric::Loss: return "loss";
    case TrainMetric::StepTime: return "steptime";
    case TrainMetric::Throughput: return "throughput";
    case TrainMetric::Tflops: return "tflops";
    case TrainMetric::Mfu: return "mfu";
    }
    return "?";
}

std::optional<TrainMetric> trainMetricFromString(const std::string& name)
{
    for (auto m : {TrainMetric::Loss, TrainMetric::StepTime, TrainMetric::Throughput, TrainMetric::Tflops,
                   TrainMetric::Mfu})
        if (name == toString(m))
            return m;
    return std::nullopt;
}

std::string trainMetricTitle(TrainMetric m)
{
    switch (m) {
    case TrainMetric::Loss: return "Loss";
    case TrainMetric::StepTime: return "Step time (ms)";
    case TrainMetric::Throughput: return "Throughput (tokens/s)";
    case TrainMetric::Tflops: return "Throughput per GPU (TFLOP/s)";
    case TrainMetric::Mfu: return "MFU (%)";
    }
    return "?";
}

double trainMetricValue(const TrainStep& s, TrainMetric m, double mfuPeakTflops)
{
    switch (m) {
    case TrainMetric::Loss: return s.loss;
    case TrainMetric::StepTime: return s.stepTimeMs;
    case TrainMetric::Throughput: return s.tokensPerSec;
    case TrainMetric::Tflops: return s.tflopsPerGpu;
    case TrainMetric::Mfu:
        if (std::isfinite(s.mfu) || !(mfuPeakTflops > 0))
            return s.mfu * 100;
        return s.tflopsPerGpu / mfuPeakTflops * 100;
    }
    return kNoValue;
}

MfuPeak mfuPeakOf(const TraceChartData& data)
{
    const bool needed = std::any_of(data.trainSteps.begin(), data.trainSteps.end(), [](const TrainStep& s) {
        return !std::isfinite(s.mfu) && std::isfinite(s.tflopsPerGpu);
    });
    if (!needed)
        return {};
    const model::MeasuredRun run = model::measuredRunOf(data.session);
    std::vector<std::string> ids;
    const auto profiles = availableHardwareProfiles();
    for (const auto& p : profiles)
        ids.push_back(p.id);
    const std::string id = model::matchHardwareProfile(run.device, ids);
    const auto profile = std::find_if(profiles.begin(), profiles.end(), [&](const HardwareProfile& p) { return p.id == id; });
    if (id.empty() || profile == profiles.end())
        return {};
    const auto peak = profile->peakTflops.find("bf16");
    if (peak == profile->peakTflops.end() || !(peak->second.value > 0))
        return {};
    const std::string value = units::formatFlops(peak->second.value * 1e12);
    return {peak->second.value, "MFU (% of " + profile->name + " bf16 peak, " + value + ")",
            "the log's TFLOP/s per GPU over the " + profile->name + "'s bf16 peak, " + value + " (datasheet; " +
                run.device + " from the " + run.deviceFrom + ")"};
}

WallUnit wallUnitFor(const std::vector<TrainStep>& steps)
{
    double span = 0;
    for (const auto& s : steps)
        if (std::isfinite(s.wallTimeS))
            span = std::max(span, s.wallTimeS);
    if (span > 3 * 3600.0)
        return {3600, "h"};
    if (span > 600)
        return {60, "min"};
    return {1, "s"};
}

double trainX(const TrainStep& s, TrainXAxis axis, WallUnit unit)
{
    return axis == TrainXAxis::Step ? double(s.step) : s.wallTimeS / unit.seconds;
}

std::vector<TrainSegment> trainSegments(const std::vector<TrainStep>& steps, TrainMetric m, TrainXAxis axis,
                                        double mfuPeakTflops)
{
    const WallUnit unit = wallUnitFor(steps);
    std::vector<TrainSegment> out;
    for (const auto& s : steps) {
        if (out.empty() || out.back().segment != s.segment)
            out.push_back({s.segment, {}});
        const double x = trainX(s, axis, unit), y = trainMetricValue(s, m, mfuPeakTflops);
        if (std::isfinite(x) && std::isfinite(y))
            out.back().points.push_back({x, y, s.step});
    }
    std::erase_if(out, [](const TrainSegment& t) { return t.points.empty(); });
    return out;
}

double eventX(const TrainEvent& e, TrainXAxis axis, WallUnit unit)
{
    return axis == TrainXAxis::Step ? double(e.step) : e.wallTimeS / unit.seconds;
}
StepSegment segmentOfClass(KernelClass c)
{
    switch (c) {
    case KernelClass::Gemm: return StepSegment::Gemm;
    case KernelClass::Attention: return StepSegment::Attention;
    case KernelClass::Communication: return StepSegment::ExposedComm;
    case KernelClass::Memcpy: return StepSegment::Memcpy;
    case KernelClass::Other: return StepSegment::Other;
    }
    return StepSegment::Other;
}
} // namespace rl::charts
