#include "runsession.h"

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <unistd.h>

#include "records/recordroute.h"
#include "records/wireformat.h"
#include "runs/launch.h"
#include "store/appendrecord.h"
#include "store/collectiveoutline.h"
#include "store/database.h"
#include "runoptions.h"

namespace rl::cli {

RunSession::RunSession(const CliContext& ctx, Session s, const std::vector<std::string>& argv)
    : m_ws(ctx.workspacePath(CliContext::Access::Create)), m_session(std::move(s))
{
    m_ws.requireWritable("store a run in it"); // before the benchmark starts, not after its first point
    m_session.created = nowIso8601();
    m_session.host = hostName();
    m_session.commandLine = displayCommand(argv);
    m_session.status = SessionStatus::Running;
    m_session.writerPid = getpid();
    m_id = m_ws.createSession(m_session);
    emit(wire::toJson(m_session));
}

void RunSession::append(const wire::Record& record)
{
    if (!store::appendRecord(m_ws, m_id, record))
        return;
    m_points += wire::roleOf(record) == wire::RecordRole::Point ? 1 : 0;
    emit(wire::toJson(record));
}

void RunSession::setParams(const nlohmann::json& params)
{
    m_session.params = params;
    m_ws.setParams(m_id, params);
}

void RunSession::noteJob(const std::string& jobId, const std::string& script)
{
    nlohmann::json params = m_session.params;
    params["launcher_outer"] = "sbatch";
    params["slurm_job_id"] = jobId;
    params["job_script"] = script;
    setParams(params);
}

void RunSession::emit(nlohmann::json record) const
{
    record["session_id"] = m_id;
    std::cout << record.dump() << std::endl;
}

int RunSession::end(SessionStatus status, const std::string& message)
{
    // A long run gets the outline an import stores (store/collectiveoutline.h), so its charts come as
    // fast; one that fails to store it, or a run killed before this, is read in full instead.
    try {
        store::Transaction t(m_ws.database());
        store::storeCollectiveOutline(m_ws.database(), m_id);
        t.commit();
    } catch (const std::exception& e) {
        std::cerr << "ridgeline-cli: the session's outline was not stored (its charts read every point): " << e.what()
                  << '\n';
    }
    m_ws.setStatus(m_id, status);
    if (status != SessionStatus::Complete && !message.empty())
        m_ws.setNotes(m_id, message);
    emit(wire::endRecord(status, message));
    if (status == SessionStatus::Cancelled)
        return 130;
    return status == SessionStatus::Complete ? 0 : 1;
}

std::string childFailure(const std::string& what, const ChildResult& child, int idleTimeoutMs,
                         const std::string& toolFailureLine)
{
    std::string message = child.idleTimedOut ? what + " printed nothing for " + std::to_string(idleTimeoutMs / 1000) +
                                                   " s (--point-timeout) and was stopped"
                          : child.signal     ? what + " killed by signal " + std::to_string(child.signal)
                                             : what + " exited with code " + std::to_string(child.exitCode);
    if (!toolFailureLine.empty())
        return what + " reported: " + toolFailureLine + " (" + message.substr(what.size() + 1) + ")";
    if (!child.stderrTail.empty())
        message += ": " + child.stderrTail.substr(child.stderrTail.size() > 2000 ? child.stderrTail.size() - 2000 : 0);
    return message;
}
std::string findSibling(const std::string& name, const std::string& buildSubdir)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (!ec)
        for (const auto& candidate : {self.parent_path() / name, self.parent_path().parent_path() / buildSubdir / name})
            if (fs::exists(candidate, ec))
                return candidate.string();
    return name;
}

std::vector<std::string> launchArgv(const runs::RunRequest& r, const std::vector<std::string>& command)
{
    runs::Launch launch = r.launch;
    if (launch.mode == runs::Launch::Mode::Hostfile)
        for (const auto& [name, value] : r.environment())
            launch.mpirunArgs.insert(launch.mpirunArgs.end(), {"-x", name});
    return runs::launchCommand(launch, command);
}

void exportEnvironment(const runs::RunRequest& r)
{
    for (const auto& [name, value] : r.environment())
        setenv(name.c_str(), value.c_str(), 1);
    allowOpenMpiAsRoot();
}
} // namespace rl::cli
