#pragma once
// The sizing model against published, measured training runs: a bundled table
// (resources/validation/published_runs.json, every row with its paper, table and row) is run
// through the same model `ridgeline-cli size` uses, uncalibrated, and compared step time by step
// time. The summary (median and maximum absolute error) is also the model's stated error band.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model/modelconfig.h"
#include "model/parallelconfig.h"
#include "model/devicerates.h"
#include "model/trainingstep.h"

namespace rl::model {

// The error the model reaches on the bundled table, uncalibrated, rounded up (asserted by the
// tests): median 4.8 %, max 9.8 % (Table 5, 530B), mean -4.5 %. One
// constant, kElementwiseEfficiency, was chosen on this table; the target is 10 % / 25 %.
inline constexpr double kValidationMedianBound = 0.05;
inline constexpr double kValidationMaxBound = 0.10;
// On the holdout runs, never used to choose anything (33 rows: NeMo 24.12 H100 FP8, NVIDIA DGX Cloud
// recipes, Megatron-Bridge, llm-foundry): 10.1 % / 42.7 %. The 10 % / 25 % is NOT met here:
// GPT-OSS-120B (-43 %), llm-foundry's MPT-13B at 32k (-35 %) and MPT-7B (-25 %) and Qwen3-30B-A3B
// (-31 % with its HybridEP dispatch modelled; its small FP8 experts run slower than modelled) are
// off by more than 25 %;
// resources/validation/README.md lists every row. These bounds guard against getting worse.
// (GPT-OSS went from -40 % to -43 % when its head-dim-64 attention got the FA3 paper's measured
// cuDNN rates instead of the shape estimate: the estimate was slower than the measured kernel, so
// what makes that run slow is elsewhere; the measured rate stays.)
inline constexpr double kHoldoutMedianBound = 0.11;
inline constexpr double kHoldoutMaxBound = 0.43;

struct ValidationRun
{
    std::string id;        // "narayanan21-t1-1.7B"
    std::string source;    // paper, table, row (and where the configuration details come from)
    std::string hardware;  // shipped profile id
    std::string dtype = "bf16";
    ModelConfig model;
    ParallelConfig parallel;
    int globalBatch = 0;
    double measuredStepSeconds = 0; // 0 when it ran out of memory
    std::string measuredHow; // "step time" or how it was derived from the published rate
    // Published as out of memory (`"measured": {"out_of_memory": true}`): no step time to compare,
    // only whether the model flags it (ranking groups, model/rankingvalidation.h).
    bool ranOutOfMemory = false;
    std::string set;         // "calibration" rows tune nothing; "holdout" rows are kept apart in reports
    // The training stack that ran ("megatron" by default, "deepspeed", "composer"): a calibration
    // carries over between runs of one stack only (validate --calibrated groups by it).
    std::string framework = "megatron";
    // The recipe's fused attention kernel ("cudnn", "fa2", "triton", ...); its measured rates time the
    // attention where the row's profile has them, else (or when empty) the GEMM-shape estimate does.
    std::string attentionKernel;
};

struct ValidationRow
{
    ValidationRun run;
    bool refused = false;
    std::string why;             // when refused
    double predictedStepSeconds = 0;
    double error = 0;            // predicted / measured - 1
    double predictedTflopsPerGpu = 0;
    double maxAchievableTflops = 0;
    bool aboveMaxAchievable = false;
    std::string attentionBasis; // how the attention was timed: the kernel's measured rates, or by GEMM shape
    // The whole prediction: where the step goes, memory and whether it fits (run calibration scales
    // it: validate --calibrated).
    StepEstimate step;
    DeviceRates rates;  // the device it was made on
};

struct ValidationSummary
{
    std::vector<ValidationRow> rows;
    int refused = 0;
    int outOfMemory = 0;       // rows published as out of memory: in `rows`, not in the errors
    int aboveMaxAchievable = 0;
    double medianAbsError = 0; // over rows not refused
    double maxAbsError = 0;
    double meanSignedError = 0;
    std::string worstRow;
};

// Throws std::runtime_error naming the file and row on a malformed table.
std::vector<ValidationRun> loadValidationRuns(const std::string& path);
// The file parsed (discarded when it is not JSON, which validationRunsOf reports); throws when it
// cannot be opened.
nlohmann::json readValidationFile(const std::string& path);
// The runs of a table already parsed from `path` (for files that hold more than runs).
std::vector<ValidationRun> validationRunsOf(const nlohmann::json& root, const std::string& path);
// Appends the runs of the bundled table, then of the holdout.
void appendBundledRuns(std::vector<ValidationRun>& runs);
// The shipped table: <resources>/validation/published_runs.json; the holdout runs beside it.
std::string validationTablePath();
std::string holdoutTablePath();
// Runs every row against the shipped hardware profiles (not the user's copies, so the figures
// are reproducible), GEMM efficiency by shape, collectives from the profile.
ValidationSummary runValidation(const std::vector<ValidationRun>& runs);

// The error band the model states next to a prediction: the median and maximum absolute step-time
// error, and the mean signed error (negative: predictions ran fast), over the published runs bundled
// (the table and the holdout) of the same kind, dense or MoE — MoE steps carry routing, all_to_all
// and small-expert costs dense runs never test, and their error is several times larger — on the
// same device when at least kMinDeviceRows such runs were measured on it (the model's bias is the
// device's: H100 runs ran fast where A100 runs did not), else on every device, saying how many were
// on this one. The tables are run once per process; a band is then a pass over their rows (0/0
// when the tables are missing).
inline constexpr int kMinDeviceRows = 5;
struct ErrorBand
{
    double median = 0, max = 0;
    double bias = 0;        // mean signed error
    int rows = 0;
    bool moe = false;
    std::string device;     // the device the rows were measured on; empty: every device
    std::string asked;      // the device asked about ("" for none)
    int askedRows = 0;      // rows of that kind (and framework, when narrowed) measured on it
    std::optional<Framework> framework;      // the stack the rows ran with; none: every stack
    std::optional<Framework> askedFramework; // the stack asked about (none: not asked)
    int askedFrameworkRows = 0;              // rows of that kind run with it
};
// Narrowed to `framework`'s runs first when at least kMinDeviceRows of that kind ran with it (a
// prediction for a DeepSpeed layout is held to DeepSpeed runs), then to the device as above.
ErrorBand modelErrorBand(bool moe, const std::string& device = {}, std::optional<Framework> framework = std::nullopt);
// "median 10 %, max 35 % over 22 published dense runs of Megatron-Core on h100-sxm";
// "median 7 %, max 35 % over 42 published dense runs, none on mi300x";
// "unknown (validation tables missing)".
std::string describe(const ErrorBand& band);
// The mean signed error over the same runs: "-8 % (optimistic)" (predicted steps shorter than measured).
std::string describeBias(const ErrorBand& band);
} // namespace rl::model
