#pragma once
// The session a run fills as it goes: created Running at once (the GUI and `sessions` see it while
// it runs), every record stored in its own transaction (a killed run keeps what it finished) and
// echoed on stdout as a JSON line with the session id, then ended with a status and a message.
// Every `ridgeline-cli run ...` (ridgeline-bench, nccl-tests, GEMM benches) goes through it.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "clicommands.h"
#include "launcher.h"
#include "records/session.h"
#include "records/wireformat.h"
#include "runs/runrequest.h"
#include "store/workspace.h"
#include "tools/toolfailure.h"

namespace rl::cli {

class RunSession
{
public:
    // Fills created, host, command line and status Running; keeps s.tool/toolVersion when set.
    RunSession(const CliContext& ctx, Session s, const std::vector<std::string>& argv);
    std::int64_t id() const { return m_id; }
    store::Workspace& workspace() { return m_ws; }
    const Session& session() const { return m_session; }
    int points() const { return m_points; }

    // Stores a point or derived record in its own transaction (store::appendRecord), counts a
    // point, and echoes it; a header, end or raw record is neither stored nor echoed.
    void append(const wire::Record& record);
    void setParams(const nlohmann::json& params);
    // A batch job was submitted for this run: its id and script go into the parameters.
    void noteJob(const std::string& jobId, const std::string& script);
    // Echoes a record with the session id (flushed at once: the GUI draws points as they come).
    void emit(nlohmann::json record) const;
    // Ends the session; returns the exit code: 0 complete, 130 cancelled, 1 otherwise.
    int end(SessionStatus status, const std::string& message);

private:
    store::Workspace m_ws;
    Session m_session;
    std::int64_t m_id = 0;
    int m_points = 0;
};

// `run nccl-tests`, `run hipblaslt`, `run rocblas` (toolruncommand.cpp), added under `run`.
void addToolRunCommands(CLI::App* run, CliContext& ctx);
// `run probe` (proberuncommand.cpp).
void addProbeRunCommand(CLI::App* run, CliContext& ctx);

// Runs argv (a program printing Ridgeline's JSON lines) into a new session: every record is
// stored as it arrives. pointTimeoutS > 0 (the MPI benchmarks): the ranks report a point that runs
// over (pointtimeout.h) and the job is stopped; silence for a while longer stops it too. Records
// of kinds the store has no table for go to onRaw. s.tool empty: ridgeline-bench.
using RawRecordFn = std::function<void(RunSession& run, const wire::RawRecord& record)>;
int runAndStore(const CliContext& ctx, Session s, const std::vector<std::string>& argv, const runs::Sbatch& sbatch = {},
                int ranks = 1, double pointTimeoutS = 0, const RawRecordFn& onRaw = {});

// A program of Ridgeline's next to this binary (installed), in the build tree (../SUBDIR/NAME), or
// the bare name (found on PATH): ridgeline-bench, ridgeline-probe.
std::string findSibling(const std::string& name, const std::string& buildSubdir);

// The program with its arguments, started the way the request asks (remote ranks of a hostfile
// launch get the request's environment through mpirun -x).
std::vector<std::string> launchArgv(const runs::RunRequest& r, const std::vector<std::string>& command);
// Sets the request's environment in ours (a local launch inherits it); Open MPI as root allowed.
void exportEnvironment(const runs::RunRequest& r);

// How a child that was not cancelled and printed no end record failed: "<what> exited with code 3:
// <stderr tail>", "killed by signal 9", "printed nothing for 60 s". With the tool's own failure line
// (tools::isToolFailureLine, from its stdout or stderr) that line leads: "<what> reported: <line>
// (exited with code 3)", never buried under an MPI_Abort banner in the tail.
std::string childFailure(const std::string& what, const ChildResult& child, int idleTimeoutMs,
                         const std::string& toolFailureLine = {});

// The first tool failure line a run printed, on stdout or stderr: call see() from both callbacks.
struct FirstFailureLine
{
    std::string line;
    void see(const std::string& printed)
    {
        if (line.empty() && tools::isToolFailureLine(printed))
            line = printed;
    }
};

// Ends the run of a tool that was cancelled, exited non-zero, went silent or printed a failure
// line, and returns the exit code; nullopt when the tool ran to its end well.
std::optional<int> endOnToolFailure(RunSession& run, const std::string& program, const ChildResult& child,
                                    int idleTimeoutMs, const FirstFailureLine& failure);
} // namespace rl::cli
