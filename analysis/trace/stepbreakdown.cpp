// Per-step breakdown: the CPU ProfilerStep#N annotation is the window; GPU activity is clipped to it.
#include <algorithm>
#include <climits>

#include "trace/intervals.h"
#include "trace/traceanalysis.h"

namespace rl::trace {
namespace {
constexpr double kUsPerNs = 1e-3;

KernelClass classOf(const GpuEvent& e, const std::vector<KernelClass>& classOfName)
{
    if (e.category != EventCategory::Kernel)
        return KernelClass::Memcpy;
    return e.name < classOfName.size() ? classOfName[e.name] : KernelClass::Other;
}
} // namespace

std::vector<KernelClass> classifyNames(const TraceData& data, const KernelClassifier& classifier)
{
    std::vector<KernelClass> out(data.names.size(), KernelClass::Other);
    std::vector<bool> used(data.names.size(), false);
    for (const auto& e : data.gpu)
        if (e.category == EventCategory::Kernel)
            used[e.name] = true;
    for (std::uint32_t i = 0; i < out.size(); ++i)
        if (used[i])
            out[i] = classifier.classify(data.names.at(i));
    return out;
}

std::vector<StepBreakdown> stepBreakdown(const TraceData& data, const std::vector<KernelClass>& classOfName)
{
    std::vector<GpuEvent> events = data.gpu;
    std::sort(events.begin(), events.end(), [](const GpuEvent& a, const GpuEvent& b) { return a.startNs < b.startNs; });
    std::int64_t maxDur = 0;
    for (const auto& e : events)
        maxDur = std::max(maxDur, e.durNs);

    std::vector<StepMarker> windows = data.steps;
    if (windows.empty()) {
        if (events.empty())
            return {};
        std::int64_t lo = events.front().startNs, hi = lo;
        for (const auto& e : events)
            hi = std::max(hi, e.startNs + e.durNs);
        windows.push_back({-1, lo, hi - lo});
    }

    std::vector<StepBreakdown> out;
    std::vector<Interval> compute, comm, all;
    for (const auto& w : windows) {
        const std::int64_t wb = w.startNs, we = w.startNs + w.durNs;
        StepBreakdown s;
        s.rank = data.rank;
        s.step = w.step;
        s.startUs = double(wb) * kUsPerNs;
        s.stepUs = double(w.durNs) * kUsPerNs;
        compute.clear();
        comm.clear();
        all.clear();
        double byClass[5] = {};
        auto it = std::lower_bound(events.begin(), events.end(), wb - maxDur,
                                   [](const GpuEvent& e, std::int64_t t) { return e.startNs < t; });
        for (; it != events.end() && it->startNs < we; ++it) {
            Interval iv{it->startNs, it->startNs + it->durNs};
            if (!clip(iv, wb, we))
                continue;
            const KernelClass k = classOf(*it, classOfName);
            byClass[static_cast<int>(k)] += double(iv.end - iv.begin);
            all.push_back(iv);
            if (k == KernelClass::Communication)
                comm.push_back(iv);
            else if (k != KernelClass::Memcpy)
                compute.push_back(iv);
            if (it->category == EventCategory::Kernel)
                ++s.kernelCount;
        }
        const auto computeU = unionOf(std::move(compute));
        const auto commU = unionOf(std::move(comm));
        const auto allU = unionOf(std::move(all));
        s.gemmUs = byClass[static_cast<int>(KernelClass::Gemm)] * kUsPerNs;
        s.attentionUs = byClass[static_cast<int>(KernelClass::Attention)] * kUsPerNs;
        s.communicationUs = byClass[static_cast<int>(KernelClass::Communication)] * kUsPerNs;
        s.memcpyUs = byClass[static_cast<int>(KernelClass::Memcpy)] * kUsPerNs;
        s.otherUs = byClass[static_cast<int>(KernelClass::Other)] * kUsPerNs;
        const std::int64_t commBusy = totalLength(commU);
        const std::int64_t overlap = intersectionLength(commU, computeU);
        const std::int64_t busy = totalLength(allU);
        s.computeBusyUs = double(totalLength(computeU)) * kUsPerNs;
        s.communicationBusyUs = double(commBusy) * kUsPerNs;
        s.overlapUs = double(overlap) * kUsPerNs;
        s.exposedCommUs = double(commBusy - overlap) * kUsPerNs;
        s.gpuBusyUs = double(busy) * kUsPerNs;
        s.idleUs = double(w.durNs - busy) * kUsPerNs;
        compute = {};
        comm = {};
        all = {};
        out.push_back(s);
    }
    return out;
}
std::vector<TimelineEvent> stepTimeline(const TraceData& data, const std::vector<KernelClass>& classOfName,
                                        const std::vector<StepBreakdown>& breakdown, std::size_t maxEvents,
                                        bool* truncated)
{
    std::int64_t step = -1, begin = INT64_MIN, end = INT64_MAX;
    // Only steps with GPU work are candidates: the profiler's last ProfilerStep is often a short
    // stub with none (the ROCm MI250 sample's step 2 is 49 us and empty), and with two steps the
    // lower median would be that stub. The breakdown has one row per step marker, in order.
    std::vector<StepMarker> byDuration;
    for (std::size_t i = 0; i < data.steps.size() && i < breakdown.size(); ++i)
        if (breakdown[i].gpuBusyUs > 0)
            byDuration.push_back(data.steps[i]);
    if (!byDuration.empty()) {
        std::sort(byDuration.begin(), byDuration.end(), [](const StepMarker& a, const StepMarker& b) {
            return a.durNs != b.durNs ? a.durNs < b.durNs : a.step < b.step;
        });
        const auto& median = byDuration[(byDuration.size() - 1) / 2];
        step = median.step;
        begin = median.startNs;
        end = median.startNs + median.durNs;
    } else if (!data.gpu.empty()) {
        begin = INT64_MAX;
        for (const auto& e : data.gpu)
            begin = std::min(begin, e.startNs);
    }
    std::vector<const GpuEvent*> inside;
    for (const auto& e : data.gpu)
        if (e.category != EventCategory::GpuAnnotation && e.startNs < end && e.startNs + e.durNs > begin)
            inside.push_back(&e);
    std::sort(inside.begin(), inside.end(), [](const GpuEvent* a, const GpuEvent* b) { return a->startNs < b->startNs; });
    if (truncated)
        *truncated = inside.size() > maxEvents;
    if (inside.size() > maxEvents)
        inside.resize(maxEvents);
    std::vector<TimelineEvent> out;
    out.reserve(inside.size());
    for (const auto* e : inside)
        out.push_back({data.rank, step, e->stream, std::string(data.names.at(e->name)), classOf(*e, classOfName),
                       double(e->startNs - begin) * kUsPerNs, double(e->durNs) * kUsPerNs});
    return out;
}
} // namespace rl::trace
