#include "model/measuredprofile.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "fits/median.h"
#include "kernels/cacheplateaus.h"
#include "model/hardwareprofileloader.h"
#include "records/session.h"
#include "store/kernelresults.h"
#include "store/workspace.h"

namespace rl {
namespace {

std::string sessionText(std::int64_t id)
{
    return "session " + std::to_string(id);
}

Session requireSession(store::Workspace& ws, std::int64_t id, std::initializer_list<std::string_view> kinds,
                       const std::string& role)
{
    const auto s = ws.session(id);
    if (!s)
        throw ProfileError(role + ": " + sessionText(id) + " does not exist");
    for (auto k : kinds)
        if (s->kind == k)
            return *s;
    std::string wanted;
    for (auto k : kinds)
        wanted += (wanted.empty() ? "" : " or ") + std::string(k);
    throw ProfileError(role + ": " + sessionText(id) + " is of kind " + s->kind + ", not " + wanted);
}

// A session that ran on a GPU says so in the probe's header ("device": "cuda").
bool ranOnGpu(const Session& s)
{
    return s.params.value("device", std::string()) == "cuda";
}

// Each returns how many records it read, so an empty session is refused even over a base profile.
std::size_t addPeakFlops(HardwareProfile& hw, store::Database& db, std::int64_t id)
{
    const auto points = store::peakFlopsPoints(db, id);
    for (const auto& p : points) {
        auto& slot = hw.peakTflops[profileDtype(p.dtype)];
        if (p.gflops / 1e3 > slot.value || slot.source.rfind("measured", 0) != 0)
            slot = {p.gflops / 1e3, "measured: " + sessionText(id) + " (peakflops, " + std::to_string(p.threads) +
                                        " threads, " + p.isa + ")"};
    }
    return points.size();
}

// The best GEMM per dtype is what the device achieves: the max-achievable figure (the GEMM
// efficiency cap). The datasheet peak stays the base's (MFU is quoted against it); without a base
// the peak is the measured best too, and says so.
std::size_t addGemmBest(HardwareProfile& hw, store::Database& db, std::int64_t id, bool haveBase)
{
    std::map<std::string, GemmPoint> best;
    const auto points = store::gemmPoints(db, id);
    for (const auto& p : points) {
        auto& b = best[profileDtype(p.dtype)];
        if (p.gflops > b.gflops)
            b = p;
    }
    for (const auto& [dtype, p] : best) {
        const std::string shape = std::to_string(p.m) + "x" + std::to_string(p.n) + "x" + std::to_string(p.k);
        const Sourced measured{p.gflops / 1e3, "measured: " + sessionText(id) + " (best GEMM of the sweep, " + dtype +
                                                   " " + shape + (p.device.empty() ? "" : " on " + p.device) + ")"};
        hw.maxAchievableTflops[dtype] = measured;
        auto peak = hw.peakTflops.find(dtype);
        if (peak == hw.peakTflops.end() || !haveBase || peak->second.value < measured.value)
            hw.peakTflops[dtype] = {measured.value, measured.source + "; no datasheet peak" +
                                                        (haveBase ? " above it in the base profile" : " (no base profile)")};
    }
    return points.size();
}

// Plateaus of the sweep at its highest thread count: the stored ceilings where the runner found
// them (CPU, with the cache sizes), else found here in the points (a GPU sweep or an imported
// STREAM run), the last level named by its cache size when the session states it.
std::vector<MemCeiling> memoryCeilings(store::Database& db, const Session& s)
{
    auto ceilings = store::memCeilings(db, s.id);
    if (!ceilings.empty())
        return ceilings;
    const auto points = store::memBwPoints(db, s.id);
    int threads = 0;
    bool haveTriad = false;
    for (const auto& p : points) {
        threads = std::max(threads, p.threads);
        haveTriad = haveTriad || p.kernel == "triad";
    }
    std::vector<kernels::CacheLevel> caches;
    if (const auto llc = s.params.value("last_level_cache_bytes", std::int64_t{0}); llc > 0)
        caches.push_back({2, llc, 1});
    kernels::PlateauOptions options;
    options.threads = threads;
    options.kernel = haveTriad || points.empty() ? "triad" : points.front().kernel;
    return kernels::detectPlateaus(points, caches, options);
}

// A GPU sweep's levels, by the last-level cache size its header states: L2 is the best triad whose
// working set fits the cache (below that size launches and the ramp-up dominate, and the plateau
// is only a few points wide: on an H200 24-33 MB of its 60 MB), HBM the median triad of the working
// sets past 4x the cache. Empty when the header has no cache size or the sweep no triad past it.
std::vector<MemCeiling> gpuCeilings(const std::vector<MemBwPoint>& points, std::int64_t llc)
{
    if (llc <= 0)
        return {};
    MemCeiling l2{"L2", "triad", 0, 0, llc, 0};
    std::vector<double> beyond;
    std::int64_t from = 0, to = 0;
    for (const auto& p : points) {
        if (p.kernel != "triad")
            continue;
        if (p.bytes <= llc && p.bandwidthGBs > l2.bandwidthGBs) {
            l2.bandwidthGBs = p.bandwidthGBs;
            l2.fromBytes = p.bytes;
        } else if (p.bytes >= 4 * llc) {
            beyond.push_back(p.bandwidthGBs);
            from = from == 0 ? p.bytes : std::min(from, p.bytes);
            to = std::max(to, p.bytes);
        }
    }
    if (beyond.empty())
        return {};
    const double median = fits::median(std::move(beyond));
    std::vector<MemCeiling> out;
    if (l2.bandwidthGBs > median)
        out.push_back(l2);
    out.push_back({"DRAM", "triad", 0, from, to, median});
    return out;
}

void addMemory(HardwareProfile& hw, store::Database& db, const Session& s)
{
    const bool gpu = ranOnGpu(s);
    auto ceilings = gpu ? gpuCeilings(store::memBwPoints(db, s.id), s.params.value("last_level_cache_bytes", std::int64_t{0}))
                        : std::vector<MemCeiling>{};
    const bool byCache = !ceilings.empty();
    if (!byCache)
        ceilings = memoryCeilings(db, s);
    int threads = 0;
    for (const auto& c : ceilings)
        threads = std::max(threads, c.threads);
    std::vector<MemoryLevel> levels;
    for (const auto& c : ceilings) {
        if (c.threads != threads)
            continue;
        const std::string level = gpu && c.level == "DRAM" ? "HBM" : c.level;
        std::string src = "measured: " + sessionText(s.id) + " (membw " + c.kernel;
        if (gpu)
            src += ", " + s.params.value("device_name", std::string("GPU")) +
                   (!byCache            ? ""
                    : c.level == "L2" ? ": best at a working set within the L2"
                                      : ": median past 4x the L2") +
                   ")";
        else
            src += ", " + std::to_string(c.threads) + " threads)";
        levels.push_back({level, c.bandwidthGBs, static_cast<double>(c.toBytes), src});
        if (c.level == "DRAM")
            hw.hbmBandwidthGBs = {c.bandwidthGBs, src};
    }
    if (levels.empty())
        throw ProfileError(sessionText(s.id) + ": no memory-bandwidth plateaus in its points");
    std::sort(levels.begin(), levels.end(),
              [](const MemoryLevel& a, const MemoryLevel& b) { return a.bandwidthGBs > b.bandwidthGBs; });
    hw.memoryLevels = std::move(levels); // the measured levels replace the base's datasheet ones
}

// What the probe's header measured of the device itself: memory capacity and multiprocessors.
void addDeviceFacts(HardwareProfile& hw, const Session& s)
{
    if (!ranOnGpu(s))
        return;
    const std::string how = "measured: " + sessionText(s.id) + " (torch.cuda.get_device_properties)";
    if (const double bytes = s.params.value("device_memory_bytes", 0.0); bytes > 0)
        hw.hbmCapacityGB = {bytes / 1e9, how};
    if (const double sms = s.params.value("multiprocessors", 0.0); sms > 0)
        hw.computeUnits = {sms, how};
    hw.gpusPerNode = std::max(hw.gpusPerNode, s.params.value("device_count", 1));
}

void addAttention(HardwareProfile& hw, const Session& s)
{
    const auto& records = s.params.value("attention", nlohmann::json::array());
    // backend -> head dim -> rates
    std::map<std::string, std::map<int, AttentionKernelRates>> kernels;
    for (const auto& r : records) {
        const std::string backend = r.value("backend", std::string());
        const int headDim = r.value("head_dim", 0);
        const double tflops = r.value("tflops", 0.0);
        const double seq = r.value("seq", 0.0);
        if (backend.empty() || headDim <= 0 || !(tflops > 0) || !(seq > 0))
            continue;
        auto& k = kernels[backend][headDim];
        k.name = backend;
        k.headDim = headDim;
        const bool causal = r.value("causal", false);
        const bool backward = r.value("pass", std::string()) == "backward";
        if (backward && causal)
            continue; // the model derives the causal backward from the non-causal one (attentionkernel.h)
        auto& curve = backward ? k.backward : causal ? k.forwardCausal : k.forward;
        curve.emplace_back(seq, tflops);
        k.source = "measured: " + sessionText(s.id) + " (ridgeline-probe attention, scaled_dot_product_attention " +
                   backend + " backend, " + r.value("dtype", std::string("bfloat16")) + ", head dim " +
                   std::to_string(headDim) + ", " + std::to_string(r.value("batch", 0) * r.value("seq", 0)) +
                   " tokens per case)";
    }
    for (auto& [backend, byHeadDim] : kernels) {
        AttentionKernel sets;
        for (auto& [headDim, k] : byHeadDim) {
            if (k.forward.empty() || k.backward.empty())
                continue; // the model needs both passes
            for (auto* curve : {&k.forward, &k.forwardCausal, &k.backward})
                std::sort(curve->begin(), curve->end());
            sets.push_back(std::move(k));
        }
        if (!sets.empty())
            hw.attentionKernels[backend] = std::move(sets);
    }
    if (kernels.empty())
        throw ProfileError(sessionText(s.id) + ": no attention records (the probe skipped every backend, or the "
                                               "session was not kept from a probe run)");
}
// nccl-tests' busbw is the figure to hold against the link bandwidth (PERFORMANCE.md): the best
// all_reduce busbw at the sweep's largest sizes (the top quarter of its size range in log terms, so
// a single lucky small message does not set it).
void addLink(HardwareProfile& hw, store::Workspace& ws, const Session& s)
{
    const auto points = ws.collectivePoints(s.id);
    std::int64_t largest = 0;
    int ranks = 0;
    for (const auto& p : points)
        if (p.op == "all_reduce") {
            largest = std::max(largest, p.bytes);
            ranks = std::max(ranks, p.nranks);
        }
    if (largest == 0)
        throw ProfileError(sessionText(s.id) + ": no all_reduce points to take the link bandwidth from");
    if (ranks < 2)
        throw ProfileError(sessionText(s.id) + ": an all_reduce of one rank moves nothing over a link; measure 2 or more "
                                               "GPUs of one node");
    if (s.params.value("nodes", 1) > 1)
        throw ProfileError(sessionText(s.id) + ": spans several nodes; the intra-node link needs a run within one node");
    const double floorBytes = std::pow(2.0, std::log2(static_cast<double>(largest)) * 0.75);
    double best = 0;
    std::int64_t at = 0;
    for (const auto& p : points)
        if (p.op == "all_reduce" && p.nranks == ranks && p.bytes >= floorBytes && p.busbwGBs > best) {
            best = p.busbwGBs;
            at = p.bytes;
        }
    hw.intraNodeLinkGBs = {best, "measured: " + sessionText(s.id) + " (all_reduce busbw, " + std::to_string(ranks) +
                                     " ranks, " + std::to_string(at) + " B)"};
}
} // namespace

HardwareProfile buildMeasuredProfile(store::Workspace& ws, const MeasuredProfileSources& from)
{
    HardwareProfile hw;
    const bool haveBase = !from.base.empty();
    if (haveBase) {
        hw = findHardwareProfile(from.base);
        hw.notes = "Measured figures over the base profile '" + hw.id + "' (" + hw.name +
                   "): what was not measured keeps the base's source.";
        hw.name += " (measured)";
    } else {
        hw.name = "This machine (measured)";
        hw.vendor = "measured";
        hw.gpusPerNode = 1;
    }
    hw.id = "this-machine";
    hw.measured = true;

    const Session compute = requireSession(ws, from.compute, {kind::PeakFlops, kind::Gemm}, "compute");
    const std::size_t read = compute.kind == kind::PeakFlops ? addPeakFlops(hw, ws.database(), compute.id)
                                                              : addGemmBest(hw, ws.database(), compute.id, haveBase);
    if (read == 0)
        throw ProfileError(sessionText(compute.id) + ": no " + compute.kind + " records");
    addDeviceFacts(hw, compute);

    const Session memory = requireSession(ws, from.memory, {kind::MemBandwidth}, "memory");
    addMemory(hw, ws.database(), memory);

    if (from.attention > 0)
        addAttention(hw, requireSession(ws, from.attention, {kind::Attention}, "attention"));
    if (from.collectives > 0)
        addLink(hw, ws, requireSession(ws, from.collectives, {kind::Collectives}, "collectives"));
    return hw;
}
} // namespace rl
