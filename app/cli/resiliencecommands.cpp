// ridgeline-cli checkpoint CONFIG | reshape CONFIG: the resilience planner from the command line.
//   checkpoint: checkpoint size per rank and in total, save/load times (sync and async) on a measured
//               storage session or typed bandwidths, job MTBF, Young/Daly interval, expected goodput,
//               and the goodput curves (vs interval, vs nodes) as CSV with -o.
//   reshape:    which old shards each new rank reads when the layout changes, bytes and time.
#include <cmath>
#include <cstring>
#include <fstream>
#include <iostream>

#include <nlohmann/json.hpp>

#include "clicommands.h"
#include "resilience/inputsources.h"
#include "resilience/reshape.h"
#include "resilience/resilienceplan.h"
#include "sizingoptions.h"
#include "chartimages.h"
#include "chartoutput.h"
#include "store/storageresults.h"
#include "store/traceresults.h"
#include "store/workspace.h"
#include "texttable.h"
#include "units/duration.h"
#include "units/units.h"
#include "views/goodputchartdata.h"

namespace rl::cli {
namespace {
using namespace rl::resilience;

struct PlanArgs
{
    std::string config;
    std::string parallel = "dp=8";
    int zero = 1;
    std::string storage;             // session id, or "20GB/s" / "20GB/s:40GB/s" (write:read aggregate)
    std::string perRank;             // "2GB/s[:4GB/s]" per-rank limit with typed rates
    bool saveGradients = false, noOptimizer = false, spread = false;
};

void addPlanOptions(CLI::App* cmd, PlanArgs& a)
{
    cmd->add_option("config", a.config, "config.json (Hugging Face or Ridgeline), a saved config or a preset");
    cmd->add_option("--zero", a.zero, "ZeRO stage 0..3")->capture_default_str()->check(CLI::Range(0, 3));
    cmd->add_option("--storage", a.storage,
                    "A storage session id (ridgeline-cli run io, fio or IOR import), or typed aggregate bandwidth: "
                    "20GB/s or 20GB/s:40GB/s (write:read)");
    cmd->add_option("--per-rank", a.perRank, "With typed --storage: per-rank limit, e.g. 2GB/s or 2GB/s:4GB/s");
    cmd->add_flag("--save-gradients", a.saveGradients, "Gradients are part of the checkpoint");
    cmd->add_flag("--no-optimizer", a.noOptimizer, "Weights only (no fp32 master, Adam m and v)");
    cmd->add_flag("--spread", a.spread,
                  "Replicated states are written evenly by all DP replicas (torch DCP, Megatron fully parallel "
                  "save) instead of by DP rank 0");
}

model::ParallelConfig layoutOf(const model::ModelConfig& c, const std::string& spec, int zero, const char* option)
{
    StepArgs s;
    s.parallel = spec;
    s.zero = zero;
    return parallelOf(s, c, option);
}

model::ModelConfig configOf(const PlanArgs& a, const CliContext& ctx)
{
    if (a.config.empty())
        throw UsageError("a model config is required (config.json, a saved config or a preset)");
    StepArgs s;
    s.config = a.config;
    return loadConfigFor(s, ctx);
}

CheckpointContents contentsOf(const PlanArgs& a)
{
    CheckpointContents c;
    c.gradients = a.saveGradients;
    c.optimizer = !a.noOptimizer;
    c.spreadReplicated = a.spread;
    return c;
}

StorageRates storageOf(const PlanArgs& a, const CliContext& ctx)
{
    if (a.storage.empty())
        throw UsageError("--storage: give a storage session id or a bandwidth such as 20GB/s");
    if (a.storage.find_first_not_of("0123456789") == std::string::npos) {
        store::Workspace ws(ctx.workspacePath());
        return storageSessionRates(ws, requireSession(ws, std::stoll(a.storage)).id, "--storage");
    }
    return typedRates(a.storage, a.perRank, "--storage", "--per-rank");
}

std::string seconds(double s) { return units::formatDuration(s); }

std::string pct(double v) { return units::formatPercent(v, 2); }

// --mtbf: HOURS (per node), log:SESSION (its restarts over its wall time; --log-nodes), table:NAME.
struct MtbfArgs
{
    std::string mtbf = "table:llama3-405b";
    int logNodes = 0;
    std::string failureTable;  // JSON file replacing the built-in table
    double relaunch = -1;      // s; -1: from the log's restart gaps when --mtbf log:, else 300
};

void resolveMtbf(const MtbfArgs& m, const CliContext& ctx, ResilienceInputs& in, int plannedNodes)
{
    MtbfEstimate e;
    if (m.mtbf.starts_with("table:")) {
        e = tableMtbf(failureTableFrom(m.failureTable), m.mtbf.substr(6), "--mtbf table");
    } else if (m.mtbf.starts_with("log:")) {
        store::Workspace ws(ctx.workspacePath());
        const auto id = requireSession(ws, std::stoll(m.mtbf.substr(4))).id;
        e = trainingLogMtbf(ws, id, m.logNodes > 0 ? m.logNodes : plannedNodes, m.logNodes <= 0, "--mtbf " + m.mtbf);
    } else {
        e = typedMtbf(m.mtbf, "--mtbf");
    }
    in.nodeMtbfHours = e.nodeMtbfHours;
    in.mtbfSource = e.source;
    in.relaunchS = m.relaunch >= 0 ? m.relaunch : 300;
    if (m.relaunch < 0 && e.relaunchS) {
        in.relaunchS = *e.relaunchS;
        in.mtbfSource += "; relaunch " + seconds(in.relaunchS) + " (mean restart gap in the log)";
    }
}

nlohmann::json curveJson(const std::vector<GoodputCurvePoint>& v, const char* x)
{
    nlohmann::json out = nlohmann::json::array();
    for (const auto& p : v)
        out.push_back({{x, p.x}, {"goodput", p.goodput}});
    return out;
}

void addCheckpointCommand(CLI::App& app, CliContext& ctx)
{
    auto* cmd = app.add_subcommand("checkpoint", "Checkpoint size, save/load time, optimal interval and goodput");
    auto a = std::make_shared<PlanArgs>();
    auto m = std::make_shared<MtbfArgs>();
    auto in = std::make_shared<ResilienceInputs>();
    auto out = std::make_shared<std::string>();
    auto list = std::make_shared<bool>(false);
    addPlanOptions(cmd, *a);
    cmd->add_option("--parallel", a->parallel, "Degrees, e.g. tp=8,pp=4,dp=16,ep=1")->capture_default_str();
    cmd->add_option("--mtbf", m->mtbf,
                    "Node MTBF: HOURS (or Nd), log:SESSION (restarts over wall time of a training log), or "
                    "table:NAME (published rates: --list-failure-rates)")
        ->capture_default_str();
    cmd->add_option("--log-nodes", m->logNodes, "With --mtbf log:: nodes of the logged job (default: the planned job's)");
    cmd->add_option("--failure-table", m->failureTable, "JSON file replacing the built-in failure-rate table");
    cmd->add_flag("--list-failure-rates", *list, "Print the failure-rate table as JSON (edit, pass with --failure-table)");
    cmd->add_option("--gpus-per-node", in->gpusPerNode, "GPUs per node")->capture_default_str();
    cmd->add_flag("--async", in->async, "Asynchronous checkpoint: snapshot to host memory, then drain");
    cmd->add_option("--snapshot-gbs", in->snapshotGBs, "Device-to-host copy per GPU, GB/s (async)")->capture_default_str();
    cmd->add_option("--relaunch", m->relaunch, "Seconds from failure to training again, before loading (default 300, "
                                               "or the log's restart gaps)");
    cmd->add_option("-o,--output", *out,
                    "Write the goodput curves: .csv (both), or a chart .png/.svg/.pdf of --chart");
    auto chartKind = std::make_shared<std::string>("interval");
    cmd->add_option("--chart", *chartKind, "With -o as an image: interval (goodput vs interval, optimum marked) or nodes")
        ->check(CLI::IsMember({"interval", "nodes"}))
        ->capture_default_str();
    auto size = std::make_shared<ImageSize>();
    addImageSizeOptions(cmd, *size);
    cmd->callback([&ctx, a, m, in, out, list, chartKind, size] {
        if (*list) {
            std::cout << resilience::toJson(failureTableFrom(m->failureTable)).dump(2) << '\n';
            return;
        }
        const auto c = configOf(*a, ctx);
        const auto p = layoutOf(c, a->parallel, a->zero, "--parallel");
        ResilienceInputs inputs = *in;
        inputs.contents = contentsOf(*a);
        inputs.storage = storageOf(*a, ctx);
        resolveMtbf(*m, ctx, inputs, std::max(1, (p.worldSize() + inputs.gpusPerNode - 1) / inputs.gpusPerNode));
        const auto plan = planResilience(c, p, inputs);
        if (!out->empty())
            writeChartOutput(*out, [&] { return views::goodputCsv(plan); }, [&] {
                writeGoodputChart(plan, *chartKind == "nodes",
                                  c.name + ", tp=" + std::to_string(p.tp) + " pp=" + std::to_string(p.pp) + " dp=" +
                                      std::to_string(p.dp),
                                  "storage: " + inputs.storage.source + "; MTBF: " + inputs.mtbfSource, *size, *out);
            });
        const auto& sz = plan.size;
        const auto& t = plan.times;
        if (ctx.json) {
            nlohmann::json j{
                {"model", c.name},
                {"parallel", {{"tp", p.tp}, {"pp", p.pp}, {"dp", p.dp}, {"ep", p.ep}, {"cp", p.cp}, {"zero", p.zeroStage}}},
                {"ranks", sz.ranks},
                {"nodes", plan.nodes},
                {"size", {{"held_weights_bytes", sz.heldWeights}, {"held_gradients_bytes", sz.heldGradients},
                          {"held_optimizer_bytes", sz.heldOptimizer}, {"max_rank_bytes", sz.maxRankBytes},
                          {"mean_rank_bytes", sz.meanRankBytes}, {"writers", sz.writers},
                          {"total_bytes", sz.totalBytes}, {"load_rank_bytes", sz.loadRankBytes},
                          {"load_total_bytes", sz.loadTotalBytes}, {"sharding", sz.sharding}}},
                {"storage", {{"write_aggregate_gbs", inputs.storage.writeAggregateGBs},
                             {"read_aggregate_gbs", inputs.storage.readAggregateGBs},
                             {"write_per_rank_gbs", inputs.storage.writePerRankGBs},
                             {"read_per_rank_gbs", inputs.storage.readPerRankGBs}, {"source", inputs.storage.source}}},
                {"times", {{"sync_save_s", t.syncSaveS}, {"async_blocking_s", t.asyncBlockingS},
                           {"async_drain_s", t.asyncDrainS}, {"min_async_interval_s", t.minAsyncIntervalS},
                           {"host_bytes_per_rank", t.hostBytesPerRank}, {"load_s", t.loadS}}},
                {"failures", {{"node_mtbf_hours", inputs.nodeMtbfHours}, {"job_mtbf_s", plan.jobMtbfS},
                              {"source", inputs.mtbfSource}, {"relaunch_s", inputs.relaunchS},
                              {"restart_s", plan.restartS}}},
                {"async", inputs.async},
                {"checkpoint_cost_s", plan.checkpointCostS},
                {"young_interval_s", plan.youngS},
                {"daly_interval_s", plan.dalyS},
                {"interval_s", plan.intervalS},
                {"goodput", plan.goodput},
                {"goodput_vs_interval", curveJson(plan.vsInterval, "interval_s")},
                {"goodput_vs_nodes", curveJson(plan.vsNodes, "nodes")},
                {"notes", plan.notes}};
            std::cout << j.dump(2) << '\n';
            return;
        }
        auto b = [](double v) { return units::formatBytes(v); };
        std::cout << c.name << ", tp=" << p.tp << " pp=" << p.pp << " dp=" << p.dp << " ep=" << p.ep << " ZeRO-"
                  << p.zeroStage << ": " << sz.ranks << " GPUs on " << plan.nodes << " nodes\n\n";
        TextTable size({"checkpoint", "bytes"});
        size.addRow({"held per GPU: weights", b(sz.heldWeights)});
        size.addRow({"held per GPU: gradients", b(sz.heldGradients)});
        size.addRow({"held per GPU: optimizer", b(sz.heldOptimizer)});
        size.addRow({"written by the busiest rank", b(sz.maxRankBytes)});
        size.addRow({"written per rank (mean over " + std::to_string(sz.ranks) + ")", b(sz.meanRankBytes)});
        size.addRow({"checkpoint total (" + std::to_string(sz.writers) + " writers)", b(sz.totalBytes)});
        size.addRow({"read back per rank on restart", b(sz.loadRankBytes)});
        size.addRow({"read back in total", b(sz.loadTotalBytes)});
        size.print(std::cout);
        std::cout << "sharding: " << sz.sharding << "\nstorage: " << inputs.storage.source << " (write "
                  << units::formatBandwidth(inputs.storage.writeAggregateGBs) << " aggregate, read "
                  << units::formatBandwidth(inputs.storage.readAggregateGBs) << ")\n\n";
        TextTable times({"time", "value"});
        times.addRow({"save, synchronous", seconds(t.syncSaveS)});
        times.addRow({"save, async: training blocked (snapshot)", seconds(t.asyncBlockingS)});
        times.addRow({"save, async: drain in the background", seconds(t.asyncDrainS)});
        times.addRow({"async: host memory per GPU", b(t.hostBytesPerRank)});
        times.addRow({"load on restart", seconds(t.loadS)});
        times.addRow({"restart (relaunch + load)", seconds(plan.restartS)});
        times.print(std::cout);
        std::cout << "\nfailures: node MTBF " << seconds(inputs.nodeMtbfHours * 3600) << " (" << inputs.mtbfSource
                  << ")\njob MTBF on " << plan.nodes << " nodes: " << seconds(plan.jobMtbfS) << "\n\n";
        TextTable opt({inputs.async ? "async checkpoint" : "sync checkpoint", "value"});
        opt.addRow({"cost per checkpoint", seconds(plan.checkpointCostS)});
        opt.addRow({"Young interval sqrt(2CM)", seconds(plan.youngS)});
        opt.addRow({"Daly interval", seconds(plan.dalyS)});
        opt.addRow({"interval used", seconds(plan.intervalS)});
        opt.addRow({"expected goodput", pct(plan.goodput)});
        opt.print(std::cout);
        for (const auto& n : plan.notes)
            std::cout << "note: " << n << '\n';
        std::cout << "\ngoodput vs nodes (same model, DP grows):\n";
        TextTable nodes({"nodes", "goodput"});
        for (const auto& q : plan.vsNodes)
            nodes.addRow({std::to_string(int(q.x)), pct(q.goodput)});
        nodes.print(std::cout);
    });
}

void addReshapeCommand(CLI::App& app, CliContext& ctx)
{
    auto* cmd = app.add_subcommand("reshape", "Load a checkpoint under another layout: shards each new rank reads");
    auto a = std::make_shared<PlanArgs>();
    auto from = std::make_shared<std::string>(), to = std::make_shared<std::string>();
    auto toZero = std::make_shared<int>(-1);
    auto network = std::make_shared<double>(0);
    auto networkSession = std::make_shared<std::int64_t>(0);
    auto shards = std::make_shared<bool>(false);
    addPlanOptions(cmd, *a);
    cmd->add_option("--from", *from, "Layout the checkpoint was saved with, e.g. tp=8,pp=4,dp=16")->required();
    cmd->add_option("--to", *to, "Layout to load it into, e.g. tp=4,pp=4,dp=32")->required();
    cmd->add_option("--to-zero", *toZero, "ZeRO stage of the new layout (default: --zero)")->check(CLI::Range(0, 3));
    auto* netOpt = cmd->add_option("--network-gbs", *network, "Per-rank network GB/s: also time reading once and scattering");
    cmd->add_option("--network", *networkSession,
                    "A collectives session: its all_gather (else its op's) bus bandwidth at the largest size is the "
                    "per-rank network figure for reading once and scattering")
        ->excludes(netOpt);
    cmd->add_flag("--shards", *shards, "List every shard each new rank reads");
    cmd->callback([&ctx, a, from, to, toZero, network, networkSession, shards] {
        std::string networkSource = *network > 0 ? "typed" : "";
        if (*networkSession > 0) {
            store::Workspace ws(ctx.workspacePath());
            const Session s = requireSession(ws, *networkSession);
            if (s.kind != kind::Collectives)
                throw std::invalid_argument("--network " + std::to_string(s.id) + " is a " + s.kind +
                                            " session, not collectives");
            // all_gather moves what a scatter of shards moves; another op's bus bandwidth stands in
            // when the session has none (nccl-tests logs hold one op each).
            const auto points = ws.collectivePoints(s.id);
            const CollectivePoint* best = nullptr;
            for (const char* op : {"all_gather", ""})
                for (const auto& p : points)
                    if (!best && (p.op == op || !*op))
                        best = &p;
                    else if (best && p.op == best->op &&
                             (p.bytes > best->bytes || (p.bytes == best->bytes && p.busbwGBs > best->busbwGBs)))
                        best = &p;
            if (!best)
                throw std::invalid_argument("--network " + std::to_string(s.id) + ": the session has no points");
            *network = best->busbwGBs;
            networkSource = "session " + std::to_string(s.id) + ", " + best->op + " busbw at " +
                            units::formatBytes(double(best->bytes));
        }
        const auto c = configOf(*a, ctx);
        const auto pf = layoutOf(c, *from, a->zero, "--from");
        const auto pt = layoutOf(c, *to, *toZero >= 0 ? *toZero : a->zero, "--to");
        ReshapeInputs in;
        in.contents = contentsOf(*a);
        in.networkGBs = *network;
        if (!a->storage.empty())
            in.storage = storageOf(*a, ctx);
        const auto plan = planReshape(c, pf, pt, in);
        if (ctx.json) {
            nlohmann::json ranks = nlohmann::json::array();
            for (const auto& r : plan.ranks) {
                nlohmann::json reads = nlohmann::json::array();
                for (const auto& s : r.reads)
                    reads.push_back({{"from", toString(s.from)}, {"state", s.state}, {"part", s.part},
                                     {"bytes", s.bytes}, {"what", s.what}});
                ranks.push_back({{"rank", toString(r.to)}, {"bytes", r.bytes}, {"files", r.files}, {"reads", reads}});
            }
            std::cout << nlohmann::json{{"model", c.name},
                                        {"from", *from},
                                        {"to", *to},
                                        {"checkpoint_bytes", plan.uniqueBytes},
                                        {"old_files", plan.oldFiles},
                                        {"total_read_bytes", plan.totalReadBytes},
                                        {"max_rank_bytes", plan.maxRankBytes},
                                        {"mean_rank_bytes", plan.meanRankBytes},
                                        {"storage_read_s", a->storage.empty() ? nlohmann::json() : nlohmann::json(plan.storageReadS)},
                                        {"read_once_scatter_s", *network > 0 ? nlohmann::json(plan.readOnceScatterS) : nlohmann::json()},
                                        {"network_gbs", *network},
                                        {"network_source", networkSource},
                                        {"ranks", ranks}}
                             .dump(2)
                      << '\n';
            return;
        }
        auto b = [](double v) { return units::formatBytes(v); };
        TextTable t({"new rank", "reads", "from files"});
        for (const auto& r : plan.ranks)
            t.addRow({toString(r.to), b(r.bytes), std::to_string(r.files)});
        t.print(std::cout);
        if (*shards) {
            std::cout << '\n';
            TextTable s({"new rank", "old file", "state", "part", "bytes", "slice"});
            for (const auto& r : plan.ranks)
                for (const auto& x : r.reads)
                    s.addRow({toString(r.to), toString(x.from), x.state, x.part, b(x.bytes), x.what});
            s.print(std::cout);
        }
        std::cout << "\n" << c.name << ": " << *from << " -> " << *to << "\ncheckpoint " << b(plan.uniqueBytes) << " in "
                  << plan.oldFiles << " files; " << plan.ranks.size() << " new ranks read " << b(plan.totalReadBytes)
                  << " in total, " << b(plan.maxRankBytes) << " the busiest (mean " << b(plan.meanRankBytes) << ")\n";
        if (!a->storage.empty())
            std::cout << "every rank reads from storage: " << seconds(plan.storageReadS) << " (" << in.storage.source << ")\n";
        if (*network > 0)
            std::cout << "read once, scatter over the network: " << seconds(plan.readOnceScatterS) << " ("
                      << units::formatBandwidth(*network) << " per rank, " << networkSource << ")\n";
    });
}

const bool registeredCheckpoint = registerCommand(&addCheckpointCommand);
const bool registeredReshape = registerCommand(&addReshapeCommand);
} // namespace
} // namespace rl::cli
