#pragma once
// One benchmark run, as it travels: what runs (a ridgeline-bench sweep, a GPU tool's sweep), how its
// processes start (launch.h), its environment, point timeout and title. `ridgeline-cli run ...`
// binds its options into one; the GUI's run dialogs are forms over one and start the command
// line toCliArgs() gives, which is also what their preview shows. One validate() says what is
// wrong for both. `ridgeline-cli run ... --print-request` prints the request the CLI understood, so
// request -> arguments -> request is checked end to end (tests/unit/test_runrequest.cpp).
//
// Adding a launch option or a run setting: a field here, its line in toCliArgs/toJson/fromJson,
// its CLI option (app/cli/runoptions.cpp) and its form field.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "runs/launch.h"
#include "tools/gemmrecipes.h"

namespace rl::runs {

enum class RunKind { Collectives, Pairs, Io, PeakFlops, MemBw, Gemm, NcclTests, Hipblaslt, Rocblas, Probe, Cutlass, BabelStream,
                     Nvbandwidth };

// What each kind is: its `ridgeline-cli run` subcommand, how it starts, what its session holds.
struct RunKindInfo
{
    RunKind kind;
    const char* subcommand;  // of `ridgeline-cli run`
    const char* sessionKind; // records/session.h kind of the session(s) it stores
    const char* program;     // ridgeline-bench's subcommand, or the tool's registry id
    bool benchMpi;           // ridgeline-bench under MPI: --np, hostfile, template, sbatch, point timeout
    bool benchLocal;         // ridgeline-bench on this machine, no launch options
    bool gpuTool;            // a program of its own (a registry tool, ridgeline-probe): launch options, --env
    bool gemmShapes;         // runs the GEMM shapes of a GemmSelection, one tool run per shape
};
const std::vector<RunKindInfo>& runKinds();
const RunKindInfo& info(RunKind kind);
const RunKindInfo* runKindNamed(std::string_view subcommand); // nullptr when unknown
const RunKindInfo* runKindOfTool(std::string_view toolId);    // the kind that runs a registry tool, if any
// The option that names the kind's program: --bench, --tool-dir or --probe-program.
const char* programOption(RunKind kind);
// What ridgeline-probe measures (its subcommands), and the session kind each stores.
const std::vector<std::string>& probeSubcommands();
std::string probeSessionKind(const std::string& probe);

// hipblaslt-bench / rocblas-bench / cutlass_profiler: which GEMM shapes to run.
struct GemmSelection
{
    std::vector<std::string> shapes; // MxNxK or MxNxKxTT
    std::string square;              // "256:16384"
    std::string recipe;              // "", "square", "max-achievable", "model"
    int cus = 0;                     // compute units, for max-achievable
    std::string dtype = "bf16";
    std::string computeType = "f32_r";
    int iters = 0, coldIters = 0;    // 0: the tool's default
    std::string config;              // the model of the model recipe
    std::string parallel = "dp=8";
    int seq = 4096, microBatch = 1;

    friend bool operator==(const GemmSelection&, const GemmSelection&) = default;
};

// The shapes a GEMM selection names without a model: given shapes, the square sweep (the square
// recipe alone: 256:16384), max-achievable for --cus. The model recipe's shapes need the model
// (tools::modelStepShapes) and are not in it. Throws std::invalid_argument for a bad shape or range.
std::vector<tools::GemmShape> shapesWithoutModel(const GemmSelection& g);

struct RunRequest
{
    RunKind kind = RunKind::Collectives;
    Launch launch;
    std::string program;             // --bench, --tool-dir (a GPU tool's folder), --probe-program; empty: found
    std::vector<std::string> env;    // NAME=VALUE, GPU tools
    std::optional<double> pointTimeoutS; // unset: defaultPointTimeout(); 0 = never (ridgeline-bench only)
    std::string title;
    std::vector<std::string> ops{"all_reduce"}; // nccl-tests: one session per op
    GemmSelection gemm;              // hipblaslt / rocblas / cutlass
    std::string probe;               // ridgeline-probe: gemm, membw, attention, collectives or step
    std::vector<std::string> args;   // after --: ridgeline-bench's arguments or the tool's own flags

    // The defaults of a kind: GPU tools and kernel runs start one process here, MPI runs 2 ranks.
    static RunRequest defaults(RunKind kind);

    // Empty when the request can run, else what is wrong, one sentence.
    std::string validate() const;
    // `ridgeline-cli` arguments (after the program and --db): "run", the subcommand, options, "--", args.
    std::vector<std::string> toCliArgs() const;
    // Points the run will report, for progress; 0 when only the runner knows (its header says).
    int expectedPoints() const;
    // The point timeout in seconds that applies: given, else collectives 20x the runner's
    // --time-per-size (at least 60), pairs 60, io 600, GPU tools 300, the probe 600, kernel runs 0.
    double pointTimeout() const;
    // NAME, VALUE of env; throws std::invalid_argument for an entry that is not NAME=VALUE.
    std::vector<std::pair<std::string, std::string>> environment() const;
    // Fields the kind does not use at their defaults, the launch canonical: requests that start the
    // same run compare equal.
    RunRequest canonical() const;
    friend bool operator==(const RunRequest&, const RunRequest&) = default;
};

nlohmann::json toJson(const RunRequest& r);
// Keys missing or mistyped keep the kind's defaults; throws std::invalid_argument for an unknown kind.
RunRequest runRequestFromJson(const nlohmann::json& j);

// The value of `--name V` or `--name=V` in args (the last one given); nullopt when absent.
std::optional<std::string> optionValue(const std::vector<std::string>& args, const std::string& name);
} // namespace rl::runs
