#include "collectivesrun.h"

#include <algorithm>
#include <array>
#include <csignal>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "collectives/nccltable.h"
#include "mpicollectiverunner.h"
#include "mpienvironment.h"
#include "pointwatchdog.h"
#include "records/wireformat.h"
#include "stopsignal.h"
#include "tickclock.h"
#include "units/units.h"

namespace rl::bench {
namespace {
void printLine(const nlohmann::json& j) { std::cout << j.dump() << '\n' << std::flush; }

// One level of the run: its groups (a single unlabelled one without --split) and a plan per group
// size, each group's sizes rounded for its own rank count as nccl-tests does.
struct Level
{
    SplitLevel spec;
    std::vector<SplitGroup> groups;
    std::size_t mine = 0; // this rank's group
    std::map<std::size_t, std::vector<PlannedPoint>> plans;

    const std::vector<PlannedPoint>& plan(std::size_t g) const { return plans.at(groups[g].ranks.size()); }
    std::size_t steps() const
    {
        std::size_t n = 0;
        for (const auto& [size, points] : plans)
            n = std::max(n, points.size());
        return n;
    }
};

// Every rank forms the same groups and plans from the same host list, so a spec that does not fit
// the job fails on all ranks alike (only rank 0 says so). `header` gets the first plan's parameters
// (the whole job's without --split).
std::vector<Level> planLevels(const SweepParams& params, const RoutingOptions& routing, const RunOptions& run,
                              const std::vector<std::string>& hosts, int me, SweepParams& header)
{
    std::vector<Level> out;
    const auto specs = run.split.empty() ? std::vector<SplitLevel>{SplitLevel{}} : run.split;
    for (const auto& spec : specs) {
        Level l{spec, splitGroups(spec, hosts), 0, {}};
        if (run.split.empty())
            l.groups.front().label.clear();
        l.mine = std::size_t(groupColors(l.groups, int(hosts.size()))[std::size_t(me)]);
        for (const auto& g : l.groups) {
            const std::size_t n = g.ranks.size();
            if (l.plans.count(n))
                continue;
            SweepParams p = params;
            applyRouting(routing, p, int(n));
            l.plans[n] = planSweep(p, int(n));
            if (out.empty() && l.plans.size() == 1)
                header = p;
        }
        out.push_back(std::move(l));
    }
    return out;
}

Session sessionHeader(const SweepParams& params, int nranks, const std::vector<RankInfo>& ranks, const std::string& lib,
                      const RunOptions& run, const std::vector<Level>& levels)
{
    Session s = benchSession(kind::Collectives);
    s.params = toJson(params);
    s.params["nranks"] = nranks;
    s.params["mpi_library"] = lib;
    const auto hosts = distinctHosts(ranks);
    s.params["hosts"] = hosts;
    s.params["nodes"] = hosts.size();
    s.title = "MPI collectives, " + std::to_string(nranks) + " ranks on " + std::to_string(hosts.size()) +
              (hosts.size() == 1 ? " host" : " hosts");
    if (!run.split.empty()) {
        std::string spec;
        nlohmann::json groups = nlohmann::json::array();
        for (const auto& l : levels) {
            spec += (spec.empty() ? "" : ",") + toString(l.spec);
            for (const auto& g : l.groups) {
                std::set<std::string> groupHosts; // the tier a group's figures are held to
                for (int r : g.ranks)
                    if (r >= 0 && std::size_t(r) < ranks.size())
                        groupHosts.insert(ranks[std::size_t(r)].host);
                groups.push_back({{"level", toString(l.spec)}, {"group", g.label}, {"ranks", g.ranks},
                                  {"nodes", groupHosts.size()}});
            }
        }
        s.params["split"] = spec;
        s.params["split_groups"] = groups;
        s.title += ", split " + spec;
    }
    if (run.delayRank >= 0)
        s.params["stand_in_delay"] = {{"rank", run.delayRank}, {"us_before_each_call", run.delayUs}};
    return s;
}

// Buffers for this rank's plan; nullptr on every rank when any rank could not allocate.
std::unique_ptr<MpiCollectiveRunner> allocateRunner(MPI_Comm comm, const std::vector<PlannedPoint>& plan,
                                                    std::int64_t offCacheBytes, bool root)
{
    const BufferBytes buffers = bufferBytes(plan, offCacheBytes);
    std::unique_ptr<MpiCollectiveRunner> runner;
    int allocated = 1;
    try {
        runner = std::make_unique<MpiCollectiveRunner>(comm, buffers, offCacheBytes);
    } catch (const std::bad_alloc&) {
        allocated = 0;
    }
    int allAllocated = 0;
    MPI_Allreduce(&allocated, &allAllocated, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (allAllocated)
        return runner;
    if (root)
        std::cerr << "ridgeline-bench collectives: cannot allocate the buffers (send "
                  << units::formatBytes(double(buffers.send)) << ", receive " << units::formatBytes(double(buffers.recv))
                  << " per rank); lower --maxbytes\n";
    return nullptr;
}

using Result = MpiCollectiveRunner::Result;
constexpr int kResultDoubles = 11;

// Each group leader's result of one step at world rank 0, in group order; nullopt for a group whose
// plan has ended (empty on the other ranks). One gather on MPI_COMM_WORLD: it is also where the
// groups meet between points.
std::vector<std::optional<Result>> gatherResults(const Level& l, const std::optional<Result>& mine, int worldRank)
{
    if (l.groups.size() == 1) // world rank 0 leads the only group
        return worldRank == 0 ? std::vector<std::optional<Result>>{mine} : std::vector<std::optional<Result>>{};
    std::array<double, kResultDoubles> buf{};
    if (mine) {
        const CallStats& c = mine->stats;
        buf = {1, mine->timeUs, double(mine->wrong), double(c.iters), double(c.warmup), double(c.callsPerSample),
               c.minUs, c.maxUs, c.p50Us, c.p99Us, c.cv};
    }
    int size = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    std::vector<double> all(worldRank == 0 ? std::size_t(size) * kResultDoubles : 0);
    MPI_Gather(buf.data(), kResultDoubles, MPI_DOUBLE, all.data(), kResultDoubles, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    std::vector<std::optional<Result>> out;
    if (worldRank != 0)
        return out;
    for (const auto& g : l.groups) {
        const double* v = all.data() + std::size_t(g.ranks.front()) * kResultDoubles;
        if (v[0] == 0) {
            out.emplace_back();
            continue;
        }
        Result r;
        r.timeUs = v[1];
        r.wrong = std::int64_t(v[2]);
        r.stats = {int(v[3]), int(v[4]), int(v[5]), v[1], v[6], v[7], v[8], v[9], v[10]};
        out.emplace_back(r);
    }
    return out;
}
} // namespace

// With --split the groups of a level run each point at the same time, each on its own
// communicator; each group's rank 0 sizes its loop from its own pilot calls within the same
// per-point budget (a slow group runs fewer calls, not longer). The groups meet on MPI_COMM_WORLD
// only between points (the stop broadcast and the result gather), so no group's choice can leave
// another waiting inside a collective, and every point starts on all groups together.
int runCollectives(SweepParams params, const RoutingOptions& routing, const RunOptions& run)
{
    int code = 0;
    {
        MpiEnvironment mpi;
        const bool root = mpi.rank() == 0;
        installStopHandlers();
        const auto hosts = allHostNames();
        SweepParams headerParams;
        std::vector<Level> levels;
        std::string planError;
        try {
            levels = planLevels(params, routing, run, hosts, mpi.rank(), headerParams);
        } catch (const std::exception& e) {
            planError = e.what();
        }
        // Every rank learns whether any failed, and none leaves before rank 0 has said why: a rank
        // exiting first makes mpirun kill the job, rank 0's message with it (seen under ASan).
        int failed = planError.empty() ? 0 : 1, anyFailed = 0;
        MPI_Allreduce(&failed, &anyFailed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (anyFailed) {
            if (root)
                std::cerr << "ridgeline-bench collectives: "
                          << (planError.empty() ? std::string("another rank could not plan the sweep") : planError)
                          << '\n' << std::flush;
            MPI_Barrier(MPI_COMM_WORLD);
            return 2;
        }
        const auto ranks = gatherRankInfo();
        const std::string lib = mpiLibraryVersion();
        std::unique_ptr<NcclTableWriter> table;
        if (root) {
            if (run.ncclFormat) {
                table = std::make_unique<NcclTableWriter>(std::cout, headerParams, mpi.size());
                std::vector<std::string> lines;
                for (const auto& r : ranks)
                    lines.push_back("Rank " + std::to_string(r.rank) + " Group  0 Pid " + std::to_string(r.pid) +
                                    " on " + r.host + " device  0 [cpu] host memory");
                table->begin(lines, lib);
            } else {
                printLine(wire::toJson(sessionHeader(headerParams, mpi.size(), ranks, lib, run, levels)));
            }
        }
        std::size_t steps = 0, stepsDone = 0, printed = 0, total = 0;
        for (const auto& l : levels) {
            steps += l.steps();
            for (std::size_t g = 0; g < l.groups.size(); ++g)
                total += l.plan(g).size();
        }
        bool stopped = false;
        const double start = steadySeconds();
        PointWatchdog watchdog(run.pointTimeoutSeconds, mpi.rank(), hosts[std::size_t(mpi.rank())]);
        for (const auto& l : levels) {
            MPI_Comm comm = MPI_COMM_WORLD;
            if (l.groups.size() > 1)
                MPI_Comm_split(MPI_COMM_WORLD, int(l.mine), mpi.rank(), &comm);
            const auto& plan = l.plan(l.mine);
            auto runner = allocateRunner(comm, plan, params.offCacheBytes, root);
            if (!runner)
                return 1;
            if (mpi.rank() == run.delayRank)
                runner->setStandInDelay(run.delayUs);
            for (std::size_t i = 0; i < l.steps(); ++i) {
                watchdog.arm(i < plan.size() ? std::string(toString(plan[i].op)) + " " +
                                                   units::formatBytes(double(plan[i].shape.bytes))
                                             : "the other groups' point " + std::to_string(i + 1));
                // Rank 0 decides for all groups, so they leave the sweep between the same two points.
                if ((stopped = stopBroadcast(MPI_COMM_WORLD)))
                    break;
                const double budget = pointBudgetSeconds(params.timing, steadySeconds() - start,
                                                         std::int64_t(steps - stepsDone));
                std::optional<Result> r;
                if (i < plan.size())
                    r = runner->measure(plan[i], params.timing, budget);
                const auto results = gatherResults(l, r, mpi.rank());
                for (std::size_t g = 0; g < results.size(); ++g) {
                    if (!results[g])
                        continue;
                    const PlannedPoint& p = l.plan(g)[i];
                    CollectivePoint point = makePoint(p, int(l.groups[g].ranks.size()), results[g]->stats, results[g]->wrong);
                    point.group = l.groups[g].label;
                    if (table)
                        table->add(p, point);
                    else
                        printLine(wire::toJson(point));
                    ++printed;
                }
                ++stepsDone;
                watchdog.disarm();
            }
            runner.reset();
            if (comm != MPI_COMM_WORLD)
                MPI_Comm_free(&comm);
            if (stopped)
                break;
        }
        const int sig = stopSignal();
        if (root) {
            const std::string progress = std::to_string(printed) + " of " + std::to_string(total) + " points";
            const std::string by = sig == SIGINT ? "SIGINT" : "SIGTERM";
            if (table) {
                table->finish();
                if (stopped)
                    std::cout << "# cancelled by " << by << " after " << progress << '\n' << std::flush;
            } else if (stopped) {
                printLine(wire::endRecord(SessionStatus::Cancelled, "cancelled by " + by + " after " + progress));
            } else {
                printLine(wire::endRecord(SessionStatus::Complete, progress));
            }
        }
        if (stopped)
            code = 128 + (sig ? sig : SIGTERM);
    } // MPI_Finalize before the exit code leaves
    return code;
}
} // namespace rl::bench
