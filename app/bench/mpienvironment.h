#pragma once
// What both MPI subcommands of ridgeline-bench need around MPI_Init: init/finalize in one scope,
// this process's command line, and the rank the launcher gave us before MPI is up (to print
// argument errors once instead of once per rank).
#include <set>
#include <string>
#include <vector>

#include "records/session.h"

namespace rl {

class MpiEnvironment
{
public:
    MpiEnvironment();  // MPI_Init
    ~MpiEnvironment(); // MPI_Finalize
    MpiEnvironment(const MpiEnvironment&) = delete;
    MpiEnvironment& operator=(const MpiEnvironment&) = delete;
    int rank() const { return m_rank; }
    int size() const { return m_size; }

private:
    int m_rank = 0;
    int m_size = 1;
};

// From OMPI_COMM_WORLD_RANK, PMI_RANK, PMIX_RANK or SLURM_PROCID; 0 when started without a launcher.
int launcherRank();
// A bad argument found before MPI is up, printed once: by launcher rank 0 as "ridgeline-bench
// COMMAND: MESSAGE". The other ranks wait a few seconds before returning, so rank 0 has printed
// and left first: a launcher kills the whole job when any rank exits non-zero, and a faster rank
// leaving first would take rank 0's message with it. Returns the exit code, 2.
int reportArgumentError(const std::string& command, const std::string& message);
// The full command line of this process, shell-quoted (from /proc/self/cmdline).
std::string processCommandLine();
// "rank 0 pid 1234 on host" per rank, gathered to rank 0 (empty on other ranks). Collective.
struct RankInfo
{
    int rank = 0;
    int pid = 0;
    std::string host;
};
std::vector<RankInfo> gatherRankInfo();
std::set<std::string> distinctHosts(const std::vector<RankInfo>& ranks);
// The session header of an MPI subcommand run by this process: kind, tool and version, the time,
// this host and the command line; the command adds title and parameters.
Session benchSession(const std::string& kind);
// MPI_Get_processor_name of every world rank, in rank order, on every rank. Collective.
std::vector<std::string> allHostNames();
} // namespace rl
