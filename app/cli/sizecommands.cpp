// ridgeline-cli size CONFIG | moe-sweep CONFIG: the sizing model from the command line.
// CONFIG is a config.json (Hugging Face or Ridgeline) or a preset name from resources/models/.
// `size` without a device prints what needs none (parameters, FLOPs, memory per GPU, shape rules).
#include <algorithm>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "chartimages.h"
#include "chartoutput.h"
#include "clicommands.h"
#include "denseshapesearch.h"
#include "sizingoptions.h"
#include "model/attentionkernel.h"
#include "model/hardwareprofileloader.h"
#include "model/inference.h"
#include "model/moesweep.h"
#include "model/sizingreport.h"
#include "model/sizingrules.h"
#include "model/storecalibration.h"
#include "model/trainingstep.h"
#include "model/validation.h"
#include "plan/shapesearch.h"
#include "store/workspace.h"
#include "texttable.h"
#include "units/units.h"
#include "views/exportformat.h"
#include "units/memory.h"

namespace rl::cli {
namespace {
using namespace rl::model;

std::string pct(double v) { return units::formatPercent(v, 1); }

// " of 192 GiB: fits", or how to find out.
std::string fitText(double needed, double capacity)
{
    if (capacity <= 0)
        return " (capacity unknown: --hbm-gib or --hardware checks the fit)";
    return " of " + units::formatMemory(capacity) + ": " + (fitsMemory(needed, capacity) ? "fits" : "DOES NOT FIT");
}

// The band rows of the training-step table: the error over the published runs of this kind (on this
// device when it has enough; deviceId is the profile's id) and their mean signed error.
void addBandRows(TextTable& t, const ModelConfig& c, const std::string& deviceId, Framework framework)
{
    const auto band = modelErrorBand(c.isMoe(), deviceId, framework);
    if (band.rows == 0)
        return;
    t.addRow({"  expected error (ridgeline-cli validate)", describe(band)});
    t.addRow({"  mean error over those runs", describeBias(band)});
}

// What needs no device is printed by the same code with or without one; `size` without a device
// prints only this and says what the rest needs.
const std::string kNeedsDevice =
    std::string("Step time, MFU, throughput, communication, prefill and decode need a device: give ") + kDeviceHint;

nlohmann::json modelJson(const ModelConfig& c, const ModelSizing& m, double capacity)
{
    const auto& params = m.params;
    const auto& mem = m.memory;
    const bool known = capacity > 0;
    nlohmann::json j;
    j["model"] = toJson(c);
    j["params"] = {{"embedding", params.embedding}, {"attention", params.attention}, {"mlp", params.mlp},
                   {"experts", params.experts}, {"router", params.router}, {"norms", params.norms},
                   {"output", params.output}, {"total", params.total()}, {"active", params.active()},
                   {"mtp", params.mtp}};
    j["flops_per_token"] = {{"forward", m.forward.forward()}, {"attention_scores", m.forward.attentionScores},
                            {"training_model", m.training.model}, {"training_hardware", m.training.hardware}};
    j["memory_per_gpu_bytes"] = {{"weights", mem.weights}, {"gradients", mem.gradients}, {"optimizer", mem.optimizer},
                                 {"activations", mem.activations}, {"working", mem.working},
                                 {"communication", mem.communication}, {"total", mem.total()},
                                 {"capacity", known ? nlohmann::json(capacity) : nlohmann::json()},
                                 {"headroom", memoryHeadroom(capacity)},
                                 {"fits", known ? nlohmann::json(fitsMemory(mem.total(), capacity))
                                                : nlohmann::json()}};
    nlohmann::json rules = nlohmann::json::array();
    for (const auto& f : m.findings)
        rules.push_back({{"rule", f.rule}, {"severity", toString(f.severity)}, {"message", f.message},
                         {"proposal", f.proposal}});
    j["rules"] = rules;
    return j;
}

// Every GEMM of the step; timed when there is a device (r), else shapes only.
nlohmann::json gemmsJson(const ModelConfig& c, const ParallelConfig& p, const std::string& dtype,
                         const DeviceRates* r, const GemmTiming& timing)
{
    nlohmann::json g = nlohmann::json::array();
    for (const auto& x : stepGemms(c, p))
        g.push_back({{"name", x.name}, {"pass", toString(x.pass)}, {"m", x.m}, {"n", x.n}, {"k", x.k},
                     {"count", x.count}, {"dtype", dtype}, {"intensity", x.intensity(2)},
                     {"seconds", r ? nlohmann::json(gemmSeconds(x, *r, timing)) : nlohmann::json()}});
    return g;
}

void printGemms(const ModelConfig& c, const ParallelConfig& p, const DeviceRates* r, const GemmTiming& timing)
{
    TextTable gt({"GEMM", "pass", "M", "N", "K", "count", "intensity", "time"});
    for (const auto& x : stepGemms(c, p)) {
        char m[32], n[32], k[32], cnt[32], ai[32];
        std::snprintf(m, sizeof m, "%.0f", x.m);
        std::snprintf(n, sizeof n, "%.0f", x.n);
        std::snprintf(k, sizeof k, "%.0f", x.k);
        std::snprintf(cnt, sizeof cnt, "%.4g", x.count);
        std::snprintf(ai, sizeof ai, "%.0f FLOP/B", x.intensity(2));
        gt.addRow({x.name, toString(x.pass), m, n, k, cnt, ai,
                   r ? units::formatTime(gemmSeconds(x, *r, timing) * 1e6) : std::string("needs a device")});
    }
    gt.print(std::cout);
    std::cout << '\n';
}

void printParams(const ModelConfig& c, const ParamCounts& params)
{
    TextTable pt({"parameters", "count"});
    pt.addRow({"embedding", units::formatCount(params.embedding)});
    pt.addRow({"attention", units::formatCount(params.attention)});
    pt.addRow({"MLP + shared experts", units::formatCount(params.mlp)});
    if (c.isMoe()) {
        pt.addRow({"routed experts", units::formatCount(params.experts)});
        pt.addRow({"router", units::formatCount(params.router)});
    }
    pt.addRow({"norms", units::formatCount(params.norms)});
    pt.addRow({"output", units::formatCount(params.output)});
    pt.addRow({"total", units::formatCount(params.total())});
    pt.addRow({"active per token", units::formatCount(params.active())});
    if (params.mtp > 0)
        pt.addRow({"MTP modules (not in total)", units::formatCount(params.mtp)});
    pt.print(std::cout);
    std::cout << '\n';
}

// The FLOPs and memory rows of the "training step" table.
void addModelRows(TextTable& st, const ModelSizing& m, double capacity)
{
    st.addRow({"forward FLOPs per token", units::formatFlop(m.forward.forward())});
    st.addRow({"training FLOPs per token (model / hardware)",
               units::formatFlop(m.training.model) + " / " + units::formatFlop(m.training.hardware)});
    st.addRow({"weights per GPU", units::formatBytes(m.memory.weights)});
    st.addRow({"gradients per GPU", units::formatBytes(m.memory.gradients)});
    st.addRow({"optimizer per GPU", units::formatBytes(m.memory.optimizer)});
    st.addRow({"activations per GPU", units::formatBytes(m.memory.activations)});
    if (m.memory.working > 0) // ZeRO-3's gathered layers, the layer being recomputed
        st.addRow({"working buffers per GPU", units::formatBytes(m.memory.working)});
    if (m.memory.communication > 0) // NCCL/RCCL buffers of the layout's communicators
        st.addRow({"communication buffers per GPU", units::formatBytes(m.memory.communication)});
    // In GiB like the device's capacity (and the GUI), with the fit spelled out.
    const double total = m.memory.total();
    st.addRow({"memory per GPU", units::formatMemory(total) +
                                     fitText(total, capacity)});
    if (capacity > 0)
        st.addRow({"  kept for the framework",
                   units::formatMemory(capacity - usableMemory(capacity)) + " (" + frameworkReserveBasis() + ")"});
}

void printRules(const std::vector<RuleFinding>& findings)
{
    TextTable rt({"rule", "result", "finding", "nearest compliant"});
    for (const auto& f : findings)
        rt.addRow({f.rule, toString(f.severity), f.message, f.proposal});
    rt.print(std::cout);
}

// `size` without --hardware or device figures: --hbm-gb still checks the fit, --cus the waves.
void printWithoutDevice(const CliContext& ctx, const StepArgs& a, const DeviceArgs& d, bool gemms)
{
    const auto c = loadConfigFor(a, ctx);
    const auto p = parallelOf(a, c);
    const auto m = evaluateModelSizing(c, p, d.cus);
    const double capacity = d.hbmGB * 1e9;
    if (ctx.json) {
        auto j = modelJson(c, m, capacity);
        const std::vector<std::string> needing{"device", "step", "inference", "expected_error"};
        for (const auto& k : needing)
            j[k] = nullptr;
        j["needs_hardware"] = {{"fields", needing}, {"message", kNeedsDevice}};
        if (gemms)
            j["gemms"] = gemmsJson(c, p, a.dtype, nullptr, {});
        std::cout << j.dump(2) << '\n';
        return;
    }
    std::cout << c.name << " (" << c.family << "), " << p.worldSize() << " GPUs, " << a.dtype << ", no device\n\n";
    printParams(c, m.params);
    TextTable st({"training step", "value"});
    addModelRows(st, m, capacity);
    st.print(std::cout);
    std::cout << '\n' << kNeedsDevice << ".\n\n";
    if (gemms)
        printGemms(c, p, nullptr, {});
    printRules(m.findings);
}

void addSizeCommand(CLI::App& app, CliContext& ctx)
{
    auto* cmd = app.add_subcommand("size", "Parameters, FLOPs, memory, step time and sizing rules of a model "
                                           "(without a device: what needs none)");
    auto a = std::make_shared<StepArgs>();
    auto d = std::make_shared<DeviceArgs>();
    auto gemms = std::make_shared<bool>(false);
    addStepOptions(cmd, *a);
    addRunCalibrationOption(cmd, *a);
    addDeviceOptions(cmd, *d);
    cmd->add_flag("--gemms", *gemms, "Also list every GEMM of the step");
    cmd->callback([&ctx, a, d, gemms] {
        if (!deviceGiven(*d)) {
            printWithoutDevice(ctx, *a, *d, *gemms);
            return;
        }
        const auto req = sizingRequestOf(*a, *d, loadConfigFor(*a, ctx));
        const auto& c = req.model;
        const auto& p = req.layout;
        // The profile's id names the device in the error band (figures typed on the command line: none).
        const std::string deviceId = d->hardware.empty() ? std::string() : req.hardware.id;
        const auto cal = calibrationFor(*a, ctx);
        const SizingInputs in(req, cal);
        const auto& r = in.rates();
        const GemmTiming& timing = in.timing();
        auto report = evaluate(req, in);
        // Calibrated from a measured run of this model: the run's own layout predicted and compared,
        // the factors applied to this layout's step.
        std::optional<StoredRunCalibration> fromRun;
        const StepEstimate uncalibrated = report.step;
        if (a->calibrateFrom > 0) {
            if (d->hardware.empty())
                throw std::runtime_error("--calibrate-from needs --hardware: the run is matched to a device profile");
            store::Workspace ws(ctx.workspacePath());
            fromRun = calibrateFromStoredRun(ws, a->calibrateFrom, req, cal);
            report.step = applyRunRates(report.step, fromRun->rates, r);
        }
        const ModelSizing m{report.params, report.forward, report.training, report.step.memory, report.findings};
        const auto& step = report.step;
        const auto& inf = report.inference;
        const auto& dec = report.decode;
        const double prefill = report.prefillSeconds;

        if (ctx.json) {
            auto j = modelJson(c, m, step.memoryCapacity);
            const auto band = modelErrorBand(c.isMoe(), deviceId, p.framework);
            j["device"] = {{"peak_tflops", r.peakFlops / 1e12}, {"max_achievable_tflops", r.maxAchievableFlops / 1e12},
                           {"max_achievable_source", r.maxAchievableSource},
                           {"nic_gbs_per_gpu", r.nicBytesPerSec / 1e9}, {"nic_source", r.nicSource},
                           {"scale_up_gpus", r.gpusPerNode}};
            nlohmann::json bases = nlohmann::json::array();
            for (const auto& b : cal.bases(r))
                bases.push_back({{"figure", b.figure}, {"basis", b.basis}, {"detail", b.detail}});
            j["calibration"] = bases;
            j["expected_error"] = {{"median", band.median}, {"max", band.max}, {"mean_signed", band.bias},
                                   {"validation_rows", band.rows}, {"kind", band.moe ? "moe" : "dense"},
                                   {"device", band.device}, {"rows_on_this_device", band.askedRows}};
            nlohmann::json comm = nlohmann::json::array();
            for (int i = 0; i < step.commCount; ++i) {
                const auto& o = step.comm[i];
                comm.push_back({{"what", o.what}, {"op", toString(o.op)}, {"bytes", o.bytes}, {"ranks", o.ranks},
                                {"cross_node", o.crossNode}, {"calls", o.count}, {"time_us", o.timeUs},
                                {"measured", o.measured}, {"measured_all_to_allv_imbalance", o.routedImbalance},
                                {"basis", cal.collectiveBasis(o.op, o.ranks, o.measured, o.routedImbalance)}});
            }
            j["step"] = {{"compute_s", step.computeSeconds}, {"recompute_s", step.recomputeSeconds},
                         {"bubble_s", step.bubbleSeconds}, {"optimizer_s", step.optimizerSeconds}, {"comm_s", step.commSeconds},
                         {"exposed_comm_s", step.exposedCommSeconds}, {"step_s", step.stepSeconds},
                         {"tokens_per_s", step.tokensPerSecond}, {"tflops_per_gpu", step.modelTflopsPerGpu},
                         {"mfu", step.mfu}, {"mfu_max_achievable", step.mfuMaxAchievable}, {"hfu", step.hfu},
                         {"gemm_s", step.gemmSeconds}, {"elementwise_s", step.elementwiseSeconds},
                         {"stage_layers", step.stageLayers},
                         {"gemm_efficiency_default", step.defaultEfficiency},
                         {"gemm_efficiency_origin", toString(efficiencyOrigin(timing))},
                         {"attention", model::attentionBasis(r, c, p)}, {"comm", comm}};
            j["inference"] = {{"prefill_s", prefill}, {"decode_s_per_token", dec.secondsPerToken},
                              {"decode_memory_bound", dec.memoryBound()}, {"distinct_experts", dec.distinctExperts}};
            if (*gemms)
                j["gemms"] = gemmsJson(c, p, a->dtype, &r, timing);
            if (p.framework != Framework::MegatronCore) // the default stays unsaid: Megatron outputs as before
                j["framework"] = toString(p.framework);
            if (fromRun) {
                j["run_calibration"] = runCalibrationJson(*fromRun);
                j["run_calibration"]["uncalibrated_step_s"] = uncalibrated.stepSeconds;
            }
            std::cout << j.dump(2) << '\n';
            return;
        }
        std::cout << c.name << " (" << c.family << "), " << p.worldSize() << " GPUs, " << a->dtype
                  << (p.framework != Framework::MegatronCore ? std::string(", ") + displayName(p.framework) : "") << "\n\n";
        printParams(c, m.params);
        TextTable st({"training step", "value"});
        addModelRows(st, m, step.memoryCapacity);
        st.addRow({"compute (GEMMs + element-wise)", units::formatTime(step.computeSeconds * 1e6)});
        st.addRow({"  of which GEMMs", units::formatTime(step.gemmSeconds * 1e6)});
        st.addRow({"  of which element-wise kernels", units::formatTime(step.elementwiseSeconds * 1e6)});
        st.addRow({"  of which recompute", units::formatTime(step.recomputeSeconds * 1e6)});
        st.addRow({"pipeline bubble", units::formatTime(step.bubbleSeconds * 1e6)});
        st.addRow({"optimizer step", units::formatTime(step.optimizerSeconds * 1e6)});
        st.addRow({"communication (exposed)", units::formatTime(step.commSeconds * 1e6) + " ("
                                                  + units::formatTime(step.exposedCommSeconds * 1e6) + ")"});
        // A layout that does not fit cannot run: its figures are what it would reach, and say so.
        const std::string ifItFit = step.fitsMemory() ? "" : " (cannot run: DOES NOT FIT in memory)";
        st.addRow({"step time", units::formatTime(step.stepSeconds * 1e6) + ifItFit});
        if (fromRun)
            st.addRow({"  uncalibrated (see below)", units::formatTime(uncalibrated.stepSeconds * 1e6)});
        addBandRows(st, c, deviceId, p.framework);
        st.addRow({"tokens per second", units::formatCount(step.tokensPerSecond) + " tokens/s" + ifItFit});
        st.addRow({"model TFLOP/s per GPU", units::formatFlops(step.modelTflopsPerGpu * 1e12) + ifItFit});
        st.addRow({"MFU (peak / max achievable)", pct(step.mfu) + " / " + pct(step.mfuMaxAchievable) + ifItFit});
        st.addRow({"HFU", pct(step.hfu)});
        st.addRow({"GEMM efficiency", efficiencyOrigin(timing) == GemmEfficiencyOrigin::Flat
                                            ? "flat " + pct(step.defaultEfficiency) + " (--efficiency)"
                                            : efficiencyOrigin(timing) == GemmEfficiencyOrigin::Measured
                                                  ? "measured (" + basisLabel(cal.gemmSession()) + ")"
                                                  : std::string("by shape, capped at max achievable")});
        const auto* kernel = model::attentionKernelFor(r, c, p);
        st.addRow({"attention kernel", model::attentionSummary(r, c, p) + (kernel ? " [3]" : "")});
        st.addRow({"max achievable (GEMM cap) [1]", units::formatFlops(r.maxAchievableFlops)});
        st.addRow({"scale-out per GPU [2]", r.nicBytesPerSec > 0 ? units::formatBandwidth(r.nicBytesPerSec / 1e9)
                                                                 : std::string("none (set --nic-gbs)")});
        st.addRow({"prefill of " + std::to_string(inf.promptTokens) + " tokens, batch " + std::to_string(inf.batch),
                   units::formatTime(prefill * 1e6)});
        st.addRow({"decode per token, batch " + std::to_string(inf.batch),
                   units::formatTime(dec.secondsPerToken * 1e6) + (dec.memoryBound() ? " (memory-bound)" : " (compute-bound)")});
        st.print(std::cout);
        if (fromRun)
            printRunCalibration(std::cout, *fromRun);
        std::cout << "[1] " << r.maxAchievableSource << "\n[2] "
                  << (r.nicSource.empty() ? std::string("no scale-out figure: cross-node collectives cost 0") : r.nicSource)
                  << (kernel ? "\n[3] " + kernel->source : std::string()) << "\n\n";
        TextTable ct({"communication", "op", "size", "ranks", "calls/step", "time/call", "total", "source"});
        for (int i = 0; i < step.commCount; ++i) {
            const auto& o = step.comm[i];
            char calls[32];
            std::snprintf(calls, sizeof calls, "%.0f", o.count);
            ct.addRow({o.what, toString(o.op), units::formatBytes(o.bytes),
                       std::to_string(o.ranks) + (o.crossNode ? " (inter-node)" : ""), calls,
                       units::formatTime(o.timeUs), units::formatTime(o.totalSeconds() * 1e6),
                       o.routedImbalance > 0 ? cal.collectiveBasis(o.op, o.ranks, o.measured, o.routedImbalance) +
                                                   ": all_to_allv, imbalance " + numberCell(o.routedImbalance, 3)
                       : o.measured          ? cal.collectiveBasis(o.op, o.ranks, o.measured)
                                             : "profile"});
        }
        ct.print(std::cout);
        std::cout << '\n';
        if (*gemms)
            printGemms(c, p, &r, timing);
        printRules(m.findings);
    });
}

// The rows as CSV, or the explorer's scatter as an image (the GUI's own chart code), by suffix.
void writeSweep(const MoeSweepResult& res, const std::string& path, bool mfu, const ImageSize& size)
{
    writeChartOutput(path, [&] { return toCsv(res); }, [&] { writeMoeSweepImage(res, mfu, size, path); });
}

struct SweepArgs
{
    std::string experts = "8,16,32,64,128,256", topK = "1,2,4,8", shared = "0,1", widths;
    std::string hold = "active";
    std::string output, metric = "tokens";
    ImageSize size;
};

struct BestLayoutArgs
{
    bool on = false;
    int gpus = 0, globalBatch = 0;
    std::string fix, allow;
};

SweepHold holdOf(const SweepArgs& s)
{
    return s.hold == "total" ? SweepHold::TotalParams : s.hold == "flops" ? SweepHold::FlopsPerToken
           : s.hold == "none" ? SweepHold::None : SweepHold::ActiveParams;
}

// The decode question and the hold; the MoE axes only for a MoE base (a dense base's are denseSpecOf's).
MoeSweepSpec sweepSpecOf(const StepArgs& a, const SweepArgs& s, const ModelConfig& base)
{
    MoeSweepSpec spec;
    spec.base = base;
    spec.hold = holdOf(s);
    if (base.isMoe()) {
        spec.experts = parseSweepValues(s.experts, "--experts");
        spec.topK = parseSweepValues(s.topK, "--top-k");
        spec.sharedExperts = parseSweepValues(s.shared, "--shared");
        if (spec.hold == SweepHold::None)
            spec.expertWidths = parseSweepValues(s.widths, "--widths");
    }
    spec.decode.batch = a.decodeBatch;
    spec.decode.contextTokens = a.context;
    return spec;
}

bool moeAxesGiven(const CLI::App* cmd)
{
    return cmd->count("--experts") + cmd->count("--top-k") + cmd->count("--shared") + cmd->count("--widths") > 0;
}

// moe-sweep --best-layout: each shape at its own best layout (plan/shapesearch.h).
// A dense base sweeps its hidden and FFN widths (denseshapesearch.h) through the same search.
void runBestLayoutSweep(const CliContext& ctx, const StepArgs& a, const DeviceArgs& d, const SweepArgs& s,
                        const BestLayoutArgs& b, const DenseAxesArgs& denseAxes, const CLI::App* cmd)
{
    if (d.hardware.empty() || b.gpus <= 0 || b.globalBatch <= 0)
        throw UsageError("--best-layout needs --hardware PROFILE, --gpus N and --global-batch B");
    const auto base = loadConfigFor(a, ctx);
    if (base.isMoe() && denseAxesGiven(cmd))
        throw UsageError("--hidden, --ffn, --ffn-mult and --layers sweep a dense base; " + base.name +
                         " is MoE: sweep --experts, --top-k, --shared (and --widths)");
    if (!base.isMoe() && moeAxesGiven(cmd))
        throw UsageError("--experts, --top-k, --shared and --widths sweep a MoE base; " + base.name +
                         " is dense: sweep --hidden with --ffn-mult or --ffn (or --layers)");
    const auto hw = findHardwareProfile(d.hardware);
    plan::ShapeSearchRequest req;
    req.sweep = sweepSpecOf(a, s, base);
    if (!base.isMoe())
        req.dense = denseSpecOf(denseAxes, base, req.sweep.hold);
    req.sweep.parallel.dtype = a.dtype;
    req.sweep.decode.tp = 1;
    req.plan.base.hardware = hw;
    req.plan.base.layout.flashAttention = !a.noFlash;
    req.plan.base.layout.dropout = a.dropout;
    req.plan.base.layout.framework = a.framework;
    req.plan.cluster = {b.gpus, d.gpusPerNodeSet ? d.gpusPerNode : hw.gpusPerNode, b.globalBatch, a.seq};
    req.plan.allow = plan::parseAllowances(b.allow);
    req.fix = b.fix;
    auto space = plan::defaultSpace(req.sweep.base, hw, req.plan.cluster, req.plan.allow);
    plan::applyFix(space, req.fix); // its syntax before the first shape is searched
    const auto cal = calibrationFor(a, ctx);
    const auto res = plan::runShapeSearch(req, cal, [&](std::size_t done, std::size_t total) {
        std::fprintf(stderr, "moe-sweep --best-layout: shape %zu of %zu\n", done, total);
        return true;
    });
    if (!s.output.empty()) {
        // Every shape at its best layout, written as the fixed-layout sweep writes its rows (CSV, or
        // the scatter as SVG/PNG/PDF); -o was ignored here before.
        MoeSweepResult sweep;
        for (const auto& sr : res.rows)
            sweep.rows.push_back(sr.row);
        sweep.heldValue = res.heldValue;
        sweep.deviceMemoryBytes = hw.hbmCapacityGB.value * 1e9;
        writeSweep(sweep, s.output, s.metric == "mfu", s.size);
        std::fprintf(stderr, "moe-sweep --best-layout: %zu shapes written to %s\n", sweep.rows.size(), s.output.c_str());
    }
    if (req.dense) {
        std::ostringstream where;
        where << "each at its best layout on " << b.gpus << " x " << hw.id << " (global batch " << b.globalBatch << " x "
              << a.seq << "); decode at batch " << a.decodeBatch << ", context " << a.context << ", one GPU";
        printDenseShapeSearch(res, *req.dense, ctx.json, s.hold, where.str());
        return;
    }
    const auto verdict = plan::placeBase(res);
    if (ctx.json) {
        nlohmann::json rows = nlohmann::json::array();
        for (const auto& sr : res.rows) {
            const auto& row = sr.row;
            rows.push_back({{"experts", row.experts}, {"top_k", row.topK}, {"shared_experts", row.sharedExperts},
                            {"expert_width", row.expertWidth}, {"base", sr.base}, {"total_params", row.totalParams},
                            {"active_params", row.activeParams}, {"memory_per_gpu_bytes", row.memoryPerGpuBytes},
                            {"step_s", row.stepSeconds}, {"tokens_per_s", row.tokensPerSecond}, {"mfu", row.mfu},
                            {"decode_s_per_token", row.decodeSecondsPerToken}, {"fits_device", row.fits},
                            {"pareto", row.pareto}, {"layouts_ranked", sr.ranked},
                            {"best_layout", sr.best ? nlohmann::json(plan::toSpec(sr.best->layout)) : nlohmann::json()}});
        }
        std::cout << nlohmann::json{{"rows", rows}, {"base", verdict}, {"held_value", res.heldValue},
                                    {"hold", s.hold}, {"seconds", res.seconds},
                                    {"expected_error", {{"median", res.band.median}, {"max", res.band.max},
                                                        {"mean_signed", res.band.bias}}}}
                         .dump(2)
                  << '\n';
        return;
    }
    std::cout << res.rows.size() << " shapes of " << req.sweep.base.name << ", holding " << toString(req.sweep.hold)
              << ", each at its best layout on " << b.gpus << " x " << hw.id << " (global batch " << b.globalBatch
              << " x " << a.seq << "); decode at batch " << a.decodeBatch << ", context " << a.context
              << ", one GPU. Pareto front and the base shape:\n";
    TextTable t({"", "experts", "top-k", "shared", "width", "total", "active", "tokens/s", "MFU", "decode/token",
                 "memory/GPU", "best layout"});
    for (const auto& sr : res.rows) {
        const auto& row = sr.row;
        if (!row.pareto && !sr.base)
            continue;
        t.addRow({sr.base ? "base" : "", std::to_string(row.experts), std::to_string(row.topK),
                  std::to_string(row.sharedExperts), std::to_string(row.expertWidth), units::formatCount(row.totalParams),
                  units::formatCount(row.activeParams),
                  row.fits ? units::formatCount(row.tokensPerSecond) + " tokens/s" : std::string("does not fit"),
                  row.fits ? pct(row.mfu) : "", units::formatTime(row.decodeSecondsPerToken * 1e6),
                  row.fits ? units::formatMemory(row.memoryPerGpuBytes) : "",
                  sr.best ? plan::toSpec(sr.best->layout) : std::string("-")});
    }
    t.print(std::cout);
    std::cout << "\nThe base shape (" << req.sweep.base.name << "): " << verdict << ".\nExpected error of each "
              << "training figure: " << describe(res.band) << "; mean " << describeBias(res.band) << ".\n";
}

void addMoeSweepCommand(CLI::App& app, CliContext& ctx)
{
    auto* cmd = app.add_subcommand("moe-sweep", "Sweep experts, top-k, shared experts (with --best-layout, a dense "
                                                "base's hidden and FFN widths); print the Pareto front");
    auto a = std::make_shared<StepArgs>();
    auto d = std::make_shared<DeviceArgs>();
    auto s = std::make_shared<SweepArgs>();
    auto best = std::make_shared<BestLayoutArgs>();
    auto dense = std::make_shared<DenseAxesArgs>();
    addStepOptions(cmd, *a);
    addDeviceOptions(cmd, *d);
    cmd->add_flag("--best-layout", best->on,
                  "Size every shape at its own best layout on the cluster (--gpus, --global-batch; --fix and --allow "
                  "as ridgeline-cli plan takes them) instead of the one --parallel layout");
    cmd->add_option("--gpus", best->gpus, "With --best-layout: GPUs in the cluster")->check(CLI::Range(1, 1'000'000));
    cmd->add_option("--global-batch", best->globalBatch, "With --best-layout: sequences per optimizer step")
        ->check(CLI::Range(1, 100'000'000));
    cmd->add_option("--fix", best->fix, "With --best-layout: keep only these layout values (plan --fix syntax)");
    cmd->add_option("--allow", best->allow, "With --best-layout: tp-across-nodes, tp-overlap");
    cmd->add_option("--experts", s->experts, "Expert counts: list or start:stop:step")->capture_default_str();
    cmd->add_option("--top-k", s->topK, "Top-k values")->capture_default_str();
    cmd->add_option("--shared", s->shared, "Shared-expert counts")->capture_default_str();
    cmd->add_option("--hold", s->hold, "active | total | flops | none")->capture_default_str()
        ->check(CLI::IsMember({"active", "total", "flops", "none"}));
    cmd->add_option("--widths", s->widths, "Expert widths (with --hold none), e.g. 512:4096:256");
    cmd->add_option("-o,--output", s->output,
                    "Write every configuration to FILE.csv, or the scatter (throughput vs decode latency, "
                    "Pareto front) to FILE.png|svg|pdf");
    cmd->add_option("--metric", s->metric, "Scatter y axis: tokens (tokens/s) or mfu")
        ->capture_default_str()->check(CLI::IsMember({"tokens", "mfu"}));
    addDenseAxesOptions(cmd, *dense);
    addImageSizeOptions(cmd, s->size);
    cmd->callback([&ctx, a, d, s, best, dense, cmd] {
        if (best->on) {
            runBestLayoutSweep(ctx, *a, *d, *s, *best, *dense, cmd);
            return;
        }
        if (denseAxesGiven(cmd))
            throw UsageError("--hidden, --ffn, --ffn-mult and --layers need --best-layout: every dense shape is sized "
                             "at its own best layout");
        const auto base = loadConfigFor(*a, ctx);
        if (!base.isMoe())
            throw UsageError(base.name + " is dense: its hidden and FFN widths are swept with --best-layout "
                             "(--gpus, --global-batch; --hidden, --ffn-mult)");
        const auto req = sizingRequestOf(*a, *d, base);
        auto spec = sweepSpecOf(*a, *s, req.model);
        spec.parallel = req.layout;
        spec.decode.tp = spec.parallel.tp;
        const auto cal = calibrationFor(*a, ctx);
        const SizingInputs in(req, cal);
        spec.timing = in.timing();
        const auto res = runMoeSweep(spec, in.rates(), in.collectives());
        if (!s->output.empty())
            writeSweep(res, s->output, s->metric == "mfu", s->size);
        const auto noFit = std::count_if(res.rows.begin(), res.rows.end(), [](const auto& row) { return !row.fits; });
        if (ctx.json) {
            nlohmann::json j = nlohmann::json::array();
            for (const auto& row : res.rows)
                j.push_back({{"experts", row.experts}, {"top_k", row.topK}, {"shared_experts", row.sharedExperts},
                             {"expert_width", row.expertWidth}, {"total_params", row.totalParams},
                             {"active_params", row.activeParams}, {"memory_per_gpu_bytes", row.memoryPerGpuBytes},
                             {"tokens_per_s", row.tokensPerSecond}, {"mfu", row.mfu},
                             {"decode_s_per_token", row.decodeSecondsPerToken}, {"fits_device", row.fits},
                             {"pareto", row.pareto}});
            std::cout << j.dump(2) << '\n';
            return;
        }
        std::cout << res.rows.size() << " configurations, holding " << toString(spec.hold)
                  << "; Pareto front (max tokens/s, min decode latency):\n";
        TextTable t({"experts", "top-k", "shared", "width", "total", "active", "memory/GPU", "tokens/s", "MFU",
                     "decode/token"});
        for (const auto& row : res.rows)
            if (row.pareto)
                t.addRow({std::to_string(row.experts), std::to_string(row.topK), std::to_string(row.sharedExperts),
                          std::to_string(row.expertWidth), units::formatCount(row.totalParams),
                          units::formatCount(row.activeParams), units::formatMemory(row.memoryPerGpuBytes),
                          units::formatCount(row.tokensPerSecond) + " tokens/s", pct(row.mfu),
                          units::formatTime(row.decodeSecondsPerToken * 1e6)});
        t.print(std::cout);
        if (noFit > 0)
            std::cout << noFit << " configuration(s) need more than " << units::formatMemory(res.deviceMemoryBytes)
                      << " per GPU and are left off the front\n";
        if (!s->output.empty())
            std::cout << (views::exportFormatFor(s->output) == views::ExportFormat::Csv ? "all rows written to " : "scatter of all rows drawn to ") << s->output
                      << '\n';
    });
}

static const bool registered = registerCommand(&addSizeCommand) && registerCommand(&addMoeSweepCommand);
} // namespace
} // namespace rl::cli
