#include "sbatchrun.h"

#include <csignal>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <unistd.h>

#include "slurm/sbatch.h"

extern char** environ;

namespace rl::cli {
namespace {
volatile std::sig_atomic_t g_cancel = 0;
void onSignal(int) { g_cancel = 1; }

bool sizesTheAllocation(const std::vector<std::string>& options)
{
    for (const auto& o : options)
        for (const char* key : {"--ntasks", "-n", "--nodes", "-N", "--ntasks-per-node"})
            if (o.rfind(key, 0) == 0)
                return true;
    return false;
}
} // namespace

ChildResult runLocallyOrAsJob(const runs::Sbatch& sbatch, int ranks, const std::string& jobName,
                              const std::vector<std::string>& argv, const Launcher::LineFn& onLine, int idleTimeoutMs,
                              const std::function<void(const std::string&, const std::string&)>& onSubmitted,
                              const Launcher::LineFn& onStderrLine, Launcher* launcher)
{
    if (!sbatch.use) {
        Launcher own;
        return (launcher ? *launcher : own).run(argv, onLine, idleTimeoutMs, onStderrLine);
    }
    namespace fs = std::filesystem;
    const fs::path dir = fs::absolute(sbatch.dir.empty() ? fs::current_path() : fs::path(sbatch.dir));
    char stamp[32];
    const std::time_t now = std::time(nullptr);
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
    const std::string base = (dir / ("ridgeline-" + jobName + "-" + stamp + "-" + std::to_string(getpid()))).string();
    slurm::SbatchSpec spec;
    spec.jobName = "ridgeline-" + jobName;
    spec.options = sbatch.options;
    if (!sizesTheAllocation(spec.options))
        spec.options.push_back("--ntasks=" + std::to_string(ranks));
    spec.command = argv;
    spec.outputPath = base + ".out";
    spec.workDir = dir.string();
    // NCCL_*/RCCL_* and the like are set in our environment; the job gets them from the script.
    for (const char* prefix : {"NCCL_", "RCCL_", "HSA_", "HIP_", "CUDA_", "UCX_", "FI_", "OMPI_"})
        for (char** e = environ; *e; ++e) {
            const std::string kv = *e;
            const auto eq = kv.find('=');
            if (kv.rfind(prefix, 0) == 0 && eq != std::string::npos)
                spec.environment.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
        }
    std::cerr << "sbatch job script (" << base << ".sbatch):\n" << slurm::buildJobScript(spec) << std::flush;
    slurm::SbatchJob job;
    const std::string id = job.submit(spec, base + ".sbatch"); // throws with sbatch's own error
    std::cerr << "submitted job " << id << "; output: " << spec.outputPath << std::endl;
    if (onSubmitted)
        onSubmitted(id, job.scriptPath());

    g_cancel = 0;
    struct sigaction sa{}, oldTerm{}, oldInt{};
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, &oldTerm);
    sigaction(SIGINT, &sa, &oldInt);
    (void)idleTimeoutMs; // queue time is not silence: the job's --time bounds a hung run
    slurm::JobOutcome outcome;
    try {
        // A stop asked for from onLine (a rank's point ran over) cancels the job as Ctrl+C would.
        outcome = job.follow(onLine, [&] { return g_cancel != 0 || (launcher && launcher->stopRequested()); },
                             [&](slurm::JobState s) {
            std::cerr << "job " << id << ": " << slurm::jobStateName(s) << std::endl;
        });
    } catch (...) {
        sigaction(SIGTERM, &oldTerm, nullptr);
        sigaction(SIGINT, &oldInt, nullptr);
        try {
            job.cancel(); // nobody would store what it measures
        } catch (const std::exception& e) {
            std::cerr << "scancel " << id << " failed: " << e.what() << '\n';
        }
        throw;
    }
    sigaction(SIGTERM, &oldTerm, nullptr);
    sigaction(SIGINT, &oldInt, nullptr);

    ChildResult r;
    r.interrupted = g_cancel != 0 && outcome.state == slurm::JobState::Cancelled;
    r.stoppedByCaller = g_cancel == 0 && launcher && launcher->stopRequested();
    r.exitCode = outcome.state == slurm::JobState::Completed ? 0 : outcome.exitCode > 0 ? outcome.exitCode : 1;
    r.signal = outcome.signal;
    r.stderrTail = "Slurm job " + id + " " + slurm::jobStateName(outcome.state) +
                   (outcome.reason.empty() ? "" : " (" + outcome.reason + ")") + "; output in " + spec.outputPath;
    return r;
}
} // namespace rl::cli
