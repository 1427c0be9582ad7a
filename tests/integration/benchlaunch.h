#pragma once
// Launching the real ridgeline-bench under the launcher FindMPI found (Open MPI's mpirun or MPICH's
// mpiexec), shared by the integration tests.
#include <string>
#include <vector>
#include <unistd.h>

#include "childprocess.h"

namespace rl::test {

inline bool haveLauncher() { return access(RIDGELINE_MPIEXEC, X_OK) == 0; }

inline bool isOpenMpi()
{
    static const bool openMpi = [] {
        const auto v = runToEnd({RIDGELINE_MPIEXEC, "--version"}, 30);
        return (v.out + v.err).find("Open MPI") != std::string::npos ||
               (v.out + v.err).find("OpenRTE") != std::string::npos;
    }();
    return openMpi;
}

// Launcher flags per flavour: Open MPI needs root permission, oversubscription and the shared
// memory transports spelled out; MPICH's hydra takes -n and none of those.
inline std::vector<std::string> launch(int np, const std::vector<std::string>& benchArgs)
{
    std::vector<std::string> argv{RIDGELINE_MPIEXEC, "-n", std::to_string(np)};
    if (isOpenMpi())
        argv.insert(argv.end(), {"--allow-run-as-root", "--oversubscribe", "--mca", "btl", "self,vader", "--mca",
                                 "pml", "ob1"});
    argv.push_back(RIDGELINE_BENCH);
    argv.insert(argv.end(), benchArgs.begin(), benchArgs.end());
    return argv;
}
} // namespace rl::test
