#pragma once
// The options every sizing-model command shares (ridgeline-cli size, moe-sweep, vs-measured): the
// model config and parallel layout, and the device (a hardware profile with single figures
// overridable from the command line), turned into the model's inputs.
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json_fwd.hpp>

#include "clicommands.h"
#include "model/calibration.h"
#include "model/devicerates.h"
#include "model/framework.h"
#include "model/gemmefficiencysource.h"
#include "model/gemmlist.h"
#include "model/measuredrun.h"
#include "model/modelconfig.h"
#include "model/parallelconfig.h"
#include "model/sizingrequest.h"
#include "model/storedruncalibration.h"

namespace rl::cli {

struct DeviceArgs
{
    std::string hardware;
    std::string attention; // fused attention kernel timed by the profile's measured rates; "" = by GEMM shape
    double peakTflops = 0, maxAchievableTflops = 0, hbmGBs = 0, hbmGB = 0, linkGBs = 0, nicGBs = 0;
    int cus = 0, gpusPerNode = 8;
    bool gpusPerNodeSet = false;
};
void addDeviceOptions(CLI::App* cmd, DeviceArgs& d);
// --attention alone, for commands that name the device otherwise (report).
void addAttentionOption(CLI::App* cmd, std::string& kernel);
// --hardware names a profile in resources/hardware/ (or a profile file); the figure options
// override single numbers of it, or describe the device entirely when no profile is given.
// Throws naming the options that are missing for a timed step (peak and HBM bandwidth).
model::DeviceRates resolveDevice(const DeviceArgs& d, const std::string& dtype);
// The same device as a profile (the figure options over the named one), for a SizingRequest.
HardwareProfile resolveProfile(const DeviceArgs& d, const std::string& dtype);
// Whether the options name a device that times a step (a profile, or a peak or bandwidth figure
// that resolveDevice would complete or refuse); --hbm-gb or --cus alone do not.
bool deviceGiven(const DeviceArgs& d);
// What to add for the figures that need a device, for messages and the JSON "needs_hardware" note.
extern const char* const kDeviceHint;

struct StepArgs
{
    std::string config;
    std::string parallel = "dp=8";
    int microBatch = 1, microBatches = 0, seq = 4096, zero = 1;
    std::string recompute = "none";
    bool sp = false, noFlash = false, calibrate = false, dropout = false, epOverlap = false;
    std::string epDispatcher = "alltoall";
    double overlap = -1, dpOverlap = -1, tpOverlap = 0, efficiency = 0;
    int firstStageLayers = 0, lastStageLayers = 0;
    std::string dtype = "bf16";
    std::string gradDtype; // --grad-dtype; empty: the framework's default
    model::Framework framework = model::Framework::MegatronCore; // --framework (model/framework.h)
    int decodeBatch = 1, context = 4096;
    std::int64_t gemmSession = 0; // a stored GEMM sweep whose efficiencies time the GEMMs
    std::vector<std::int64_t> collectiveSessions; // --collectives: calibrate from these sessions only
    double moeImbalance = 0;      // with --calibrate: the all_to_allv routing imbalance to time EP at; 0 = newest
    std::int64_t calibrateFrom = 0; // --calibrate-from: a stored trace or training log of this model (size, plan)
};
// --calibrate-from ID, for the commands that apply it (size, plan).
void addRunCalibrationOption(CLI::App* cmd, StepArgs& a);
// What --calibrate-from fitted, as the JSON "run_calibration" object and as text (the session, the
// run's measured and predicted step, the residual, each factor, what was taken and assumed).
nlohmann::json runCalibrationJson(const model::StoredRunCalibration& fromRun);
void printRunCalibration(std::ostream& out, const model::StoredRunCalibration& fromRun);
void addStepOptions(CLI::App* cmd, StepArgs& a);
// --framework NAME (model/framework.h), checked and parsed into `framework` as the command line is
// read (an unknown name is bad usage: exit 2).
void addFrameworkOption(CLI::App* cmd, model::Framework& framework);
// --grad-dtype fp32|bf16|fp16: the gradients' buffer and reduction type (default: the framework's).
void addGradientDtypeOption(CLI::App* cmd, std::string& gradDtype);
// What the model is calibrated with (--efficiency, --calibrate, --collectives, --moe-imbalance,
// --gemm-session), for commands that size with a layout of their own (plan).
void addCalibrationOptions(CLI::App* cmd, StepArgs& a);
// The training recipe alone (--micro-batch, --micro-batches, --seq, --zero, --recompute, --sp,
// --no-flash, the overlaps, --ep-dispatcher, uneven stages, --dropout, --dtype), for commands that
// size a model they name otherwise (report --model).
void addRecipeOptions(CLI::App* cmd, StepArgs& a);
// Those options as the layout's non-degree fields (the base parallelLayoutOf fills the degrees into).
model::ParallelConfig recipeOf(const StepArgs& a);
// CONFIG as a config.json file, a configuration saved in the workspace (`ridgeline-cli config
// save`), or a preset, in that order (model::findModelConfig).
model::ModelConfig loadConfigFor(const StepArgs& a, const CliContext& ctx);
// Throws std::invalid_argument when the layout does not parse or fit the model (model::parallelLayout),
// naming `option` (where a.parallel came from) and the way out.
model::ParallelConfig parallelOf(const StepArgs& a, const model::ModelConfig& c, const char* option = "--parallel");

// The calibration the options name (--calibrate or --collectives, --gemm-session, --moe-imbalance,
// --efficiency), read from the workspace: the same assembly the GUI's Calibration picker builds.
// Bind it to the device with model::CalibratedSources. Throws naming a session that does not fit.
model::CalibrationChoice calibrationChoiceOf(const StepArgs& a);
model::Calibration calibrationFor(const StepArgs& a, const CliContext& ctx);

// The request the options describe: the model, the device (resolveProfile), the layout with its
// recipe (parallelOf), the attention kernel, the calibration choice and the decode question
// (--decode-batch, --context as prompt and KV length).
model::SizingRequest sizingRequestOf(const StepArgs& a, const DeviceArgs& d, const model::ModelConfig& c);

// The measured GEMM efficiencies of --gemm-session (empty without one); throws when the session has
// no GEMM points with an efficiency.
model::MeasuredGemmEfficiency measuredGemmsFor(const StepArgs& a, const CliContext& ctx);
} // namespace rl::cli
