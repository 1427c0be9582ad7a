#pragma once
// What a measured run says about its own configuration, so predicted vs measured models the run
// that was measured instead of a default one: parallel degrees, batch and sequence length from a
// training log's Megatron argument dump, the device from the file name or a trace's kernel names.
// Anything the run does not state is assumed and reported as such.
#include <string>
#include <string_view>
#include <vector>

#include "model/parallelconfig.h"
#include "records/session.h"

namespace rl::store {
class Workspace;
}

namespace rl::model {

// 0 / empty where the run does not say.
struct MeasuredRun
{
    int worldSize = 0, dp = 0, tp = 0, pp = 0, cp = 0;
    int microBatch = 0, globalBatch = 0, seqLen = 0;
    // Which model ran, as far as the run states its shape (Megatron's num_layers, hidden_size,
    // num_attention_heads): a prediction for another model is not compared with it.
    int layers = 0, hidden = 0, heads = 0;
    std::string device;     // "H100", "MI300X", ... or only a vendor, "NVIDIA" / "AMD"
    std::string deviceFrom; // where the device was found: "file name", "kernel names (sm90_xmma_...)"
    std::string from;       // where the layout and batch were read: "Megatron-LM arguments"
};

// The device named in free text (a file name, a log line): the longest known GPU name it contains,
// case-insensitively ("16xH100" -> "H100", "8xMI300X" -> "MI300X"); empty when none.
std::string deviceInText(std::string_view text);
// The vendor (and generation where the name tells) from kernel names: cutlass / ampere / sm80 /
// sm90 / nvjet / nccl kernels are NVIDIA ("H100" for sm90, "A100" for sm80 and ampere), Tensile
// (Cijk_), rccl, composable-kernel and gfx9 names AMD ("MI300X" for gfx942); the first name that
// decides is copied to evidence.
std::string deviceFromKernelNames(const std::vector<std::string>& names, std::string* evidence = nullptr);
// The hardware profile id that matches a device ("H100" -> "h100-sxm", "AMD" -> "mi300x"), or empty.
std::string matchHardwareProfile(const std::string& device, const std::vector<std::string>& profileIds);

// What the importers stored in session.params["run"] (see trainlog.cpp), plus the ranks of a trace.
MeasuredRun measuredRunOf(const Session& s);
// A trace's device from its kernel names (deviceFromKernelNames), when they name one: run.device
// and run.deviceFrom "kernel names (<evidence>)".
void takeDeviceFromKernelNames(MeasuredRun& run, const std::vector<std::string>& kernelNames);
// measuredRunOf a stored session, with a trace's device from the names of its 200 biggest kernels; a
// trace that a ridgeline-probe step session profiled (it names the trace session, or its --trace file
// is the trace's) takes that session's process count, micro-batch, sequence, model shape and device.
MeasuredRun storedMeasuredRun(store::Workspace& ws, const Session& s);
// "run" params for a session from one Megatron argument-dump line or the "using world size: 16,
// data-parallel size: 2, ..." line; false when the line is neither.
bool readMegatronArgument(std::string_view line, MeasuredRun& run);
nlohmann::json toJson(const MeasuredRun& run);

// Why the run cannot be compared with a prediction for model c: "" when the shape it states
// (layers, hidden size, heads) is c's; else the first difference ("the run has 80 layers,
// llama-3-8b 32"), or that the run states no shape at all (a trace does not name its model).
std::string modelMismatch(const MeasuredRun& run, const ModelConfig& c);

// Which inputs of the prediction the measured run supplies; the rest are the caller's.
struct RunInputs
{
    ParallelConfig parallel;
    std::string hardware;             // matched profile id; empty: the caller's choice stands
    std::vector<std::string> taken;   // "layout dp=2, tp=8, pp=1 (Megatron-LM arguments)", ...
    std::vector<std::string> assumed; // "ZeRO stage 1", "model llama-3-8b", ...
};

struct UserSet // inputs the user gave explicitly: those win over the measurement
{
    bool layout = false, microBatch = false, seqLen = false, hardware = false;
};

// base with the run's degrees, micro-batch, micro-batches per step (global batch / (micro-batch x
// dp)) and sequence length; the hardware profile matched from the run's device.
RunInputs applyMeasuredRun(const MeasuredRun& run, ParallelConfig base, const std::string& hardware,
                           const std::vector<std::string>& profileIds, UserSet user = {});
// "dp=2,tp=8" (degrees above 1; "dp=1" for a single GPU), as --parallel takes them.
std::string parallelSpec(const ParallelConfig& p);
} // namespace rl::model
