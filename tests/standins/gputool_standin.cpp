// A stand-in for the GPU benchmark tools Ridgeline launches (there is no GPU on the test machines).
// Installed under the real names - all_reduce_perf and the other nccl-tests programs,
// hipblaslt-bench, rocblas-bench, cutlass_profiler, cuda-stream (BabelStream), nvbandwidth - it
// accepts their flags and prints their real output layouts (copied from the formats the importers
// read; the NVIDIA tools' in nvidia_standins.cpp) line by line, with a delay per line and failures
// on demand. Under mpirun, rank 0 prints and the others wait, as nccl-tests built with MPI=1 does.
//
// Controls (environment):
//   STANDIN_DELAY_MS=N      sleep before every result row (default 20)
//   STANDIN_FAIL_AFTER=N    after N rows print the tool's failure line and exit 3
//   STANDIN_FAIL_ON_STDERR=1  ... on stderr (as nccl-tests builds with fprintf + MPI_Abort do),
//                           followed by Open MPI's MPI_Abort banner from every rank
//   STANDIN_HANG_AFTER=N    after N rows stop printing and sleep (a hung GPU)
//   STANDIN_WRONG_ROW=N     row N reports 5 wrong elements (#wrong)
//   STANDIN_FLAVOR=rccl     rccl-tests header and AMD devices instead of nccl-tests and NVIDIA
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

#include "standin.h"

namespace {
using standin::envInt;
using standin::hang;
using standin::pause;

long long parseSize(const std::string& s)
{
    char* end = nullptr;
    double v = std::strtod(s.c_str(), &end);
    switch (end && *end ? std::toupper(static_cast<unsigned char>(*end)) : 0) {
    case 'K': v *= 1024; break;
    case 'M': v *= 1024 * 1024; break;
    case 'G': v *= 1024.0 * 1024 * 1024; break;
    default: break;
    }
    return static_cast<long long>(v);
}

int rankFromEnv(const char* const* names, int fallback)
{
    for (const char* const* n = names; *n; ++n)
        if (const char* v = std::getenv(*n))
            return std::atoi(v);
    return fallback;
}

struct Row
{
    int index = 0;
    bool failNow() const { return envInt("STANDIN_FAIL_AFTER", -1) == index; }
    bool hangNow() const { return envInt("STANDIN_HANG_AFTER", -1) == index; }
};

int dtypeBytes(const std::string& d)
{
    if (d == "double" || d == "int64" || d == "uint64" || d == "float64") return 8;
    if (d == "half" || d == "bfloat16" || d == "float16" || d == "bf16" || d == "fp16") return 2;
    if (d == "int8" || d == "uint8" || d == "fp8_e4m3" || d == "fp8_e5m2") return 1;
    return 4;
}

// ------------------------------------------------------------------ nccl-tests / rccl-tests
int ncclTests(const std::string& program, int argc, char** argv)
{
    long long minBytes = 32 * 1024 * 1024, maxBytes = 32 * 1024 * 1024, stepBytes = 1024 * 1024;
    int factor = 0, gpus = 1, threads = 1, iters = 20, warmup = 5, check = 1, blocking = 0, graph = 0, root = 0, cycles = 1;
    std::string dtype = "float", redop = "sum";
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const std::string v = i + 1 < argc ? argv[i + 1] : "";
        auto take = [&] { ++i; return v; };
        if (a == "-b" || a == "--minbytes") minBytes = parseSize(take());
        else if (a == "-e" || a == "--maxbytes") maxBytes = parseSize(take());
        else if (a == "-f" || a == "--stepfactor") factor = std::atoi(take().c_str());
        else if (a == "-i" || a == "--stepbytes") stepBytes = parseSize(take());
        else if (a == "-g" || a == "--ngpus") gpus = std::atoi(take().c_str());
        else if (a == "-t" || a == "--nthreads") threads = std::atoi(take().c_str());
        else if (a == "-n" || a == "--iters") iters = std::atoi(take().c_str());
        else if (a == "-w" || a == "--warmup_iters") warmup = std::atoi(take().c_str());
        else if (a == "-d" || a == "--datatype") dtype = take();
        else if (a == "-o" || a == "--op") redop = take();
        else if (a == "-c" || a == "--check") check = std::atoi(take().c_str());
        else if (a == "-z" || a == "--blocking") blocking = std::atoi(take().c_str());
        else if (a == "-G" || a == "--cudagraph") graph = std::atoi(take().c_str());
        else if (a == "-r" || a == "--root") root = std::atoi(take().c_str());
        else if (a == "-N" || a == "--run_cycles") cycles = std::max(1, std::atoi(take().c_str())); // the sweep again and again
        else if (a == "-J" || a == "--output_file" || a == "-m" || a == "--agg_iters" || a == "-a" || a == "--average" ||
                 a == "-p" || a == "--parallel_init" || a == "-R" || a == "--local_register")
            take();
        else {
            std::fprintf(stderr, "%s: invalid option -- '%s'\n", program.c_str(), a.c_str());
            return 1;
        }
    }
    (void)blocking;
    static const char* rankVars[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID", nullptr};
    static const char* sizeVars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS", nullptr};
    const int rank = rankFromEnv(rankVars, 0), procs = rankFromEnv(sizeVars, 1);
    const int nranks = procs * threads * gpus;
    const std::string op = program.substr(0, program.size() - 5); // "all_reduce_perf" -> "all_reduce"
    const bool rccl = std::getenv("STANDIN_FLAVOR") && std::string(std::getenv("STANDIN_FLAVOR")) == "rccl";
    if (rank != 0) { // the other ranks take part silently
        pause(envInt("STANDIN_DELAY_MS", 20));
        return 0;
    }
    char host[256] = "standin-host";
    gethostname(host, sizeof host);
    std::printf("# %s version 2.17.1 %s-headers=22703 %s-library=22703\n", rccl ? "rccl-tests" : "nccl-tests",
                rccl ? "rccl" : "nccl", rccl ? "rccl" : "nccl");
    std::printf("# Collective test starting: %s\n", program.c_str());
    std::printf("# nThread %d nGpus %d minBytes %lld maxBytes %lld step: %lld(%s) warmup iters: %d iters: %d agg iters: 1 "
                "validation: %d graph: %d\n#\n# Using devices\n",
                threads, gpus, minBytes, maxBytes, factor ? static_cast<long long>(factor) : stepBytes,
                factor ? "factor" : "bytes", warmup, iters, check, graph);
    for (int r = 0; r < nranks; ++r)
        std::printf("#  Rank %2d Group  0 Pid %6d on %10s device %2d [0x%02x] %s\n", r, 10000 + r / gpus, host, r % gpus,
                    0x18 + 16 * (r % gpus), rccl ? "AMD Instinct MI300X" : "NVIDIA H100 80GB HBM3");
    std::printf("#\n#%60s%35s\n", "out-of-place", "in-place");
    std::printf("#%11s %13s %9s %7s %7s %8s %7s %7s %6s %8s %7s %7s %6s\n", "size", "count", "type", "redop", "root",
                "time", "algbw", "busbw", "#wrong", "time", "algbw", "busbw", "#wrong");
    std::printf("#%11s %13s %43s %7s %7s %15s %7s %7s\n", "(B)", "(elements)", "(us)", "(GB/s)", "(GB/s)", "(us)",
                "(GB/s)", "(GB/s)");
    std::fflush(stdout);
    const bool reduces = op == "all_reduce" || op == "reduce_scatter" || op == "reduce";
    const bool rooted = op == "broadcast" || op == "reduce";
    const double n = nranks;
    const double factorBus = op == "all_reduce" ? 2 * (n - 1) / n
                             : (op == "reduce_scatter" || op == "all_gather" || op == "alltoall" || op == "alltoallv")
                                 ? (n - 1) / n
                                 : 1.0;
    const int wrongRow = envInt("STANDIN_WRONG_ROW", -1);
    double sumBus = 0;
    int rows = 0;
    Row row;
    for (int cycle = 0; cycle < cycles; ++cycle)
    for (long long bytes = minBytes; bytes <= maxBytes;
         bytes = factor > 1 ? bytes * factor : bytes + std::max<long long>(1, stepBytes), ++row.index) {
        if (row.failNow()) {
            std::FILE* out = envInt("STANDIN_FAIL_ON_STDERR", 0) ? stderr : stdout;
            std::fprintf(out, "%s: Test NCCL failure common.cu:1090 'unhandled cuda error (run with NCCL_DEBUG=INFO for details)'\n"
                              " .. %s pid %d: Test failure common.cu:1016\n", host, host, getpid());
            if (out == stderr)
                for (int rank = 0; rank < 8; ++rank) // Open MPI's help-mpi-api.txt / mpi-abort, once per rank
                    std::fprintf(stderr,
                                 "--------------------------------------------------------------------------\n"
                                 "MPI_ABORT was invoked on rank %d in communicator MPI_COMM_WORLD\n"
                                 "with errorcode 1.\n\n"
                                 "NOTE: invoking MPI_ABORT causes Open MPI to kill all MPI processes.\n"
                                 "You may or may not see output from other processes, depending on\n"
                                 "exactly when Open MPI kills them.\n"
                                 "--------------------------------------------------------------------------\n",
                                 rank);
            std::fflush(out);
            return 3;
        }
        if (row.hangNow())
            hang();
        pause(envInt("STANDIN_DELAY_MS", 20));
        const long long count = bytes / dtypeBytes(dtype) / (op == "all_gather" || op == "reduce_scatter" || op == "alltoall" ? nranks : 1);
        auto timeUs = [&](double extra) { return 20.0 + extra + static_cast<double>(bytes) / 150e3 / std::max(1.0, factorBus); };
        const double t1 = timeUs(0), t2 = timeUs(0.2);
        const double a1 = bytes / t1 / 1e3, a2 = bytes / t2 / 1e3;
        const int wrong = row.index == wrongRow ? 5 : 0;
        std::printf("%12lld %13lld %9s %7s %7d %8.2f %7.2f %7.2f %6d %8.2f %7.2f %7.2f %6d\n", bytes, count, dtype.c_str(),
                    reduces ? redop.c_str() : "none", rooted ? root : -1, t1, a1, a1 * factorBus, wrong, t2, a2,
                    a2 * factorBus, wrong);
        std::fflush(stdout);
        sumBus += a1 * factorBus;
        ++rows;
        if (factor <= 1 && stepBytes <= 0)
            break;
    }
    std::printf("# Out of bounds values : 0 OK\n# Avg bus bandwidth    : %g \n#\n", rows ? sumBus / rows : 0.0);
    std::printf("# Collective test concluded: %s\n", program.c_str());
    return 0;
}

// ------------------------------------------------------------------ hipblaslt-bench / rocblas-bench
int gemmBench(const std::string& program, int argc, char** argv)
{
    const bool hipblaslt = program == "hipblaslt-bench";
    std::map<std::string, std::string> o{{"m", "128"},        {"n", "128"},  {"k", "128"},    {"transA", "N"},
                                         {"transB", "N"},     {"a_type", "f32_r"}, {"batch_count", "1"},
                                         {"iters", "10"},     {"cold_iters", "2"}};
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--version") {
            std::printf(hipblaslt ? "hipBLASLt version: 0.12.0-standin\n" : "rocBLAS version: 4.3.0-standin\n");
            return 0;
        }
        const std::string v = i + 1 < argc ? argv[i + 1] : "";
        if (a == "-m" || a == "-n" || a == "-k") o[a.substr(1)] = v, ++i;
        else if (a == "--transA" || a == "--transposeA") o["transA"] = v, ++i;
        else if (a == "--transB" || a == "--transposeB") o["transB"] = v, ++i;
        else if (a == "--a_type" || a == "--precision" || a == "-r") o["a_type"] = v, ++i;
        else if (a == "--batch_count") o["batch_count"] = v, ++i;
        else if (a == "-i" || a == "--iters") o["iters"] = v, ++i;
        else if (a == "-j" || a == "--cold_iters") o["cold_iters"] = v, ++i;
        else if (a == "-f" || a == "--function" || a == "--b_type" || a == "--c_type" || a == "--d_type" ||
                 a == "--compute_type" || a == "--lda" || a == "--ldb" || a == "--ldc" || a == "--ldd" || a == "--alpha" ||
                 a == "--beta" || a == "--device" || a == "--rotating" || a == "--initialization")
            ++i;
        else if (a == "-v" || a == "--verify" || a == "--use_gpu_timer" || a == "--flush")
            ;
        else {
            std::fprintf(stderr, "%s: unknown option %s\n", program.c_str(), a.c_str());
            return 1;
        }
    }
    const long long m = std::atoll(o["m"].c_str()), n = std::atoll(o["n"].c_str()), k = std::atoll(o["k"].c_str());
    if (m <= 0 || n <= 0 || k <= 0) {
        std::fprintf(stderr, "%s: invalid size\n", program.c_str());
        return 1;
    }
    if (envInt("STANDIN_FAIL_AFTER", -1) == 0) {
        std::printf("hipBLASLt error: HIPBLAS_STATUS_NOT_SUPPORTED\n");
        return 3;
    }
    if (envInt("STANDIN_HANG_AFTER", -1) == 0)
        hang();
    pause(envInt("STANDIN_DELAY_MS", 20));
    // A rate that grows with the size towards a plateau, as real GEMM benches show.
    const double flops = 2.0 * m * n * k;
    const double gflops = 400000.0 * (1 - std::exp(-flops / 2e10)) + 50;
    const double us = flops / (gflops * 1e9) * 1e6;
    const std::string t = o["a_type"];
    if (hipblaslt) {
        std::printf("Git Version: standin\n    transA,transB,grouped_gemm,batch_count,m,n,k,alpha,lda,stride_a,beta,ldb,stride_b,ldc,"
                    "stride_c,ldd,stride_d,a_type,b_type,c_type,d_type,compute_type,scaleA,scaleB,scaleC,scaleD,amaxD,"
                    "activation_type,bias_vector,bias_type,hipblaslt-Gflops,hipblaslt-GB/s,us\n");
        std::printf("    %s,%s,0,%s,%lld,%lld,%lld,1,%lld,%lld,0,%lld,%lld,%lld,%lld,%lld,%lld,%s,%s,%s,%s,f32_r,0,0,0,0,0,"
                    "none,0,f32_r,%g,%g,%g\n",
                    o["transA"].c_str(), o["transB"].c_str(), o["batch_count"].c_str(), m, n, k, m, m * k, k, k * n, m,
                    m * n, m, m * n, t.c_str(), t.c_str(), t.c_str(), t.c_str(), gflops, gflops / 100, us);
    } else {
        std::printf("rocBLAS info: maximum library size per device is 0.758486 GB.\n");
        std::printf("transA,transB,M,N,K,alpha,lda,beta,ldb,ldc,ldd,batch_count,a_type,b_type,c_type,d_type,compute_type,"
                    "rocblas-Gflops,rocblas-GB/s,us\n");
        std::printf("%s,%s,%lld,%lld,%lld,1,%lld,0,%lld,%lld,%lld,%s,%s,%s,%s,%s,f32_r,%g,%g,%g\n", o["transA"].c_str(),
                    o["transB"].c_str(), m, n, k, m, k, m, m, o["batch_count"].c_str(), t.c_str(), t.c_str(), t.c_str(),
                    t.c_str(), gflops, gflops / 100, us);
    }
    return 0;
}
} // namespace

int main(int argc, char** argv)
{
    std::string program = argv[0];
    if (auto slash = program.rfind('/'); slash != std::string::npos)
        program = program.substr(slash + 1);
    if (program.size() > 4 && program.ends_with("_mpi"))
        program.resize(program.size() - 4);
    if (program.ends_with("_perf"))
        return ncclTests(program, argc, argv);
    if (program == "hipblaslt-bench" || program == "rocblas-bench")
        return gemmBench(program, argc, argv);
    if (program == "cutlass_profiler")
        return standin::cutlassProfiler(argc, argv);
    if (program.ends_with("-stream"))
        return standin::babelStream(program, argc, argv);
    if (program == "nvbandwidth")
        return standin::nvbandwidth(argc, argv);
    std::fprintf(stderr, "gputool_standin: run me as all_reduce_perf, hipblaslt-bench, ... (got %s)\n", program.c_str());
    return 2;
}
