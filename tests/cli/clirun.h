#pragma once
// The real ridgeline-cli on a test's workspace, and its `run` through the real launcher with the
// flags Open MPI needs on this VM. The including test defines RIDGELINE_CLI, RIDGELINE_MPIEXEC and
// RIDGELINE_BENCH (tests/cli/CMakeLists.txt).
#include <filesystem>
#include <string>
#include <vector>

namespace rl::test {
inline std::vector<std::string> cli(const std::filesystem::path& db, std::vector<std::string> args)
{
    std::vector<std::string> argv{RIDGELINE_CLI, "--db", db.string()};
    argv.insert(argv.end(), args.begin(), args.end());
    return argv;
}

// `ridgeline-cli run KIND -np N ... -- BENCH ARGS`: shared memory only (the default tries every NIC),
// oversubscribed (more ranks than cores).
inline std::vector<std::string> cliRun(const std::filesystem::path& db, const std::string& kind, int np,
                                       const std::vector<std::string>& benchArgs)
{
    std::vector<std::string> run{"run", kind, "-np", std::to_string(np), "--mpirun", RIDGELINE_MPIEXEC, "--bench",
                                 RIDGELINE_BENCH};
    for (const char* a : {"--oversubscribe", "--mca", "pml", "ob1", "--mca", "btl", "self,vader"}) {
        run.push_back("--mpirun-arg");
        run.push_back(a);
    }
    run.push_back("--");
    run.insert(run.end(), benchArgs.begin(), benchArgs.end());
    return cli(db, run);
}
} // namespace rl::test
