// ridgeline-cli plan CONFIG --hardware P --gpus N --global-batch B --seq S: every legal layout of the
// model on that cluster, ranked by the sizing model, with what was left out and why, the error band
// the ranking carries, the Pareto front of step time against memory, where a given layout ("yours")
// stands, and the launch arguments of the best.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "clicommands.h"
#include "model/hardwareprofileloader.h"
#include "plan/launchargs.h"
#include "plan/plansearch.h"
#include "sizingoptions.h"
#include "texttable.h"
#include "store/workspace.h"
#include "units/units.h"
#include "units/memory.h"

namespace rl::cli {
namespace {
using namespace rl::plan;

struct PlanArgs
{
    StepArgs step; // the config and the calibration options
    std::string hardware, fix, allow, yours, output;
    int gpus = 0, gpusPerNode = 0, globalBatch = 0, top = 20, launch = 1;
    unsigned threads = 0;
    bool noFlash = false, dropout = false;
};

std::string count(double v)
{
    std::string s = std::to_string((long long)(v + 0.5));
    for (int i = int(s.size()) - 3; i > 0; i -= 3)
        s.insert(std::size_t(i), ",");
    return s;
}

std::string onOff(bool v) { return v ? "on" : "off"; }

// The degrees as plan/layout.h spells them, with the row's data-parallel degree.
std::string degrees(const PlanRow& r) { return degreesText(r.layout, r.parallel.dp); }

nlohmann::json rowJson(const PlanRow& r, const model::ModelConfig& c, const PlanArgs& a, const Cluster& cl)
{
    const auto& s = r.step;
    nlohmann::json j{{"rank", r.rank > 0 ? nlohmann::json(r.rank) : nlohmann::json()},
                     {"tie_with_best", r.tieWithBest}, {"gap_to_best", r.gapToBest}, {"layout", toSpec(r.layout)},
                     {"dp", r.parallel.dp}, {"micro_batches", r.parallel.effectiveMicroBatches()},
                     {"step_s", s.stepSeconds}, {"tokens_per_s", s.tokensPerSecond}, {"mfu", s.mfu},
                     {"memory_per_gpu_bytes", s.memory.total()}, {"memory_capacity_bytes", s.memoryCapacity},
                     {"memory", {{"weights", s.memory.weights}, {"gradients", s.memory.gradients},
                                 {"optimizer", s.memory.optimizer}, {"activations", s.memory.activations},
                                 {"working", s.memory.working}, {"communication", s.memory.communication}}},
                     {"breakdown_s", {{"gemm", s.gemmSeconds}, {"elementwise", s.elementwiseSeconds},
                                      {"recompute", s.recomputeSeconds}, {"bubble", s.bubbleSeconds},
                                      {"exposed_dp", s.exposedDpSeconds}, {"exposed_tp", s.exposedTpSeconds},
                                      {"exposed_ep", s.exposedEpSeconds}, {"exposed_pp_cp", s.exposedOtherSeconds},
                                      {"optimizer", s.optimizerSeconds + s.gradAccumulationSeconds}}},
                     {"size_command", sizeCommand(a.step.config, a.hardware, c, r.layout, cl, r.parallel)}};
    return j;
}

void printLaunch(const PlanRow& r, const model::ModelConfig& c, const PlanArgs& a, const Cluster& cl)
{
    std::cout << "\nLaunch #" << r.rank << " (" << degrees(r) << "):\n  Megatron-LM / Megatron-Bridge:\n"
              << shellLines(megatronArgs(c, r.layout, cl, r.parallel)) << "  torchtitan (job config):\n";
    const auto toml = torchtitanToml(c, r.layout, cl);
    std::size_t pos = 0;
    while (pos < toml.size()) {
        const auto nl = toml.find('\n', pos);
        std::cout << "    " << toml.substr(pos, nl - pos) << '\n';
        pos = nl == std::string::npos ? toml.size() : nl + 1;
    }
    std::cout << "  The same prediction:\n    " << sizeCommand(a.step.config, a.hardware, c, r.layout, cl, r.parallel) << '\n';
}

void printResult(const PlanResult& res, const model::ModelConfig& c, const PlanArgs& a, const Cluster& cl,
                 const HardwareProfile& hw)
{
    std::cout << c.name << " on " << cl.gpus << " x " << hw.id << " (" << cl.gpusPerNode << " per node), global batch "
              << cl.globalBatch << " x " << cl.seqLen << " tokens\n";
    std::cout << "Searched " << count(res.counts.enumerated) << " combinations in "
              << units::formatTime(res.seconds * 1e6) << " on " << res.threads << " thread(s), "
              << res.distinctShapes << " layer shapes timed" << (res.cancelled ? " (CANCELLED: counts are partial)" : "")
              << ":\n";
    TextTable t({"", "layouts", "why"});
    t.addRow({"illegal", count(res.counts.illegalTotal()), "by the first rule broken (below)"});
    std::string oom;
    for (int m = 0; m < int(MemoryPart::Count); ++m)
        if (res.counts.outOfMemory[m] > 0)
            oom += std::string(oom.empty() ? "" : ", ") + toString(MemoryPart(m)) + " " + count(res.counts.outOfMemory[m]);
    t.addRow({"out of memory", count(res.counts.outOfMemoryTotal()),
              oom.empty() ? "-" : "largest part: " + oom + " (" + model::frameworkReserveBasis() + " kept free)"});
    t.addRow({"ranked", count(res.counts.ranked), "timed by the sizing model"});
    t.print(std::cout);
    TextTable rules({"rule", "layouts", "follows"});
    for (int r = 0; r < kRuleCount; ++r)
        if (res.counts.illegal[r] > 0)
            rules.addRow({ruleInfo(Rule(r)).text, count(res.counts.illegal[r]), ruleInfo(Rule(r)).source});
    std::cout << '\n';
    rules.print(std::cout);
    std::cout << "\nExpected error of each step time: " << model::describe(res.band) << "; mean "
              << model::describeBias(res.band) << ". Layouts within the median of #1 are marked '=' (a tie: the model "
              << "cannot tell them apart).\n\n";
    if (res.top.empty()) {
        std::cout << "No layout fits: see the counts above.\n";
    } else {
        TextTable top({"#", "tie", "step", "tokens/s", "MFU", "memory/GPU", "layout", "micro-batch", "recompute", "sp",
                       "zero", "dtype", "attention", "overlap", "vs #1"});
        for (const auto& r : res.top) {
            const auto& l = r.layout;
            top.addRow({std::to_string(r.rank), r.tieWithBest ? "=" : "", units::formatTime(r.step.stepSeconds * 1e6),
                        units::formatCount(r.step.tokensPerSecond), units::formatPercent(r.step.mfu, 1),
                        units::formatMemory(r.step.memory.total()), degrees(r),
                        std::to_string(l.microBatch) + " x " + std::to_string(r.parallel.effectiveMicroBatches()),
                        model::toString(l.recompute), onOff(l.sp), std::to_string(l.zero), l.dtype,
                        l.attention.empty() ? "by shape" : l.attention, switchesText(l),
                        r.rank == 1 ? "" : "+" + units::formatPercent(r.gapToBest, 1) + " " + explainGap(r.step, res.top.front().step)});
        }
        top.print(std::cout);
        std::cout << "\nPareto front, step time against memory per GPU (" << res.pareto.size() << " layouts):\n";
        TextTable pf({"step", "memory/GPU", "vs #1", "layout", "micro-batch", "recompute", "zero"});
        for (const auto& r : res.pareto)
            pf.addRow({units::formatTime(r.step.stepSeconds * 1e6), units::formatMemory(r.step.memory.total()),
                       r.gapToBest > 0 ? "+" + units::formatPercent(r.gapToBest, 1) : "#1", degrees(r),
                       std::to_string(r.layout.microBatch) + " x " + std::to_string(r.parallel.effectiveMicroBatches()),
                       model::toString(r.layout.recompute), std::to_string(r.layout.zero)});
        pf.print(std::cout);
    }
    if (res.yours)
        std::cout << "\nYours (" << toSpec(res.yours->layout) << "): " << res.yours->explanation << '\n';
    for (int k = 0; k < std::min<int>(a.launch, int(res.top.size())); ++k)
        printLaunch(res.top[std::size_t(k)], c, a, cl);
}

nlohmann::json resultJson(const PlanResult& res, const model::ModelConfig& c, const PlanArgs& a, const Cluster& cl,
                          const HardwareProfile& hw)
{
    nlohmann::json illegal = nlohmann::json::object(), oom = nlohmann::json::object();
    for (int r = 0; r < kRuleCount; ++r)
        if (res.counts.illegal[r] > 0)
            illegal[ruleInfo(Rule(r)).id] = {{"layouts", res.counts.illegal[r]}, {"rule", ruleInfo(Rule(r)).text},
                                             {"follows", ruleInfo(Rule(r)).source}};
    for (int m = 0; m < int(MemoryPart::Count); ++m)
        oom[toString(MemoryPart(m))] = res.counts.outOfMemory[m];
    nlohmann::json top = nlohmann::json::array(), pareto = nlohmann::json::array();
    for (const auto& r : res.top) {
        auto j = rowJson(r, c, a, cl);
        j["megatron_args"] = megatronArgs(c, r.layout, cl, r.parallel);
        j["torchtitan_toml"] = torchtitanToml(c, r.layout, cl);
        top.push_back(j);
    }
    for (const auto& r : res.pareto)
        pareto.push_back(rowJson(r, c, a, cl));
    nlohmann::json j{{"model", c.name}, {"hardware", hw.id}, {"gpus", cl.gpus}, {"gpus_per_node", cl.gpusPerNode},
                     {"global_batch", cl.globalBatch}, {"seq", cl.seqLen}, {"seconds", res.seconds},
                     {"threads", res.threads}, {"cancelled", res.cancelled}, {"layer_shapes_timed", res.distinctShapes},
                     {"counts", {{"enumerated", res.counts.enumerated}, {"illegal", res.counts.illegalTotal()},
                                 {"illegal_by_rule", illegal}, {"out_of_memory", res.counts.outOfMemoryTotal()},
                                 {"out_of_memory_by_largest_part", oom}, {"ranked", res.counts.ranked},
                                 {"memory_kept_free", model::memoryHeadroom(hw.hbmCapacityGB.value * 1e9)}}},
                     {"expected_error", {{"median", res.band.median}, {"max", res.band.max}, {"mean_signed", res.band.bias},
                                         {"validation_rows", res.band.rows}, {"kind", res.band.moe ? "moe" : "dense"},
                                         {"device", res.band.device}, {"rows_on_this_device", res.band.askedRows}}},
                     {"top", top}, {"pareto", pareto}};
    if (res.yours) {
        const auto& y = *res.yours;
        nlohmann::json yj{{"layout", toSpec(y.layout)}, {"explanation", y.explanation}};
        if (y.illegal)
            yj["illegal"] = ruleInfo(*y.illegal).id;
        if (!y.outOfMemory.empty())
            yj["out_of_memory"] = y.outOfMemory;
        if (y.row)
            yj["row"] = rowJson(*y.row, c, a, cl);
        j["yours"] = yj;
    }
    return j;
}

void addPlanCommand(CLI::App& app, CliContext& ctx)
{
    auto* cmd = app.add_subcommand("plan", "Search every legal parallel layout of a model on a cluster and rank them "
                                           "by predicted step time");
    auto a = std::make_shared<PlanArgs>();
    cmd->add_option("config", a->step.config, "config.json (Hugging Face or Ridgeline) or a preset name")->required();
    cmd->add_option("--hardware", a->hardware, "Hardware profile id (e.g. mi300x, h100-sxm) or file")->required();
    cmd->add_option("--gpus", a->gpus, "GPUs in the cluster")->required()->check(CLI::Range(1, 1'000'000));
    cmd->add_option("--gpus-per-node", a->gpusPerNode, "GPUs per node = scale-up domain (default: the profile's)")
        ->check(CLI::Range(1, 1024));
    cmd->add_option("--global-batch", a->globalBatch, "Sequences per optimizer step")->required()
        ->check(CLI::Range(1, 100'000'000));
    cmd->add_option("--seq", a->step.seq, "Sequence length, tokens")->capture_default_str()->check(CLI::Range(1, 10'000'000));
    cmd->add_option("--fix", a->fix,
                    "Keep only these values of some dimensions, '|' between alternatives, e.g. "
                    "tp=8,ep=8|16,recompute=selective,zero=1,dtype=bf16 (dimensions: tp cp pp stages vpp etp ep "
                    "micro-batch recompute sp dtype attention zero dp-overlap ep-overlap dispatcher tp-overlap)");
    cmd->add_option("--allow", a->allow, "Widen the defaults: tp-across-nodes, tp-overlap (not validated)");
    cmd->add_option("--top", a->top, "Layouts to list")->capture_default_str()->check(CLI::Range(1, 10000));
    cmd->add_option("--yours", a->yours,
                    "Place this layout in the ranking (--fix syntax, one value each; unnamed dimensions: tp=1, pp=1, "
                    "zero=1, recompute=none, ..., dtype bf16), e.g. tp=8,pp=4,vpp=2,micro-batch=1,recompute=selective,sp=on");
    cmd->add_option("--launch", a->launch, "Print the launch arguments of the best N")->capture_default_str()
        ->check(CLI::Range(0, 100));
    cmd->add_option("--threads", a->threads, "Worker threads (default: every core)");
    cmd->add_flag("--no-flash", a->noFlash, "Keep the s² attention activations (no flash attention)");
    cmd->add_flag("--dropout", a->dropout, "Attention and hidden dropout on (GPT-3-era recipes)");
    addFrameworkOption(cmd, a->step.framework);
    addGradientDtypeOption(cmd, a->step.gradDtype);
    cmd->add_option("-o,--output", a->output, "Write the ranked and Pareto rows to FILE.csv");
    addCalibrationOptions(cmd, a->step);
    addRunCalibrationOption(cmd, a->step);
    cmd->callback([&ctx, a] {
        if (!a->output.empty() && (a->output.size() < 4 || a->output.substr(a->output.size() - 4) != ".csv"))
            throw UsageError("plan -o takes a .csv file (the Plan window exports the chart as PNG or SVG)");
        const auto c = loadConfigFor(a->step, ctx);
        const auto hw = findHardwareProfile(a->hardware);
        PlanRequest req;
        req.base.model = c;
        req.base.hardware = hw;
        req.base.layout.flashAttention = !a->noFlash;
        req.base.layout.dropout = a->dropout;
        req.base.layout.framework = a->step.framework;
        req.base.layout.gradDtype = a->step.gradDtype;
        req.base.calibration = calibrationChoiceOf(a->step);
        req.cluster.gpus = a->gpus;
        req.cluster.gpusPerNode = a->gpusPerNode > 0 ? a->gpusPerNode : hw.gpusPerNode;
        req.cluster.globalBatch = a->globalBatch;
        req.cluster.seqLen = a->step.seq;
        req.allow = parseAllowances(a->allow);
        req.space = defaultSpace(c, hw, req.cluster, req.allow);
        applyFix(req.space, a->fix);
        req.top = a->top;
        req.threads = a->threads;
        if (!a->yours.empty()) {
            Layout defaults;
            defaults.dtype = req.space.dtype.front();
            defaults.attention = req.space.attention.front();
            req.yours = parseLayout(a->yours, defaults);
        }
        const auto cal = calibrationFor(a->step, ctx);
        std::optional<model::StoredRunCalibration> fromRun;
        if (a->step.calibrateFrom > 0) {
            store::Workspace ws(ctx.workspacePath());
            model::SizingRequest ran = req.base;
            ran.layout.seqLen = a->step.seq;
            fromRun = model::calibrateFromStoredRun(ws, a->step.calibrateFrom, ran, cal);
            req.runRates = fromRun->rates;
        }
        const bool tty = isatty(2) != 0;
        double lastShown = -1;
        const auto res = runPlan(req, cal, [&](double done, double total) {
            const double f = total > 0 ? done / total : 0;
            if (tty || f - lastShown >= 0.1) {
                std::fprintf(stderr, "plan: %3.0f %% of %s combinations%s", f * 100, count(total).c_str(), tty ? "\r" : "\n");
                lastShown = f;
            }
            return true;
        });
        if (tty)
            std::fprintf(stderr, "%60s\r", "");
        if (!a->output.empty()) {
            std::ofstream out(a->output, std::ios::binary);
            out << toCsv(res);
            if (!out.flush())
                throw std::runtime_error("cannot write " + a->output);
        }
        if (ctx.json) {
            auto j = resultJson(res, c, *a, req.cluster, hw);
            if (fromRun)
                j["run_calibration"] = runCalibrationJson(*fromRun);
            std::cout << j.dump(2) << '\n';
        } else {
            if (fromRun) {
                std::cout << "Every layout's step is calibrated:\n";
                printRunCalibration(std::cout, *fromRun);
                std::cout << '\n';
            }
            printResult(res, c, *a, req.cluster, hw);
        }
        if (!a->output.empty() && !ctx.json)
            std::cout << "\nRows written to " << a->output << '\n';
    });
}

static const bool registered = registerCommand(&addPlanCommand);
} // namespace
} // namespace rl::cli
