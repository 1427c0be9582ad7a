// ridgeline-bench peakflops | membw | gemm: CPU kernel benchmarks. Each prints a session header,
// one JSON line per finished point and an end record; SIGINT/SIGTERM end the run "cancelled"
// between points. Human-readable summaries go to stderr so stdout stays JSON lines.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <stdexcept>

#include "benchcommands.h"
#include "collectives/collectiveop.h"
#include "kernels/cancelflag.h"
#include "kernels/cacheplateaus.h"
#include "kernels/cpuinfo.h"
#include "kernels/gemmbench.h"
#include "kernels/hpcccompare.h"
#include "kernels/membw.h"
#include "kernels/peakflops.h"
#include "kernels/sizelist.h"
#include "model/gemmlist.h"
#include "model/modelconfig.h"
#include "model/parallelconfig.h"
#include "records/wireformat.h"
#include "units/units.h"

namespace rl::bench {
namespace {

std::vector<int> toInts(const std::vector<std::int64_t>& v)
{
    return {v.begin(), v.end()};
}

Session makeSession(const char* kindName, const std::string& title, nlohmann::json params)
{
    Session s;
    s.kind = kindName;
    s.title = title;
    s.created = nowIso8601();
    s.host = hostName();
    s.tool = "ridgeline-bench";
    s.toolVersion = RIDGELINE_VERSION;
    s.params = std::move(params);
    s.status = SessionStatus::Running;
    return s;
}

nlohmann::json cpuParams(const kernels::CpuInfo& cpu)
{
    nlohmann::json caches = nlohmann::json::array();
    for (const auto& c : cpu.dataCaches)
        caches.push_back({{"level", c.level}, {"size_bytes", c.sizeBytes}, {"shared_by_cpus", c.sharedByCpus}});
    return {{"cpu_model", cpu.model}, {"vendor", cpu.vendor},       {"family", cpu.family},
            {"logical_cpus", cpu.logicalCpus}, {"isa", kernels::toString(cpu.isa)},
            {"clock_ghz", cpu.clockGHz}, {"clock_source", cpu.clockSource},
            {"fma_units", cpu.fmaUnits}, {"fma_units_reason", cpu.fmaUnitsReason}, {"caches", caches}};
}

void emit(const nlohmann::json& j)
{
    std::cout << j.dump() << '\n' << std::flush; // one line per point, visible at once to a reader
}

void finish(bool completed)
{
    emit(wire::endRecord(completed ? SessionStatus::Complete : SessionStatus::Cancelled,
                         completed ? std::string{} : std::string("cancelled by signal")));
}

struct PeakOptions
{
    std::string dtypes = "float64,float32";
    std::string threads;
    double seconds = 0.5;
    int repeats = 5;
    int fmaUnits = 0;
    double clockGHz = 0;
};

std::vector<std::string> splitNames(const std::string& text)
{
    std::vector<std::string> out;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        const auto comma = std::min(text.find(',', pos), text.size());
        if (comma > pos)
            out.push_back(canonicalDtype(text.substr(pos, comma - pos)));
        pos = comma + 1;
    }
    return out;
}

void runPeak(const PeakOptions& o)
{
    const auto cpu = kernels::detectCpu();
    kernels::PeakFlopsConfig config;
    config.dtypes = splitNames(o.dtypes);
    config.threads = o.threads.empty() ? std::vector<int>{1, cpu.logicalCpus}
                                       : toInts(kernels::parseIntList(o.threads, 4096));
    if (config.threads.size() == 2 && config.threads[0] == config.threads[1])
        config.threads.pop_back();
    config.secondsPerPoint = o.seconds;
    config.repeats = o.repeats;
    config.fmaUnitsOverride = o.fmaUnits;
    config.clockGHzOverride = o.clockGHz;
    nlohmann::json params = cpuParams(cpu);
    params["dtypes"] = config.dtypes;
    params["threads"] = config.threads;
    params["seconds_per_point"] = o.seconds;
    params["repeats"] = o.repeats;
    params["expected_points"] = config.dtypes.size() * config.threads.size(); // for progress bars
    emit(wire::toJson(makeSession(kind::PeakFlops, "peakflops on " + cpu.model, params)));
    kernels::installCancelSignalHandlers();
    const bool done = kernels::runPeakFlops(config, cpu, [](const PeakFlopsPoint& p) {
        emit(wire::toJson(p));
        std::fprintf(stderr, "%-8s %3d threads: measured %s, theoretical %s (%s)\n  theory: %s\n",
                     p.dtype.c_str(), p.threads, units::formatFlops(p.gflops * 1e9).c_str(),
                     units::formatFlops(p.theoreticalGflops * 1e9).c_str(),
                     units::formatPercent(p.theoreticalGflops > 0 ? p.gflops / p.theoreticalGflops : 0.0, 1).c_str(),
                     p.derivation.c_str());
    });
    finish(done);
}

struct MemBwOptions
{
    std::string minSize = "4K";
    std::string maxSize;
    int stepsPerOctave = 2;
    std::string threads;
    std::string kernels = "copy,scale,add,triad";
    int repeats = 10;
    bool compareHpcc = false;
    int rounds = 3;
    std::string hpccPath = "/usr/bin/hpcc";
};

void runMemBwCommand(const MemBwOptions& o)
{
    const auto cpu = kernels::detectCpu();
    if (o.compareHpcc) {
        const auto cmp = kernels::compareWithHpcc(o.hpccPath, o.repeats, o.rounds);
        std::cout << cmp.report << std::flush;
        if (!cmp.ok)
            throw std::runtime_error(cmp.report);
        return;
    }
    kernels::MemBwConfig config;
    config.minBytes = kernels::parseIntList(o.minSize, 1).at(0);
    config.maxBytes = o.maxSize.empty() ? 0 : kernels::parseIntList(o.maxSize, 1).at(0);
    config.stepsPerOctave = o.stepsPerOctave;
    config.threads = o.threads.empty() ? std::vector<int>{1, cpu.logicalCpus} : toInts(kernels::parseIntList(o.threads, 4096));
    if (config.threads.size() == 2 && config.threads[0] == config.threads[1])
        config.threads.pop_back();
    config.kernels.clear();
    for (const auto& name : splitNames(o.kernels)) {
        kernels::StreamKernel k;
        if (!kernels::streamKernelFromString(name, k))
            throw std::runtime_error("unknown kernel '" + name + "' (copy, scale, add, triad)");
        config.kernels.push_back(k);
    }
    config.repeats = o.repeats;
    nlohmann::json params = cpuParams(cpu);
    params["sizes_bytes"] = kernels::sweepSizes(config, cpu);
    params["threads"] = config.threads;
    params["repeats"] = o.repeats;
    params["byte_counting"] = "STREAM: copy/scale 16 B, add/triad 24 B per element; GB = 1e9 B";
    params["expected_points"] = params["sizes_bytes"].size() * config.threads.size() * config.kernels.size();
    emit(wire::toJson(makeSession(kind::MemBandwidth, "membw on " + cpu.model, params)));
    kernels::installCancelSignalHandlers();
    std::vector<MemBwPoint> points;
    const bool done = kernels::runMemBw(config, cpu, [&](const MemBwPoint& p) {
        points.push_back(p);
        emit(wire::toJson(p));
    });
    for (int threads : config.threads) {
        kernels::PlateauOptions po;
        po.threads = threads;
        for (const auto& c : kernels::detectPlateaus(points, cpu.dataCaches, po)) {
            emit(wire::toJson(c));
            std::fprintf(stderr, "%2d threads %-4s %s (%s .. %s)\n", threads, c.level.c_str(),
                         units::formatBandwidth(c.bandwidthGBs).c_str(), units::formatBytes(c.fromBytes).c_str(),
                         units::formatBytes(c.toBytes).c_str());
        }
    }
    finish(done);
}

struct GemmOptions
{
    std::string m = "256,512,1024";
    std::string n;
    std::string k;
    std::string dtypes = "float64,float32";
    int threads = 0;
    int repeats = 5;
    double budget = 2.0;
    bool measurePeak = true;
    bool checkBackend = true;
    std::string model;            // the GEMMs of one training step of this config instead of -m/-n/-k
    std::string parallel = "dp=1";
    int microBatch = 1;
    int seq = 0;                  // 0: the config's sequence length
};

// Every distinct (M, N, K) of one training step of a model config (forward and backward, per-expert
// M for MoE), in the sizing model's order: the shapes whose efficiency the model needs measured.
std::vector<kernels::GemmShape> modelGemmShapes(const GemmOptions& o)
{
    const auto c = model::loadModelConfig(o.model);
    model::ParallelConfig p;
    model::parseParallelSpec(o.parallel, p);
    p.microBatch = o.microBatch;
    p.seqLen = o.seq > 0 ? o.seq : c.seqLen;
    if (const auto why = model::checkParallel(c, p); !why.empty())
        throw std::runtime_error("--parallel: " + why);
    std::vector<kernels::GemmShape> shapes;
    for (const auto& g : model::stepGemms(c, p)) {
        const kernels::GemmShape s{std::llround(g.m), std::llround(g.n), std::llround(g.k)};
        if (s.m <= 0 || s.n <= 0 || s.k <= 0)
            continue;
        const bool seen = std::any_of(shapes.begin(), shapes.end(),
                                      [&](const auto& x) { return x.m == s.m && x.n == s.n && x.k == s.k; });
        if (!seen)
            shapes.push_back(s);
    }
    return shapes;
}

void runGemmCommand(const GemmOptions& o)
{
    const auto cpu = kernels::detectCpu();
    kernels::GemmConfig config;
    config.dtypes = splitNames(o.dtypes);
    if (!o.model.empty()) {
        config.shapes = modelGemmShapes(o);
    } else {
        const auto ms = kernels::parseIntList(o.m);
        const auto ns = o.n.empty() ? ms : kernels::parseIntList(o.n);
        const auto ks = o.k.empty() ? ms : kernels::parseIntList(o.k);
        // A cube list given once means square shapes, not the full cross product.
        if (o.n.empty() && o.k.empty())
            for (auto v : ms)
                config.shapes.push_back({v, v, v});
        else
            config.shapes = kernels::gemmShapes(ms, ns, ks);
    }
    config.threads = o.threads > 0 ? o.threads : cpu.logicalCpus;
    config.repeats = o.repeats;
    config.budgetSeconds = o.budget;
    nlohmann::json params = cpuParams(cpu);
    params["blas"] = kernels::blasLibrary();
    params["threads"] = config.threads;
    params["shapes"] = config.shapes.size();
    params["expected_points"] = config.shapes.size() * config.dtypes.size();
    if (!o.model.empty())
        params["model"] = {{"config", o.model}, {"parallel", o.parallel}, {"micro_batch", o.microBatch}};
    params["repeats"] = o.repeats;
    params["budget_seconds_per_shape"] = o.budget;
    if (o.measurePeak) {
        config.peakGflopsFp64 = kernels::measureFmaGflops("float64", config.threads, 0.3, 3);
        config.peakGflopsFp32 = kernels::measureFmaGflops("float32", config.threads, 0.3, 3);
        params["measured_peak_gflops"] = {{"float64", config.peakGflopsFp64}, {"float32", config.peakGflopsFp32}};
    }
    if (o.checkBackend && params["blas"].get<std::string>().empty())
        std::fprintf(stderr, "warning: the BLAS behind Eigen is not OpenBLAS; --threads has no effect\n");
    else if (o.checkBackend)
        std::fprintf(stderr, "BLAS: %s\n", params["blas"].get<std::string>().c_str());
    emit(wire::toJson(makeSession(kind::Gemm, "gemm on " + cpu.model, params)));
    kernels::installCancelSignalHandlers();
    finish(kernels::runGemmSweep(config, [](const GemmPoint& p) { emit(wire::toJson(p)); }));
}
} // namespace

void addKernelCommands(CLI::App& app)
{
    auto peak = std::make_shared<PeakOptions>();
    auto* pf = app.add_subcommand("peakflops", "FMA-bound loop per dtype and thread count: the measured compute ceiling");
    pf->add_option("--dtypes", peak->dtypes, "float64,float32 (fp64, fp32 accepted)")->capture_default_str();
    pf->add_option("--threads", peak->threads, "thread counts, e.g. 1,2 or 1:8 (default: 1 and all CPUs)");
    pf->add_option("--seconds", peak->seconds, "time per point, s")->capture_default_str();
    pf->add_option("--repeats", peak->repeats, "repeats per point (best is kept)")->capture_default_str();
    pf->add_option("--fma-units", peak->fmaUnits, "FMA pipes per core for the theoretical peak (default: by CPU model)");
    pf->add_option("--clock-ghz", peak->clockGHz, "clock for the theoretical peak (default: /sys cpufreq, else /proc/cpuinfo)");
    pf->callback([peak] { runPeak(*peak); });

    auto mem = std::make_shared<MemBwOptions>();
    auto* mb = app.add_subcommand("membw", "STREAM copy/scale/add/triad over working-set sizes and thread counts");
    mb->add_option("--min", mem->minSize, "smallest triad working set (3 arrays), e.g. 4K")->capture_default_str();
    mb->add_option("--max", mem->maxSize, "largest working set (default: 4 x last-level cache, >= 64 MiB)");
    mb->add_option("--steps-per-octave", mem->stepsPerOctave, "log steps per doubling")->capture_default_str();
    mb->add_option("--threads", mem->threads, "thread counts, e.g. 1,2 (default: 1 and all CPUs)");
    mb->add_option("--kernels", mem->kernels, "STREAM kernels")->capture_default_str();
    mb->add_option("--repeats", mem->repeats, "timed repeats per point (best kept, warm-up excluded)")->capture_default_str();
    mb->add_flag("--compare-hpcc", mem->compareHpcc, "run hpcc's STREAM and ours at its array size; print the triad ratio");
    mb->add_option("--hpcc", mem->hpccPath, "hpcc binary for --compare-hpcc")->capture_default_str();
    mb->add_option("--rounds", mem->rounds, "--compare-hpcc: alternating hpcc / ridgeline rounds (medians compared)")
        ->capture_default_str()->check(CLI::Range(1, 50));
    mb->callback([mem] { runMemBwCommand(*mem); });

    auto gemm = std::make_shared<GemmOptions>();
    auto* gm = app.add_subcommand("gemm", "C = A*B (Eigen on OpenBLAS) over M, N, K lists or ranges start:stop:step");
    gm->add_option("-m,--m", gemm->m, "M values; alone: square shapes")->capture_default_str();
    gm->add_option("-n,--n", gemm->n, "N values (default: as M)");
    gm->add_option("-k,--k", gemm->k, "K values (default: as M)");
    auto* modelOpt = gm->add_option("--model", gemm->model,
                                    "Measure the GEMMs of one training step of this model config (preset or "
                                    "config.json) instead of -m/-n/-k");
    modelOpt->excludes("-n")->excludes("-k");
    gm->add_option("--parallel", gemm->parallel, "With --model: parallel layout, e.g. tp=8,ep=8")->capture_default_str();
    gm->add_option("--micro-batch", gemm->microBatch, "With --model: sequences per micro-batch")->capture_default_str();
    gm->add_option("--seq", gemm->seq, "With --model: sequence length (default: the config's)");
    gm->add_option("--dtypes", gemm->dtypes, "float64,float32")->capture_default_str();
    gm->add_option("--threads", gemm->threads, "OpenBLAS threads (default: all CPUs)");
    gm->add_option("--repeats", gemm->repeats, "timed runs per shape (median)")->capture_default_str();
    gm->add_option("--budget", gemm->budget, "time budget per shape, s")->capture_default_str();
    gm->add_flag("!--no-peak", gemm->measurePeak, "skip measuring the FMA peak for efficiency");
    gm->add_flag("!--no-backend-check", gemm->checkBackend, "do not report which BLAS Eigen calls");
    gm->callback([gemm] { runGemmCommand(*gemm); });
}

static const bool registered = registerCommand(&addKernelCommands);
} // namespace rl::bench
