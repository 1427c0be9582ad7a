// Stand-ins of NVIDIA's C-level tools, printing each tool's real output layout, written from its
// source (not copied): cutlass_profiler (tools/profiler/src/performance_report.cpp),
// BabelStream 5.0's CUDA build (src/main.cpp, cuda/CUDAStream.cu) and nvbandwidth
// (output.cpp, inline_common.h, json_output.cpp, testcases_ce.cpp).
//
// The figures are those of one NVIDIA H100 SXM5 80GB (HBM3), set from NVIDIA's H100 datasheet and
// not measured: dense BF16/FP16 989 TFLOP/s of which CUTLASS's best kernels reach about 75 %
// (740 TFLOP/s) at large shapes, FP8 about 1450 TFLOP/s, TF32 380, FP32 and FP64 about 51;
// HBM3 3.35 TB/s of which BabelStream reaches about 88-91 %; an 8-GPU HGX node's PCIe Gen5 x16
// host copies about 55 GB/s, NVLink 4 peer copies about 390 GB/s one way.
//
// Controls: STANDIN_DELAY_MS (per result), STANDIN_WRONG_ROW=N (cutlass_profiler: result N is
// "Incorrect"; BabelStream: its validation fails), STANDIN_FAIL_AFTER=N (BabelStream / nvbandwidth: a CUDA error after N results,
// exit 1), STANDIN_HANG_AFTER=N, STANDIN_GPUS (nvbandwidth, default 8).
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

#include "standin.h"

namespace standin {
namespace {
// ------------------------------------------------------------------------------ cutlass_profiler
struct Result
{
    int problem = 0;
    std::string operation, disposition;
    std::vector<std::pair<std::string, std::string>> arguments;
    long long bytes = 0, flops = 0;
    double runtimeMs = 0;
};

int typeBytes(const std::string& t)
{
    if (t == "f64") return 8;
    if (t == "f32" || t == "tf32" || t == "s32") return 4;
    if (t == "f16" || t == "bf16") return 2;
    return 1; // e4m3, e5m2, s8
}

double peakGflops(const std::string& t)
{
    if (t == "f16" || t == "bf16") return 740000;
    if (t == "e4m3" || t == "e5m2" || t == "s8") return 1450000;
    if (t == "tf32") return 380000;
    return 51000; // f32 (SIMT), f64
}

std::string csvHeader(const std::vector<std::pair<std::string, std::string>>& arguments)
{
    std::string h = "Problem,Provider,OperationKind,Operation,Disposition,Status";
    for (const auto& a : arguments)
        h += "," + a.first;
    return h + ",Bytes,Flops,Flops/Byte,Runtime,GB/s,GFLOPs";
}

std::string csvRow(const Result& r)
{
    std::ostringstream o;
    o << r.problem << ",CUTLASS,gemm," << r.operation << ',' << r.disposition << ",success";
    for (const auto& a : r.arguments)
        o << ',' << a.second;
    o << ',' << r.bytes << ',' << r.flops << ',' << r.flops / r.bytes << ',' << r.runtimeMs << ','
      << double(r.bytes) / double(1 << 30) / r.runtimeMs * 1000.0 << ',' << double(r.flops) / r.runtimeMs / 1.0e6;
    return o.str();
}

void printPretty(const Result& r)
{
    std::ostringstream o;
    const bool wrong = r.disposition == "incorrect";
    o << "\n=============================\n  Problem ID: " << r.problem << "\n\n"
      << "        Provider: CUTLASS\n   OperationKind: gemm\n       Operation: " << r.operation << "\n\n"
      << "          Status: Success\n    Verification: ON\n     Disposition: " << (wrong ? "Incorrect" : "Passed")
      << "\n\n"
      << "reference_device: " << (wrong ? "Incorrect" : "Passed") << "\n\n       Arguments:";
    int column = 0; // wrapped as the report wraps them: after 98 characters
    for (const auto& [name, value] : r.arguments) {
        o << " --" << name << "=" << value;
        column += int(4 + name.size() + value.size());
        if (column > 98) {
            o << "  \\\n                 ";
            column = 0;
        }
    }
    o << "\n\n           Bytes: " << r.bytes << "  bytes\n           FLOPs: " << r.flops
      << "  flops\n           FLOPs/Byte: " << r.flops / r.bytes << "\n\n"
      << "         Runtime: " << r.runtimeMs << "  ms\n          Memory: "
      << double(r.bytes) / double(1 << 30) / r.runtimeMs * 1000.0 << " GiB/s\n\n            Math: "
      << double(r.flops) / r.runtimeMs / 1.0e6 << " GFLOP/s\n";
    std::fputs(o.str().c_str(), stdout);
    std::fflush(stdout);
}

// --------------------------------------------------------------------------------- nvbandwidth
struct Matrix
{
    std::string testcase, description;
    int rows = 1, columns = 1;
    bool peer = false;  // GPU x GPU: N/A on the diagonal
    double base = 0;    // GB/s
};

double valueAt(const Matrix& m, int r, int c) { return m.base + 0.03 * ((r * 7 + c * 3) % 10); }
} // namespace

int cutlassProfiler(int argc, char** argv)
{
    std::string m = "1024", n = "1024", k = "1024", a = "f16:column", b = "f16:column", accum = "f32", batch = "1";
    std::string output, value;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--version") {
            std::printf("CUTLASS 3.9.2 built on Jan  1 2025 at 00:00:00");
            return 0;
        }
        if (option(argc, argv, i, "--m", value)) m = value;
        else if (option(argc, argv, i, "--n", value)) n = value;
        else if (option(argc, argv, i, "--k", value)) k = value;
        else if (option(argc, argv, i, "--A", value)) a = value;
        else if (option(argc, argv, i, "--B", value)) b = value;
        else if (option(argc, argv, i, "--accumulator-type", value) || option(argc, argv, i, "--accum", value)) accum = value;
        else if (option(argc, argv, i, "--batch_count", value)) batch = value;
        else if (option(argc, argv, i, "--output", value)) output = value;
        else if (arg.rfind("--", 0) != 0 || arg.find('=') == std::string::npos) {
            std::fprintf(stderr, "cutlass_profiler: unknown argument '%s'\n", arg.c_str());
            return 1;
        }
    }
    const long long M = std::atoll(m.c_str()), N = std::atoll(n.c_str()), K = std::atoll(k.c_str()),
                    L = std::max(1LL, std::atoll(batch.c_str()));
    const std::string ta = a.substr(0, a.find(':')), la = a.substr(a.find(':') + 1), lb = b.substr(b.find(':') + 1);
    auto letter = [](const std::string& layout) { return layout == "row" ? "t" : "n"; };
    const std::string d = ta + ":column";
    std::vector<Result> results;
    const int wrongRow = envInt("STANDIN_WRONG_ROW", -1);
    // Two kernels fit every shape here, the second tile a little slower.
    for (const auto& [tile, share] : {std::pair{std::string("128x256x64_1x2x1"), 1.0}, {"256x128x64_2x1x1", 0.96}}) {
        if (envInt("STANDIN_HANG_AFTER", -1) == int(results.size()))
            hang();
        resultDelay();
        Result r;
        r.problem = 1;
        r.operation = "cutlass3x_sm90_tensorop_gemm_" + ta + "_" + ta + "_" + accum + "_" + ta + "_" + ta + "_" + tile +
                      "_0_" + letter(la) + letter(lb) + "n_align8_warpspecialized_cooperative_epi_tma";
        r.disposition = int(results.size()) == wrongRow ? "incorrect" : "passed";
        const std::string cta = tile.substr(0, tile.find('_'));
        r.arguments = {{"gemm_kind", "universal"}, {"m", m}, {"n", n}, {"k", k}, {"A", a}, {"B", b}, {"C", d}, {"D", d},
                       {"alpha", "1"}, {"beta", "0"}, {"split_k_mode", "serial"}, {"split_k_slices", "1"},
                       {"batch_count", batch}, {"raster_order", "heuristic"}, {"runtime_input_datatype_a", "invalid"},
                       {"runtime_input_datatype_b", "invalid"}, {"use_pdl", "false"},
                       {"enable_sm90_mixed_dtype_shuffle_test", "false"}, {"swizzle_size", "1"}, {"op_class", "tensorop"},
                       {"accum", accum}, {"cta_m", cta.substr(0, cta.find('x'))}, {"cta_n", share < 1 ? "128" : "256"},
                       {"cta_k", "64"}, {"cluster_m", share < 1 ? "2" : "1"}, {"cluster_n", share < 1 ? "1" : "2"},
                       {"cluster_k", "1"}, {"cluster_m_fallback", "0"}, {"cluster_n_fallback", "0"},
                       {"cluster_k_fallback", "0"}, {"stages", "0"}, {"warps_m", "4"}, {"warps_n", "1"}, {"warps_k", "1"},
                       {"inst_m", "64"}, {"inst_n", "256"}, {"inst_k", "16"}, {"min_cc", "90"}, {"max_cc", "90"}};
        r.flops = 2 * M * N * K * L;
        r.bytes = ((M * K + K * N) * typeBytes(ta) + M * N * typeBytes(ta)) * L;
        const double gflops = (peakGflops(ta) * (1 - std::exp(-double(r.flops) / 5e9)) + 100) * share;
        r.runtimeMs = double(r.flops) / gflops / 1e6;
        printPretty(r);
        results.push_back(std::move(r));
    }
    if (!output.empty()) { // --output=FILE writes FILE.gemm.csv (".csv" stripped first)
        const std::string path = output.substr(0, output.rfind(".csv")) + ".gemm.csv";
        std::ofstream f(path);
        f << csvHeader(results.front().arguments) << '\n';
        for (const auto& r : results)
            f << csvRow(r) << '\n';
        std::printf("\nWrote results to '%s'\n", path.c_str());
        return 0;
    }
    std::printf("\n\n=============================\n\nCSV Results:\n\n%s\n", csvHeader(results.front().arguments).c_str());
    for (const auto& r : results)
        std::printf("%s\n", csvRow(r).c_str());
    return 0;
}

int babelStream(const std::string& program, int argc, char** argv)
{
    long long elements = 33554432; // BabelStream's default, 2^25
    int times = 100, size = 8;
    bool csv = false, mib = false;
    std::string value;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (option(argc, argv, i, "--arraysize", value) || option(argc, argv, i, "-s", value)) elements = std::atoll(value.c_str());
        else if (option(argc, argv, i, "--numtimes", value) || option(argc, argv, i, "-n", value)) times = std::atoi(value.c_str());
        else if (option(argc, argv, i, "--device", value)) continue;
        else if (arg == "--float") size = 4;
        else if (arg == "--csv") csv = true;
        else if (arg == "--mibibytes") mib = true;
        else {
            std::fprintf(stderr, "Unrecognized argument '%s' (try '--help')\n", arg.c_str());
            return EXIT_FAILURE;
        }
    }
    const double unit = mib ? std::pow(2.0, -20.0) : 1.0E-6;
    if (!csv) {
        std::printf("BabelStream\nVersion: 5.0\nImplementation: %s\nRunning kernels %d times\nPrecision: %s\n",
                    program == "hip-stream" ? "HIP" : "CUDA", times, size == 4 ? "float" : "double");
        const double bytes = double(elements) * size;
        if (mib)
            std::printf("Array size: %.1f MiB (=%.1f GiB)\nTotal size: %.1f MiB (=%.1f GiB)\n", bytes * unit,
                        bytes * std::pow(2.0, -30.0), 3 * bytes * unit, 3 * bytes * std::pow(2.0, -30.0));
        else
            std::printf("Array size: %.1f MB (=%.1f GB)\nTotal size: %.1f MB (=%.1f GB)\n", bytes * unit, bytes * 1e-9,
                        3 * bytes * unit, 3 * bytes * 1e-9);
        std::printf("Using CUDA device NVIDIA H100 80GB HBM3\nDriver: 12040\nMemory: DEFAULT\n"
                    "Reduction kernel config: 528 groups of (fixed) size 1024\n");
        std::printf("Init: %7f s (=%f %s)\nRead: %7f s (=%f %s)\n", 0.087355, 3 * bytes * unit / 0.087355,
                    mib ? "MiBytes/sec" : "MBytes/sec", 0.256791, 3 * bytes * unit / 0.256791, mib ? "MiBytes/sec" : "MBytes/sec");
        std::printf("%-12s%-12s%-12s%-12s%-12s\n", "Function", mib ? "MiBytes/sec" : "MBytes/sec", "Min (sec)", "Max", "Average");
    } else {
        std::printf("phase,n_elements,sizeof,%s,runtime\nInit,%lld,%d,%g,0.087355\nRead,%lld,%d,%g,0.256791\n",
                    mib ? "max_mibytes_per_sec" : "max_mbytes_per_sec", elements, size, 3.0 * elements * size * unit / 0.087355,
                    elements, size, 3.0 * elements * size * unit / 0.256791);
        std::printf("function,num_times,n_elements,sizeof,%s,min_runtime,max_runtime,avg_runtime\n",
                    mib ? "max_mibytes_per_sec" : "max_mbytes_per_sec");
    }
    std::fflush(stdout);
    if (envInt("STANDIN_WRONG_ROW", -1) >= 0) // check_solution's verdict comes before the table; it still exits 0
        std::fprintf(stderr, "Validation failed on c[]. Average error 0.25\n");
    // Bytes per second of each kernel (about 88-91 % of HBM3's 3.35e12) and the arrays it moves.
    const std::pair<const char*, std::pair<double, int>> kernels[] = {
        {"Copy", {2.934e12, 2}}, {"Mul", {2.921e12, 2}}, {"Add", {3.038e12, 3}}, {"Triad", {3.041e12, 3}}, {"Dot", {2.821e12, 2}}};
    int row = 0;
    for (const auto& [name, rate] : kernels) {
        if (envInt("STANDIN_FAIL_AFTER", -1) == row) {
            std::fprintf(stderr, "Error: an illegal memory access was encountered\n");
            return EXIT_FAILURE;
        }
        if (envInt("STANDIN_HANG_AFTER", -1) == row)
            hang();
        ++row;
        resultDelay();
        const double bytes = double(elements) * size * rate.second, minTime = bytes / rate.first;
        if (csv)
            std::printf("%s,%d,%lld,%d,%g,%g,%g,%g\n", name, times, elements, size, bytes * unit / minTime, minTime,
                        minTime * 1.04, minTime * 1.01);
        else
            std::printf("%-12s%-12.3f%-12.5f%-12.5f%-12.5f\n", name, bytes * unit / minTime, minTime, minTime * 1.04,
                        minTime * 1.01);
        std::fflush(stdout);
    }
    return 0;
}

int nvbandwidth(int argc, char** argv)
{
    const int gpus = envInt("STANDIN_GPUS", 8);
    const std::vector<Matrix> all{
        {"host_to_device_memcpy_ce", "memcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)", 1, gpus, false, 55.21},
        {"device_to_host_memcpy_ce", "memcpy CE CPU(row) <- GPU(column) bandwidth (GB/s)", 1, gpus, false, 54.87},
        {"device_to_device_memcpy_read_ce", "memcpy CE GPU(row) -> GPU(column) bandwidth (GB/s)", gpus, gpus, true, 389.52},
        {"device_to_device_memcpy_write_ce", "memcpy CE GPU(row) <- GPU(column) bandwidth (GB/s)", gpus, gpus, true, 391.08},
    };
    std::vector<Matrix> run;
    bool json = false;
    std::string value;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "-j" || arg == "--json") json = true;
        else if (arg == "-l" || arg == "--list") {
            std::printf("nvbandwidth Version: v0.8\nBuilt from Git version: standin\n\nIndex, Name:\n\tDescription\n"
                        "=======================\n");
            for (std::size_t t = 0; t < all.size(); ++t)
                std::printf("%zu, %s:\n\t%s\n\n", t, all[t].testcase.c_str(), all[t].description.c_str());
            return 0;
        } else if (option(argc, argv, i, "--testcase", value) || option(argc, argv, i, "-t", value)) {
            for (const auto& m : all)
                if (m.testcase == value)
                    run.push_back(m);
        } else if (option(argc, argv, i, "--bufferSize", value) || option(argc, argv, i, "-b", value) ||
                   option(argc, argv, i, "--testSamples", value) || option(argc, argv, i, "-i", value))
            continue;
        else {
            std::printf("nvbandwidth Version: v0.8\nBuilt from Git version: standin\n\nERROR: Invalid Arguments \n");
            return 1;
        }
    }
    if (run.empty())
        run = all;
    char host[256] = "standin-host";
    gethostname(host, sizeof host);
    if (json) { // json_output.cpp's document, printed once at the end
        std::printf("{\n  \"nvbandwidth\" : {\n    \"CUDA Runtime Version\" : 12040,\n    \"Driver Version\" : \"550.54.15\",\n"
                    "    \"GPU Device list\" : [");
        for (int g = 0; g < gpus; ++g)
            std::printf("%s\"%d: NVIDIA H100 80GB HBM3 (00000000:%02x:00): (%s)\"", g ? ", " : "", g, 0x18 + 16 * g, host);
        std::printf("],\n    \"git_version\" : \"standin\",\n    \"testcases\" : [\n");
        for (std::size_t t = 0; t < run.size(); ++t) {
            const Matrix& m = run[t];
            double sum = 0;
            std::printf("      {\n        \"bandwidth_description\" : \"%s\",\n        \"bandwidth_matrix\" : [", m.description.c_str());
            for (int r = 0; r < m.rows; ++r) {
                std::printf("%s[", r ? ", " : "");
                for (int c = 0; c < m.columns; ++c) {
                    const bool na = m.peer && r == c;
                    sum += na ? 0 : valueAt(m, r, c);
                    na ? std::printf("%s\"N/A\"", c ? ", " : "") : std::printf("%s\"%g\"", c ? ", " : "", valueAt(m, r, c));
                }
                std::printf("]");
            }
            std::printf("],\n        \"name\" : \"%s\",\n        \"status\" : \"Passed\",\n        \"sum\" : %g\n      }%s\n",
                        m.testcase.c_str(), sum, t + 1 < run.size() ? "," : "");
        }
        std::printf("    ],\n    \"version\" : \"v0.8\"\n  }\n}\n");
        return 0;
    }
    std::printf("nvbandwidth Version: v0.8\nBuilt from Git version: standin\n\n"
                "CUDA Runtime Version: 12040\nCUDA Driver Version: 12040\nDriver Version: 550.54.15\n\n%s\n", host);
    for (int g = 0; g < gpus; ++g)
        std::printf("Device %d: NVIDIA H100 80GB HBM3 (00000000:%02x:00)\n", g, 0x18 + 16 * g);
    std::printf("\n");
    std::fflush(stdout);
    int done = 0;
    for (const auto& m : run) {
        if (envInt("STANDIN_FAIL_AFTER", -1) == done) {
            std::printf("Running %s.\n", m.testcase.c_str());
            std::fflush(stdout);
            std::fprintf(stderr, "[CUDA_ERROR_ILLEGAL_ADDRESS] an illegal memory access was encountered in expression "
                                 "cuStreamSynchronize(stream) on %s, rank = 0 in run() : memcpy.cpp:210\n", host);
            return 1;
        }
        if (envInt("STANDIN_HANG_AFTER", -1) == done)
            hang();
        ++done;
        resultDelay();
        std::printf("Running %s.\n%s\n  ", m.testcase.c_str(), m.description.c_str());
        for (int c = 0; c < m.columns; ++c)
            std::printf("%10d", c);
        std::printf("\n");
        double sum = 0;
        for (int r = 0; r < m.rows; ++r) {
            std::printf("%2d", r);
            for (int c = 0; c < m.columns; ++c) {
                const bool na = m.peer && r == c;
                sum += na ? 0 : valueAt(m, r, c);
                na ? std::printf("%10s", "N/A") : std::printf("%10.2f", valueAt(m, r, c));
            }
            std::printf("\n");
        }
        std::printf("\nSUM %s %.2f\n\n", m.testcase.c_str(), sum);
        std::fflush(stdout);
    }
    std::printf("NOTE: The reported results may not reflect the full capabilities of the platform.\n"
                "Performance can vary with software drivers, hardware clocks, and system topology.\n\n");
    return 0;
}
} // namespace standin
