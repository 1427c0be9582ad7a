// ridgeline-cli sessions | fit SESSION: what the workspace holds (results SESSION: resultscommand.cpp).
#include <iostream>
#include <map>
#include <set>
#include <tuple>

#include <nlohmann/json.hpp>

#include "clicommands.h"
#include "fits/alphabetafit.h"
#include "records/wireformat.h"
#include "store/workspace.h"
#include "collectives/collectiveop.h"
#include "collectives/splitgroups.h"
#include "texttable.h"
#include "tieroptions.h"
#include "units/units.h"

namespace rl::cli {
std::string listSessionsHint(const store::Workspace& ws)
{
    if (ws.path() != store::Workspace::defaultPath())
        return "`ridgeline-cli sessions --db " + ws.path() + "` lists them with their kinds";
    return "`ridgeline-cli sessions` lists them with their kinds (another workspace: --db FILE)";
}

Session requireSession(store::Workspace& ws, std::int64_t id)
{
    auto s = ws.session(id);
    if (!s)
        throw std::runtime_error("no session " + std::to_string(id) + " in " + ws.path() + ": " + listSessionsHint(ws));
    return *s;
}

namespace {

void addSessionsCommand(CLI::App& app, CliContext& ctx)
{
    auto* cmd = app.add_subcommand("sessions", "List the sessions in the workspace, newest first");
    cmd->callback([&ctx] {
        store::Workspace ws(ctx.workspacePath());
        ws.markOrphanedRuns();
        const auto sessions = ws.sessions();
        if (ctx.json) {
            nlohmann::json out = nlohmann::json::array();
            for (const auto& s : sessions) {
                auto j = wire::toJson(s);
                j.erase("record");
                j["id"] = s.id;
                j["status"] = toString(s.status);
                out.push_back(std::move(j));
            }
            std::cout << out.dump(2) << '\n';
            return;
        }
        TextTable t({"id", "kind", "status", "created", "tool", "host", "title"});
        for (const auto& s : sessions)
            t.addRow({std::to_string(s.id), s.kind, toString(s.status), s.created,
                      s.tool + (s.toolVersion.empty() ? "" : " " + s.toolVersion), s.host, s.title});
        t.print(std::cout);
    });
}

// What the fits of a session take: per op and in-place flavour, the sizes and times in the order of
// the points, not the points themselves, so a session of millions of points is fitted in a fraction
// of their memory. Each fit is the one fits::fitCollective makes of the points.
struct FitSamples
{
    struct Sample
    {
        fits::SizeTime sizeTime;
        int nranks;
    };
    std::map<std::pair<std::string, bool>, std::vector<Sample>> byCurve;
    std::set<std::tuple<std::string, bool, int>> keys;            // op, in-place, ranks: one fit each
    std::map<std::pair<std::string, int>, std::string> firstGroup; // of op and ranks: its tier's nodes

    // Rank count 0 (not known) fits the points of every rank count, as fitCollective does.
    std::vector<fits::SizeTime> of(const std::string& op, bool inPlace, int ranks) const
    {
        std::vector<fits::SizeTime> out;
        if (const auto it = byCurve.find({op, inPlace}); it != byCurve.end())
            for (const auto& s : it->second)
                if (ranks == 0 || s.nranks == ranks)
                    out.push_back(s.sizeTime);
        return out;
    }
};

FitSamples fitSamples(store::Workspace& ws, std::int64_t id, const std::string& op, std::int64_t lo, std::int64_t hi)
{
    FitSamples out;
    const auto add = [&](const CollectivePoint& p) {
        if (!op.empty() && p.op != op)
            return;
        out.keys.insert({p.op, p.inPlace, p.nranks});
        if (p.bytes >= lo && p.bytes <= hi)
            out.byCurve[{p.op, p.inPlace}].push_back({{double(p.bytes), p.timeUs}, p.nranks});
        out.firstGroup.try_emplace({p.op, p.nranks}, p.group);
    };
    // A --split session is read again to keep only the slowest group at each size.
    SlowestGroupFilter groups;
    ws.forEachCollectivePoint(id, [&](const CollectivePoint& p) {
        groups.see(p);
        add(p);
        return true;
    });
    if (!groups.anyGroup())
        return out;
    out = {};
    ws.forEachCollectivePoint(id, [&](const CollectivePoint& p) {
        if (groups.keeps(p))
            add(p);
        return true;
    });
    return out;
}

// What fit takes, said in both of its errors.
const char* const kFittable = "fit takes a collective benchmark session (nccl-tests, rccl-tests, OSU, IMB, "
                              "`ridgeline-cli run collectives`) with two or more message sizes per op";

void addFitCommand(CLI::App& app, CliContext& ctx)
{
    auto* cmd = app.add_subcommand("fit", "Fit t(n) = alpha + n/beta per op of a collective session");
    struct Args
    {
        std::int64_t id = 0;
        std::string minSize = "0", maxSize; // empty: no upper bound
        std::string op;
    };
    auto a = std::make_shared<Args>();
    cmd->add_option("session", a->id, "Session id")->required();
    cmd->add_option("--min-size", a->minSize, "Smallest message size to fit (e.g. 1M)")->capture_default_str();
    cmd->add_option("--max-size", a->maxSize, "Largest message size to fit (e.g. 1G); default: no limit");
    cmd->add_option("--op", a->op, "Only this op");
    auto tierArgs = std::make_shared<TierArgs>();
    addTierOptions(cmd, *tierArgs);
    cmd->callback([&ctx, a, tierArgs] {
        const auto lo = units::parseBytes(a->minSize);
        const auto hi = a->maxSize.empty() ? std::optional<std::int64_t>(INT64_MAX) : units::parseBytes(a->maxSize);
        if (!lo || !hi)
            throw UsageError("bad --min-size/--max-size: use sizes like 8, 64K, 1M, 2G");
        store::Workspace ws(ctx.workspacePath());
        const Session session = requireSession(ws, a->id);
        if (session.kind != kind::Collectives)
            throw std::runtime_error("session " + std::to_string(a->id) + " is a '" + session.kind + "' session: " +
                                     kFittable + "; " + listSessionsHint(ws));
        // A --split session: one fit per rank count, of the slowest group at each size.
        const FitSamples samples = fitSamples(ws, a->id, a->op, *lo, *hi);
        nlohmann::json out = nlohmann::json::array();
        // beta is an algorithm bandwidth; against the tier's busbw ceiling it is first put in busbw terms.
        TextTable t({"op", "ranks", "in-place", "alpha", "beta", "beta as busbw, of tier peak", "rms error", "points",
                     "sizes"});
        std::vector<std::string> tierNotes;
        for (const auto& [op, inPlace, ranks] : samples.keys) {
            auto f = fits::fitAlphaBeta(samples.of(op, inPlace, ranks));
            if (!f)
                continue;
            nlohmann::json row{{"op", op}, {"ranks", ranks}, {"in_place", inPlace}, {"alpha_us", f->alphaUs},
                               {"beta_gbs", f->betaGBs}, {"rms_rel_error", f->rmsRelError}, {"points", f->points},
                               {"min_bytes", f->minBytes}, {"max_bytes", f->maxBytes}};
            std::string why, ofPeak;
            if (const auto tier = resolveTier(session, op, ranks, *tierArgs, &why, samples.firstGroup.at({op, ranks}))) {
                const auto parsed = collectiveOpFromString(op);
                const double betaBus = f->betaGBs * (parsed ? busFactor(*parsed, ranks) : 1.0);
                row["beta_busbw_gbs"] = betaBus;
                row["beta_percent_of_tier_peak"] = 100 * betaBus / tier->peakBusGBs;
                ofPeak = units::formatBandwidth(betaBus) + ", " + units::formatPercent(betaBus / tier->peakBusGBs);
                tierNotes.push_back(tier->reasoning);
            } else {
                tierNotes.push_back(op + ": no tier peak (" + why + ")");
            }
            out.push_back(std::move(row));
            const std::string rms = units::formatPercent(f->rmsRelError, 1);
            t.addRow({op, std::to_string(ranks), inPlace ? "yes" : "no", units::formatTime(f->alphaUs), units::formatBandwidth(f->betaGBs), ofPeak,
                      rms, std::to_string(f->points),
                      units::formatBytes(double(f->minBytes)) + " .. " + units::formatBytes(double(f->maxBytes))});
        }
        // An empty JSON array would read as success to a script; it fails the same way as the text.
        if (out.empty())
            throw std::runtime_error("nothing to fit in session " + std::to_string(a->id) +
                                     ": need two or more sizes per op" + (a->op.empty() ? "" : " of " + a->op) +
                                     " in the size range; widen --min-size/--max-size" +
                                     (a->op.empty() ? "" : " or drop --op") + " (" + kFittable + ")");
        if (ctx.json)
            std::cout << out.dump(2) << '\n';
        else {
            t.print(std::cout);
            std::sort(tierNotes.begin(), tierNotes.end());
            tierNotes.erase(std::unique(tierNotes.begin(), tierNotes.end()), tierNotes.end());
            for (const auto& n : tierNotes)
                std::cout << n << '\n';
        }
    });
}

const bool registered = registerCommand(&addSessionsCommand) &&
                        registerCommand(&addFitCommand);
} // namespace
} // namespace rl::cli
