// `ridgeline-bench collectives`: the nccl-tests-style sweep over MPI collectives. Rank 0 prints a
// session header, one JSON line per finished point (or an nccl-tests table) and an end record.
#include <iostream>
#include <memory>

#include "benchcommands.h"
#include "kernels/cpuinfo.h"
#include "collectivesrun.h"
#include "pointwatchdog.h"
#include "mpienvironment.h"
#include "routingoptions.h"
#include "units/units.h"

namespace rl::bench {
namespace {
struct Options
{
    std::string ops = "all";
    std::string minBytes = "8";
    std::string maxBytes = "256M";
    int stepFactor = 2;
    std::string stepBytes;
    std::string dtypes = "float32";
    std::string redops = "sum";
    std::string inPlace = "both";
    int warmup = -1; // -1: chosen per size
    int iters = -1;
    double secondsPerSize = TimingPolicy{}.secondsPerPoint;
    double totalSeconds = TimingPolicy{}.totalSeconds;
    int minIters = TimingPolicy{}.minIters;
    int maxIters = TimingPolicy{}.maxIters;
    std::string offCache;
    int root = 0;
    RoutingOptions routing;
    std::string format = "json";
    std::string split;
    int delayRank = -1;
    double delayUs = 0;
    double pointTimeout = 0;
};

std::int64_t parseSize(const std::string& text, const char* option)
{
    const auto v = units::parseBytes(text);
    if (!v)
        throw std::invalid_argument(std::string(option) + ": \"" + text + "\" is not a size (e.g. 8, 64K, 256M, 1G)");
    return *v;
}

// IMB's -off_cache default is the last-level cache; twice it leaves no part of a buffer in cache
// when it comes round again, whatever the replacement policy.
std::int64_t defaultOffCacheBytes()
{
    std::int64_t llc = 0;
    for (const auto& c : kernels::detectCpu().dataCaches)
        llc = std::max(llc, c.sizeBytes);
    return llc > 0 ? 2 * llc : std::int64_t{64} << 20;
}

SweepParams toParams(const Options& o)
{
    SweepParams p;
    p.ops = parseOpList(o.ops);
    p.minBytes = parseSize(o.minBytes, "--minbytes");
    p.maxBytes = parseSize(o.maxBytes, "--maxbytes");
    p.stepFactor = o.stepFactor;
    if (!o.stepBytes.empty()) {
        p.stepBytes = parseSize(o.stepBytes, "--stepbytes");
        if (p.stepBytes < 1)
            throw std::invalid_argument("--stepbytes must be at least 1 B");
    }
    p.dtypes = parseDtypeList(o.dtypes);
    p.redops = parseRedopList(o.redops);
    p.inPlace = parseInPlace(o.inPlace);
    if (o.warmup != -1)
        p.timing.warmup = o.warmup;
    if (o.iters != -1)
        p.timing.iters = o.iters;
    p.timing.secondsPerPoint = o.secondsPerSize;
    p.timing.totalSeconds = o.totalSeconds;
    p.timing.minIters = o.minIters;
    p.timing.maxIters = o.maxIters;
    if (!o.offCache.empty())
        p.offCacheBytes = o.offCache == "auto" ? defaultOffCacheBytes() : parseSize(o.offCache, "--off-cache");
    p.root = o.root;
    sweepSizes(p); // reject a bad size range or timing before MPI starts
    validate(p.timing);
    readRoutingCsv(o.routing, p);
    return p;
}

RunOptions toRunOptions(const Options& o)
{
    RunOptions r;
    r.ncclFormat = o.format == "nccl";
    if (!o.split.empty()) {
        r.split = parseSplitSpec(o.split);
        if (r.ncclFormat)
            throw std::invalid_argument("--split prints JSON lines only (one point per group): drop --format nccl");
    }
    r.delayRank = o.delayRank;
    r.delayUs = o.delayUs;
    r.pointTimeoutSeconds = o.pointTimeout;
    return r;
}

void addCollectivesCommand(CLI::App& app)
{
    auto opts = std::make_shared<Options>();
    auto* cmd = app.add_subcommand(
        "collectives",
        "Sweep MPI collectives over message sizes like nccl-tests; run under mpirun/mpiexec/srun.\n"
        "Sizes and bandwidths follow nccl-tests' PERFORMANCE.md: size is the full buffer for reduce_scatter,\n"
        "all_gather and all_to_all; algbw = size / time in GB/s (1e9 B/s); busbw = algbw x 2(n-1)/n\n"
        "(all_reduce), (n-1)/n (reduce_scatter, all_gather, all_to_all), 1 (broadcast). time is the\n"
        "maximum over ranks of the mean time per call, in microseconds; each point also carries the\n"
        "min, max, p50, p99 and coefficient of variation of the timed samples (each the max over ranks).\n"
        "Timed calls per point follow IMB: as many as fit in --time-per-size (at most --max-iters, at\n"
        "least --min-iters, the sweep within --time-budget), warm-up a tenth of them; -n/-w fix them.");
    cmd->add_option("--ops", opts->ops,
                    "Comma list of all_reduce, reduce_scatter, all_gather, broadcast, all_to_all, all (these five), "
                    "all_to_allv (needs --routing or --moe-experts)")
        ->capture_default_str();
    cmd->add_option("-b,--minbytes", opts->minBytes, "Smallest message size in bytes (K/M/G suffixes are binary: 64K = 65536 B)")
        ->capture_default_str();
    cmd->add_option("-e,--maxbytes", opts->maxBytes, "Largest message size in bytes (K/M/G binary)")->capture_default_str();
    auto* factor = cmd->add_option("-f,--stepfactor", opts->stepFactor, "Multiply the size by this factor between points")
                       ->capture_default_str();
    auto* step = cmd->add_option("-i,--stepbytes", opts->stepBytes,
                                 "Add this many bytes between points instead of multiplying (K/M/G binary)");
    factor->excludes(step);
    cmd->add_option("-d,--dtype", opts->dtypes, "Element type(s), comma list: float32, float64, int32")
        ->capture_default_str();
    cmd->add_option("-o,--redop", opts->redops, "Reduction(s) for all_reduce and reduce_scatter, comma list: sum, max, min")
        ->capture_default_str();
    cmd->add_option("--inplace", opts->inPlace, "0 = out-of-place only, 1 = in-place only (MPI_IN_PLACE), both")
        ->capture_default_str();
    cmd->add_option("-w,--warmup", opts->warmup,
                    "Untimed calls before each point (count; default: a tenth of the timed calls, at least 2)");
    cmd->add_option("-n,--iters", opts->iters,
                    "Timed calls per point (count; default: chosen per size from the time budget)");
    cmd->add_option("--time-per-size", opts->secondsPerSize,
                    "Time budget of one point (one size of one op and variant) in seconds, warm-up included")
        ->capture_default_str();
    cmd->add_option("--time-budget", opts->totalSeconds,
                    "Time budget of the whole sweep in seconds; points share what is left (0 = no limit)")
        ->capture_default_str();
    cmd->add_option("--min-iters", opts->minIters, "Fewest timed calls per point (count)")->capture_default_str();
    cmd->add_option("--max-iters", opts->maxIters, "Most timed calls per point (count; IMB uses 1000)")
        ->capture_default_str();
    cmd->add_option("--off-cache", opts->offCache,
                    "Rotate the buffers through this many bytes (K/M/G binary) so no call finds its data in "
                    "cache, like IMB -off_cache; auto = twice the largest CPU cache");
    cmd->add_option("--root", opts->root, "Root rank of broadcast")->capture_default_str();
    cmd->add_option("--format", opts->format,
                    "json: one JSON object per line (session header, points, end record); "
                    "nccl: an nccl-tests style table")
        ->check(CLI::IsMember({"json", "nccl"}))
        ->capture_default_str();
    cmd->add_option("--split", opts->split,
                    "Run the sweep on groups of ranks (nccl-tests' split mode): every group of a level at the same "
                    "time on its own communicator, one JSON point per group labelled with it; comma list of levels, "
                    "run one after the other: node (the ranks of each host), nodes:K (groups of K hosts), ranks:K "
                    "(blocks of K ranks), world (all ranks, to compare with). K must divide the hosts or ranks "
                    "evenly. Each group sizes its calls within the same --time-per-size. Default: all ranks as one, "
                    "points without a group");
    cmd->add_option("--delay-rank", opts->delayRank,
                    "Testing: this rank sleeps --delay-us before every call (a stand-in for a slow node)")
        ->group("");
    cmd->add_option("--delay-us", opts->delayUs, "Testing: the stand-in delay in microseconds")->group("");
    addPointTimeoutOption(cmd, opts->pointTimeout);
    addRoutingOptions(*cmd, opts->routing);
    cmd->callback([opts, cmd] {
        SweepParams params;
        RunOptions run;
        try {
            params = toParams(*opts);
            run = toRunOptions(*opts);
        } catch (const std::exception& e) {
            throw CLI::RuntimeError(reportArgumentError("collectives", e.what()));
        }
        opts->routing.sizesGiven = cmd->count("--minbytes") + cmd->count("--maxbytes") > 0;
        const int code = runCollectives(params, opts->routing, run);
        if (code != 0)
            throw CLI::RuntimeError(code);
    });
}
} // namespace

static const bool registered = registerCommand(&addCollectivesCommand);
} // namespace rl::bench
