#include "report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>
#include <stdexcept>

#include "collectives/splitgroups.h"
#include "model/hardwareprofileloader.h"
#include "model/memorymodel.h"
#include "model/predictedvsmeasured.h"
#include "model/validation.h"
#include "store/traceresults.h"
#include "store/kernelresults.h"
#include "store/workspace.h"
#include "units/units.h"
#include "views/tracechartdata.h"
#include "units/memory.h"

namespace rl::report {
namespace {

std::string jsonText(const nlohmann::json& v)
{
    if (v.is_string())
        return v.get<std::string>();
    // Structured values (a trace's kernel rules and ranks) are not printed as raw JSON: a list of
    // records is counted, an object of scalars reads "key: value; ...".
    if (v.is_array()) {
        if (std::any_of(v.begin(), v.end(), [](const nlohmann::json& x) { return x.is_structured(); }))
            return std::to_string(v.size()) + (v.size() == 1 ? " entry" : " entries");
        std::string out;
        for (const auto& x : v)
            out += (out.empty() ? "" : ", ") + jsonText(x);
        return out;
    }
    if (v.is_object()) {
        std::string out;
        for (const auto& [key, x] : v.items())
            out += (out.empty() ? "" : "; ") + key + ": " +
                   (x.is_structured() ? std::to_string(x.size()) + " fields" : jsonText(x));
        return out;
    }
    return v.dump();
}

// A trace's section: what its steps are made of (the step-breakdown chart shows it per step).
std::vector<std::string> traceFacts(store::Workspace& ws, const Session& s)
{
    const auto steps = store::stepBreakdowns(ws.database(), s.id);
    if (steps.empty())
        return {"The trace has no step annotations with GPU work: its kernels are in `ridgeline-cli results " +
                std::to_string(s.id) + "`."};
    const auto bars = charts::stepBars(steps);
    double step = 0, parts[static_cast<int>(charts::StepSegment::Count)] = {};
    for (const auto& b : bars) {
        step += b.stepMs;
        for (int i = 0; i < static_cast<int>(charts::StepSegment::Count); ++i)
            parts[i] += b.segmentsMs[i];
    }
    const auto share = [&](charts::StepSegment seg) {
        return units::formatPercent(step > 0 ? parts[static_cast<int>(seg)] / step : 0);
    };
    // Kernels running, communication hidden under them included; a copy alone is not compute.
    const double compute = parts[int(charts::StepSegment::Gemm)] + parts[int(charts::StepSegment::Attention)] +
                           parts[int(charts::StepSegment::Other)] + parts[int(charts::StepSegment::HiddenComm)];
    return {std::to_string(bars.size()) + (bars.size() == 1 ? " step" : " steps") + " on " +
            std::to_string(charts::ranksOf(steps).size()) + " rank(s), " + units::formatTime(step / bars.size() * 1e3) +
            " per step on average: GEMM " + share(charts::StepSegment::Gemm) + ", attention " +
            share(charts::StepSegment::Attention) + ", all compute " + units::formatPercent(step > 0 ? compute / step : 0) +
            ", copies alone " + share(charts::StepSegment::Memcpy) + ", exposed communication " +
            share(charts::StepSegment::ExposedComm) + ", idle " + share(charts::StepSegment::Idle) + "."};
}

// A training log's section: how much of the wall time was training.
std::vector<std::string> trainLogFacts(store::Workspace& ws, const Session& s)
{
    const auto steps = store::trainSteps(ws.database(), s.id);
    const auto& p = s.params;
    const auto number = [&](const char* key) {
        return p.is_object() && p.contains(key) && p[key].is_number() ? p[key].get<double>() : NAN;
    };
    std::string line = std::to_string(steps.size()) + " logged steps";
    if (const double goodput = number("goodput"); std::isfinite(goodput))
        line += ", goodput " + units::formatPercent(goodput) + " (productive step time over wall time)";
    if (const double restarts = number("restarts"); std::isfinite(restarts))
        line += ", " + std::to_string(int(restarts)) + " restart(s)";
    if (const double stalls = number("stalls"); std::isfinite(stalls))
        line += ", " + std::to_string(int(stalls)) + " stall(s)";
    return {line + "."};
}

std::string tierName(const TierPeak& t)
{
    return t.interNode ? "the NIC line rate" : "the intra-node link peak";
}

// The tier ceiling of op on ranks for session s: --hardware's profile, else the one its devices name.
std::optional<TierPeak> tierOf(const Session& s, const OpPeak& p, const std::optional<HardwareProfile>& hw)
{
    const int nodes = groupNodes(s, p.group);
    if (nodes <= 0)
        return std::nullopt;
    std::optional<HardwareProfile> profile = hw;
    if (!profile) {
        try {
            const auto profiles = availableHardwareProfiles();
            const auto id = profileForSession(s, profiles);
            for (const auto& candidate : profiles)
                if (!id.empty() && candidate.id == id)
                    profile = candidate;
        } catch (const std::exception&) {
            return std::nullopt; // no profiles installed: no percentages
        }
    }
    if (!profile)
        return std::nullopt;
    return tierPeak(p.op, p.ranks, nodes, *profile);
}

// The fit of op on `ranks` ranks, out of place where measured; `counted` holds a --split session's
// slowest group at each size (slowestGroupAtEachSize).
std::optional<fits::AlphaBeta> fitOf(const std::vector<CollectivePoint>& counted, const std::string& op, int ranks)
{
    if (auto f = fits::fitCollective(counted, op, false, 0, INT64_MAX, ranks))
        return f;
    return fits::fitCollective(counted, op, true, 0, INT64_MAX, ranks);
}

std::string collectiveCaption(const std::string& kind)
{
    return kind == "latency" ? "Time per call against message size, with the alpha-beta fit"
                             : "Bus bandwidth against message size, with the alpha-beta fit";
}

bool isKernelKind(const std::string& k)
{
    return k == kind::Gemm || k == kind::MemBandwidth || k == kind::PeakFlops;
}

Table provenanceTable(const Session& s)
{
    Table t{"Provenance of session " + std::to_string(s.id), {"field", "value"}, {}};
    for (auto& [k, v] : provenanceRows(s))
        t.rows.push_back({k, v});
    return t;
}

Table collectiveTable(const Session& s, const std::vector<CollectivePoint>& points,
                      const std::optional<HardwareProfile>& hw)
{
    const bool groups = std::any_of(points.begin(), points.end(), [](const CollectivePoint& p) { return !p.group.empty(); });
    Table t{"Points of session " + std::to_string(s.id) + " (" + s.title + ")",
            {"op", "ranks", "size", "in-place", "time", "algbw", "busbw", "of tier peak"}, {}};
    if (groups)
        t.header.insert(t.header.begin() + 1, "group");
    std::map<std::tuple<std::string, int, int>, std::optional<TierPeak>> tiers;
    for (const auto& p : points) {
        const auto key = std::make_tuple(p.op, p.nranks, groupNodes(s, p.group));
        if (!tiers.count(key))
            tiers[key] = tierOf(s, OpPeak{p.op, p.nranks, 0, 0, false, p.group, false}, hw);
        const auto& tier = tiers[key];
        std::vector<std::string> row{p.op, std::to_string(p.nranks), units::formatBytes(double(p.bytes)), p.inPlace ? "yes" : "no",
                                     units::formatTime(p.timeUs), units::formatBandwidth(p.algbwGBs),
                                     units::formatBandwidth(p.busbwGBs),
                                     tier ? units::formatPercent(p.busbwGBs / tier->peakBusGBs) : ""};
        if (groups)
            row.insert(row.begin() + 1, p.group);
        t.rows.push_back(std::move(row));
    }
    return t;
}

Table fitTable(const Session& s, const std::vector<CollectivePoint>& points)
{
    Table t{"Alpha-beta fits of session " + std::to_string(s.id) + ": t(n) = alpha + n / beta",
            {"op", "ranks", "alpha", "beta", "points", "sizes", "rms error"}, {}};
    std::set<std::pair<std::string, int>> keys;
    for (const auto& p : points)
        keys.insert({p.op, p.nranks});
    const auto counted = slowestGroupAtEachSize(points);
    for (const auto& [op, ranks] : keys)
        if (const auto f = fitOf(counted, op, ranks))
            t.rows.push_back({op, std::to_string(ranks), units::formatTime(f->alphaUs), units::formatBandwidth(f->betaGBs),
                              std::to_string(f->points),
                              units::formatBytes(double(f->minBytes)) + " .. " + units::formatBytes(double(f->maxBytes)),
                              units::formatPercent(f->rmsRelError)});
    return t;
}

struct KernelFacts
{
    std::vector<std::string> sentences;
    std::vector<Table> tables;
};

KernelFacts kernelFacts(store::Workspace& ws, const Session& s)
{
    KernelFacts out;
    auto& db = ws.database();
    if (s.kind == kind::Gemm) {
        const auto points = store::gemmPoints(db, s.id);
        Table t{"GEMM points of session " + std::to_string(s.id),
                {"dtype", "op", "M", "N", "K", "batch", "time", "throughput", "efficiency"}, {}};
        const GemmPoint* best = nullptr;
        for (const auto& p : points) {
            if (!best || p.gflops > best->gflops)
                best = &p;
            t.rows.push_back({p.dtype, p.transA + p.transB, std::to_string(p.m), std::to_string(p.n), std::to_string(p.k),
                              std::to_string(p.batch), units::formatTime(p.timeUs), units::formatFlops(p.gflops * 1e9),
                              p.efficiency > 0 ? units::formatPercent(p.efficiency) : ""});
        }
        if (best)
            out.sentences.push_back("GEMM (session " + std::to_string(s.id) + ") peaks at "
                                    + units::formatFlops(best->gflops * 1e9) + " in " + best->dtype + " at "
                                    + std::to_string(best->m) + " x " + std::to_string(best->n) + " x "
                                    + std::to_string(best->k)
                                    + (best->efficiency > 0 ? ", " + units::formatPercent(best->efficiency) + " of the measured peak" : ""));
        out.tables.push_back(std::move(t));
    } else if (s.kind == kind::MemBandwidth) {
        const auto points = store::memBwPoints(db, s.id);
        Table t{"Memory bandwidth of session " + std::to_string(s.id), {"kernel", "working set", "threads", "best time", "bandwidth"}, {}};
        std::map<std::string, const MemBwPoint*> best;
        for (const auto& p : points) {
            auto& b = best[p.kernel];
            if (!b || p.bandwidthGBs > b->bandwidthGBs)
                b = &p;
            t.rows.push_back({p.kernel, units::formatBytes(double(p.bytes)), std::to_string(p.threads),
                              units::formatTime(p.bestTimeUs), units::formatBandwidth(p.bandwidthGBs)});
        }
        for (const auto& [k, p] : best) {
            std::string sentence = k + " (session " + std::to_string(s.id) + ") reaches "
                                   + units::formatBandwidth(p->bandwidthGBs) + " at a working set of "
                                   + units::formatBytes(double(p->bytes)) + " on " + std::to_string(p->threads)
                                   + (p->threads == 1 ? " thread" : " threads");
            out.sentences.push_back(sentence);
        }
        out.tables.push_back(std::move(t));
    } else if (s.kind == kind::PeakFlops) {
        Table t{"Peak FLOP/s of session " + std::to_string(s.id), {"dtype", "threads", "isa", "measured", "theoretical", "of theory"}, {}};
        for (const auto& p : store::peakFlopsPoints(db, s.id)) {
            t.rows.push_back({p.dtype, std::to_string(p.threads), p.isa, units::formatFlops(p.gflops * 1e9),
                              p.theoreticalGflops > 0 ? units::formatFlops(p.theoreticalGflops * 1e9) : "",
                              p.theoreticalGflops > 0 ? units::formatPercent(p.gflops / p.theoreticalGflops) : ""});
            out.sentences.push_back("peak " + p.dtype + " (session " + std::to_string(s.id) + ") measures "
                                    + units::formatFlops(p.gflops * 1e9)
                                    + (p.theoreticalGflops > 0 ? ", " + units::formatPercent(p.gflops / p.theoreticalGflops) + " of the theoretical "
                                                                     + units::formatFlops(p.theoreticalGflops * 1e9)
                                                               : std::string()));
        }
        out.tables.push_back(std::move(t));
    }
    return out;
}

void append(std::vector<std::string>& to, const std::vector<std::string>& from)
{
    to.insert(to.end(), from.begin(), from.end());
}

std::string sessionLabel(const Session& s)
{
    return "Session " + std::to_string(s.id) + ": " + (s.title.empty() ? s.kind : s.title);
}

// One session's section: chart, its summary, tables, provenance.
Section sessionSection(store::Workspace& ws, const Session& s, const Options& o, std::vector<std::string>& summary)
{
    Section sec{sessionLabel(s), {}, {}, {}};
    if (s.kind == kind::Collectives) {
        const auto points = ws.collectivePoints(s.id);
        sec.paragraphs = collectiveSummary(s, points, o.hardware, true);
        if (!points.empty()) {
            for (const auto& kind : o.collectiveCharts)
                sec.charts.push_back({kind, {s.id}, collectiveCaption(kind)});
            const auto brief = collectiveSummary(s, points, o.hardware, false);
            append(summary, {brief.empty() ? std::string() : brief.front()});
            sec.tables.push_back(fitTable(s, points));
            sec.tables.push_back(collectiveTable(s, points, o.hardware));
        } else {
            sec.paragraphs.push_back("The session holds no collective points.");
        }
    } else if (isKernelKind(s.kind)) {
        auto facts = kernelFacts(ws, s);
        sec.paragraphs = facts.sentences;
        append(summary, facts.sentences);
        sec.charts.push_back({s.kind == kind::MemBandwidth ? "membw" : "roofline", {s.id},
                              s.kind == kind::MemBandwidth ? "Bandwidth against working-set size"
                                                           : "Roofline: measured points under the ceilings"});
        sec.tables = std::move(facts.tables);
    } else if (s.kind == kind::Trace) {
        sec.paragraphs = traceFacts(ws, s);
        sec.charts.push_back({"trace-steps", {s.id},
                              "Step time by kernel class (mean over ranks), with the slowest and fastest rank"});
    } else if (s.kind == kind::TrainingLog) {
        sec.paragraphs = trainLogFacts(ws, s);
        sec.charts.push_back({"trainlog-loss", {s.id}, "Loss per step, with restarts, stalls and skipped iterations"});
        sec.charts.push_back({"trainlog-steptime", {s.id}, "Step time per step"});
    } else {
        sec.paragraphs.push_back("A '" + s.kind + "' session: reports list its provenance; `ridgeline-cli results "
                                 + std::to_string(s.id) + "` shows its records.");
    }
    summary.erase(std::remove(summary.begin(), summary.end(), std::string()), summary.end());
    sec.tables.push_back(provenanceTable(s));
    return sec;
}

bool isRunKind(const std::string& k) { return k == kind::Trace || k == kind::TrainingLog; }

std::string compared(const model::ComparisonRow& r, double v)
{
    if (std::isnan(v))
        return "n/a";
    if (r.unit == "s")
        return units::formatTime(v * 1e6);
    if (r.unit.empty()) // a fraction (MFU)
        return units::formatPercent(v);
    char b[48];
    std::snprintf(b, sizeof b, "%.1f %s", v, r.unit.c_str()); // "344.9 TFLOP/s"
    return b;
}

// What the cluster template says where the sizing would be, so that its absence is not mistaken
// for a report that has none to give.
const char* const kNoSizing =
    "No model was sized for this report: give ridgeline-cli report --model CONFIG --hardware PROFILE "
    "[--parallel LAYOUT], or choose a model in the GUI's Report options, to add the model's step time, memory "
    "and predicted vs measured.";

// The sizing's prediction next to what each trace or training log measured.
Section predictedVsMeasured(store::Workspace& ws, const std::vector<const Session*>& runs, const Options& o,
                            std::vector<std::string>& summary)
{
    const SizingInput& in = *o.sizing;
    Section sec{"Predicted vs measured",
                {"The sizing model's step for " + in.model + " next to what the traces and training logs measured, "
                 "with each run's own layout, batch and device where the session states them (as ridgeline-cli "
                 "vs-measured), else " + in.layout + " on " + in.device + "."},
                {},
                {}};
    for (const auto* s : runs) {
        const auto own = std::find_if(o.runs.begin(), o.runs.end(), [&](const RunPrediction& r) { return r.session == s->id; });
        if (own != o.runs.end() && !own->notCompared.empty()) {
            sec.paragraphs.push_back(sessionLabel(*s) + ": not compared with " + in.model + ": " + own->notCompared + ".");
            continue;
        }
        const auto& predicted = own != o.runs.end() ? own->sizing : in.sizing;
        if (own != o.runs.end()) {
            std::string basis = sessionLabel(*s) + ": predicted for " + own->layout + " on " + own->device;
            for (const auto& t : own->taken)
                basis += "; from the run: " + t;
            for (const auto& a : own->assumed)
                basis += "; assumed: " + a;
            sec.paragraphs.push_back(basis);
        }
        const auto measured = model::measuredFromSession(*s, store::stepBreakdowns(ws.database(), s->id),
                                                         store::trainSteps(ws.database(), s->id));
        const auto cmp = model::comparePrediction(predicted, measured);
        Table t{sessionLabel(*s) + " (" + measured.source + ")", {"quantity", "predicted", "measured", "measured - predicted"}, {}};
        for (const auto& row : cmp.rows) {
            const bool known = !std::isnan(row.measured);
            t.rows.push_back({row.quantity, compared(row, row.predicted), compared(row, row.measured),
                              known ? (row.gap() >= 0 ? "+" : "-") + compared(row, std::abs(row.gap())) : "n/a"});
            if (known && row.quantity == "step time" && row.predicted > 0)
                summary.push_back("session " + std::to_string(s->id) + " measured a step of "
                                  + units::formatTime(row.measured * 1e6) + " against the predicted "
                                  + units::formatTime(row.predicted * 1e6) + " ("
                                  + (row.measured >= row.predicted ? "+" : "-")
                                  + units::formatPercent(std::abs(row.gap()) / row.predicted) + ")");
        }
        for (const auto& problem : cmp.problems)
            sec.paragraphs.push_back(sessionLabel(*s) + ": not shown: " + problem);
        for (const auto& g : cmp.largestGaps)
            sec.paragraphs.push_back(sessionLabel(*s) + ": " + g);
        sec.tables.push_back(std::move(t));
    }
    return sec;
}
} // namespace

std::vector<std::pair<std::string, std::string>> provenanceRows(const Session& s)
{
    std::vector<std::pair<std::string, std::string>> rows;
    auto add = [&](const std::string& k, const std::string& v) {
        if (!v.empty())
            rows.emplace_back(k, v);
    };
    add("session", std::to_string(s.id) + (s.title.empty() ? "" : " (" + s.title + ")"));
    add("kind", s.kind);
    add("tool", s.tool + (s.toolVersion.empty() ? "" : " " + s.toolVersion));
    add("command line", s.commandLine);
    add("host", s.host);
    // An import whose file carries no date has the time of the import: said so, not as the run's.
    const bool dated = s.params.is_object() && s.params.contains(kCreatedFromParam);
    if (dated)
        add("recorded", s.created + " (" + jsonText(s.params[kCreatedFromParam]) + ")");
    else
        add(s.sourceFileId ? "imported" : "recorded", s.created);
    add("status", toString(s.status));
    const auto& p = s.params;
    if (p.is_object()) {
        // The facts a reader looks for first, in this order; everything else after them.
        const std::vector<std::pair<const char*, const char*>> known{
            {"hosts", "hosts"}, {"devices", "devices"}, {"nccl_version", "NCCL version"},
            {"rccl_version", "RCCL version"}, {"library_versions", "library versions"}, {"mpi", "MPI"}};
        std::set<std::string> done{kCreatedFromParam};
        for (const auto& [key, label] : known)
            if (p.contains(key)) {
                add(label, jsonText(p[key]));
                done.insert(key);
            }
        if (p.contains("environment") && p["environment"].is_object()) {
            for (const auto& [name, value] : p["environment"].items())
                add("env " + name, jsonText(value));
            done.insert("environment");
        }
        for (const auto& [key, value] : p.items())
            if (!done.count(key))
                add(key, jsonText(value));
    }
    add("notes", s.notes);
    return rows;
}

std::vector<OpPeak> peakPerOp(const std::vector<CollectivePoint>& points)
{
    using Key = std::tuple<std::string, int, std::string>; // op, ranks, split level
    const auto keyOf = [](const CollectivePoint& p) { return Key{p.op, p.nranks, splitLevelOf(p.group)}; };
    std::map<Key, std::set<std::string>> groups;
    for (const auto& p : points)
        groups[keyOf(p)].insert(p.group);
    std::map<Key, OpPeak> best;
    for (const auto& p : slowestGroupAtEachSize(points)) {
        const OpPeak here{p.op, p.nranks, p.busbwGBs, p.bytes, p.inPlace, p.group, groups[keyOf(p)].size() > 1};
        auto [it, fresh] = best.try_emplace(keyOf(p), here);
        if (!fresh && p.busbwGBs > it->second.busbwGBs)
            it->second = here;
    }
    std::vector<OpPeak> out;
    for (auto& [k, v] : best)
        out.push_back(v);
    return out;
}

std::string peakSentence(const OpPeak& peak, const std::optional<TierPeak>& tier, bool reasoning)
{
    std::string s = peak.op + " on " + std::to_string(peak.ranks) + " ranks"
                    + (peak.amongGroups ? " (the slowest group at each size)" : "") + " peaks at a busbw of "
                    + units::formatBandwidth(peak.busbwGBs) + " at " + units::formatBytes(double(peak.bytes))
                    + (peak.group.empty() ? std::string() : " (" + peak.group + ")");
    if (tier && tier->peakBusGBs > 0)
        s += ", " + units::formatPercent(peak.busbwGBs / tier->peakBusGBs) + " of " + tierName(*tier) + " ("
             + units::formatBandwidth(tier->peakBusGBs) + (reasoning ? ": " + tier->reasoning : std::string()) + ")";
    return s;
}

std::string fitSentence(const std::string& op, const fits::AlphaBeta& f)
{
    return op + ": alpha " + units::formatTime(f.alphaUs) + ", beta " + units::formatBandwidth(f.betaGBs)
           + " (alpha-beta fit over " + units::formatBytes(double(f.minBytes)) + " .. "
           + units::formatBytes(double(f.maxBytes)) + ", " + std::to_string(f.points) + " points, rms error "
           + units::formatPercent(f.rmsRelError) + ")";
}

std::vector<std::string> collectiveSummary(const Session& s, const std::vector<CollectivePoint>& points,
                                           const std::optional<HardwareProfile>& hw, bool reasoning)
{
    std::vector<std::string> out;
    const auto peaks = peakPerOp(points);
    for (const auto& p : peaks)
        out.push_back(peakSentence(p, tierOf(s, p, hw), reasoning));
    std::set<std::pair<std::string, int>> fitted;
    std::map<std::string, int> rankCounts; // a split session fits each op once per rank count: say which
    for (const auto& p : peaks)
        ++rankCounts[p.op];
    const auto counted = slowestGroupAtEachSize(points);
    for (const auto& p : peaks)
        if (fitted.insert({p.op, p.ranks}).second)
            if (const auto f = fitOf(counted, p.op, p.ranks))
                out.push_back(fitSentence(rankCounts[p.op] > 1 ? p.op + " on " + std::to_string(p.ranks) + " ranks" : p.op, *f));
    return out;
}

std::string sizingSentence(const SizingInput& in)
{
    const auto& st = in.sizing.step;
    std::string s = in.model + " on " + std::to_string(in.gpus) + " x " + in.device + " (" + in.layout + ", " + in.dtype
                    + "): step " + units::formatTime(st.stepSeconds * 1e6) + ", "
                    + units::formatCount(st.tokensPerSecond) + " tokens/s, MFU " + units::formatPercent(st.mfu) + ", "
                    + units::formatMemory(st.memory.total()) + " per GPU";
    if (st.memoryCapacity > 0)
        s += st.fitsMemory()
                 ? " (fits " + units::formatMemory(st.memoryCapacity) + ")"
                 : " (DOES NOT FIT " + units::formatMemory(st.memoryCapacity) + ")";
    int warnings = 0;
    for (const auto& f : in.sizing.findings)
        warnings += f.severity == model::RuleSeverity::Warning;
    s += "; " + std::to_string(warnings) + " of " + std::to_string(in.sizing.findings.size())
         + " sizing rules flag the layout";
    return s;
}

Section sizingSection(const SizingInput& in)
{
    const auto& r = in.sizing;
    const auto& st = r.step;
    Section sec{"Sizing: " + in.model + " on " + in.device, {sizingSentence(in)}, {}, {}};
    // How far the model has been off on published runs of this kind (on this device when it has enough).
    const model::ErrorBand band = model::modelErrorBand(r.params.experts > 0, in.device, in.framework);
    sec.charts.push_back({"roofline", {}, "The GEMMs of one training step of " + in.model + " (" + in.layout
                                              + ") as predicted on " + in.device + ", under its ceilings",
                          true});
    Table t{"Training step (" + in.layout + ", " + std::to_string(in.gpus) + " GPUs, " + in.dtype + ")", {"quantity", "value"}, {}};
    t.rows = {{"training recipe", in.recipe},
              {"parameters (total / active)", units::formatCount(r.params.total()) + " / " + units::formatCount(r.params.active())},
              {"memory per GPU", units::formatMemory(st.memory.total())},
              {"device memory", st.memoryCapacity > 0 ? units::formatMemory(st.memoryCapacity) : "unknown"},
              {"compute (GEMMs + element-wise)", units::formatTime(st.computeSeconds * 1e6)},
              {"pipeline bubble", units::formatTime(st.bubbleSeconds * 1e6)},
              {"optimizer step", units::formatTime(st.optimizerSeconds * 1e6)},
              {"communication (exposed)", units::formatTime(st.commSeconds * 1e6) + " (" + units::formatTime(st.exposedCommSeconds * 1e6) + ")"},
              {"step time", units::formatTime(st.stepSeconds * 1e6)},
              {"expected error (ridgeline-cli validate)", model::describe(band)},
              {"mean error over those runs", model::describeBias(band)},
              {"tokens per second", units::formatCount(st.tokensPerSecond)},
              {"model TFLOP/s per GPU", units::formatFlops(st.modelTflopsPerGpu * 1e12)},
              {"MFU (peak / max achievable)", units::formatPercent(st.mfu) + " / " + units::formatPercent(st.mfuMaxAchievable)},
              {"prefill", units::formatTime(r.prefillSeconds * 1e6)},
              {"decode per token", units::formatTime(r.decode.secondsPerToken * 1e6)}};
    sec.tables.push_back(std::move(t));
    Table comm{"Communication per step", {"what", "size", "ranks", "calls", "time/call", "source"}, {}};
    for (int i = 0; i < st.commCount; ++i) {
        const auto& o = st.comm[i];
        char calls[32];
        std::snprintf(calls, sizeof calls, "%.0f", o.count);
        comm.rows.push_back({o.what, units::formatBytes(o.bytes), std::to_string(o.ranks) + (o.crossNode ? " (inter-node)" : ""),
                             calls, units::formatTime(o.timeUs), o.measured ? "measured" : "profile"});
    }
    if (!comm.rows.empty())
        sec.tables.push_back(std::move(comm));
    Table rules{"Sizing rules", {"rule", "result", "finding", "nearest compliant"}, {}};
    for (const auto& f : r.findings)
        rules.rows.push_back({f.rule, model::toString(f.severity), f.message, f.proposal});
    sec.tables.push_back(std::move(rules));
    return sec;
}

Report buildReport(store::Workspace& ws, const std::vector<std::int64_t>& ids, const Options& o)
{
    Report r;
    r.title = o.title.empty() ? (o.layout == Template::Cluster ? "Cluster characterisation" : "Ridgeline report") : o.title;
    r.generated = nowIso8601();
    r.generator = std::string("Ridgeline ") + RIDGELINE_VERSION;
    r.hardware = o.hardware ? o.hardware->id : std::string();
    std::vector<Session> sessions;
    for (auto id : ids) {
        auto s = ws.session(id);
        if (!s)
            throw std::runtime_error("no session " + std::to_string(id) + " in " + ws.path());
        sessions.push_back(std::move(*s));
    }
    if (o.layout == Template::Sessions) {
        std::vector<const Session*> runs;
        for (const auto& s : sessions) {
            r.sections.push_back(sessionSection(ws, s, o, r.summary));
            if (isRunKind(s.kind))
                runs.push_back(&s);
        }
        if (o.sizing) {
            r.summary.push_back(sizingSentence(*o.sizing));
            r.sections.push_back(sizingSection(*o.sizing));
            if (!runs.empty())
                r.sections.push_back(predictedVsMeasured(ws, runs, o, r.summary));
        }
        return r;
    }
    // Cluster: collectives by tier (nodes), then kernels and the roofline, then the sizing.
    std::map<int, std::vector<const Session*>> tiers; // nodes -> sessions (0: unknown)
    std::vector<const Session*> kernels, other;
    for (const auto& s : sessions) {
        if (s.kind == kind::Collectives)
            tiers[sessionNodes(s)].push_back(&s);
        else if (isKernelKind(s.kind))
            kernels.push_back(&s);
        else
            other.push_back(&s);
    }
    Section provenance{"Provenance", {"Where each number comes from: tool, command line, hosts, environment."}, {}, {}};
    for (const auto& [nodes, list] : tiers) {
        Section sec{nodes == 1   ? "Collectives within one node"
                    : nodes > 1 ? "Collectives across " + std::to_string(nodes) + " nodes"
                                : "Collectives (nodes unknown)",
                    {}, {}, {}};
        std::vector<std::int64_t> chartIds;
        // One row per op and rank count of the tier: the figure a reader compares across tiers.
        Table peaks{"Peak bus bandwidth per op", {"session", "op", "ranks", "peak busbw", "at size", "tier ceiling", "of ceiling"}, {}};
        for (const auto* s : list)
            for (const auto& p : peakPerOp(ws.collectivePoints(s->id))) {
                const auto tier = tierOf(*s, p, o.hardware);
                peaks.rows.push_back({std::to_string(s->id), p.op,
                                      std::to_string(p.ranks) + (p.group.empty() ? "" : " (" + p.group + ")"),
                                      units::formatBandwidth(p.busbwGBs),
                                      units::formatBytes(double(p.bytes)),
                                      tier ? units::formatBandwidth(tier->peakBusGBs) : "",
                                      tier ? units::formatPercent(p.busbwGBs / tier->peakBusGBs) : ""});
            }
        sec.tables.push_back(std::move(peaks));
        for (const auto* s : list) {
            const auto points = ws.collectivePoints(s->id);
            for (const auto& line : collectiveSummary(*s, points, o.hardware, true))
                sec.paragraphs.push_back(sessionLabel(*s) + " — " + line);
            const auto brief = collectiveSummary(*s, points, o.hardware, false);
            if (!brief.empty())
                r.summary.push_back(brief.front() + (nodes > 1 ? " across " + std::to_string(nodes) + " nodes" : ""));
            if (!points.empty())
                chartIds.push_back(s->id);
            sec.tables.push_back(fitTable(*s, points));
            provenance.tables.push_back(provenanceTable(*s));
        }
        if (!chartIds.empty()) {
            for (const auto& kind : o.collectiveCharts)
                sec.charts.push_back({kind, chartIds, collectiveCaption(kind)});
        }
        r.sections.push_back(std::move(sec));
    }
    if (!kernels.empty()) {
        Section sec{"Kernels and roofline", {}, {}, {}};
        std::vector<std::int64_t> roofline, membw;
        for (const auto* s : kernels) {
            auto facts = kernelFacts(ws, *s);
            append(sec.paragraphs, facts.sentences);
            append(r.summary, facts.sentences);
            for (auto& t : facts.tables)
                sec.tables.push_back(std::move(t));
            roofline.push_back(s->id);
            if (s->kind == kind::MemBandwidth)
                membw.push_back(s->id);
            provenance.tables.push_back(provenanceTable(*s));
        }
        sec.charts.push_back({"roofline", roofline, "Roofline: measured points under the ceilings"
                                                    + std::string(o.hardware ? " and " + o.hardware->id + "'s" : "")});
        if (!membw.empty())
            sec.charts.push_back({"membw", membw, "Bandwidth against working-set size"});
        r.sections.push_back(std::move(sec));
    }
    if (!o.sizing)
        r.sections.push_back({"Sizing", {kNoSizing}, {}, {}});
    if (o.sizing) {
        r.summary.push_back(sizingSentence(*o.sizing));
        r.sections.push_back(sizingSection(*o.sizing));
        std::vector<const Session*> runs;
        for (const auto* s : other)
            if (isRunKind(s->kind))
                runs.push_back(s);
        if (!runs.empty())
            r.sections.push_back(predictedVsMeasured(ws, runs, o, r.summary));
    }
    for (const auto* s : other)
        provenance.tables.push_back(provenanceTable(*s));
    if (!provenance.tables.empty())
        r.sections.push_back(std::move(provenance));
    return r;
}
} // namespace rl::report
