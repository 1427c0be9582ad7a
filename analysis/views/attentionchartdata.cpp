#include "views/attentionchartdata.h"

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "io/csv.h"
#include "units/units.h"
#include "views/keptfield.h"

namespace rl::charts {
namespace {
constexpr std::array<std::string_view, 4> kBackendOrder{"flash", "cudnn", "efficient", "math"};
constexpr std::array<std::string_view, 2> kPassOrder{"forward", "backward"};

template <std::size_t N>
int rank(const std::array<std::string_view, N>& order, const std::string& name)
{
    const auto it = std::find(order.begin(), order.end(), name);
    return int(it - order.begin()); // unknown names after the known ones
}

bool passes(const AttentionFilter& f, const std::string& pass, bool causal, int headDim)
{
    return (f.headDim == 0 || f.headDim == headDim) && (f.pass.empty() || f.pass == pass)
        && (!f.causal || *f.causal == causal);
}

// The curves' order: backend, pass, mask (none first), head dim.
using CurveKey = std::tuple<int, std::string, int, std::string, bool, int>;

void extendRange(AttentionGeometry& g, const AttentionCurve& c)
{
    for (const auto& p : c.points) {
        g.seqMin = g.seqMin == 0 ? p.seq : std::min(g.seqMin, p.seq);
        g.seqMax = std::max(g.seqMax, p.seq);
        g.tflopsMax = std::max(g.tflopsMax, p.tflops);
    }
}

std::vector<AttentionPoint> rates(const std::vector<std::pair<double, double>>& table, const std::string& kernel,
                                  const std::string& pass, bool causal, int headDim)
{
    std::vector<AttentionPoint> out;
    for (const auto& [seq, tflops] : table) {
        AttentionPoint p;
        p.backend = kernel;
        p.pass = pass;
        p.causal = causal;
        p.headDim = headDim;
        p.seq = static_cast<std::int64_t>(seq);
        p.tflops = tflops;
        out.push_back(p);
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.seq < b.seq; });
    return out;
}

void addReferences(AttentionGeometry& g, const HardwareProfile& hw, const AttentionFilter& f)
{
    for (const auto& [kernel, sets] : hw.attentionKernels)
        for (const auto& k : sets) {
            if (f.headDim != 0 && f.headDim != k.headDim)
                continue;
            // The profile's backward is FA3's Figure 6: without the causal mask.
            const std::tuple<std::string, bool, const std::vector<std::pair<double, double>>*> tables[] = {
                {"forward", false, &k.forward}, {"forward", true, &k.forwardCausal}, {"backward", false, &k.backward}};
            for (const auto& [pass, causal, table] : tables) {
                if (table->empty() || !passes(f, pass, causal, k.headDim))
                    continue;
                AttentionCurve c;
                c.backend = kernel;
                c.pass = pass;
                c.causal = causal;
                c.headDim = k.headDim;
                c.reference = true;
                c.name = attentionCurveName(kernel, pass, causal, k.headDim) + " (" + hw.id + ", published)";
                c.source = k.source;
                c.points = rates(*table, kernel, pass, causal, k.headDim);
                extendRange(g, c);
                g.curves.push_back(std::move(c));
            }
        }
    if (g.curves.size() == std::size_t(g.measuredCurves))
        g.referenceNote = hw.attentionKernels.empty()
            ? hw.id + " has no published attention kernel rates"
            : hw.id + " has no published attention rates for this head dim, pass and mask";
}
} // namespace

std::vector<AttentionPoint> attentionPoints(const Session& session)
{
    std::vector<AttentionPoint> out;
    const auto it = session.params.find("attention");
    if (it == session.params.end() || !it->is_array())
        return out;
    for (const auto& r : *it) {
        if (!r.is_object())
            continue;
        AttentionPoint p;
        p.backend = keptField<std::string>(r, "backend", {});
        p.pass = keptField<std::string>(r, "pass", {});
        p.causal = keptField<bool>(r, "causal", false);
        p.headDim = keptField<int>(r, "head_dim", 0);
        p.seq = keptField<std::int64_t>(r, "seq", 0);
        p.tflops = keptField<double>(r, "tflops", 0.0);
        p.batch = keptField<std::int64_t>(r, "batch", 0);
        p.heads = keptField<std::int64_t>(r, "heads", 0);
        p.dtype = keptField<std::string>(r, "dtype", {});
        p.timeUs = keptField<double>(r, "time_us", 0.0);
        if (p.backend.empty() || p.pass.empty() || p.headDim <= 0 || p.seq <= 0 || !(p.tflops > 0))
            continue;
        out.push_back(std::move(p));
    }
    return out;
}

AttentionChoices attentionChoices(const KernelChartData& data)
{
    std::set<int> dims;
    std::set<std::pair<int, std::string>> passNames;
    AttentionChoices c;
    for (const auto& s : data.sessions)
        for (const auto& p : attentionPoints(s.session)) {
            dims.insert(p.headDim);
            passNames.insert({rank(kPassOrder, p.pass), p.pass});
            (p.causal ? c.causal : c.nonCausal) = true;
        }
    c.headDims.assign(dims.begin(), dims.end());
    for (const auto& [order, name] : passNames)
        c.passes.push_back(name);
    return c;
}

AttentionFilter defaultAttentionFilter(const AttentionChoices& c)
{
    AttentionFilter f;
    if (!c.headDims.empty())
        f.headDim = std::count(c.headDims.begin(), c.headDims.end(), 128) ? 128 : c.headDims.back();
    if (!c.passes.empty())
        f.pass = c.passes.front(); // forward when measured
    if (c.nonCausal || c.causal)
        f.causal = !c.nonCausal;
    return f;
}

std::string attentionCurveName(const std::string& backend, const std::string& pass, bool causal, int headDim)
{
    return backend + " " + pass + (causal ? " causal" : "") + ", d=" + std::to_string(headDim);
}

AttentionGeometry attentionGeometry(const KernelChartData& data, const AttentionChartOptions& o)
{
    AttentionGeometry g;
    int attentionSessions = 0;
    std::vector<std::vector<AttentionPoint>> perSession;
    for (const auto& s : data.sessions) {
        perSession.push_back(attentionPoints(s.session));
        g.allMeasuredPoints += int(perSession.back().size());
        attentionSessions += perSession.back().empty() ? 0 : 1;
    }
    for (std::size_t i = 0; i < data.sessions.size(); ++i) {
        std::map<CurveKey, AttentionCurve> curves;
        for (const auto& p : perSession[i]) {
            if (!passes(o.filter, p.pass, p.causal, p.headDim))
                continue;
            const CurveKey key{rank(kBackendOrder, p.backend), p.backend, rank(kPassOrder, p.pass), p.pass, p.causal,
                               p.headDim};
            auto& c = curves[key];
            if (c.points.empty()) {
                c.sessionId = data.sessions[i].session.id;
                c.backend = p.backend;
                c.pass = p.pass;
                c.causal = p.causal;
                c.headDim = p.headDim;
                c.name = attentionCurveName(p.backend, p.pass, p.causal, p.headDim);
                if (attentionSessions > 1) // which session, only when several could have drawn it
                    c.name = data.sessions[i].session.title + ": " + c.name;
            }
            c.points.push_back(p);
        }
        for (auto& [key, c] : curves) {
            // A repeated seq (two runs kept in one session) keeps both points: the line shows the spread.
            std::stable_sort(c.points.begin(), c.points.end(), [](const auto& a, const auto& b) { return a.seq < b.seq; });
            extendRange(g, c);
            g.curves.push_back(std::move(c));
        }
    }
    g.measuredCurves = int(g.curves.size());
    if (o.hardware)
        addReferences(g, *o.hardware, o.filter);
    else if (g.allMeasuredPoints > 0)
        g.referenceNote = "choose a hardware profile with published attention rates (h100-sxm) to compare";
    return g;
}

std::string describeAttentionPoint(const AttentionCurve& c, std::size_t i)
{
    const auto& p = c.points.at(i);
    std::string s = c.name + "\nseq " + std::to_string(p.seq) + " tokens: " + units::formatFlops(p.tflops * 1e12);
    if (c.reference)
        return s + "\npublished: " + c.source;
    if (p.timeUs > 0)
        s += "\n" + units::formatTime(p.timeUs) + " per call";
    if (p.batch > 0 && p.heads > 0)
        s += ", batch " + std::to_string(p.batch) + " × " + std::to_string(p.heads) + " heads";
    if (!p.dtype.empty())
        s += ", " + p.dtype;
    return s;
}

std::string attentionCsv(const KernelChartData& data, const AttentionChartOptions& options)
{
    std::ostringstream out;
    io::writeCsvRow(out, {"session_id", "reference", "backend", "pass", "causal", "head_dim", "seq", "tflops",
                          "time_us", "batch", "heads", "dtype", "source"});
    for (const auto& c : attentionGeometry(data, options).curves)
        for (const auto& p : c.points)
            io::writeCsvRow(out, {std::to_string(c.sessionId), c.reference ? "1" : "0", io::csvText(p.backend),
                                  io::csvText(p.pass), p.causal ? "1" : "0", std::to_string(p.headDim),
                                  std::to_string(p.seq), io::csvNumber(p.tflops), io::csvNumber(p.timeUs),
                                  std::to_string(p.batch), std::to_string(p.heads), io::csvText(p.dtype),
                                  io::csvText(c.source)});
    return out.str();
}
} // namespace rl::charts
