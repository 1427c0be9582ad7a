// Kernel table, collectives from NCCL/RCCL args, stragglers, roofline points, benchmark ratios.
#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "collectives/collectiveop.h"
#include "trace/traceanalysis.h"

namespace rl::trace {
namespace {
constexpr double kUsPerNs = 1e-3;

// PyTorch ScalarType names as the profiler records them ("Float", "Long", ...).
std::string torchDtype(std::string_view d)
{
    static const std::pair<const char*, const char*> table[] = {
        {"Float", "float32"}, {"Double", "float64"}, {"Half", "float16"},  {"BFloat16", "bfloat16"},
        {"Long", "int64"},    {"Int", "int32"},      {"Char", "int8"},     {"Byte", "uint8"},
        {"Bool", "uint8"},    {"Float8_e4m3fn", "fp8_e4m3"}, {"Float8_e4m3fnuz", "fp8_e4m3"},
        {"Float8_e5m2", "fp8_e5m2"}, {"Float8_e5m2fnuz", "fp8_e5m2"},
    };
    for (const auto& [k, v] : table)
        if (d == k)
            return v;
    return canonicalDtype(d);
}

// "allreduce", "_allgather_base", "all_gather_into_tensor_coalesced", "reduce_scatter_tensor",
// "all_to_allv", "send", "recv" -> the canonical op.
std::optional<CollectiveOp> torchCollective(std::string_view name)
{
    std::string s(name);
    while (!s.empty() && s.front() == '_')
        s.erase(0, 1);
    for (bool changed = true; changed;) {
        changed = false;
        for (const char* suffix : {"_coalesced", "_into_tensor", "_tensor", "_base"}) {
            const std::string_view sv(suffix);
            if (s.size() > sv.size() && s.ends_with(sv)) {
                s.resize(s.size() - sv.size());
                changed = true;
            }
        }
    }
    if (s == "send" || s == "recv" || s == "sendrecv")
        return CollectiveOp::SendRecv;
    if (s == "all_to_allv" || s == "alltoallv" || s == "alltoall_single" || s == "all_to_all_single")
        return CollectiveOp::AllToAll;
    return collectiveOpFromString(s);
}
} // namespace

std::vector<KernelStat> kernelStats(const TraceData& data, const std::vector<KernelClass>& classOfName)
{
    std::vector<KernelStat> byName(data.names.size());
    std::vector<bool> seen(data.names.size(), false);
    double total = 0;
    for (const auto& e : data.gpu) {
        if (e.category != EventCategory::Kernel)
            continue;
        auto& k = byName[e.name];
        const double us = double(e.durNs) * kUsPerNs;
        if (!seen[e.name]) {
            seen[e.name] = true;
            k.rank = data.rank;
            k.name = std::string(data.names.at(e.name));
            k.kernelClass = e.name < classOfName.size() ? classOfName[e.name] : KernelClass::Other;
            k.minUs = k.maxUs = us;
        }
        ++k.count;
        k.totalUs += us;
        k.minUs = std::min(k.minUs, us);
        k.maxUs = std::max(k.maxUs, us);
        k.flops += e.flops;
        k.bytes += e.bytes;
        total += us;
    }
    std::vector<KernelStat> out;
    for (std::size_t i = 0; i < byName.size(); ++i)
        if (seen[i]) {
            byName[i].share = total > 0 ? byName[i].totalUs / total : 0;
            out.push_back(std::move(byName[i]));
        }
    std::sort(out.begin(), out.end(), [](const KernelStat& a, const KernelStat& b) {
        return a.totalUs != b.totalUs ? a.totalUs > b.totalUs : a.name < b.name;
    });
    return out;
}

std::vector<TraceCollective> traceCollectives(const TraceData& data, std::vector<std::string>* notes)
{
    using Key = std::tuple<std::string, std::string, int, std::int64_t>;
    std::map<Key, TraceCollective> groups;
    std::map<std::string, int> unknown;
    for (const auto& e : data.gpu) {
        if (e.extra < 0)
            continue;
        const CollectiveArgs& a = data.collectiveArgs[static_cast<std::size_t>(e.extra)];
        const std::string_view name = data.names.at(a.name);
        const auto op = torchCollective(name);
        const std::string dtype = torchDtype(data.names.at(a.dtype));
        const auto size = dtypeSize(dtype);
        const std::int64_t nelems = std::max(a.inNelems, a.outNelems);
        if (!op || !size || nelems < 0) {
            ++unknown[std::string(name) + " (" + std::string(data.names.at(a.dtype)) + ")"];
            continue;
        }
        const int nranks = a.groupSize > 0 ? a.groupSize : data.worldSize;
        const std::int64_t bytes = nelems * *size;
        auto& g = groups[Key{toString(*op), dtype, nranks, bytes}];
        const double us = double(e.durNs) * kUsPerNs;
        if (g.count == 0) {
            g.rank = data.rank;
            g.op = toString(*op);
            g.dtype = dtype;
            g.nranks = nranks;
            g.bytes = bytes;
            g.minUs = us;
        }
        ++g.count;
        g.totalUs += us;
        g.minUs = std::min(g.minUs, us);
    }
    std::vector<TraceCollective> out;
    for (auto& [key, g] : groups) {
        const auto op = collectiveOpFromString(g.op);
        const double factor = op ? busFactor(*op, g.nranks) : 1.0;
        // bytes / µs = MB/s; / 1e3 -> GB/s
        g.algbwGBs = g.meanUs() > 0 ? double(g.bytes) / g.meanUs() / 1e3 : 0;
        g.busbwGBs = g.algbwGBs * factor;
        g.bestBusbwGBs = g.minUs > 0 ? double(g.bytes) / g.minUs / 1e3 * factor : 0;
        out.push_back(g);
    }
    if (notes)
        for (const auto& [what, n] : unknown)
            notes->push_back(std::to_string(n) + " collective kernels with unsupported op or dtype: " + what);
    return out;
}

std::vector<KernelStat> topKernels(const std::vector<KernelStat>& all, int rank, std::size_t n)
{
    std::vector<KernelStat> out;
    for (const auto& k : all)
        if (k.rank == rank)
            out.push_back(k);
    std::sort(out.begin(), out.end(), [](const KernelStat& a, const KernelStat& b) { return a.totalUs > b.totalUs; });
    if (out.size() > n)
        out.resize(n);
    return out;
}

StepShares stepShares(const StepBreakdown& b)
{
    StepShares s;
    s.commUnderComputeUs = std::clamp(b.overlapUs, 0.0, std::max(0.0, b.computeBusyUs));
    // Which class ran during a given microsecond of compute is not stored; kernel time per class
    // is, and it is the best guess at how the classes share the compute wall time.
    const double computeAlone = std::max(0.0, b.computeBusyUs - s.commUnderComputeUs);
    const double classUs = std::max(0.0, b.gemmUs) + std::max(0.0, b.attentionUs) + std::max(0.0, b.otherUs);
    if (classUs > 0) {
        s.gemmUs = computeAlone * std::max(0.0, b.gemmUs) / classUs;
        s.attentionUs = computeAlone * std::max(0.0, b.attentionUs) / classUs;
        s.otherUs = computeAlone * std::max(0.0, b.otherUs) / classUs;
    } else {
        s.otherUs = computeAlone;
    }
    s.exposedCommUs = std::max(0.0, b.exposedCommUs);
    s.memcpyAloneUs = std::max(0.0, b.gpuBusyUs - b.computeBusyUs - s.exposedCommUs);
    // The rest of the step; equal to the stored idleUs, and the sum is the step time by construction.
    s.idleUs = std::max(0.0, b.stepUs - (b.computeBusyUs + s.exposedCommUs + s.memcpyAloneUs));
    return s;
}

std::vector<StragglerStep> stragglers(const std::vector<StepBreakdown>& steps)
{
    std::map<std::int64_t, std::vector<const StepBreakdown*>> byStep;
    for (const auto& s : steps)
        byStep[s.step].push_back(&s);
    std::vector<StragglerStep> out;
    for (auto& [step, rows] : byStep) {
        if (rows.size() < 2)
            continue;
        std::sort(rows.begin(), rows.end(), [](auto* a, auto* b) { return a->stepUs < b->stepUs; });
        StragglerStep s;
        s.step = step;
        s.ranks = static_cast<int>(rows.size());
        s.minUs = rows.front()->stepUs;
        s.maxUs = rows.back()->stepUs;
        const std::size_t m = rows.size() / 2;
        s.medianUs = rows.size() % 2 ? rows[m]->stepUs : (rows[m - 1]->stepUs + rows[m]->stepUs) / 2;
        s.spreadUs = s.maxUs - s.minUs;
        s.spreadFraction = s.medianUs > 0 ? s.spreadUs / s.medianUs : 0;
        s.slowestRank = rows.back()->rank;
        out.push_back(s);
    }
    return out;
}

std::vector<RooflinePoint> rooflinePoints(const std::vector<KernelStat>& kernels)
{
    std::vector<RooflinePoint> out;
    for (const auto& k : kernels)
        if (k.flops > 0 && k.bytes > 0 && k.totalUs > 0)
            out.push_back({k.rank, k.name, k.kernelClass, k.flops / k.bytes, k.flops / (k.totalUs * 1e-6)});
    return out;
}

std::optional<CurveComparison> compareToBenchmark(const TraceCollective& c, const std::vector<CollectivePoint>& points)
{
    if (c.bytes <= 0 || c.busbwGBs <= 0)
        return std::nullopt;
    auto pick = [&](bool sameRanks) {
        std::map<std::int64_t, std::pair<double, int>> bySize; // mean busbw per size
        for (const auto& p : points)
            if (p.op == c.op && p.bytes > 0 && p.busbwGBs > 0 && (!sameRanks || p.nranks == c.nranks)) {
                auto& [sum, n] = bySize[p.bytes];
                sum += p.busbwGBs;
                ++n;
            }
        std::vector<std::pair<double, double>> curve;
        for (const auto& [bytes, acc] : bySize)
            curve.emplace_back(double(bytes), acc.first / acc.second);
        return curve;
    };
    CurveComparison out;
    auto curve = pick(true);
    out.sameRankCount = !curve.empty();
    if (curve.empty())
        curve = pick(false);
    if (curve.empty())
        return std::nullopt;
    const double x = double(c.bytes);
    if (x <= curve.front().first || x >= curve.back().first) {
        out.outsideRange = x < curve.front().first || x > curve.back().first;
        out.benchmarkBusbwGBs = x <= curve.front().first ? curve.front().second : curve.back().second;
    } else {
        const auto hi = std::lower_bound(curve.begin(), curve.end(), x,
                                         [](const auto& p, double v) { return p.first < v; });
        const auto lo = hi - 1;
        if (hi->first == x) {
            out.benchmarkBusbwGBs = hi->second;
        } else {
            const double t = (std::log(x) - std::log(lo->first)) / (std::log(hi->first) - std::log(lo->first));
            out.benchmarkBusbwGBs = std::exp(std::log(lo->second) + t * (std::log(hi->second) - std::log(lo->second)));
        }
    }
    out.ratio = out.benchmarkBusbwGBs > 0 ? c.busbwGBs / out.benchmarkBusbwGBs : 0;
    return out;
}

TraceAnalysis analyzeTrace(const TraceData& data, const KernelClassifier& classifier)
{
    TraceAnalysis a;
    const auto classes = classifyNames(data, classifier);
    a.steps = stepBreakdown(data, classes);
    a.kernels = kernelStats(data, classes);
    a.collectives = traceCollectives(data, &a.notes);
    bool truncated = false;
    a.timeline = stepTimeline(data, classes, a.steps, 20000, &truncated);
    if (truncated)
        a.notes.push_back("the timeline keeps the first 20000 GPU events of its step");
    if (data.steps.empty())
        a.notes.push_back("no ProfilerStep#N annotations: one window covers the whole trace (step -1)");
    if (data.gpu.empty())
        a.notes.push_back("no GPU activity in the trace (CPU-only profile?)");
    return a;
}
} // namespace rl::trace
