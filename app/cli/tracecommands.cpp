// ridgeline-cli trace-collectives SESSION [--against BENCH]: the collectives a trace recorded, with
// the busbw a stored benchmark session reached at the same op and size.
#include <cmath>
#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>

#include "clicommands.h"
#include "store/traceresults.h"
#include "store/workspace.h"
#include "texttable.h"
#include "trace/tracevsbenchmark.h"
#include "units/units.h"

namespace rl::cli {
namespace {
void addTraceCollectivesCommand(CLI::App& app, CliContext& ctx)
{
    auto* cmd = app.add_subcommand("trace-collectives",
                                   "Collectives of a trace session, against a benchmark session's busbw at the same size");
    auto session = std::make_shared<std::int64_t>(0);
    auto against = std::make_shared<std::int64_t>(0);
    cmd->add_option("session", *session, "Trace session id")->required();
    cmd->add_option("--against", *against, "Collective benchmark session id to compare with");
    cmd->callback([&ctx, session, against] {
        store::Workspace ws(ctx.workspacePath());
        const auto s = requireSession(ws, *session);
        if (s.kind != kind::Trace)
            throw std::runtime_error("session " + std::to_string(*session) + " is not a trace session (it is '" + s.kind +
                                     "'): " + listSessionsHint(ws));
        std::vector<CollectivePoint> bench;
        if (*against) {
            const auto b = requireSession(ws, *against);
            if (b.kind != kind::Collectives)
                throw std::runtime_error("session " + std::to_string(*against) + " is not a collective benchmark (it is '" +
                                         b.kind + "'): " + listSessionsHint(ws));
            bench = ws.collectivePoints(b.id);
        }
        const auto rows = trace::compareWithBenchmark(store::traceCollectives(ws.database(), s.id), bench);
        if (ctx.json) {
            nlohmann::json out = nlohmann::json::array();
            for (const auto& r : rows) {
                const auto num = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(); };
                out.push_back({{"rank", r.call.rank}, {"op", r.call.op}, {"dtype", r.call.dtype},
                               {"nranks", r.call.nranks}, {"bytes", r.call.bytes}, {"calls", r.call.count},
                               {"mean_us", r.call.meanUs()}, {"busbw_gbs", r.call.busbwGBs},
                               {"best_busbw_gbs", r.call.bestBusbwGBs}, {"benchmark_busbw_gbs", num(r.benchmarkBusbwGBs)},
                               {"mean_efficiency", num(r.meanEfficiency())}, {"best_efficiency", num(r.bestEfficiency())}});
            }
            std::cout << out.dump(2) << '\n';
            return;
        }
        if (rows.empty()) {
            std::cout << "the trace recorded no collectives with their arguments\n";
            return;
        }
        TextTable t({"rank", "op", "dtype", "ranks", "size", "calls", "mean time", "busbw", "best busbw",
                     "benchmark busbw", "achieved (mean / best)"});
        for (const auto& r : rows)
            t.addRow({std::to_string(r.call.rank), r.call.op, r.call.dtype, std::to_string(r.call.nranks),
                      units::formatBytes(double(r.call.bytes)), std::to_string(r.call.count),
                      units::formatTime(r.call.meanUs()), units::formatBandwidth(r.call.busbwGBs),
                      units::formatBandwidth(r.call.bestBusbwGBs), cellOrNa(r.benchmarkBusbwGBs, [](double v) { return units::formatBandwidth(v); }),
                      units::formatPercent(r.meanEfficiency()) + " / " + units::formatPercent(r.bestEfficiency())});
        t.print(std::cout);
    });
}

const bool registered = registerCommand(&addTraceCollectivesCommand);
} // namespace
} // namespace rl::cli
