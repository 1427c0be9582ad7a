// Import speed and memory of the Kineto reader on a synthetic trace, against python3's json.load
// plus a sum of durations by category on the same file. Not a ctest test: run it by hand,
//   bench_trace [size in MB, default 200] [path of the generated file]
// It prints both times, the speed ratio (target >= 10x) and Ridgeline's peak RSS relative to the
// uncompressed file size (target <= 1.5x), measured in a child process with wait4().
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "trace/kinetoreader.h"
#include "trace/traceanalysis.h"
#include "units/units.h"

namespace {
using Clock = std::chrono::steady_clock;

// A step of a tensor-parallel transformer layer stack: CPU ops, runtime launches with flow
// events, GEMM/attention/elementwise kernels on the compute stream, NCCL on its own stream.
void generate(const std::string& path, double megabytes)
{
    std::FILE* f = std::fopen(path.c_str(), "w");
    if (!f)
        throw std::runtime_error(path + ": cannot create");
    const char* gemms[] = {"sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x256x64_warpgroupsize2x1x1_execute_segment_k_off_kernel__5x_cublas",
                           "nvjet_tst_192x192_64x4_2x1_v_bz_coopB_TNT",
                           "Cijk_Alik_Bljk_BBS_BH_MT256x256x64_MI32x32x8x1_SN_1LDSB1_AMAS3_BL1_GRVW8"};
    const char* elem[] = {"void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<c10::BFloat16>, at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<c10::BFloat16>, at::detail::Array<char*, 3>)",
                          "void at::native::(anonymous namespace)::cunn_SoftMaxForward<8, c10::BFloat16, float, c10::BFloat16, at::native::(anonymous namespace)::SoftMaxForwardEpilogue>(c10::BFloat16*, c10::BFloat16 const*, int)",
                          "triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_0"};
    const char* ops[] = {"aten::linear", "aten::matmul", "aten::mm", "aten::add", "aten::_softmax", "aten::copy_"};
    std::fprintf(f, "{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA H100 80GB HBM3\", "
                    "\"totalGlobalMem\": 85045870592, \"computeMajor\": 9, \"computeMinor\": 0, \"numSms\": 132}],\n"
                    "  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 0, \"world_size\": 8, \"nccl_version\": \"2.21.5\"},\n"
                    "  \"traceEvents\": [\n");
    std::mt19937_64 rng(42);
    const auto target = static_cast<long>(megabytes * 1e6);
    double t = 1700000000000000.0; // epoch microseconds, as recent Kineto writes them
    long corr = 1, step = 1;
    bool first = true;
    auto sep = [&] {
        if (!first)
            std::fputs(",\n", f);
        first = false;
    };
    while (std::ftell(f) < target) {
        const double stepStart = t;
        double gpu = t + 50;
        for (int layer = 0; layer < 32 && std::ftell(f) < target; ++layer) {
            for (int k = 0; k < 8; ++k) {
                const int kind = k % 4;
                const char* name = kind == 0 ? gemms[rng() % 3] : kind == 1 ? "flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, cutlass::bfloat16_t, Flash_kernel_traits<128, 128, 64, 4, cutlass::bfloat16_t> >, true, false, false, false, true, true, false>(Flash_fwd_params)" : elem[rng() % 3];
                const double dur = kind == 0 ? 180.0 + double(rng() % 400) / 10 : kind == 1 ? 120.5 : 8.25 + double(rng() % 100) / 100;
                sep();
                std::fprintf(f, "  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"%s\", \"pid\": 4242, \"tid\": 4242, \"ts\": %.3f, \"dur\": 12.5, "
                                "\"args\": {\"External id\": %ld, \"Record function id\": 0, \"Ev Idx\": %ld, \"Input Dims\": [[8192, 4096], [4096, 4096]], \"Input type\": [\"c10::BFloat16\", \"c10::BFloat16\"]}}",
                             ops[rng() % 6], t, corr, corr);
                sep();
                std::fprintf(f, "  {\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 4242, \"tid\": 4242, \"ts\": %.3f, \"dur\": 4.1, "
                                "\"args\": {\"External id\": %ld, \"cbid\": 211, \"correlation\": %ld}}",
                             t + 3, corr, corr);
                sep();
                std::fprintf(f, "  {\"ph\": \"s\", \"id\": %ld, \"pid\": 4242, \"tid\": 4242, \"ts\": %.3f, \"cat\": \"ac2g\", \"name\": \"ac2g\"}", corr, t + 3);
                sep();
                std::fprintf(f, "  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"%s\", \"pid\": 0, \"tid\": 7, \"ts\": %.3f, \"dur\": %.3f, "
                                "\"args\": {\"External id\": %ld, \"queued\": 0, \"device\": 0, \"context\": 1, \"stream\": 7, \"correlation\": %ld, "
                                "\"registers per thread\": 168, \"shared memory\": 215040, \"blocks per SM\": 1.0, \"warps per SM\": 12.0, "
                                "\"grid\": [132, 1, 1], \"block\": [384, 1, 1], \"est. achieved occupancy %%\": 19}}",
                             name, gpu, dur, corr, corr);
                sep();
                std::fprintf(f, "  {\"ph\": \"f\", \"id\": %ld, \"pid\": 0, \"tid\": 7, \"ts\": %.3f, \"cat\": \"ac2g\", \"name\": \"ac2g\", \"bp\": \"e\"}", corr, gpu);
                gpu += dur + 2;
                t += 20;
                ++corr;
            }
            sep(); // tensor-parallel all-reduce, overlapping the next layer's first kernels
            std::fprintf(f, "  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)\", \"pid\": 0, \"tid\": 20, "
                            "\"ts\": %.3f, \"dur\": %.3f, \"args\": {\"External id\": %ld, \"stream\": 20, \"correlation\": %ld, \"Collective name\": \"allreduce\", "
                            "\"In msg nelems\": 33554432, \"Out msg nelems\": 33554432, \"Group size\": 8, \"dtype\": \"BFloat16\", \"Process Group Name\": \"0\"}}",
                         gpu - 100, 650.0 + double(rng() % 1000) / 10, corr, corr);
            ++corr;
            sep();
            std::fprintf(f, "  {\"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": \"Memcpy DtoD (Device -> Device)\", \"pid\": 0, \"tid\": 7, \"ts\": %.3f, \"dur\": 3.2, "
                            "\"args\": {\"device\": 0, \"stream\": 7, \"correlation\": %ld, \"bytes\": 1048576, \"memory bandwidth (GB/s)\": 327.6}}",
                         gpu, corr++);
            gpu += 10;
        }
        sep();
        std::fprintf(f, "  {\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#%ld\", \"pid\": 4242, \"tid\": 4242, \"ts\": %.3f, \"dur\": %.3f, "
                        "\"args\": {\"External id\": %ld}}",
                     step++, stepStart, gpu - stepStart + 20, corr);
        t = gpu + 40;
    }
    std::fprintf(f, "\n  ],\n  \"traceName\": \"synthetic\",\n  \"displayTimeUnit\": \"ms\",\n  \"baseTimeNanoseconds\": 1700000000000000000\n}\n");
    std::fclose(f);
}

struct ChildResult
{
    double seconds = 0;
    long steps = 0;
    long kernels = 0;
};
} // namespace

int main(int argc, char** argv)
{
    const double mb = argc > 1 ? std::atof(argv[1]) : 200;
    const std::string path = argc > 2 ? argv[2] : (std::filesystem::temp_directory_path() / "ridgeline_bench_trace.json").string();
    std::printf("generating %.0f MB synthetic Kineto trace at %s ...\n", mb, path.c_str());
    generate(path, mb);
    const auto fileBytes = static_cast<double>(std::filesystem::file_size(path));

    int fds[2];
    if (pipe(fds) != 0)
        return 1;
    const pid_t pid = fork();
    if (pid == 0) { // child: import to the finished per-step breakdown
        close(fds[0]);
        ChildResult r;
        const auto t0 = Clock::now();
        std::ifstream in(path, std::ios::binary);
        rl::trace::TraceData data;
        data.path = path;
        rl::trace::readKinetoTrace(in, data);
        const auto a = rl::trace::analyzeTrace(data);
        r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
        r.steps = static_cast<long>(a.steps.size());
        for (const auto& k : a.kernels)
            r.kernels += k.count;
        if (write(fds[1], &r, sizeof r) != sizeof r)
            _exit(1);
        _exit(0);
    }
    close(fds[1]);
    ChildResult r;
    const bool got = read(fds[0], &r, sizeof r) == sizeof r;
    int status = 0;
    rusage ru{};
    wait4(pid, &status, 0, &ru);
    if (!got || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::fprintf(stderr, "ridgeline import failed in the child process\n");
        return 1;
    }
    const double peakBytes = double(ru.ru_maxrss) * 1024.0;

    const std::string py = "python3 -c \"import json,sys\nd=json.load(open(sys.argv[1]))\ns={}\n"
                           "for e in d['traceEvents']:\n c=e.get('cat');s[c]=s.get(c,0)+e.get('dur',0)\n"
                           "print(len(d['traceEvents']))\" '" + path + "' > /dev/null";
    const auto p0 = Clock::now();
    const int rc = std::system(py.c_str());
    const double pySeconds = std::chrono::duration<double>(Clock::now() - p0).count();

    std::printf("file                 %s (uncompressed)\n", rl::units::formatBytes(fileBytes).c_str());
    std::printf("ridgeline import     %.3f s  (%ld steps, %ld kernels, to the per-step breakdown)\n", r.seconds, r.steps, r.kernels);
    if (rc == 0)
        std::printf("python3 json.load    %.3f s  (load + sum of dur by category)\n", pySeconds);
    else
        std::printf("python3              failed (exit %d)\n", rc);
    if (rc == 0)
        std::printf("speed-up             %.1fx (target >= 10x)\n", pySeconds / r.seconds);
    std::printf("ridgeline peak RSS   %s = %.2fx the file (target <= 1.5x)\n", rl::units::formatBytes(peakBytes).c_str(),
                peakBytes / fileBytes);
    if (argc <= 2)
        std::filesystem::remove(path);
    return 0;
}
