// ridgeline-cli results SESSION: a session's stored records, in the table its kind calls for
// (collective points; GEMM, memory-bandwidth or peak-FLOP/s points; a trace's per-step breakdown
// and top kernels; a training log's steps, events and goodput), or as JSON with --json.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>

#include <nlohmann/json.hpp>

#include "clicommands.h"
#include "io/textbuffer.h"
#include "records/wireformat.h"
#include "collectives/pairs.h"
#include "collectives/referencecheck.h"
#include "collectives/splitgroups.h"
#include "importers/nvbandwidth.h"
#include "store/kernelresults.h"
#include "store/storageresults.h"
#include "store/pairresults.h"
#include "store/traceresults.h"
#include "store/workspace.h"
#include "texttable.h"
#include "tieroptions.h"
#include "units/units.h"

namespace rl::cli {
namespace {
constexpr int kTopKernels = 10;

nlohmann::json num(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(); }

std::string ms(double v) { return cellOrNa(v, [](double x) { return units::formatTime(x * 1e3); }); }
std::string us(double v) { return units::formatTime(v); }

std::string tierCell(const std::optional<TierPeak>& tier, double busbwGBs)
{
    return tier ? units::formatPercent(busbwGBs / tier->peakBusGBs) : "";
}

// The tier ceiling of each (op, ranks) of a session, looked up once; the reason when there is none.
struct TierLookup
{
    const Session& s;
    const TierArgs& args;
    std::map<std::tuple<std::string, int, int>, std::pair<std::optional<TierPeak>, std::string>> cache;

    const std::pair<std::optional<TierPeak>, std::string>& of(const CollectivePoint& p)
    {
        const auto key = std::make_tuple(p.op, p.nranks, groupNodes(s, p.group));
        if (auto it = cache.find(key); it != cache.end())
            return it->second;
        std::string why;
        auto tier = resolveTier(s, p.op, p.nranks, args, &why, p.group);
        return cache[key] = {std::move(tier), why};
    }
};

// Per op and rank count: the tier, its ceiling with the reasoning, and the best busbw against it,
// one point at a time (the first of the best is kept).
class TierSummary
{
public:
    void add(const CollectivePoint& p)
    {
        auto [it, fresh] = m_best.try_emplace({p.op, p.nranks}, p);
        if (!fresh && p.busbwGBs > it->second.busbwGBs)
            it->second = p;
    }
    void print(TierLookup& tiers) const
    {
        for (const auto& [key, p] : m_best) {
            const auto& [tier, why] = tiers.of(p);
            if (!tier) {
                std::cout << key.first << ", " << key.second << " ranks: no tier peak (" << why << ")\n";
                continue;
            }
            std::cout << tier->reasoning << "; " << describeShareOfPeak(*tier, p.busbwGBs) << " (at "
                      << units::formatBytes(double(p.bytes)) << (p.group.empty() ? "" : ", " + p.group)
                      << "). Source: " << tier->source << '\n';
        }
    }

private:
    std::map<std::pair<std::string, int>, CollectivePoint> m_best;
};

// A --split session: the group furthest below the median of its level, so a slow node stands out.
void printSlowestGroup(const SlowestGroup& g)
{
    if (g.group.empty()) {
        std::cout << "slowest: no two groups measured the same size with a bus bandwidth to compare\n";
        return;
    }
    std::cout << "slowest: " << g.group << " at " << units::formatBytes(double(g.bytes)) << " (" << g.op
              << (g.inPlace ? " in-place" : "") << "): busbw " << units::formatBandwidth(g.busbwGBs) << ", "
              << units::formatPercent(g.fraction) << " of the median group (" << units::formatBandwidth(g.medianGBs)
              << ")\n";
}

struct ReferenceArgs
{
    std::int64_t session = 0; // 0: no reference
    double below = 0.9;
};

// The points' table, every optional column included; the ones no point needs are left out when
// it is printed (collectiveColumns).
enum CollectiveColumn : std::size_t {
    OpColumn, GroupColumn, RanksColumn, DtypeColumn, RedopColumn, SizeColumn, CountColumn, InPlaceColumn, TimeColumn,
    AlgbwColumn, BusbwColumn, OfPeakColumn, WrongColumn, CallsColumn, MinColumn, P50Column, P99Column, MaxColumn,
    CvColumn, ImbalanceColumn, RefBusbwColumn, VsRefColumn, CollectiveColumnCount
};

std::vector<std::string> collectiveRow(const CollectivePoint& p, const std::optional<TierPeak>& tier,
                                       const std::optional<ReferenceVerdict>& v)
{
    std::vector<std::string> row{p.op, p.group, std::to_string(p.nranks), p.dtype, p.redop,
                                 units::formatBytes(double(p.bytes)), std::to_string(p.count), p.inPlace ? "yes" : "no",
                                 units::formatTime(p.timeUs), units::formatBandwidth(p.algbwGBs),
                                 units::formatBandwidth(p.busbwGBs), tierCell(tier, p.busbwGBs),
                                 p.wrong < 0 ? "n/a" : std::to_string(p.wrong)};
    row.reserve(CollectiveColumnCount);
    if (const auto& c = p.stats)
        row.insert(row.end(), {std::to_string(c->iters), us(c->minUs), us(c->p50Us), us(c->p99Us), us(c->maxUs),
                               units::formatPercent(c->cv)});
    else
        row.insert(row.end(), {"n/a", "n/a", "n/a", "n/a", "n/a", "n/a"});
    row.push_back(p.imbalance > 0 ? numberCell(p.imbalance, 3) : "");
    row.push_back(v ? units::formatBandwidth(v->expectedBusGBs) : "n/a");
    row.push_back(v ? units::formatPercent(v->ratio) + (v->flagged ? " BELOW" : "") : "n/a");
    return row;
}

// Which columns a point asks for beyond the ones every table has.
struct CollectiveColumnsNeeded
{
    bool stats = false; // the runner's points carry the distribution over the timed calls; imports of other tools do not
    bool groups = false;
    bool imbalance = false;
    bool reference = false;

    void add(const CollectivePoint& p)
    {
        stats = stats || p.stats.has_value();
        groups = groups || !p.group.empty();
        imbalance = imbalance || p.imbalance > 0;
    }
    std::vector<std::size_t> columns() const
    {
        std::vector<std::size_t> out{OpColumn};
        if (groups)
            out.push_back(GroupColumn);
        for (std::size_t c = RanksColumn; c <= WrongColumn; ++c)
            out.push_back(c);
        if (stats)
            for (std::size_t c = CallsColumn; c <= CvColumn; ++c)
                out.push_back(c);
        if (imbalance)
            out.push_back(ImbalanceColumn);
        if (reference)
            out.insert(out.end(), {RefBusbwColumn, VsRefColumn});
        return out;
    }
};

std::vector<std::string> pick(const std::vector<std::string>& row, const std::vector<std::size_t>& columns)
{
    std::vector<std::string> out;
    out.reserve(columns.size());
    for (auto c : columns)
        out.push_back(row[c]);
    return out;
}

// An array of the points, one object per line: a session of millions of points is written as
// export writes its points (wire::writeJsonMembers, no json object per point), with the reference's
// and the tier's verdicts after the point's own members.
void printCollectivesJson(store::Workspace& ws, const Session& s, TierLookup& tiers, ReferenceCheck* reference)
{
    io::TextBuffer out(std::cout);
    bool empty = true;
    out.ch('[');
    ws.forEachCollectivePoint(s.id, [&](const CollectivePoint& p) {
        out.text(empty ? "\n{" : ",\n{");
        empty = false;
        wire::writeJsonMembers(out, p);
        if (reference)
            if (const auto v = reference->verdict(p)) {
                wire::writeJsonNumber(out, "reference_busbw_gbs", v->expectedBusGBs);
                wire::writeJsonNumber(out, "busbw_vs_reference", v->ratio);
                wire::writeJsonFlag(out, "below_reference", v->flagged);
            }
        if (const auto& tier = tiers.of(p).first) {
            wire::writeJsonText(out, "tier", tier->interNode ? "inter-node" : "intra-node");
            wire::writeJsonNumber(out, "tier_peak_busbw_gbs", tier->peakBusGBs);
            wire::writeJsonNumber(out, "busbw_percent_of_tier_peak", 100 * p.busbwGBs / tier->peakBusGBs);
        }
        out.ch('}');
        out.endRow();
        return bool(std::cout);
    });
    out.text(empty ? "]\n" : "\n]\n");
    out.flush();
}

// A session of millions of points is read twice rather than held: once in the order it is stored
// (no sort) to learn the columns' widths and which columns are needed, once in the table's order
// to print the rows and gather the summaries printed after them.
void printCollectives(store::Workspace& ws, const Session& s, bool json, const TierArgs& tierArgs,
                      const ReferenceArgs& ref)
{
    TierLookup tiers{s, tierArgs, {}};
    std::vector<CollectivePoint> referencePoints; // a reference is one curve per op, not a long session
    std::optional<ReferenceCheck> reference;
    if (ref.session > 0) {
        requireSession(ws, ref.session);
        referencePoints = ws.collectivePoints(ref.session);
        reference.emplace(referencePoints, ref.below);
    }
    if (json) {
        printCollectivesJson(ws, s, tiers, reference ? &*reference : nullptr);
        return;
    }
    TextTable all({"op", "group", "ranks", "dtype", "redop", "size", "count", "in-place", "time", "algbw", "busbw",
                   "of peak", "wrong", "calls", "min", "p50", "p99", "max", "CV", "imbalance", "ref busbw", "vs ref"});
    CollectiveColumnsNeeded needed;
    needed.reference = reference.has_value();
    TierSummary summary;
    SlowestGroupFinder slowest;
    int flagged = 0, compared = 0;
    std::optional<ReferenceVerdict> v;
    ws.forEachCollectivePoint(
        s.id,
        [&](const CollectivePoint& p) {
            if (reference)
                v = reference->verdict(p);
            all.measure(collectiveRow(p, tiers.of(p).first, v));
            needed.add(p);
            return true;
        },
        store::Workspace::PointOrder::Stored);
    const auto columns = needed.columns();
    const TextTable table = all.columns(columns);
    table.printHeader(std::cout);
    ws.forEachCollectivePoint(s.id, [&](const CollectivePoint& p) {
        if (reference) {
            v = reference->verdict(p);
            compared += v.has_value();
            flagged += v && v->flagged;
        }
        table.printRow(std::cout, pick(collectiveRow(p, tiers.of(p).first, v), columns));
        summary.add(p);
        slowest.add(p);
        return bool(std::cout);
    });
    if (needed.groups)
        printSlowestGroup(slowest.result());
    summary.print(tiers);
    if (ref.session > 0)
        std::cout << flagged << " of " << compared << " points below " << units::formatPercent(ref.below)
                  << " of the busbw session " << ref.session << "'s alpha-beta fit expects at their size\n";
    if (needed.stats)
        std::cout << "time is the slowest rank's mean per call; calls = timed calls per rank; min/p50/p99/max/CV are\n"
                     "over each rank's timed samples, the largest over ranks\n";
    if (needed.imbalance)
        std::cout << "imbalance (all_to_allv) = the busiest rank's bytes sent or received / the mean bytes a rank sends\n";
}

// A pairs session: every pair, then the pairs below `fraction` of the median and the ranks they share.
void printPairs(store::Workspace& ws, const Session& s, bool json, double fraction)
{
    const auto pairs = store::pairPoints(ws.database(), s.id);
    const PairReport report = findSlowPairs(pairs, fraction);
    if (json) {
        nlohmann::json out{{"pairs", nlohmann::json::array()}, {"slow", nlohmann::json::array()},
                           {"median_bandwidth_gbs", report.medianBandwidthGBs},
                           {"median_latency_us", report.medianLatencyUs}, {"fraction", fraction},
                           {"suspects", nlohmann::json::array()}};
        for (const auto& p : pairs)
            out["pairs"].push_back(wire::toJson(p));
        for (const auto& p : report.slow) {
            auto j = wire::toJson(p.pair);
            j["bandwidth_fraction"] = p.bandwidthFraction;
            j["latency_ratio"] = p.latencyRatio;
            j["why"] = p.why;
            out["slow"].push_back(j);
        }
        for (const auto& [rank, n] : report.suspects)
            out["suspects"].push_back({{"rank", rank}, {"slow_pairs", n}});
        std::cout << out.dump(2) << '\n';
        return;
    }
    const auto label = [](int rank, const std::string& host) { return std::to_string(rank) + (host.empty() ? "" : " (" + host + ")"); };
    TextTable t({"rank a", "rank b", "latency", "bandwidth", "of median"});
    for (const auto& p : pairs)
        t.addRow({label(p.rankA, p.hostA), label(p.rankB, p.hostB), us(p.latencyUs), units::formatBandwidth(p.bandwidthGBs),
                  report.medianBandwidthGBs > 0 ? units::formatPercent(p.bandwidthGBs / report.medianBandwidthGBs) : "n/a"});
    t.print(std::cout);
    std::cout << "\nmedian " << units::formatBandwidth(report.medianBandwidthGBs) << ", " << us(report.medianLatencyUs)
              << "; slow = bandwidth below " << units::formatPercent(fraction) << " of the median or latency above the median / "
              << numberCell(fraction, 3) << '\n';
    if (report.slow.empty()) {
        std::cout << "no slow pairs\n";
        return;
    }
    std::cout << report.slow.size() << " slow pair(s):\n";
    TextTable slow({"rank a", "rank b", "latency", "bandwidth", "why"});
    for (const auto& p : report.slow)
        slow.addRow({label(p.pair.rankA, p.pair.hostA), label(p.pair.rankB, p.pair.hostB), us(p.pair.latencyUs),
                     units::formatBandwidth(p.pair.bandwidthGBs), p.why});
    slow.print(std::cout);
    for (const auto& [rank, n] : report.suspects)
        std::cout << "rank " << rank << " is in " << n << " of the slow pairs\n";
}

void printKernelPoints(store::Workspace& ws, const Session& s, bool json)
{
    auto& db = ws.database();
    if (json) {
        nlohmann::json out = nlohmann::json::array();
        for (const auto& p : store::gemmPoints(db, s.id))
            out.push_back(wire::toJson(p));
        for (const auto& p : store::memBwPoints(db, s.id))
            out.push_back(wire::toJson(p));
        for (const auto& c : store::memCeilings(db, s.id))
            out.push_back(wire::toJson(c));
        for (const auto& p : store::peakFlopsPoints(db, s.id))
            out.push_back(wire::toJson(p));
        std::cout << out.dump(2) << '\n';
        return;
    }
    if (s.kind == kind::Gemm) {
        TextTable t({"dtype", "op", "M", "N", "K", "batch", "time", "throughput", "efficiency", "threads", "device"});
        for (const auto& p : store::gemmPoints(db, s.id))
            t.addRow({p.dtype, p.transA + p.transB, std::to_string(p.m), std::to_string(p.n), std::to_string(p.k),
                      std::to_string(p.batch), units::formatTime(p.timeUs), units::formatFlops(p.gflops * 1e9),
                      p.efficiency > 0 ? units::formatPercent(p.efficiency) : "n/a", std::to_string(p.threads), p.device});
        t.print(std::cout);
    } else if (s.kind == kind::MemBandwidth) {
        TextTable t({"kernel", "working set", "threads", "best time", "bandwidth"});
        for (const auto& p : store::memBwPoints(db, s.id))
            t.addRow({p.kernel, units::formatBytes(double(p.bytes)), std::to_string(p.threads),
                      units::formatTime(p.bestTimeUs), units::formatBandwidth(p.bandwidthGBs)});
        t.print(std::cout);
        const auto ceilings = store::memCeilings(db, s.id);
        if (!ceilings.empty()) {
            std::cout << "\nceilings (plateaus of the " << ceilings.front().kernel << " curve)\n";
            TextTable c({"level", "threads", "working sets", "bandwidth"});
            for (const auto& m : ceilings)
                c.addRow({m.level, std::to_string(m.threads),
                          units::formatBytes(double(m.fromBytes)) + " .. " + units::formatBytes(double(m.toBytes)),
                          units::formatBandwidth(m.bandwidthGBs)});
            c.print(std::cout);
        }
    } else {
        TextTable t({"dtype", "threads", "isa", "measured", "theoretical", "of theory", "derivation"});
        for (const auto& p : store::peakFlopsPoints(db, s.id))
            t.addRow({p.dtype, std::to_string(p.threads), p.isa, units::formatFlops(p.gflops * 1e9),
                      p.theoreticalGflops > 0 ? units::formatFlops(p.theoreticalGflops * 1e9) : "n/a",
                      p.theoreticalGflops > 0 ? units::formatPercent(p.gflops / p.theoreticalGflops) : "n/a", p.derivation});
        t.print(std::cout);
    }
}

// nvbandwidth's matrices, kept with the session (importers/nvbandwidth.h says why): one table each.
void printCopyMatrices(const Session& s, bool json)
{
    const auto matrices = s.params.value("matrices", nlohmann::json::array());
    if (json) {
        std::cout << matrices.dump(2) << '\n';
        return;
    }
    for (const auto& m : copyMatricesOf(s.params)) {
        std::vector<std::string> header{m.testcase};
        header.insert(header.end(), m.columnLabels.begin(), m.columnLabels.end());
        TextTable t(header);
        for (std::size_t r = 0; r < m.values.size(); ++r) {
            std::vector<std::string> row{m.rowLabels[r]};
            for (const auto& v : m.values[r])
                row.push_back(v ? numberCell(*v, 6) : std::string("N/A"));
            t.addRow(std::move(row));
        }
        std::cout << m.description << '\n';
        t.print(std::cout);
        std::cout << '\n';
    }
}

void printStorage(store::Workspace& ws, const Session& s, bool json)
{
    const auto points = store::storagePoints(ws.database(), s.id);
    if (json) {
        nlohmann::json out = nlohmann::json::array();
        for (const auto& p : points)
            out.push_back(wire::toJson(p));
        std::cout << out.dump(2) << '\n';
        return;
    }
    auto bw = [](double v) { return v > 0 ? units::formatBandwidth(v) : std::string("n/a"); };
    TextTable t({"op", "access", "ranks", "file/rank", "block", "fsync", "direct", "aggregate", "per rank min",
                 "mean", "max", "slowest", "time", "first byte"});
    for (const auto& p : points)
        t.addRow({p.op, p.access, std::to_string(p.nranks), units::formatBytes(double(p.fileBytes)),
                  p.blockBytes > 0 ? units::formatBytes(double(p.blockBytes)) : "n/a", p.fsync ? "yes" : "no",
                  p.direct ? "yes" : "no", bw(p.aggregateGBs), bw(p.minRankGBs), bw(p.meanRankGBs), bw(p.maxRankGBs),
                  p.slowestRank >= 0 ? "rank " + std::to_string(p.slowestRank) : "n/a",
                  p.timeS > 0 ? units::formatTime(p.timeS * 1e6) : "n/a",
                  p.firstByteUs > 0 ? units::formatTime(p.firstByteUs) : "n/a"});
    t.print(std::cout);
}

void printTrace(store::Workspace& ws, const Session& s, bool json)
{
    auto& db = ws.database();
    const auto steps = store::stepBreakdowns(db, s.id);
    const auto kernels = store::kernelStats(db, s.id);
    if (json) {
        nlohmann::json out{{"steps", nlohmann::json::array()}, {"kernels", nlohmann::json::array()}};
        for (const auto& b : steps)
            out["steps"].push_back({{"rank", b.rank}, {"step", b.step}, {"step_us", b.stepUs}, {"gemm_us", b.gemmUs},
                                    {"attention_us", b.attentionUs}, {"communication_us", b.communicationUs},
                                    {"memcpy_us", b.memcpyUs}, {"other_us", b.otherUs},
                                    {"exposed_communication_us", b.exposedCommUs}, {"overlap_us", b.overlapUs},
                                    {"idle_us", b.idleUs}, {"kernels", b.kernelCount}});
        for (const auto& k : kernels)
            out["kernels"].push_back({{"rank", k.rank}, {"name", k.name}, {"class", toString(k.kernelClass)},
                                      {"count", k.count}, {"total_us", k.totalUs}, {"mean_us", k.meanUs()},
                                      {"share", k.share}});
        std::cout << out.dump(2) << '\n';
        return;
    }
    TextTable t({"rank", "step", "step time", "GEMM", "attention", "comm", "exposed comm", "memcpy", "other", "idle",
                 "kernels"});
    for (const auto& b : steps)
        t.addRow({std::to_string(b.rank), b.step < 0 ? "whole trace" : std::to_string(b.step), us(b.stepUs),
                  us(b.gemmUs), us(b.attentionUs), us(b.communicationUs), us(b.exposedCommUs), us(b.memcpyUs),
                  us(b.otherUs), us(b.idleUs), std::to_string(b.kernelCount)});
    t.print(std::cout);
    std::cout << "\ntop kernels by total time (of " << kernels.size() << " kernel names over all ranks)\n";
    TextTable k({"rank", "class", "count", "total", "mean", "share", "name"});
    for (std::size_t i = 0; i < kernels.size() && i < std::size_t(kTopKernels); ++i) {
        const auto& e = kernels[i];
        const std::string name = e.name.size() > 80 ? e.name.substr(0, 77) + "..." : e.name;
        k.addRow({std::to_string(e.rank), toString(e.kernelClass), std::to_string(e.count), us(e.totalUs),
                  us(e.meanUs()), units::formatPercent(e.share), name});
    }
    k.print(std::cout);
}

void printTrainingLog(store::Workspace& ws, const Session& s, bool json)
{
    auto& db = ws.database();
    const auto steps = store::trainSteps(db, s.id);
    const auto events = store::trainEvents(db, s.id);
    if (json) {
        nlohmann::json out{{"summary", s.params}, {"steps", nlohmann::json::array()}, {"events", nlohmann::json::array()}};
        for (const auto& st : steps)
            out["steps"].push_back({{"step", st.step}, {"loss", num(st.loss)}, {"step_time_ms", num(st.stepTimeMs)},
                                    {"tokens_per_sec", num(st.tokensPerSec)}, {"tflops_per_gpu", num(st.tflopsPerGpu)},
                                    {"mfu", num(st.mfu)}, {"wall_time_s", num(st.wallTimeS)},
                                    {"skipped_iterations", st.skippedIterations}, {"segment", st.segment},
                                    {"redone", st.redone}, {"line", st.line}});
        for (const auto& e : events)
            out["events"].push_back({{"kind", toString(e.kind)}, {"step", e.step}, {"wall_time_s", num(e.wallTimeS)},
                                     {"lost_s", e.lostS}, {"message", e.message}, {"line", e.line}});
        std::cout << out.dump(2) << '\n';
        return;
    }
    TextTable t({"step", "loss", "step time", "tokens/s", "TFLOP/s/GPU", "MFU", "skipped", "run"});
    for (const auto& st : steps)
        t.addRow({std::to_string(st.step), numberCell(st.loss), ms(st.stepTimeMs), numberCell(st.tokensPerSec, 6),
                  numberCell(st.tflopsPerGpu), units::formatPercent(st.mfu), std::to_string(st.skippedIterations),
                  std::to_string(st.segment) + (st.redone ? " (redone)" : "")});
    t.print(std::cout);
    if (!events.empty()) {
        std::cout << "\nevents\n";
        TextTable e({"kind", "step", "lost", "line", "what"});
        for (const auto& ev : events)
            e.addRow({toString(ev.kind), std::to_string(ev.step), units::formatTime(ev.lostS * 1e6),
                      std::to_string(ev.line), ev.message});
        e.print(std::cout);
    }
    const auto& p = s.params;
    if (p.contains("goodput"))
        std::cout << "\ngoodput " << units::formatPercent(p.value("goodput", 0.0)) << " (" << numberCell(p.value("productive_s", 0.0))
                  << " s productive of " << numberCell(p.value("wall_s", 0.0)) << " s), " << p.value("restarts", 0)
                  << " restarts, " << p.value("stalls", 0) << " stalls, " << p.value("skipped_iterations", 0)
                  << " skipped iterations\n";
}

void addResultsCommand(CLI::App& app, CliContext& ctx)
{
    auto* cmd = app.add_subcommand("results", "Print the results of a session (its kind's records)");
    auto id = std::make_shared<std::int64_t>(0);
    cmd->add_option("session", *id, "Session id")->required();
    auto fraction = std::make_shared<double>(kDefaultSlowPairFraction);
    cmd->add_option("--slow-below", *fraction,
                    "pairs sessions: list pairs whose bandwidth is below this fraction of the median (or latency "
                    "above the median / fraction)")
        ->capture_default_str();
    auto tierArgs = std::make_shared<TierArgs>();
    addTierOptions(cmd, *tierArgs);
    auto ref = std::make_shared<ReferenceArgs>();
    cmd->add_option("--reference", ref->session,
                    "Collective sessions: compare each point with the busbw this session's alpha-beta fit expects");
    cmd->add_option("--flag-below", ref->below, "With --reference: flag points below this fraction of the expected busbw")
        ->capture_default_str()
        ->check(CLI::Range(0.0, 10.0));
    cmd->callback([&ctx, id, fraction, tierArgs, ref] {
        store::Workspace ws(ctx.workspacePath());
        const Session s = requireSession(ws, *id);
        if (s.kind == kind::Trace)
            printTrace(ws, s, ctx.json);
        else if (s.kind == kind::TrainingLog)
            printTrainingLog(ws, s, ctx.json);
        else if (s.kind == kind::Pairs)
            printPairs(ws, s, ctx.json, *fraction);
        else if (s.kind == kind::Gemm || s.kind == kind::MemBandwidth || s.kind == kind::PeakFlops)
            printKernelPoints(ws, s, ctx.json);
        else if (s.kind == kind::Storage)
            printStorage(ws, s, ctx.json);
        else if (s.kind == kind::CopyBandwidth)
            printCopyMatrices(s, ctx.json);
        else
            printCollectives(ws, s, ctx.json, *tierArgs, *ref);
    });
}

const bool registered = registerCommand(&addResultsCommand);
} // namespace
} // namespace rl::cli
