#include "runoptions.h"

#include <cstdlib>
#include <iostream>
#include <memory>
#include <unistd.h>

#include "clicommands.h"

namespace rl::cli {
namespace {
using runs::Launch;
using runs::RunKind;
using runs::RunRequest;

void addLaunchOptions(CLI::App* cmd, Launch& l, bool gpuTool)
{
    cmd->add_option("-n,--np", l.np,
                    gpuTool ? "Processes; more than 1 launches under mpirun (nccl-tests built with MPI=1)"
                            : "Number of ranks")
        ->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--hostfile", l.hostfile, "Launch with mpirun -hostfile FILE");
    cmd->add_option("--launcher", l.templ,
                    "Launcher template, e.g. 'srun -N {nodes} --ntasks-per-node {ppn} {bench}' "
                    "(placeholders: {bench} {np} {nodes} {ppn} {hostfile}; {bench} is the program with its arguments)");
    cmd->add_option("--nodes", l.nodes, "Nodes, for {nodes}")->capture_default_str();
    cmd->add_option("--ppn", l.ppn, "Processes per node, for {ppn}")->capture_default_str();
    cmd->add_option("--mpirun", l.mpirun, "mpirun to use")->capture_default_str();
    cmd->add_option("--mpirun-arg", l.mpirunArgs, "Extra mpirun argument (repeatable), e.g. --oversubscribe")
        ->allow_extra_args(false);
    cmd->add_flag("--sbatch", l.sbatch.use,
                  "Submit as a Slurm batch job: the script is written and shown, the job's output streamed and "
                  "stored as it grows, Ctrl+C / Cancel runs scancel");
    cmd->add_option("--sbatch-option", l.sbatch.options,
                    "#SBATCH option (repeatable), e.g. --partition=gpu --time=00:30:00 --nodes=2 --gpus-per-node=8")
        ->allow_extra_args(false);
    cmd->add_option("--sbatch-dir", l.sbatch.dir,
                    "Folder for the job script and output, visible to the nodes (default: the current folder)");
}

void addGemmOptions(CLI::App* cmd, runs::GemmSelection& g, const std::string& tool)
{
    cmd->add_option("--shape", g.shapes, "MxNxK or MxNxKxTT (transA transB), repeatable or comma-separated")
        ->delimiter(',')->allow_extra_args(false);
    cmd->add_option("--square", g.square, "M = N = K over powers of two FROM:TO, e.g. 256:16384");
    cmd->add_option("--recipe", g.recipe,
                    "square (256..16384), max-achievable (AMD's MAF shapes for --cus) or model (the GEMMs of "
                    "--config's training step under --parallel)");
    cmd->add_option("--cus", g.cus, "Compute units, for --recipe max-achievable (MI300X: 304, MI325X: 304, MI355X: 256)");
    cmd->add_option("--dtype", g.dtype, "Input type: bf16, fp16, fp8, bf8, fp32, int8, ...")->capture_default_str();
    cmd->add_option("--compute-type", g.computeType, "The bench's compute type")->capture_default_str();
    cmd->add_option("--iters", g.iters, "Timed iterations; default: " + tool + "'s");
    cmd->add_option("--cold-iters", g.coldIters, "Warm-up iterations; default: " + tool + "'s");
    cmd->add_option("--config", g.config, "Model for --recipe model: config.json, saved config or preset");
    cmd->add_option("--parallel", g.parallel, "Layout for --recipe model, e.g. tp=8,pp=1,dp=16")->capture_default_str();
    cmd->add_option("--seq", g.seq, "Sequence length for --recipe model")->capture_default_str();
    cmd->add_option("--micro-batch", g.microBatch, "Micro-batch for --recipe model")->capture_default_str();
}

// The launch mode the given options mean: a template, else a hostfile, else mpirun - or, for what
// runs as one process (a GPU tool with --np 1, a kernel run), that process here.
void settleLaunchMode(RunRequest& r)
{
    const runs::RunKindInfo& k = runs::info(r.kind);
    Launch& l = r.launch;
    if (k.benchLocal)
        l.mode = Launch::Mode::Local;
    else if (!l.templ.empty())
        l.mode = Launch::Mode::Template;
    else if (!l.hostfile.empty())
        l.mode = Launch::Mode::Hostfile;
    else if (k.gpuTool && l.np == 1)
        l.mode = Launch::Mode::Local;
    else
        l.mode = Launch::Mode::LocalMpirun;
}
} // namespace

CLI::App* addRunSubcommand(CLI::App* run, RunKind kind, const std::string& help,
                           std::function<int(const RunCommandLine&)> start)
{
    const runs::RunKindInfo& k = runs::info(kind);
    auto* cmd = run->add_subcommand(k.subcommand, help);
    auto cl = std::make_shared<RunCommandLine>();
    cl->request = RunRequest::defaults(kind);
    RunRequest& r = cl->request;
    if (kind == RunKind::NcclTests) {
        cmd->alias("rccl-tests");
        cmd->add_option("--op", r.ops, "Collectives: all_reduce reduce_scatter all_gather broadcast alltoall sendrecv "
                                       "alltoallv (rccl) reduce gather scatter")
            ->delimiter(',')->allow_extra_args(false)->capture_default_str();
    }
    if (k.gemmShapes)
        addGemmOptions(cmd, r.gemm, k.program);
    if (k.benchMpi || k.gpuTool)
        addLaunchOptions(cmd, r.launch, k.gpuTool);
    if (kind == RunKind::Probe) {
        cmd->add_option("--probe", r.probe, "What to measure: gemm, membw, attention, collectives or step")->required();
        cmd->add_option("--probe-program", r.program,
                        "Path of ridgeline-probe (default: next to ridgeline-cli, then PATH)");
    } else if (k.gpuTool) {
        cmd->add_option("--tool-dir", r.program,
                        "Folder of the tool's programs (default: the folders of `ridgeline-cli tools`, then PATH)");
    }
    if (k.gpuTool) {
        cmd->add_option("--env", r.env, "NAME=VALUE set for the tool and kept with the session, e.g. NCCL_ALGO=Ring "
                                        "(repeatable; forwarded with -x under --hostfile)")
            ->allow_extra_args(false);
        cmd->add_option("--point-timeout", r.pointTimeoutS,
                        kind == RunKind::Probe
                            ? "Seconds one point may take before the probe ends the session failed (default 600)"
                            : "Seconds without a new output line after which the tool counts as hung and is stopped "
                              "(default 300)")
            ->check(CLI::PositiveNumber);
    } else {
        cmd->add_option("--bench", r.program, "Path of ridgeline-bench (default: next to ridgeline-cli)");
    }
    if (k.benchMpi)
        cmd->add_option("--point-timeout", r.pointTimeoutS,
                        "Seconds one point may take before the run is stopped and fails, naming the point and the "
                        "ranks that did not arrive (default: collectives 20x --time-per-size, at least 60; pairs 60; "
                        "io 600; 0 = never)")
            ->check(CLI::NonNegativeNumber);
    cmd->add_option("--title", r.title, "Session title");
    cmd->add_flag("--dry-run", cl->dryRun, "Print the command(s) and exit");
    cmd->add_flag("--print-request", cl->printRequest,
                  "Print the run request these options make (JSON, as the GUI's dialogs build it) and exit");
    cmd->add_option("args", r.args,
                    kind == RunKind::Probe ? std::string("The probe subcommand's own options after --, e.g. --square 256:4096 --dtypes bf16")
                    : k.gpuTool ? std::string("The tool's own flags after --") + (kind == RunKind::NcclTests ? ", e.g. -b 8 -e 8G -f 2 -g 1 -d bf16" : "")
                              : std::string("Arguments for ridgeline-bench ") + k.program + " (after --)");
    cmd->callback([cl, start = std::move(start)] {
        settleLaunchMode(cl->request);
        if (const std::string problem = cl->request.validate(); !problem.empty())
            throw UsageError(problem);
        if (cl->printRequest) {
            std::cout << runs::toJson(cl->request.canonical()).dump(2) << '\n';
            return;
        }
        if (const int rc = start(*cl); rc != 0)
            throw ExitCode{rc};
    });
    return cmd;
}

void allowOpenMpiAsRoot()
{
    if (geteuid() == 0) {
        setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 0);
        setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 0);
    }
}
} // namespace rl::cli
