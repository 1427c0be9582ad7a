// `ridgeline-bench collectives-vs-mpi`: a benchmark of the runner itself. At each size it times, in
// the same process, the runner's all_reduce measurement and a bare MPI_Allreduce loop, and prints
// both and their ratio. From 1 MiB up the runner must be within 3 % of the bare loop; shared VMs
// are noisy, so FAIL only changes the exit code with --strict.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <limits>
#include <vector>

#include "benchcommands.h"
#include "mpicollectiverunner.h"
#include "mpienvironment.h"
#include "units/units.h"

namespace rl::bench {
namespace {
struct VsOptions
{
    std::string minBytes = "8K";
    std::string maxBytes = "64M";
    int stepFactor = 4;
    int warmup = 5;
    int iters = 20;
    int repeats = 3;
    bool strict = false;
};

constexpr std::int64_t kJudgedFrom = std::int64_t{1} << 20;
constexpr double kTolerance = 1.03;

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

int runComparison(const VsOptions& o)
{
    SweepParams params;
    params.ops = {CollectiveOp::AllReduce};
    params.inPlace = InPlaceMode::OutOfPlace;
    params.stepFactor = o.stepFactor;
    params.warmup = o.warmup;
    params.iters = o.iters;
    const auto minBytes = units::parseBytes(o.minBytes), maxBytes = units::parseBytes(o.maxBytes);
    if (!minBytes || !maxBytes || o.repeats < 1) {
        if (launcherRank() == 0)
            std::cerr << "ridgeline-bench collectives-vs-mpi: bad size or repeat count\n";
        return 2;
    }
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
    const std::size_t maxCount = std::size_t(plan.back().shape.count);
    std::vector<float> send(std::max<std::size_t>(maxCount, 1), 1.0f), recv(send.size(), 0.0f);
    if (mpi.rank() == 0)
        std::printf("# all_reduce float32 sum, %d ranks, %d warmup + %d timed calls, best of %d repeats\n"
                    "# %12s  %14s  %14s  %8s  %s\n",
                    mpi.size(), o.warmup, o.iters, o.repeats, "size", "runner", "bare MPI", "ratio", "verdict");
    for (const auto& p : plan) {
        double runnerUs = std::numeric_limits<double>::max(), bareUs = runnerUs;
        for (int rep = 0; rep < o.repeats; ++rep) {
            // Alternate which goes first so drift on a shared machine hits both equally.
            if (rep % 2 == 0) {
                runnerUs = std::min(runnerUs, runner.measure(p, o.warmup, o.iters).timeUs);
                bareUs = std::min(bareUs, bareAllreduceUs(send.data(), recv.data(), int(p.shape.count), o.warmup, o.iters));
            } else {
                bareUs = std::min(bareUs, bareAllreduceUs(send.data(), recv.data(), int(p.shape.count), o.warmup, o.iters));
                runnerUs = std::min(runnerUs, runner.measure(p, o.warmup, o.iters).timeUs);
            }
        }
        if (mpi.rank() != 0)
            continue;
        const double ratio = bareUs > 0 ? runnerUs / bareUs : 1.0;
        const bool judged = p.shape.bytes >= kJudgedFrom;
        const bool pass = ratio <= kTolerance;
        failures += judged && !pass;
        std::printf("  %12s  %14s  %14s  %8.3f  %s\n", units::formatBytes(double(p.shape.bytes)).c_str(),
                    units::formatTime(runnerUs).c_str(), units::formatTime(bareUs).c_str(), ratio,
                    judged ? (pass ? "PASS" : "FAIL") : "- (below 1 MiB, not judged)");
        std::fflush(stdout);
    }
    MPI_Bcast(&failures, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (mpi.rank() == 0)
        std::printf("# %d size(s) from 1 MiB up slower than the bare loop by more than 3 %%%s\n", failures,
                    failures && !o.strict ? " (not fatal without --strict)" : "");
    return failures && o.strict ? 1 : 0;
}

void addCollectivesVsMpiCommand(CLI::App& app)
{
    auto opts = std::make_shared<VsOptions>();
    auto* cmd = app.add_subcommand("collectives-vs-mpi",
                                   "Benchmark the runner: its all_reduce time vs a bare MPI_Allreduce loop, per size");
    cmd->add_option("-b,--minbytes", opts->minBytes, "Smallest size in bytes (K/M/G binary)")->capture_default_str();
    cmd->add_option("-e,--maxbytes", opts->maxBytes, "Largest size in bytes (K/M/G binary)")->capture_default_str();
    cmd->add_option("-f,--stepfactor", opts->stepFactor, "Size factor between points")->capture_default_str();
    cmd->add_option("-w,--warmup", opts->warmup, "Untimed calls per measurement (count)")->capture_default_str();
    cmd->add_option("-n,--iters", opts->iters, "Timed calls per measurement (count)")->capture_default_str();
    cmd->add_option("--repeats", opts->repeats, "Measurements of each kind per size; the fastest counts")
        ->capture_default_str();
    cmd->add_flag("--strict", opts->strict, "Exit 1 when a size from 1 MiB up is more than 3 % slower than bare MPI");
    cmd->callback([opts] {
        if (const int code = runComparison(*opts))
            throw CLI::RuntimeError(code);
    });
}
} // namespace

static const bool registered = registerCommand(&addCollectivesVsMpiCommand);
} // namespace rl::bench
