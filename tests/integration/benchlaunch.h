#pragma once
// Launching the real ridgeline-bench under the launcher FindMPI found (Open MPI's mpirun or MPICH's
// mpiexec), shared by the integration tests.
#include <optional>
#include <sstream>
#include <string>
#include <vector>
#include <unistd.h>

#include "childprocess.h"
#include "records/wireformat.h"

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

// What one ridgeline-bench subcommand printed: its header, its points of one record type, the end
// record, and every line that is not one of those (which a correct run never prints).
template <class Point>
struct BenchRun
{
    std::optional<Session> header;
    std::vector<Point> points;
    std::optional<wire::End> end;
    std::vector<std::string> badLines;
};

template <class Point>
BenchRun<Point> parseBenchRun(const std::string& out)
{
    BenchRun<Point> run;
    std::istringstream in(out);
    std::string line;
    while (std::getline(in, line)) {
        try {
            const auto rec = wire::parseLine(line);
            if (!rec)
                continue;
            if (auto* h = std::get_if<wire::SessionHeader>(&*rec))
                run.header = h->session;
            else if (auto* p = std::get_if<Point>(&*rec))
                run.points.push_back(*p);
            else if (auto* e = std::get_if<wire::End>(&*rec))
                run.end = *e;
            else
                run.badLines.push_back(line);
        } catch (const std::exception&) {
            run.badLines.push_back(line);
        }
    }
    return run;
}
} // namespace rl::test
