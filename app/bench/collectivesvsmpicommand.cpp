// `ridgeline-bench collectives-vs-mpi`: a benchmark of the runner itself. At each size it times, in
// the same process, the runner's all_reduce measurement with its default repetition policy (time
// budget, IMB-like) and a bare MPI_Allreduce loop with a large fixed repetition count on the same
// buffers, in
// alternating rounds (runner first, then bare first, ...), and prints the median of each and
// their ratio. The runner must be within 5 % of the bare loop at every size; shared VMs are
// noisy, so FAIL only changes the exit code with --strict.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <vector>

#include "benchcommands.h"
#include "collectives/callstats.h"
#include "mpicollectiverunner.h"
#include "mpienvironment.h"
#include "units/units.h"

namespace rl::bench {
namespace {
struct VsOptions
{
    std::string minBytes = "8";
    std::string maxBytes = "64M";
    int stepFactor = 2;
    int bareWarmup = 100;
    int bareIters = 1000;
    double secondsPerSize = TimingPolicy{}.secondsPerPoint;
    int rounds = 5;           // at least; more where a round is short (minBareSeconds)
    double minBareSeconds = 0.05;
    double tolerance = 0.05;
    bool strict = false;
};

// Sub-microsecond calls make a 1000-call round last under a millisecond, where one timer interrupt
// moves the mean by several percent (seen: 0.92-1.05 at 256 B with 5 rounds). Small sizes get more
// rounds until the bare loop has run --min-bare-seconds in total, at most kMaxRounds; large sizes
// keep --rounds.
constexpr int kMaxRounds = 101;

// The loop every MPI benchmark is made of: warm-up, barrier, N calls, mean per call, slowest rank.
double bareAllreduceUs(const float* send, float* recv, int count, int warmup, int iters)
{
    for (int i = 0; i < warmup; ++i)
        MPI_Allreduce(send, recv, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    for (int i = 0; i < iters; ++i)
        MPI_Allreduce(send, recv, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    const double mean = (MPI_Wtime() - start) * 1e6 / iters;
    double worst = 0;
    MPI_Allreduce(&mean, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return worst;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return percentile(v, 0.5);
}

int runComparison(const VsOptions& o)
{
    SweepParams params;
    params.ops = {CollectiveOp::AllReduce};
    params.inPlace = InPlaceMode::OutOfPlace;
    params.stepFactor = o.stepFactor;
    params.timing.secondsPerPoint = o.secondsPerSize;
    const auto minBytes = units::parseBytes(o.minBytes), maxBytes = units::parseBytes(o.maxBytes);
    if (!minBytes || !maxBytes || o.rounds < 1 || o.bareIters < 1 || o.bareWarmup < 0)
        return reportArgumentError("collectives-vs-mpi", "bad size, round or repetition count");
    params.minBytes = *minBytes;
    params.maxBytes = *maxBytes;
    int failures = 0;
    MpiEnvironment mpi;
    std::vector<PlannedPoint> plan;
    try {
        plan = planSweep(params, mpi.size());
    } catch (const std::exception& e) {
        if (mpi.rank() == 0)
            std::cerr << "ridgeline-bench collectives-vs-mpi: " << e.what() << '\n';
        return 2;
    }
    MpiCollectiveRunner runner(MPI_COMM_WORLD, bufferBytes(plan));
    // The bare loop runs on the runner's own buffers. With buffers of its own (a std::vector each)
    // the ratio measured where the pages sit, not the runner: the same runner read 3.37 ms or
    // 3.72 ms at 16 MiB from one run to the next, and a bare loop on page-aligned buffers of its
    // own agreed with it to 1 % where one on malloc'd vectors was 4-15 % apart.
    const auto* send = reinterpret_cast<const float*>(runner.sendBuffer());
    auto* recv = reinterpret_cast<float*>(runner.recvBuffer());
    if (mpi.rank() == 0)
        std::printf("# all_reduce float32 sum, %d ranks: the runner's default policy (%g s per size) against a bare\n"
                    "# MPI_Allreduce loop of %d warm-up + %d timed calls on the same buffers; medians of at least %d\n"
                    "# alternating rounds, more until the bare loop has run %g s at the size\n"
                    "# %10s  %7s  %6s  %12s  %12s  %7s  %s\n",
                    mpi.size(), o.secondsPerSize, o.bareWarmup, o.bareIters, o.rounds, o.minBareSeconds, "size", "calls",
                    "rounds", "runner", "bare MPI", "ratio", "verdict");
    for (const auto& p : plan) {
        std::vector<double> runnerUs, bareUs;
        int calls = 0;
        const auto runRunner = [&] {
            const auto r = runner.measure(p, params.timing, params.timing.secondsPerPoint);
            runnerUs.push_back(r.timeUs);
            calls = r.stats.iters;
        };
        const auto runBare = [&] {
            bareUs.push_back(bareAllreduceUs(send, recv, int(p.shape.count), o.bareWarmup, o.bareIters));
        };
        // bareUs is the slowest rank's, the same on every rank, so every rank runs as many rounds.
        const auto bareSeconds = [&] {
            double s = 0;
            for (double us : bareUs)
                s += us * 1e-6 * o.bareIters;
            return s;
        };
        int round = 0;
        for (; round < o.rounds || (round < kMaxRounds && bareSeconds() < o.minBareSeconds); ++round) {
            // Alternate which goes first so drift on a shared machine hits both equally.
            if (round % 2 == 0) {
                runRunner();
                runBare();
            } else {
                runBare();
                runRunner();
            }
        }
        if (mpi.rank() != 0)
            continue;
        const double r = median(runnerUs), b = median(bareUs);
        const double ratio = b > 0 ? r / b : 1.0;
        const bool pass = std::abs(ratio - 1.0) <= o.tolerance;
        failures += !pass;
        std::printf("  %10s  %7d  %6d  %12s  %12s  %7.3f  %s\n", units::formatBytes(double(p.shape.bytes)).c_str(),
                    calls, round, units::formatTime(r).c_str(), units::formatTime(b).c_str(), ratio, pass ? "PASS" : "FAIL");
        std::fflush(stdout);
    }
    MPI_Bcast(&failures, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (mpi.rank() == 0)
        std::printf("# %d of %zu size(s) differ from the bare loop by more than %g %%%s\n", failures, plan.size(),
                    o.tolerance * 100, failures && !o.strict ? " (not fatal without --strict)" : "");
    return failures && o.strict ? 1 : 0;
}

void addCollectivesVsMpiCommand(CLI::App& app)
{
    auto opts = std::make_shared<VsOptions>();
    auto* cmd = app.add_subcommand(
        "collectives-vs-mpi",
        "Benchmark the runner: its default all_reduce measurement vs a bare MPI_Allreduce loop with a large fixed "
        "repetition count, per size, medians of alternating rounds");
    cmd->add_option("-b,--minbytes", opts->minBytes, "Smallest size in bytes (K/M/G binary)")->capture_default_str();
    cmd->add_option("-e,--maxbytes", opts->maxBytes, "Largest size in bytes (K/M/G binary)")->capture_default_str();
    cmd->add_option("-f,--stepfactor", opts->stepFactor, "Size factor between points")->capture_default_str();
    cmd->add_option("--bare-warmup", opts->bareWarmup, "Untimed calls of the bare loop (count)")->capture_default_str();
    cmd->add_option("--bare-iters", opts->bareIters, "Timed calls of the bare loop at every size (count)")
        ->capture_default_str();
    cmd->add_option("--time-per-size", opts->secondsPerSize, "The runner's time budget per size (seconds)")
        ->capture_default_str();
    cmd->add_option("--rounds", opts->rounds, "Rounds per size, alternating which loop goes first; medians count")
        ->capture_default_str();
    cmd->add_option("--min-bare-seconds", opts->minBareSeconds,
                    "More rounds (up to 101) until the bare loop has run this long at a size (seconds)")
        ->capture_default_str();
    cmd->add_option("--tolerance", opts->tolerance, "Largest accepted |runner / bare - 1|")->capture_default_str();
    cmd->add_flag("--strict", opts->strict, "Exit 1 when a size is outside the tolerance");
    cmd->callback([opts] {
        if (const int code = runComparison(*opts))
            throw CLI::RuntimeError(code);
    });
}
} // namespace

static const bool registered = registerCommand(&addCollectivesVsMpiCommand);
} // namespace rl::bench
