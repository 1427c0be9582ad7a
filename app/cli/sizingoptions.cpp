#include "sizingoptions.h"

#include <filesystem>
#include <ostream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "model/configlookup.h"
#include "model/hardwareprofileloader.h"
#include "model/measuredrun.h"
#include "store/kernelresults.h"
#include "store/workspace.h"
#include "units/units.h"

namespace rl::cli {
using namespace rl::model;

void addAttentionOption(CLI::App* cmd, std::string& kernel)
{
    cmd->add_option("--attention", kernel,
                    "Fused attention kernel the run uses, timed by the profile's measured rates (h100-sxm: cudnn, fa2, "
                    "fa3, triton; `profile show` lists them). Default: attention timed as GEMMs by shape");
}

void addDeviceOptions(CLI::App* cmd, DeviceArgs& d)
{
    cmd->add_option("--hardware", d.hardware, "Hardware profile id (e.g. mi300x, h100-sxm)");
    addAttentionOption(cmd, d.attention);
    cmd->add_option("--peak-tflops", d.peakTflops, "Peak dense TFLOP/s for the dtype (overrides the profile)");
    cmd->add_option("--max-achievable-tflops", d.maxAchievableTflops, "Max-achievable TFLOP/s (MFU denominator)");
    cmd->add_option("--hbm-gbs", d.hbmGBs, "HBM bandwidth, GB/s");
    auto* gb = cmd->add_option("--hbm-gb", d.hbmGB, "HBM capacity as the device reports it, GB (1e9 B)");
    // Devices report binary sizes (an "80GB" H100: 81,559 MiB), so the GiB figure is the one users see.
    cmd->add_option_function<double>(
           "--hbm-gib", [&d](const double& gib) { d.hbmGB = gib * units::kKiB * units::kKiB * units::kKiB / 1e9; },
           "HBM capacity as nvidia-smi or rocm-smi reports it, GiB (2^30 B)")
        ->excludes(gb);
    cmd->add_option("--cus", d.cus, "Compute units / SMs");
    cmd->add_option("--link-gbs", d.linkGBs, "Intra-node bandwidth per GPU, GB/s");
    cmd->add_option("--nic-gbs", d.nicGBs, "Scale-out bandwidth per GPU, GB/s");
    cmd->add_option_function<int>(
           "--gpus-per-node", [&d](const int& n) { d.gpusPerNode = n, d.gpusPerNodeSet = true; }, "GPUs per node = scale-up domain (default: the profile's, else 8)");
}

namespace {
const char* const kSavedHint = "a name `ridgeline-cli config list` shows";
}

const char* const kDeviceHint = "--hardware PROFILE (`ridgeline-cli profile list` lists them), or the device's "
                                "figures --peak-tflops and --hbm-gbs";

bool deviceGiven(const DeviceArgs& d)
{
    return !d.hardware.empty() || d.peakTflops > 0 || d.maxAchievableTflops > 0 || d.hbmGBs > 0;
}

HardwareProfile resolveProfile(const DeviceArgs& d, const std::string& dtype)
{
    HardwareProfile hw;
    if (!d.hardware.empty())
        hw = findHardwareProfile(d.hardware);
    else
        hw.id = "command line";
    if (d.peakTflops > 0)
        hw.peakTflops[dtype] = {d.peakTflops, "command line"};
    if (d.maxAchievableTflops > 0)
        hw.maxAchievableTflops[dtype] = {d.maxAchievableTflops, "command line"};
    if (d.hbmGBs > 0)
        hw.hbmBandwidthGBs = {d.hbmGBs, "command line"};
    if (d.hbmGB > 0)
        hw.hbmCapacityGB = {d.hbmGB, "command line"};
    if (d.cus > 0)
        hw.computeUnits = {double(d.cus), "command line"};
    if (d.linkGBs > 0)
        hw.intraNodeLinkGBs = {d.linkGBs, "command line"};
    if (d.nicGBs > 0)
        hw.nicGBsPerGpu = {d.nicGBs, "command line"};
    if (d.gpusPerNode > 0 && (d.hardware.empty() || d.gpusPerNodeSet)) {
        hw.gpusPerNode = d.gpusPerNode;
        hw.scaleUpGpus = {double(d.gpusPerNode), "command line"};
    }
    // deviceRates() refuses the same gaps; here they are said in terms of options to add.
    const auto peak = hw.peakTflops.find(dtype);
    if (peak == hw.peakTflops.end() || peak->second.value <= 0) {
        if (d.hardware.empty())
            throw std::runtime_error(std::string("no device to time the step on: give ") + kDeviceHint);
        std::string has;
        for (const auto& [t, v] : hw.peakTflops)
            if (v.value > 0)
                has += (has.empty() ? "" : ", ") + t;
        throw std::runtime_error("hardware profile '" + hw.id + "' has no peak TFLOP/s for " + dtype +
                                 ": choose --dtype " + (has.empty() ? std::string("(none listed)") : "from " + has) +
                                 ", or give --peak-tflops for " + dtype);
    }
    if (hw.hbmBandwidthGBs.value <= 0)
        throw std::runtime_error(d.hardware.empty()
                                     ? "the device given by --peak-tflops needs --hbm-gbs too (or use --hardware "
                                       "PROFILE; `ridgeline-cli profile list` lists them)"
                                     : "hardware profile '" + hw.id + "' has no HBM bandwidth: give --hbm-gbs");
    return hw;
}

DeviceRates resolveDevice(const DeviceArgs& d, const std::string& dtype)
{
    return deviceRates(resolveProfile(d, dtype), dtype, d.attention);
}

SizingRequest sizingRequestOf(const StepArgs& a, const DeviceArgs& d, const ModelConfig& c)
{
    SizingRequest req;
    req.model = c;
    req.hardware = resolveProfile(d, a.dtype);
    req.layout = parallelOf(a, c);
    req.attentionKernel = d.attention;
    req.calibration = calibrationChoiceOf(a);
    req.inference.batch = a.decodeBatch;
    req.inference.contextTokens = a.context;
    req.inference.promptTokens = a.context;
    return req;
}

void addStepOptions(CLI::App* cmd, StepArgs& a)
{
    cmd->add_option("config", a.config, "config.json (Hugging Face or Ridgeline) or a preset name")->required();
    cmd->add_option("--parallel", a.parallel, "Degrees dp, tp, pp, cp, ep, etp (expert TP, default tp) and vpp (virtual stages per pipeline rank), e.g. tp=8,pp=8,vpp=4,dp=16")->capture_default_str();
    addRecipeOptions(cmd, a);
    addCalibrationOptions(cmd, a);
    cmd->add_option("--decode-batch", a.decodeBatch, "Batch for the decode estimate")->capture_default_str();
    cmd->add_option("--context", a.context, "KV length for the decode estimate, tokens")->capture_default_str();
}

void addCalibrationOptions(CLI::App* cmd, StepArgs& a)
{
    cmd->add_option("--efficiency", a.efficiency,
                    "Flat GEMM efficiency for unmeasured shapes (default: by shape, capped at max-achievable)")
        ->check(CLI::Range(0.01, 1.0));
    cmd->add_flag("--calibrate", a.calibrate, "Time collectives from the workspace's measured sessions");
    cmd->add_option("--collectives", a.collectiveSessions,
                    "Time collectives from these stored collective sessions only (ids, comma-separated, e.g. one "
                    "per network tier; later ones win for the same op and GPU count); implies --calibrate")
        ->delimiter(',');
    cmd->add_option("--moe-imbalance", a.moeImbalance,
                    "With --calibrate: the routing imbalance (max/mean expert-rank load) the MoE all_to_all is timed "
                    "at, from the stored all_to_allv run closest to it (1 = a balanced all_to_all); default: the "
                    "newest all_to_allv run's")
        ->check(CLI::Range(1.0, 1000.0));
    cmd->add_option("--gemm-session", a.gemmSession,
                    "Time GEMMs with the efficiencies of this stored GEMM sweep (interpolated by shape)");
}

void addRunCalibrationOption(CLI::App* cmd, StepArgs& a)
{
    cmd->add_option("--calibrate-from", a.calibrateFrom,
                    "Scale the model's compute, exposed communication and bubble to a stored trace or training log "
                    "of this model on this device (session id): the run's own layout is predicted, compared and the "
                    "factors applied here; prints what moved and the fit residual");
}

nlohmann::json runCalibrationJson(const model::StoredRunCalibration& fromRun)
{
    const auto& k = fromRun.rates;
    return {{"basis", k.basis}, {"from_trace", k.fromTrace}, {"compute", k.compute}, {"exposed_comm", k.exposedComm},
            {"bubble", k.bubble}, {"added_comm_s", k.addedComm}, {"added_idle_s", k.addedIdle},
            {"run_layout", model::parallelSpec(fromRun.runLayout)}, {"run_predicted_s", k.predictedRunSeconds},
            {"run_measured_s", k.measuredRunSeconds}, {"residual", k.residual}, {"moved", k.moved},
            {"taken", fromRun.taken}, {"assumed", fromRun.assumed}};
}

void printRunCalibration(std::ostream& out, const model::StoredRunCalibration& fromRun)
{
    const auto& k = fromRun.rates;
    out << "Calibrated from " << k.basis << ".\n  The run (" << model::parallelSpec(fromRun.runLayout) << "): measured "
        << units::formatTime(k.measuredRunSeconds * 1e6) << ", predicted " << units::formatTime(k.predictedRunSeconds * 1e6)
        << "; calibrated fit residual " << units::formatPercent(k.residual, 1, true) << "\n";
    for (const auto& moved : k.moved)
        out << "  rate moved: " << moved << '\n';
    for (const auto& taken : fromRun.taken)
        out << "  taken from the run: " << taken << '\n';
    for (const auto& assumed : fromRun.assumed)
        out << "  assumed: " << assumed << '\n';
}

void addRecipeOptions(CLI::App* cmd, StepArgs& a)
{
    cmd->add_option("--micro-batch", a.microBatch, "Sequences per micro-batch")->capture_default_str();
    cmd->add_option("--micro-batches", a.microBatches, "Micro-batches per step (0: 1, or 4·pp with PP)");
    cmd->add_option("--seq", a.seq, "Sequence length, tokens")->capture_default_str();
    cmd->add_option("--zero", a.zero, "ZeRO stage 0..3")->capture_default_str()->check(CLI::Range(0, 3));
    cmd->add_option("--recompute", a.recompute, "none | selective | full")->capture_default_str()
        ->check(CLI::IsMember({"none", "selective", "full"}));
    cmd->add_flag("--sp", a.sp, "Sequence parallelism with TP");
    cmd->add_flag("--no-flash", a.noFlash, "Keep the s² attention activations (no flash attention)");
    cmd->add_option("--overlap", a.overlap,
                    "Fraction of all communication hidden behind compute (default: DP behind the backward, TP and "
                    "the rest exposed)")
        ->check(CLI::Range(0.0, 1.0));
    cmd->add_option("--dp-overlap", a.dpOverlap,
                    "Fraction of DP gradient/parameter traffic hidden (default: hidden behind the last "
                    "micro-batch's backward, as --overlap-grad-reduce)")
        ->check(CLI::Range(0.0, 1.0));
    cmd->add_option("--tp-overlap", a.tpOverlap, "Fraction of TP collectives hidden (TP comm overlap)")
        ->capture_default_str()->check(CLI::Range(0.0, 1.0));
    cmd->add_flag("--ep-overlap", a.epOverlap,
                  "The expert all_to_all runs under another micro-batch's compute (Megatron-Core "
                  "overlap_moe_expert_parallel_comm; needs 2+ micro-batches); default: on the critical path");
    cmd->add_option("--ep-dispatcher", a.epDispatcher,
                    "alltoall: one copy of a token per expert; flex: DeepEP / HybridEP, a token crosses to another "
                    "node once however many of its experts are there (Megatron-Core moe_token_dispatcher_type)")
        ->capture_default_str()
        ->check(CLI::IsMember({"alltoall", "flex"}));
    cmd->add_option("--first-stage-layers", a.firstStageLayers, "Layers on the first pipeline stage (uneven PP)");
    cmd->add_option("--last-stage-layers", a.lastStageLayers, "Layers on the last pipeline stage (uneven PP)");
    cmd->add_flag("--dropout", a.dropout, "Attention and hidden dropout on (GPT-3-era recipes)");
    cmd->add_option("--dtype", a.dtype, "Compute dtype of the GEMMs (bf16, fp16, fp8)")->capture_default_str();
    addFrameworkOption(cmd, a.framework);
    addGradientDtypeOption(cmd, a.gradDtype);
}

void addGradientDtypeOption(CLI::App* cmd, std::string& gradDtype)
{
    cmd->add_option("--grad-dtype", gradDtype,
                    "The gradients' type in their buffer and the DP reduction: fp32, bf16 or fp16. Default: the "
                    "framework's (Megatron-Core bf16/fp8 runs: fp32 main grads, as --accumulate-allreduce-grads-in-fp32; "
                    "NeMo and Megatron-Bridge performance recipes: bf16, as --grad-reduce-in-bf16)")
        ->check([](const std::string& v) {
            return isGradientDtype(v) ? std::string() : "takes fp32, bf16 or fp16, not '" + v + "'";
        });
}

void addFrameworkOption(CLI::App* cmd, Framework& framework)
{
    cmd->add_option_function<std::string>(
           "--framework", [&framework](const std::string& v) { framework = *parseFramework(v); }, // checked below
           "The training stack that runs the layout: megatron (Megatron-Core), deepspeed (ZeRO), torchtitan "
           "(FSDP2), composer (llm-foundry FSDP). It decides how ZeRO-3 gathers and reduces, the gradient "
           "buffers, and whose published runs give the error band")
        ->default_str(toString(framework))
        ->check([](const std::string& v) {
            return parseFramework(v) ? std::string()
                                     : "unknown framework '" + v + "' (known: " + frameworkNames() + ")";
        });
}

ModelConfig loadConfigFor(const StepArgs& a, const CliContext& ctx)
{
    std::error_code ec;
    const std::string ws = ctx.workspacePath();
    if (!std::filesystem::exists(ws, ec)) // a lookup must not create the workspace
        return findModelConfig(a.config, nullptr, kSavedHint);
    store::Workspace w(ws);
    return findModelConfig(a.config, &w, kSavedHint);
}

ParallelConfig recipeOf(const StepArgs& a)
{
    ParallelConfig p;
    p.microBatch = a.microBatch;
    p.microBatches = a.microBatches;
    p.seqLen = a.seq;
    p.zeroStage = a.zero;
    p.framework = a.framework;
    p.recompute = recomputeFromString(a.recompute);
    p.sequenceParallel = a.sp;
    p.flashAttention = !a.noFlash;
    p.overlap = a.overlap;
    p.dpOverlap = a.dpOverlap;
    p.tpOverlap = a.tpOverlap;
    p.epOverlap = a.epOverlap;
    p.flexDispatch = a.epDispatcher == "flex";
    p.firstStageLayers = a.firstStageLayers;
    p.lastStageLayers = a.lastStageLayers;
    p.dropout = a.dropout;
    p.dtype = a.dtype;
    p.gradDtype = a.gradDtype;
    return p;
}

ParallelConfig parallelOf(const StepArgs& a, const ModelConfig& c, const char* option)
{
    return parallelLayoutOf(c, a.parallel, recipeOf(a), option);
}

CalibrationChoice calibrationChoiceOf(const StepArgs& a)
{
    CalibrationChoice choice;
    choice.collectiveSessions = a.collectiveSessions;
    choice.allCollectiveSessions = a.calibrate && a.collectiveSessions.empty();
    choice.gemmSession = a.gemmSession;
    choice.moeImbalance = a.moeImbalance;
    choice.flatEfficiency = a.efficiency;
    return choice;
}

Calibration calibrationFor(const StepArgs& a, const CliContext& ctx)
{
    const auto choice = calibrationChoiceOf(a);
    if (!choice.readsStore())
        return Calibration(nullptr, choice);
    store::Workspace ws(ctx.workspacePath());
    return Calibration(&ws, choice);
}

MeasuredGemmEfficiency measuredGemmsFor(const StepArgs& a, const CliContext& ctx)
{
    if (a.gemmSession <= 0)
        return {};
    store::Workspace ws(ctx.workspacePath());
    return storedGemmEfficiency(ws, a.gemmSession);
}
} // namespace rl::cli
