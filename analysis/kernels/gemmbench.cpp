#include "kernels/gemmbench.h"

#include <algorithm>
#include <dlfcn.h>

#include "kernels/cancelflag.h"
#include "kernels/gemmtiming.h"

namespace rl::kernels {

double gemmIntensity(std::int64_t m, std::int64_t n, std::int64_t k, int elemBytes)
{
    const double bytes = (static_cast<double>(m) * k + static_cast<double>(k) * n + static_cast<double>(m) * n) * elemBytes;
    return bytes > 0 ? 2.0 * static_cast<double>(m) * n * k / bytes : 0;
}

std::string blasLibrary()
{
    using GetConfig = char* (*)();
    if (auto fn = reinterpret_cast<GetConfig>(dlsym(RTLD_DEFAULT, "openblas_get_config")))
        return fn();
    return {};
}

bool setBlasThreads(int threads)
{
    using SetThreads = void (*)(int);
    if (auto fn = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"))) {
        fn(std::max(1, threads));
        return true;
    }
    return false;
}

std::vector<GemmShape> gemmShapes(const std::vector<std::int64_t>& m, const std::vector<std::int64_t>& n,
                                  const std::vector<std::int64_t>& k)
{
    std::vector<GemmShape> out;
    for (auto mm : m)
        for (auto nn : n)
            for (auto kk : k)
                out.push_back({mm, nn, kk});
    return out;
}

GemmPoint measureGemm(const std::string& dtype, const GemmShape& s, int repeats, double budgetSeconds)
{
    const bool f64 = dtype != "float32";
    auto times = detail::timeGemmBlas(f64, s.m, s.n, s.k, std::max(1, repeats), budgetSeconds);
    std::sort(times.begin(), times.end());
    const std::size_t mid = times.size() / 2;
    const double median = times.size() % 2 ? times[mid] : 0.5 * (times[mid - 1] + times[mid]);
    GemmPoint p;
    p.dtype = f64 ? "float64" : "float32";
    p.m = s.m;
    p.n = s.n;
    p.k = s.k;
    p.timeUs = median * 1e6;
    p.gflops = 2.0 * static_cast<double>(s.m) * s.n * s.k / median / 1e9;
    p.intensity = gemmIntensity(s.m, s.n, s.k, f64 ? 8 : 4);
    p.device = "cpu";
    p.solution = "eigen+blas";
    return p;
}

bool runGemmSweep(const GemmConfig& config, const std::function<void(const GemmPoint&)>& onPoint)
{
    setBlasThreads(config.threads);
    for (const auto& dtype : config.dtypes) {
        const double peak = dtype == "float32" ? config.peakGflopsFp32 : config.peakGflopsFp64;
        for (const auto& shape : config.shapes) {
            if (cancelRequested())
                return false;
            GemmPoint p = measureGemm(dtype, shape, config.repeats, config.budgetSeconds);
            p.threads = config.threads;
            p.efficiency = peak > 0 ? p.gflops / peak : 0;
            onPoint(p);
        }
    }
    return true;
}
} // namespace rl::kernels
