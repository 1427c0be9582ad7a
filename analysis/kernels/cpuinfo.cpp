#include "kernels/cpuinfo.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <sstream>
#include <thread>
#include <vector>

#include "io/linereader.h"
#include "units/units.h"

namespace rl::kernels {
namespace {
std::string readFirstLine(const std::string& path)
{
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return std::string(io::trim(line));
}

// "48K", "1024K", "32M" as sysfs writes them.
std::int64_t parseSysfsSize(const std::string& text)
{
    return units::parseBytes(text).value_or(0);
}

int countCpuList(const std::string& list) // "0-1,4,6-7"
{
    int count = 0;
    std::stringstream ss(list);
    std::string part;
    while (std::getline(ss, part, ',')) {
        const auto dash = part.find('-');
        const auto a = units::parseInt(io::trim(part.substr(0, dash)));
        const auto b = dash == std::string::npos ? a : units::parseInt(io::trim(part.substr(dash + 1)));
        if (a && b && *b >= *a)
            count += static_cast<int>(*b - *a + 1);
    }
    return count > 0 ? count : 1;
}

// FMA pipes per core cannot be queried; this follows the vendors' optimisation manuals for the
// cores that matter and says so. Intel Xeon SKUs with one AVX-512 FMA port exist: --fma-units
// overrides.
void guessFmaUnits(CpuInfo& cpu)
{
    if (cpu.vendor == "AuthenticAMD") {
        if (cpu.family >= 0x1A) {
            cpu.fmaUnits = 2;
            cpu.fmaUnitsReason = "AMD Zen 5 (family 1Ah): 2 FMA pipes, full 512-bit datapath";
        } else if (cpu.family == 0x19 && cpu.isa == VectorIsa::Avx512) {
            // Zen 4 runs a 512-bit FMA as two 256-bit halves: 2 pipes x 256 bits == 1 x 512.
            cpu.fmaUnits = 1;
            cpu.fmaUnitsReason = "AMD Zen 4: 2 x 256-bit FMA pipes, 512-bit ops double-pumped (= 1 x 512)";
        } else {
            cpu.fmaUnits = 2;
            cpu.fmaUnitsReason = "AMD Zen 1-3: 2 FMA pipes per core";
        }
    } else if (cpu.vendor == "GenuineIntel") {
        cpu.fmaUnits = 2;
        cpu.fmaUnitsReason = cpu.isa == VectorIsa::Avx512
                                 ? "Intel Xeon with AVX-512: assumed 2 FMA ports (ports 0+1 fused and 5)"
                                 : "Intel Haswell and later: 2 FMA ports";
    } else {
        cpu.fmaUnits = 2;
        cpu.fmaUnitsReason = "unknown vendor: assumed 2 FMA pipes";
    }
}
} // namespace

const char* toString(VectorIsa isa)
{
    switch (isa) {
    case VectorIsa::Scalar: return "scalar";
    case VectorIsa::Sse2: return "sse2";
    case VectorIsa::Avx2Fma: return "avx2+fma";
    case VectorIsa::Avx512: return "avx512";
    }
    return "scalar";
}

int vectorBits(VectorIsa isa)
{
    switch (isa) {
    case VectorIsa::Scalar: return 64;
    case VectorIsa::Sse2: return 128;
    case VectorIsa::Avx2Fma: return 256;
    case VectorIsa::Avx512: return 512;
    }
    return 64;
}

VectorIsa detectIsa()
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f"))
        return VectorIsa::Avx512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return VectorIsa::Avx2Fma;
    if (__builtin_cpu_supports("sse2"))
        return VectorIsa::Sse2;
#endif
    return VectorIsa::Scalar;
}

CpuInfo detectCpu()
{
    CpuInfo cpu;
    cpu.isa = detectIsa();
    cpu.logicalCpus = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));

    double procMhz = 0;
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
        const auto colon = line.find(':');
        if (colon == std::string::npos)
            continue;
        const auto key = io::trim(std::string_view(line).substr(0, colon));
        const auto value = std::string(io::trim(std::string_view(line).substr(colon + 1)));
        if (key == "model name" && cpu.model.empty())
            cpu.model = value;
        else if (key == "vendor_id" && cpu.vendor.empty())
            cpu.vendor = value;
        else if (key == "cpu family" && cpu.family == 0)
            cpu.family = static_cast<int>(units::parseInt(value).value_or(0));
        else if (key == "model" && cpu.modelNumber == 0)
            cpu.modelNumber = static_cast<int>(units::parseInt(value).value_or(0));
        else if (key == "cpu MHz" && procMhz == 0)
            procMhz = units::parseDouble(value).value_or(0);
    }
    // cpufreq's maximum is the sustained all-core ceiling closest to what an FMA loop runs at;
    // VMs often have no cpufreq, then /proc/cpuinfo's current MHz is all there is.
    const std::string maxFreq = "/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq";
    if (const auto khz = units::parseDouble(readFirstLine(maxFreq)); khz && *khz > 0) {
        cpu.clockGHz = *khz / 1e6;
        cpu.clockSource = maxFreq;
    } else if (procMhz > 0) {
        cpu.clockGHz = procMhz / 1e3;
        cpu.clockSource = "/proc/cpuinfo \"cpu MHz\" (no cpufreq in /sys; current, not boost clock)";
    }
    guessFmaUnits(cpu);

    for (int i = 0; i < 16; ++i) {
        const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i) + "/";
        const std::string type = readFirstLine(dir + "type");
        if (type.empty())
            break;
        if (type == "Instruction")
            continue;
        CacheLevel c;
        c.level = static_cast<int>(units::parseInt(readFirstLine(dir + "level")).value_or(0));
        c.sizeBytes = parseSysfsSize(readFirstLine(dir + "size"));
        c.sharedByCpus = countCpuList(readFirstLine(dir + "shared_cpu_list"));
        if (c.level > 0 && c.sizeBytes > 0)
            cpu.dataCaches.push_back(c);
    }
    return cpu;
}

double theoreticalGflops(const CpuInfo& cpu, int threads, int elementBytes)
{
    const int lanes = vectorBits(cpu.isa) / (8 * elementBytes);
    return threads * cpu.clockGHz * cpu.fmaUnits * lanes * 2.0;
}

std::string theoryDerivation(const CpuInfo& cpu, int threads, int elementBytes)
{
    const int lanes = vectorBits(cpu.isa) / (8 * elementBytes);
    char buf[256];
    std::snprintf(buf, sizeof buf, "%d cores x %.3f GHz x %d FMA units x %d lanes (%s) x 2 FLOP/FMA = %.1f GFLOP/s",
                  threads, cpu.clockGHz, cpu.fmaUnits, lanes, toString(cpu.isa),
                  theoreticalGflops(cpu, threads, elementBytes));
    return buf;
}

double measureCoreClockGHz(double seconds)
{
#if defined(__x86_64__)
    using Clock = std::chrono::steady_clock;
    constexpr double kAddsPerIteration = 64;
    auto run = [](std::uint64_t iterations) {
        std::uint64_t x = 0, one = 1;
        const auto t0 = Clock::now();
        // 64 dependent register-register adds, one per cycle. Not `addq $1`: Golden Cove and later
        // Intel cores fold chains of add-immediate in the renamer (23 "GHz" measured on a Xeon here).
        for (std::uint64_t i = 0; i < iterations; ++i)
            asm volatile(".rept 64\n\taddq %1, %0\n\t.endr" : "+r"(x) : "r"(one));
        return std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
    };
    std::uint64_t iterations = 1 << 12;
    while (run(iterations) < seconds * 1e9 / 10 && iterations < (std::uint64_t{1} << 32))
        iterations *= 2; // about a tenth of the budget per run, ten runs
    // The fastest run is the clock (a descheduled run only reads slower), but one run alone is not
    // trusted: a VM's clock can step during a run and make it look several times faster (21.7 GHz
    // was seen under CI load). The fastest rate another run confirms within 5 % is the answer.
    std::vector<double> rates;
    for (int rep = 0; rep < 10; ++rep)
        rates.push_back(double(iterations) * kAddsPerIteration / run(iterations));
    std::sort(rates.begin(), rates.end(), std::greater<>());
    for (std::size_t i = 0; i + 1 < rates.size(); ++i)
        if (rates[i + 1] >= 0.95 * rates[i])
            return rates[i];
    return rates[rates.size() / 2];
#else
    (void)seconds;
    return 0;
#endif
}
} // namespace rl::kernels
