#include "kernels/hpcccompare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "importers/importerregistry.h"
#include "kernels/cpuinfo.h"
#include "kernels/membw.h"

namespace rl::kernels {
namespace fs = std::filesystem;

namespace {
// HPCC sizes STREAM from HPL's memory (N^2 doubles): N = 6000 gives 12 M doubles per array.
int hplNForArrays(std::int64_t wantedBytesPerArray)
{
    const double n = std::sqrt(static_cast<double>(wantedBytesPerArray) / 8.0 * 3.0);
    return std::max(2000, static_cast<int>(std::ceil(n / 500.0) * 500));
}

std::string hpccInput(int n)
{
    return "HPLinpack benchmark input file\nInnovative Computing Laboratory, University of Tennessee\n"
           "HPL.out      output file name (if any)\n8            device out (6=stdout,7=stderr,file)\n"
           "1            # of problems sizes (N)\n" + std::to_string(n) + "         Ns\n"
           "1            # of NBs\n192          NBs\n0            PMAP process mapping (0=Row-,1=Column-major)\n"
           "1            # of process grids (P x Q)\n1            Ps\n1            Qs\n16.0         threshold\n"
           "1            # of panel fact\n2            PFACTs (0=left, 1=Crout, 2=Right)\n"
           "1            # of recursive stopping criterium\n4            NBMINs (>= 1)\n"
           "1            # of panels in recursion\n2            NDIVs\n1            # of recursive panel fact.\n"
           "1            RFACTs (0=left, 1=Crout, 2=Right)\n1            # of broadcast\n"
           "1            BCASTs (0=1rg,1=1rM,2=2rg,3=2rM,4=Lng,5=LnM)\n1            # of lookahead depth\n"
           "1            DEPTHs (>=0)\n2            SWAP (0=bin-exch,1=long,2=mix)\n64           swapping threshold\n"
           "0            L1 in (0=transposed,1=no-transposed) form\n0            U  in (0=transposed,1=no-transposed) form\n"
           "1            Equilibration (0=no,1=yes)\n8            memory alignment in double (> 0)\n"
           "##### This line (no. 32) is ignored (it serves as a separator). ######\n"
           "0                      \t\tNumber of additional problem sizes for PTRANS\n1200 10000 30000        \tvalues of N\n"
           "0                       \tnumber of additional blocking sizes for PTRANS\n40 9 8 13 13 20 16 32 64       \tvalues of NB\n";
}
} // namespace

namespace {
struct HpccRun
{
    double triadGBs = 0;
    long long vectorSize = 0;
    int threads = 1;
    std::string error;
};

HpccRun runHpcc(const std::string& hpccBinary, const fs::path& dir, int n)
{
    HpccRun run;
    std::error_code ec;
    fs::remove(dir / "hpccoutf.txt", ec); // HPCC appends to an existing file
    std::ofstream(dir / "hpccinf.txt") << hpccInput(n);
    // One process, one BLAS thread: HPCC's SingleSTREAM is then exactly one thread, like ours.
    const std::string cmd = "cd '" + dir.string() + "' && export OPENBLAS_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 "
                            "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; if command -v mpirun >/dev/null; then mpirun --allow-run-as-root "
                            "--mca pml ob1 --mca btl self,vader -np 1 '" + hpccBinary + "'; else '" + hpccBinary +
                            "'; fi > hpcc.log 2>&1";
    const int rc = std::system(cmd.c_str());
    const fs::path outFile = dir / "hpccoutf.txt";
    const auto result = importFile(outFile.string(), {}, "hpcc");
    if (rc != 0 || !result.ok || result.sessions.empty()) {
        run.error = "hpcc failed (exit " + std::to_string(rc) + "): " + (result.ok ? std::string("no results") : result.error) +
                    "; see " + dir.string();
        return run;
    }
    const auto& params = result.sessions.front().session.params;
    run.vectorSize = params.value("STREAM_VectorSize", 0LL);
    run.threads = params.value("STREAM_Threads", 1);
    run.triadGBs = params.value("SingleSTREAM_Triad", 0.0);
    if (run.vectorSize <= 0 || run.triadGBs <= 0)
        run.error = outFile.string() + ": no SingleSTREAM_Triad / STREAM_VectorSize in the summary";
    return run;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}
} // namespace

HpccComparison compareWithHpcc(const std::string& hpccBinary, int repeats, int rounds)
{
    HpccComparison out;
    if (!fs::exists(hpccBinary)) {
        out.report = hpccBinary + ": not found (Debian: apt-get install hpcc)";
        return out;
    }
    const auto cpu = detectCpu();
    const int n = hplNForArrays(defaultMaxBytes(cpu) / 3);
    const fs::path dir = fs::temp_directory_path() / ("ridgeline-hpcc-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    std::vector<double> hpcc, ours;
    std::string perRound;
    int threads = 1;
    for (int r = 0; r < std::max(1, rounds); ++r) {
        const auto run = runHpcc(hpccBinary, dir, n);
        if (!run.error.empty()) {
            out.report = run.error;
            return out;
        }
        out.vectorSize = run.vectorSize;
        threads = run.threads;
        const double mine = measureStream(StreamKernel::Triad, run.vectorSize, run.threads, repeats, 0.0).bandwidthGBs;
        hpcc.push_back(run.triadGBs);
        ours.push_back(mine);
        out.roundRatios.push_back(mine / run.triadGBs);
        char line[160];
        std::snprintf(line, sizeof line, "  round %d: hpcc %.2f GB/s, ridgeline %.2f GB/s, ratio %.3f\n", r + 1,
                      run.triadGBs, mine, mine / run.triadGBs);
        perRound += line;
    }
    out.hpccTriadGBs = median(hpcc);
    out.oursTriadGBs = median(ours);
    out.ratio = out.oursTriadGBs / out.hpccTriadGBs;
    out.ok = true;
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "STREAM triad, %lld doubles per array (%.1f MiB each), %d thread(s), %zu alternating rounds:\n",
                  out.vectorSize, out.vectorSize * 8.0 / 1048576.0, threads, hpcc.size());
    out.report = buf + perRound;
    std::snprintf(buf, sizeof buf,
                  "  hpcc %s SingleSTREAM_Triad, median: %.2f GB/s\n  ridgeline-bench membw triad, median: %.2f GB/s\n"
                  "  ratio of medians ridgeline / hpcc: %.3f (%s 5 %%)\n",
                  hpccBinary.c_str(), out.hpccTriadGBs, out.oursTriadGBs, out.ratio,
                  std::abs(out.ratio - 1.0) <= 0.05 ? "within" : "NOT within");
    out.report += buf;
    std::error_code ec;
    fs::remove_all(dir, ec);
    return out;
}
} // namespace rl::kernels
