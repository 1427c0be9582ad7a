#include "views/kernelchartdata.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "io/csv.h"
#include "model/hardwareprofileloader.h"
#include "model/roofline.h"
#include "store/kernelresults.h"
#include "store/traceresults.h"
#include "store/workspace.h"
#include "units/units.h"

namespace rl::charts {
namespace {
std::string fixed3(double v)
{
    std::ostringstream s;
    s.precision(3);
    s << v;
    return s.str();
}

const char* originName(CeilingOrigin o)
{
    return o == CeilingOrigin::Measured ? "measured" : o == CeilingOrigin::Profile ? "profile" : "second profile";
}

// Runs Ridgeline started (ridgeline-bench, ridgeline-probe, a GPU tool through `ridgeline-cli run`,
// whose session keeps its run request) are measurements, wherever they ran; files are imports.
PointSource gemmSource(const Session& s)
{
    const bool ran = s.tool == "ridgeline-bench" || s.tool == "ridgeline-probe" ||
                     (s.params.is_object() && s.params.contains("request"));
    return ran ? PointSource::Measured : PointSource::Imported;
}

GemmScatter traceScatter(const KernelSession& s)
{
    GemmScatter sc{s.session.id, s.session.title, {}, PointSource::Trace, {}};
    for (const auto& k : s.traceKernels) {
        GemmPoint p;
        p.gflops = k.flopsPerSec / 1e9;
        p.intensity = k.intensity;
        p.device = "rank " + std::to_string(k.rank);
        sc.points.push_back(p);
        sc.labels.push_back(k.name + "\n" + toString(k.kernelClass) + " kernel, rank " + std::to_string(k.rank));
    }
    return sc;
}

std::string shortName(const HardwareProfile& hw)
{
    // "AMD Instinct MI300X" -> "MI300X", "NVIDIA H100 SXM5 80GB" -> "H100": the roof labels need the
    // model, which is the first word with a digit that is not a memory size.
    std::istringstream words(hw.name);
    std::string w;
    while (words >> w) {
        std::erase_if(w, [](char c) { return c == '(' || c == ')' || c == ','; });
        const bool digit = std::any_of(w.begin(), w.end(), [](unsigned char c) { return std::isdigit(c); });
        if (digit && !(w.size() > 2 && w.compare(w.size() - 2, 2, "GB") == 0))
            return w;
    }
    return hw.id;
}

int kernelOrder(const std::string& k)
{
    static const char* order[] = {"copy", "scale", "add", "triad"};
    for (int i = 0; i < 4; ++i)
        if (k == order[i])
            return i;
    return 4;
}

double decadeBelow(double v)
{
    return std::pow(10.0, std::floor(std::log10(v)));
}

double decadeAbove(double v)
{
    return std::pow(10.0, std::ceil(std::log10(v)));
}

// A membw session without detected plateaus (an imported STREAM or HPCC run: one working set,
// sized by STREAM's rules to be far larger than the caches) still measured main-memory bandwidth:
// its triad rate (else its best kernel) at the largest working set and the highest thread count.
// Without this a STREAM run alone gave the roofline no ceiling at all.
std::vector<std::pair<std::string, double>> streamCeilings(const KernelChartData& data)
{
    std::vector<std::pair<std::string, double>> out;
    int several = 0;
    for (const auto& s : data.sessions)
        several += s.memCeilings.empty() && !s.membw.empty();
    for (const auto& s : data.sessions) {
        if (!s.memCeilings.empty() || s.membw.empty())
            continue;
        int threads = 0;
        std::int64_t bytes = 0;
        for (const auto& p : s.membw)
            threads = std::max(threads, p.threads);
        for (const auto& p : s.membw)
            if (p.threads == threads)
                bytes = std::max(bytes, p.bytes);
        const MemBwPoint* best = nullptr;
        for (const auto& p : s.membw) {
            if (p.threads != threads || p.bytes < bytes / 2 || !(p.bandwidthGBs > 0))
                continue; // copy/scale touch 2 arrays, add/triad 3: the same run, smaller working sets
            const bool triad = p.kernel == "triad", bestTriad = best && best->kernel == "triad";
            if (!best || (triad && !bestTriad) || (triad == bestTriad && p.bandwidthGBs > best->bandwidthGBs))
                best = &p;
        }
        if (!best)
            continue;
        // Named after the kernel, not "DRAM": nothing here proves the working set missed every cache.
        std::string level = "STREAM " + best->kernel;
        if (several > 1)
            level += " [" + std::to_string(s.session.id) + "]"; // ridges look levels up by name
        out.emplace_back(std::move(level), best->bandwidthGBs);
    }
    return out;
}

// Measured roofline of the data: best peak per dtype, ceilings at each session's top thread count.
Roofline measuredRoofline(const KernelChartData& data)
{
    Roofline r;
    std::map<std::string, double> peaks;
    for (const auto& s : data.sessions)
        for (const auto& p : s.peakFlops)
            peaks[p.dtype] = std::max(peaks[p.dtype], p.gflops);
    for (const auto& [dtype, g] : peaks)
        r.addCompute(dtype, g);
    for (const auto& b : memBwBands(data))
        r.addBandwidth(b.ceiling.level, b.ceiling.bandwidthGBs);
    for (const auto& [level, gbs] : streamCeilings(data))
        r.addBandwidth(level, gbs);
    return r;
}

void addRoofs(RooflineGeometry& g, const Roofline& r, CeilingOrigin origin, const std::string& suffix)
{
    // Equal peaks (bf16 and fp16 on most GPUs) would draw one line twice: merge them.
    std::vector<ComputeRoof> roofs;
    for (const auto& c : r.computeCeilings()) {
        if (!(c.gflops > 0))
            continue;
        auto same = std::find_if(roofs.begin(), roofs.end(), [&](const ComputeRoof& x) {
            return std::abs(x.gflops - c.gflops) <= 1e-9 * c.gflops;
        });
        if (same != roofs.end())
            same->dtypes.push_back(c.dtype);
        else
            roofs.push_back({{c.dtype}, c.gflops, origin, {}});
    }
    for (auto& roof : roofs) {
        std::string names;
        for (const auto& d : roof.dtypes)
            names += (names.empty() ? "" : ", ") + d;
        roof.label = names + suffix + ": " + formatGflops(roof.gflops);
        g.compute.push_back(roof);
        // One ridge per drawn roof and slope: merged dtypes meet each slope at one point, and a
        // ridge per dtype drew the same marker and value twice.
        for (const auto& b : r.bandwidthCeilings())
            if (const auto p = r.intersection(roof.dtypes.front(), b.level))
                g.ridges.push_back({names, b.level, origin, p->intensity, p->gflops});
    }
    for (const auto& b : r.bandwidthCeilings())
        if (b.gbs > 0)
            g.bandwidth.push_back({b.level, b.gbs, origin, b.level + suffix + ": " + units::formatBandwidth(b.gbs)});
}
} // namespace

std::string formatGflops(double gflops)
{
    return units::formatFlops(gflops * 1e9);
}

KernelChartData loadKernelCharts(store::Workspace& workspace, const std::vector<std::int64_t>& ids)
{
    KernelChartData data;
    for (const auto id : ids) {
        auto s = workspace.session(id);
        if (!s)
            throw std::runtime_error("no session " + std::to_string(id) + " in " + workspace.path());
        KernelSession k;
        k.session = std::move(*s);
        auto& db = workspace.database();
        k.gemm = store::gemmPoints(db, id);
        k.membw = store::memBwPoints(db, id);
        k.memCeilings = store::memCeilings(db, id);
        k.peakFlops = store::peakFlopsPoints(db, id);
        if (k.session.kind == kind::Trace)
            k.traceKernels = trace::rooflinePoints(store::kernelStats(db, id));
        data.sessions.push_back(std::move(k));
    }
    return data;
}

RooflineGeometry rooflineGeometry(const KernelChartData& data, const RooflineOptions& options)
{
    RooflineGeometry g;
    addRoofs(g, measuredRoofline(data), CeilingOrigin::Measured, " (measured)");
    if (options.hardware)
        addRoofs(g, Roofline::fromProfile(*options.hardware), CeilingOrigin::Profile,
                 " (" + shortName(*options.hardware) + ")");
    if (options.compareHardware)
        addRoofs(g, Roofline::fromProfile(*options.compareHardware), CeilingOrigin::SecondProfile,
                 " (" + shortName(*options.compareHardware) + ")");
    std::stable_sort(g.compute.begin(), g.compute.end(),
                     [](const ComputeRoof& a, const ComputeRoof& b) { return a.gflops > b.gflops; });
    std::stable_sort(g.bandwidth.begin(), g.bandwidth.end(),
                     [](const BandwidthRoof& a, const BandwidthRoof& b) { return a.gbs > b.gbs; });

    double xLo = INFINITY, xHi = -INFINITY, yLo = INFINITY, yHi = -INFINITY;
    const auto cover = [&](double x, double y) {
        xLo = std::min(xLo, x);
        xHi = std::max(xHi, x);
        yLo = std::min(yLo, y);
        yHi = std::max(yHi, y);
    };
    const auto keep = [&](GemmScatter sc) {
        for (const auto& p : sc.points)
            cover(p.intensity, p.gflops);
        if (!sc.points.empty())
            g.gemm.push_back(std::move(sc));
    };
    for (const auto& s : data.sessions) {
        GemmScatter sc{s.session.id, s.session.title, {}, gemmSource(s.session), {}};
        for (const auto& p : s.gemm) {
            if (p.intensity > 0 && p.gflops > 0)
                sc.points.push_back(p);
            else
                ++g.gemmWithoutIntensity;
        }
        keep(std::move(sc));
        keep(traceScatter(s));
    }
    if (options.predicted)
        keep(*options.predicted);
    for (const auto& r : g.ridges)
        cover(r.intensity, r.gflops);
    // Every roof is on the chart, the lowest too: a CPU's measured peak next to a GPU profile fell
    // below the range the profile's slopes gave, and a new peakflops run was off the chart.
    for (const auto& c : g.compute) {
        yHi = std::max(yHi, c.gflops);
        yLo = std::min(yLo, c.gflops / 2);
    }
    if (!std::isfinite(xLo)) {
        xLo = 1;
        xHi = 100;
    }
    // A decade of room on both sides of the data and ridges, so the slopes show where they start.
    g.xMin = decadeBelow(xLo) / 10;
    g.xMax = decadeAbove(xHi * 1.01) * 10;
    for (const auto& b : g.bandwidth) {
        yLo = std::min(yLo, b.gbs * g.xMin);
        if (g.compute.empty()) // no roof caps the slopes: they run to the right edge
            yHi = std::max(yHi, b.gbs * g.xMax);
    }
    // Ceilings alone, or nothing at all, must still give a finite, positive range: a NaN or an
    // empty range sends Qt's log-log domain into endless recursion.
    if (!std::isfinite(yLo) || yLo <= 0)
        yLo = 1;
    if (!std::isfinite(yHi) || yHi <= yLo)
        yHi = yLo * 1000;
    g.yMin = decadeBelow(yLo);
    g.yMax = decadeAbove(yHi * 1.5); // room above the top roof for its label
    if (g.yMax <= g.yMin)
        g.yMax = g.yMin * 10;
    return g;
}

std::string describeGemmPoint(const GemmPoint& p)
{
    std::string s = "M=" + std::to_string(p.m) + " N=" + std::to_string(p.n) + " K=" + std::to_string(p.k);
    if (p.batch > 1)
        s += " batch=" + std::to_string(p.batch);
    s += " " + p.dtype;
    if (!p.computeType.empty())
        s += " (compute " + p.computeType + ")";
    s += "\n" + io::csvNumber(p.gflops) + " GFLOP/s (" + formatGflops(p.gflops) + ")";
    s += "\nintensity " + fixed3(p.intensity) + " FLOP/B";
    s += "\ntime " + units::formatTime(p.timeUs);
    if (p.efficiency > 0)
        s += "\n" + units::formatPercent(p.efficiency) + " of measured peak";
    return s;
}

std::string describeScatterPoint(const GemmScatter& s, std::size_t i)
{
    const auto& p = s.points.at(i);
    const std::string label = i < s.labels.size() ? s.labels[i] : std::string();
    if (s.source == PointSource::Trace) // no shape: the kernel's name and its achieved figures
        return label + "\n" + formatGflops(p.gflops) + "\nintensity " + fixed3(p.intensity) + " FLOP/B";
    return label.empty() ? describeGemmPoint(p) : label + "\n" + describeGemmPoint(p);
}

const char* toString(PointSource s)
{
    switch (s) {
    case PointSource::Measured: return "measured";
    case PointSource::Imported: return "imported";
    case PointSource::Trace: return "trace";
    case PointSource::Predicted: return "predicted";
    }
    return "measured";
}

GemmScatter predictedGemms(const model::ModelConfig& c, const model::ParallelConfig& p, const HardwareProfile& hw,
                           const model::GemmTiming& t)
{
    const auto rates = model::deviceRates(hw, p.dtype);
    GemmScatter sc{0, c.name + " predicted on " + shortName(hw), {}, PointSource::Predicted, {}};
    for (const auto& gm : model::stepGemms(c, p)) {
        if (!(gm.m > 0 && gm.n > 0 && gm.k > 0 && gm.count > 0))
            continue;
        const double perCall = model::gemmSeconds(gm, rates, t) / gm.count;
        GemmPoint pt;
        pt.dtype = p.dtype;
        pt.m = std::llround(gm.m);
        pt.n = std::llround(gm.n);
        pt.k = std::llround(gm.k);
        pt.timeUs = perCall * 1e6;
        pt.gflops = 2 * gm.m * gm.n * gm.k / perCall / 1e9;
        pt.intensity = gm.intensity(t.elemBytes);
        pt.device = hw.id;
        sc.points.push_back(pt);
        sc.labels.push_back(std::string(model::toString(gm.pass)) + " " + gm.name + ", " + io::csvNumber(gm.count)
                            + " calls per step");
    }
    return sc;
}

std::string rooflineCsv(const KernelChartData& data, const RooflineOptions& options)
{
    const auto g = rooflineGeometry(data, options);
    std::ostringstream out;
    io::writeCsvRow(out, {"ceiling", "name", "origin", "value", "unit"});
    for (const auto& c : g.compute)
        for (const auto& d : c.dtypes)
            io::writeCsvRow(out, {"compute", io::csvText(d), originName(c.origin), io::csvNumber(c.gflops), "GFLOP/s"});
    for (const auto& b : g.bandwidth)
        io::writeCsvRow(out, {"bandwidth", io::csvText(b.level), originName(b.origin), io::csvNumber(b.gbs), "GB/s"});
    out << '\n';
    io::writeCsvRow(out, {"ridge_dtype", "ridge_level", "ridge_origin", "intensity_flop_per_byte", "gflops"});
    for (const auto& r : g.ridges)
        io::writeCsvRow(out, {io::csvText(r.dtype), io::csvText(r.level), originName(r.origin), io::csvNumber(r.intensity), io::csvNumber(r.gflops)});
    out << '\n';
    io::writeCsvRow(out, {"source", "session_id", "session", "label", "dtype", "m", "n", "k", "batch", "time_us",
                          "gflops", "intensity_flop_per_byte"});
    for (const auto& s : g.gemm)
        for (std::size_t i = 0; i < s.points.size(); ++i) {
            const auto& p = s.points[i];
            std::string label = i < s.labels.size() ? s.labels[i] : std::string();
            std::replace(label.begin(), label.end(), '\n', ' ');
            io::writeCsvRow(out, {toString(s.source), std::to_string(s.sessionId), io::csvText(s.name), io::csvText(label),
                                  io::csvText(p.dtype),
                                  std::to_string(p.m), std::to_string(p.n), std::to_string(p.k),
                                  std::to_string(p.batch), io::csvNumber(p.timeUs), io::csvNumber(p.gflops), io::csvNumber(p.intensity)});
        }
    return out.str();
}

std::vector<MemBwCurve> memBwCurves(const KernelChartData& data)
{
    std::vector<MemBwCurve> curves;
    int withPoints = 0;
    for (const auto& s : data.sessions)
        withPoints += !s.membw.empty();
    for (const auto& s : data.sessions) {
        std::map<std::pair<int, std::pair<std::string, int>>, std::vector<MemBwPoint>> byKey;
        for (const auto& p : s.membw)
            byKey[{kernelOrder(p.kernel), {p.kernel, p.threads}}].push_back(p);
        for (auto& [key, points] : byKey) {
            std::stable_sort(points.begin(), points.end(),
                             [](const MemBwPoint& a, const MemBwPoint& b) { return a.bytes < b.bytes; });
            const int threads = key.second.second;
            std::string name = key.second.first + ", " + std::to_string(threads)
                + (threads == 1 ? " thread" : " threads");
            if (withPoints > 1)
                name = s.session.title + " · " + name;
            curves.push_back({s.session.id, key.second.first, threads, std::move(name), std::move(points)});
        }
    }
    return curves;
}

std::vector<MemBwBand> memBwBands(const KernelChartData& data)
{
    std::vector<MemBwBand> bands;
    for (const auto& s : data.sessions) {
        int top = 0;
        for (const auto& c : s.memCeilings)
            top = std::max(top, c.threads);
        for (const auto& c : s.memCeilings)
            if (c.threads == top && c.bandwidthGBs > 0)
                bands.push_back({s.session.id, c, c.level + ": " + units::formatBandwidth(c.bandwidthGBs)});
    }
    return bands;
}

std::string memBwCsv(const KernelChartData& data)
{
    std::ostringstream out;
    io::writeCsvRow(out, {"session_id", "kernel", "threads", "bytes", "best_time_us", "bandwidth_gbs"});
    for (const auto& c : memBwCurves(data))
        for (const auto& p : c.points)
            io::writeCsvRow(out, {std::to_string(c.sessionId), io::csvText(p.kernel), std::to_string(p.threads),
                                  std::to_string(p.bytes), io::csvNumber(p.bestTimeUs), io::csvNumber(p.bandwidthGBs)});
    out << '\n';
    io::writeCsvRow(out, {"ceiling_session_id", "level", "kernel", "threads", "from_bytes", "to_bytes", "bandwidth_gbs"});
    for (const auto& b : memBwBands(data))
        io::writeCsvRow(out, {std::to_string(b.sessionId), io::csvText(b.ceiling.level), io::csvText(b.ceiling.kernel),
                              std::to_string(b.ceiling.threads), std::to_string(b.ceiling.fromBytes),
                              std::to_string(b.ceiling.toBytes), io::csvNumber(b.ceiling.bandwidthGBs)});
    return out.str();
}

namespace {
std::int64_t dimOf(const GemmPoint& p, GemmDim d)
{
    return d == GemmDim::M ? p.m : d == GemmDim::N ? p.n : p.k;
}
} // namespace

GemmEfficiencyGeometry gemmEfficiencyGeometry(const KernelChartData& data, const GemmEfficiencyOptions& o)
{
    GemmEfficiencyGeometry g;
    std::set<std::int64_t> distinct[3];
    bool allEqual[3] = {true, true, true}; // N == M, K == M
    for (const auto& s : data.sessions)
        for (const auto& p : s.gemm) {
            distinct[0].insert(p.m);
            distinct[1].insert(p.n);
            distinct[2].insert(p.k);
            allEqual[1] = allEqual[1] && p.n == p.m;
            allEqual[2] = allEqual[2] && p.k == p.m;
        }
    int best = 0;
    for (int i = 1; i < 3; ++i)
        if (distinct[i].size() > distinct[best].size())
            best = i;
    g.dim = static_cast<GemmDim>(best);
    static const char* names[] = {"M", "N", "K"};
    g.dimTitle = names[best];
    if (best == 0 && distinct[0].size() > 1 && allEqual[1])
        g.dimTitle += allEqual[2] ? " = N = K" : " = N";

    std::map<std::string, double> measuredPeak;
    for (const auto& s : data.sessions)
        for (const auto& p : s.peakFlops)
            measuredPeak[profileDtype(p.dtype)] = std::max(measuredPeak[profileDtype(p.dtype)], p.gflops);
    g.computeUnits = o.hardware ? static_cast<int>(std::lround(o.hardware->computeUnits.value)) : 0;
    g.tile = o.tile;
    g.nFollowsM = g.dim == GemmDim::M && allEqual[1];

    bool everyPeak = true;
    for (const auto& s : data.sessions) {
        std::map<std::string, std::vector<GemmPoint>> byType;
        for (const auto& p : s.gemm)
            if (p.gflops > 0)
                byType[p.dtype].push_back(p);
        for (auto& [dtype, points] : byType) {
            GemmSweep sw{s.session.id, dtype, s.session.title + " · " + dtype, 0, {}};
            if (const auto it = measuredPeak.find(profileDtype(dtype)); it != measuredPeak.end())
                sw.peakGflops = it->second;
            for (const auto& p : points)
                if (sw.peakGflops == 0 && p.efficiency > 0)
                    sw.peakGflops = p.gflops / p.efficiency; // the peak the bench measured alongside
            if (sw.peakGflops == 0 && o.hardware)
                if (const auto it = o.hardware->peakTflops.find(profileDtype(dtype)); it != o.hardware->peakTflops.end())
                    sw.peakGflops = it->second.value * 1e3;
            everyPeak = everyPeak && sw.peakGflops > 0;
            for (const auto& p : points) {
                GemmSweepPoint sp{p, double(dimOf(p, g.dim)), p.gflops, -1};
                if (g.computeUnits > 0)
                    sp.predicted = model::waveQuantization(p.m, p.n, g.computeUnits, o.tile).efficiency();
                sw.points.push_back(sp);
            }
            std::stable_sort(sw.points.begin(), sw.points.end(),
                             [](const GemmSweepPoint& a, const GemmSweepPoint& b) { return a.x < b.x; });
            g.sweeps.push_back(std::move(sw));
        }
    }
    g.percent = o.metric == GemmYMetric::PercentOfPeak && everyPeak && !g.sweeps.empty();
    if (g.percent)
        for (auto& sw : g.sweeps)
            for (auto& p : sw.points)
                p.value = p.point.gflops / sw.peakGflops * 100;

    // The overlay: every tile boundary matters, so sample at tile/8 steps (capped at 4000 points).
    if (!g.sweeps.empty()) {
        g.fixedM = g.sweeps.front().points.front().point.m;
        g.fixedN = g.sweeps.front().points.front().point.n;
    }
    if (g.computeUnits > 0 && !g.sweeps.empty()) {
        const double lo = g.sweeps.front().points.front().x;
        double hi = lo;
        for (const auto& sw : g.sweeps)
            hi = std::max(hi, sw.points.back().x);
        double loAll = lo;
        for (const auto& sw : g.sweeps)
            loAll = std::min(loAll, sw.points.front().x);
        const double step = std::max({1.0, std::min(o.tile.tm, o.tile.tn) / 8.0, (hi - loAll) / 4000});
        for (double x = loAll; x <= hi + 0.5; x += step) {
            const auto v = static_cast<std::int64_t>(std::llround(x));
            const auto [m, n] = outputShapeAt(g, v);
            g.predicted.emplace_back(double(v), model::waveQuantization(m, n, g.computeUnits, o.tile).efficiency());
        }
    }
    return g;
}

std::pair<std::int64_t, std::int64_t> outputShapeAt(const GemmEfficiencyGeometry& g, std::int64_t v)
{
    std::int64_t m = g.fixedM, n = g.fixedN;
    if (g.dim == GemmDim::M) {
        m = v;
        if (g.nFollowsM)
            n = v;
    } else if (g.dim == GemmDim::N) {
        n = v;
    }
    return {m, n};
}

FastSizeReadout nearestFastSize(const GemmEfficiencyGeometry& g, std::int64_t value, double threshold, int step)
{
    FastSizeReadout r;
    r.value = value;
    r.dimensionIsK = g.dim == GemmDim::K;
    double nearest = INFINITY;
    for (const auto& sw : g.sweeps)
        for (const auto& p : sw.points)
            if (std::abs(p.x - double(value)) < nearest) {
                nearest = std::abs(p.x - double(value));
                r.measuredAt = static_cast<std::int64_t>(p.x);
                r.measuredValue = p.value;
            }
    if (g.computeUnits <= 0 || value <= 0 || step <= 0)
        return r;
    const auto efficiencyAt = [&](std::int64_t v) {
        const auto [m, n] = outputShapeAt(g, v);
        return model::waveQuantization(m, n, g.computeUnits, g.tile).efficiency();
    };
    r.predicted = efficiencyAt(value);
    const std::int64_t base = value / step * step;
    for (int i = 0; i <= 64 && r.below == 0; ++i) {
        const std::int64_t v = base - std::int64_t(i) * step;
        if (v <= 0)
            break;
        if (const double e = efficiencyAt(v); e >= threshold)
            r.below = v, r.belowEfficiency = e;
    }
    for (int i = 0; i <= 64 && r.above == 0; ++i) {
        const std::int64_t v = (base < value ? base + step : base) + std::int64_t(i) * step;
        if (const double e = efficiencyAt(v); e >= threshold)
            r.above = v, r.aboveEfficiency = e;
    }
    return r;
}

std::string describeFastSize(const FastSizeReadout& r, const GemmEfficiencyGeometry& g)
{
    const auto pct = [](double e) { return units::formatPercent(e); };
    std::string s = g.dimTitle + " = " + std::to_string(r.value);
    if (r.predicted < 0)
        s += ": choose a hardware profile for the predicted wave efficiency";
    else if (r.dimensionIsK)
        s += ": K does not change the output tiles (predicted " + pct(r.predicted) + " at every K)";
    else {
        const auto [m, n] = outputShapeAt(g, r.value);
        const auto w = model::waveQuantization(m, n, g.computeUnits, g.tile);
        s += ": predicted " + pct(r.predicted) + " (" + std::to_string(w.tiles) + " tiles of " +
             std::to_string(g.tile.tm) + "x" + std::to_string(g.tile.tn) + " in " + std::to_string(w.waves) +
             (w.waves == 1 ? " wave" : " waves") + " on " + std::to_string(g.computeUnits) + " CUs)";
        s += "; nearest fast: ";
        s += r.below ? std::to_string(r.below) + " (" + pct(r.belowEfficiency) + ")" : std::string("none below");
        s += " / ";
        s += r.above ? std::to_string(r.above) + " (" + pct(r.aboveEfficiency) + ")" : std::string("none above");
    }
    if (r.measuredAt > 0)
        s += "; measured at " + std::to_string(r.measuredAt) + ": " +
             (g.percent ? units::formatPercent(r.measuredValue / 100) + " of peak" : formatGflops(r.measuredValue));
    return s;
}

std::string gemmEfficiencyCsv(const KernelChartData& data, const GemmEfficiencyOptions& options)
{
    const auto g = gemmEfficiencyGeometry(data, options);
    std::ostringstream out;
    io::writeCsvRow(out, {"session_id", "dtype", "m", "n", "k", "batch", "swept", "time_us", "gflops",
                          "percent_of_peak", "peak_gflops", "predicted_wave_efficiency"});
    for (const auto& sw : g.sweeps)
        for (const auto& p : sw.points)
            io::writeCsvRow(out, {std::to_string(sw.sessionId), io::csvText(sw.dtype), std::to_string(p.point.m),
                                  std::to_string(p.point.n), std::to_string(p.point.k), std::to_string(p.point.batch),
                                  io::csvText(g.dimTitle), io::csvNumber(p.point.timeUs), io::csvNumber(p.point.gflops),
                                  sw.peakGflops > 0 ? io::csvNumber(p.point.gflops / sw.peakGflops * 100) : std::string(),
                                  sw.peakGflops > 0 ? io::csvNumber(sw.peakGflops) : std::string(),
                                  p.predicted >= 0 ? io::csvNumber(p.predicted) : std::string()});
    return out.str();
}
} // namespace rl::charts
