#pragma once
// A benchmark run as a Slurm batch job: the job script Ridgeline writes (and shows before it is
// submitted), `sbatch --parsable`, then following the job: its output file streamed line by line
// as it grows, its state from squeue while it is queued or running and from sacct - or, where
// there is no accounting database (accounting_storage/none), from `scontrol show job`, which
// keeps a job MinJobAge seconds after its end - and `scancel` on request.
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace rl::slurm {

struct SbatchSpec
{
    std::string jobName = "ridgeline";
    // Options for #SBATCH lines, one per line: "--nodes=2", "--ntasks-per-node=8",
    // "--time=00:30:00", "--partition=debug". Each must start with "-".
    std::vector<std::string> options;
    // argv run in the job: {"srun", "ridgeline-bench", "collectives", ...} or {"mpirun", "-np", "4", ...}.
    std::vector<std::string> command;
    // Exported in the script before the command (NCCL_* etc.); names must be shell identifiers.
    std::vector<std::pair<std::string, std::string>> environment;
    std::string outputPath; // the job's stdout and stderr (#SBATCH --output); absolute
    std::string workDir;    // #SBATCH --chdir; empty: sbatch's (the submitting directory)
};

// The whole script: "#!/bin/bash", the #SBATCH lines (job name, output, chdir, then the options;
// values shell-quoted, which sbatch's #SBATCH parser understands too), the exports and the command,
// each argument shell-quoted where needed. Throws std::invalid_argument for an empty command, a relative output
// path, an option not starting with "-", an environment name that is not an identifier, or a
// newline in an #SBATCH value.
std::string buildJobScript(const SbatchSpec& spec);

enum class JobState { Pending, Running, Completed, Failed, Cancelled, Timeout, NodeFail, OutOfMemory, Unknown };
// "Pending", "Running", ... (for messages and logs).
const char* jobStateName(JobState state);
// A Slurm state as squeue, sacct and scontrol print it ("RUNNING", "CANCELLED by 0", "OUT_OF_ME+",
// "CG"): PENDING/CONFIGURING/REQUEUED -> Pending; RUNNING/COMPLETING/SUSPENDED/... -> Running;
// BOOT_FAIL -> NodeFail; DEADLINE -> Timeout; PREEMPTED/REVOKED -> Cancelled; SPECIAL_EXIT -> Failed.
JobState jobStateFromSlurm(const std::string& text);
// True for the states a job ends in.
bool isFinal(JobState state);

struct JobOutcome
{
    JobState state = JobState::Unknown;
    int exitCode = -1; // the batch script's exit status; -1 when unknown
    std::string reason; // Slurm's reason, or why the state is unknown
    int signal = 0;     // the signal that ended the script (ExitCode "0:15"), 0 for none
};

// The outcome in `scontrol -o show job ID` output (JobState=, ExitCode=code:signal, Reason=).
// state Unknown when the text has no JobState.
JobOutcome outcomeFromScontrol(const std::string& text);
// The outcome in `sacct -n -P -X -o State,ExitCode,Reason` output ("FAILED|3:0|NonZeroExitCode");
// state Unknown when the text holds no such line.
JobOutcome outcomeFromSacct(const std::string& text);

// The Slurm programs used; a site may need full paths.
struct SlurmCommands
{
    std::string sbatch = "sbatch";
    std::string squeue = "squeue";
    std::string sacct = "sacct";
    std::string scontrol = "scontrol";
    std::string scancel = "scancel";
};

class SbatchJob
{
public:
    explicit SbatchJob(SlurmCommands commands = {});

    // Writes buildJobScript(spec) to scriptPath (empty: outputPath + ".sbatch"), creates the
    // output file's directory, removes an output file left from an earlier run (so nothing old is
    // streamed) and runs `sbatch --parsable script`. Returns and keeps the job id. Throws
    // std::invalid_argument for a bad spec and std::runtime_error with sbatch's stderr (e.g.
    // "sbatch: error: Batch job submission failed: ...") when submission fails.
    std::string submit(const SbatchSpec& spec, const std::string& scriptPath = {});

    // Streams every complete line appended to the output file to onLine (each line once, also
    // when the file grows mid-line), polls squeue every pollMs and calls onState when the state
    // changes; once the job has left squeue, reads its end from sacct or else scontrol, hands over
    // the rest of the file and returns. An unknown state (squeue failing, the job forgotten) is
    // asked again; after 10 in a row it returns Unknown with the reason. When shouldCancel()
    // turns true (it is asked every 100 ms, or every pollMs if shorter): scancel, wait at most cancelWaitMs for the
    // job to end (streaming what it still writes) and return Cancelled - or the job's own end if
    // it finished before the scancel took effect, or its current state with reason "scancel
    // failed: ..." when scancel failed. Throws std::runtime_error when squeue cannot be started.
    JobOutcome follow(const std::function<void(const std::string&)>& onLine,
                      const std::function<bool()>& shouldCancel,
                      const std::function<void(JobState)>& onState = {}, int pollMs = 500);

    // scancel <id>. Throws std::runtime_error with scancel's stderr when it fails.
    void cancel();

    // The job's outcome now: Pending/Running from squeue while queued, else its end from sacct or
    // scontrol, else Unknown with the reason.
    JobOutcome query();

    const std::string& jobId() const { return jobId_; }
    const std::string& outputPath() const { return outputPath_; }
    const std::string& scriptPath() const { return scriptPath_; }
    int cancelWaitMs = 15000;

private:
    JobOutcome endOutcome();
    SlurmCommands cmd_;
    std::string jobId_;
    std::string outputPath_;
    std::string scriptPath_;
};
} // namespace rl::slurm
