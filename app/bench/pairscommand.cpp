// `ridgeline-bench pairs`: point-to-point latency and bandwidth between every pair of ranks (or of
// nodes, one rank each), in round-robin rounds that keep each rank in one pair at a time. Rank 0
// prints a "pairs" session header, one "pair" JSON line per measured pair as each round ends, and
// an end record; `ridgeline-cli results` lists the pairs below a fraction of the median.
#include <algorithm>
#include <chrono>
#include <csignal>
#include <iostream>
#include <memory>
#include <set>
#include <thread>
#include <vector>

#include <mpi.h>

#include "benchcommands.h"
#include "collectives/callstats.h"
#include "collectives/pairs.h"
#include "mpienvironment.h"
#include "pointwatchdog.h"
#include "records/wireformat.h"
#include "stopsignal.h"
#include "tickclock.h"
#include "units/units.h"

namespace rl::bench {
namespace {
struct PairsOptions
{
    std::string latencyBytes = "8";
    std::string bandwidthBytes = "4M";
    int latencyIters = 200;
    int bandwidthIters = 20;
    int warmup = 5;
    bool perNode = false;
    bool onePairAtATime = false;
    int delayRank = -1;
    double delayUs = 0;
    double pointTimeout = 0;
};

struct Measured
{
    double partner = -1; // world rank of the partner this rank timed (it is the lower of the two), else -1
    double latencyUs = 0;
    double bandwidthGBs = 0;
};

// The stand-in for a slow link: the chosen rank sleeps this long before every send. It sleeps
// rather than spins because a slow link holds no core; on an oversubscribed test machine a spinning
// rank would also slow the pairs running beside it and blur which pairs are slow.
void delayIfChosen(const PairsOptions& o, int worldRank)
{
    if (worldRank != o.delayRank || o.delayUs <= 0)
        return;
    std::this_thread::sleep_for(std::chrono::duration<double, std::micro>(o.delayUs));
}

// Round trips between this rank and `peer` in `comm`; the lower rank starts each one. Returns the
// median round trip in seconds on the lower rank (0 on the other).
double pingPong(MPI_Comm comm, int me, int peer, std::vector<char>& buf, std::int64_t bytes, int warmup, int iters,
                const PairsOptions& o, int worldRank)
{
    const int count = int(bytes);
    const bool starts = me < peer;
    std::vector<double> trips;
    trips.reserve(std::size_t(iters));
    for (int i = 0; i < warmup + iters; ++i) {
        const double t0 = MPI_Wtime();
        if (starts) {
            delayIfChosen(o, worldRank);
            MPI_Send(buf.data(), count, MPI_BYTE, peer, 7, comm);
            MPI_Recv(buf.data(), count, MPI_BYTE, peer, 7, comm, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf.data(), count, MPI_BYTE, peer, 7, comm, MPI_STATUS_IGNORE);
            delayIfChosen(o, worldRank);
            MPI_Send(buf.data(), count, MPI_BYTE, peer, 7, comm);
        }
        if (i >= warmup)
            trips.push_back(MPI_Wtime() - t0);
    }
    if (!starts || trips.empty())
        return 0;
    std::sort(trips.begin(), trips.end());
    return percentile(trips, 0.5);
}

int runPairs(const PairsOptions& o, std::int64_t latBytes, std::int64_t bwBytes)
{
    int code = 0;
    {
        MpiEnvironment mpi;
        const int world = mpi.rank();
        const bool root = world == 0;
        installStopHandlers();

        const auto ranks = gatherRankInfo(); // rank 0 only
        // Per node: the lowest rank of each node stands for it; the others only wait.
        MPI_Comm comm = MPI_COMM_WORLD;
        MPI_Comm local = MPI_COMM_NULL;
        if (o.perNode) {
            MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, world, MPI_INFO_NULL, &local);
            int localRank = 0;
            MPI_Comm_rank(local, &localRank);
            MPI_Comm_split(MPI_COMM_WORLD, localRank == 0 ? 0 : MPI_UNDEFINED, world, &comm);
        }
        std::size_t printed = 0, expected = 0;
        if (comm != MPI_COMM_NULL) {
            int me = 0, n = 1;
            MPI_Comm_rank(comm, &me);
            MPI_Comm_size(comm, &n);
            std::vector<int> worldOf(static_cast<std::size_t>(n));
            MPI_Allgather(&world, 1, MPI_INT, worldOf.data(), 1, MPI_INT, comm);
            const auto rounds = pairRounds(n);
            expected = std::size_t(n) * std::size_t(n - 1) / 2;
            if (root) {
                const auto hosts = distinctHosts(ranks);
                Session s = benchSession(kind::Pairs);
                s.title = std::string("MPI pairs, ") + std::to_string(n) + (o.perNode ? " nodes" : " ranks") + " on " +
                          std::to_string(hosts.size()) + (hosts.size() == 1 ? " host" : " hosts");
                std::vector<std::string> rankHosts;
                for (const auto& r : ranks)
                    rankHosts.push_back(r.host);
                s.params = {{"nranks", mpi.size()},
                            {"measured_ranks", n},
                            {"per_node", o.perNode},
                            {"nodes", hosts.size()},
                            {"rank_hosts", rankHosts},
                            {"latency_bytes", latBytes},
                            {"bandwidth_bytes", bwBytes},
                            {"latency_iters", o.latencyIters},
                            {"bandwidth_iters", o.bandwidthIters},
                            {"warmup_iters", o.warmup},
                            {"rounds", rounds.size()},
                            {"one_pair_at_a_time", o.onePairAtATime},
                            {"method", "IMB PingPong: latency = median round trip / 2; bandwidth = bytes / "
                                       "(median round trip / 2); pairs in a round run at the same time"}};
                if (o.delayRank >= 0)
                    s.params["stand_in_delay"] = {{"rank", o.delayRank}, {"us_before_each_send", o.delayUs}};
                std::cout << wire::toJson(s).dump() << '\n' << std::flush;
            }
            std::vector<char> buf(std::size_t(std::max(latBytes, bwBytes)), 1);
            PointWatchdog watchdog(o.pointTimeout, world, hostName());
            for (std::size_t r = 0; r < rounds.size(); ++r) {
                const auto& round = rounds[r];
                std::string partner = "no partner";
                for (const auto& [a, b] : round)
                    if (me == a || me == b)
                        partner = "with rank " + std::to_string(worldOf[std::size_t(me == a ? b : a)]);
                watchdog.arm("pairs round " + std::to_string(r + 1) + " of " + std::to_string(rounds.size()) + ", " +
                             partner + ", " + units::formatBytes(double(bwBytes)));
                if (stopBroadcast(comm))
                    break;
                Measured mine;
                // Concurrent pairs share the node's links, as a collective would; one at a time
                // isolates each link (slower: one barrier per pair).
                const std::size_t groups = o.onePairAtATime ? round.size() : 1;
                for (std::size_t g = 0; g < groups; ++g) {
                    for (std::size_t k = 0; k < round.size(); ++k) {
                        if (o.onePairAtATime && k != g)
                            continue;
                        const auto [a, b] = round[k];
                        if (me != a && me != b)
                            continue;
                        const int peer = me == a ? b : a;
                        const double lat = pingPong(comm, me, peer, buf, latBytes, o.warmup, o.latencyIters, o, world);
                        const double bw = pingPong(comm, me, peer, buf, bwBytes, o.warmup, o.bandwidthIters, o, world);
                        if (me == a) {
                            mine.partner = worldOf[std::size_t(b)];
                            mine.latencyUs = lat / 2 * 1e6;
                            mine.bandwidthGBs = bw > 0 ? double(bwBytes) / (bw / 2) / 1e9 : 0;
                        }
                    }
                    if (o.onePairAtATime)
                        MPI_Barrier(comm);
                }
                std::vector<Measured> all(root ? std::size_t(n) : 0);
                MPI_Gather(&mine, 3, MPI_DOUBLE, all.data(), 3, MPI_DOUBLE, 0, comm);
                watchdog.disarm();
                if (!root)
                    continue;
                for (int q = 0; q < n; ++q) {
                    const Measured& m = all[std::size_t(q)];
                    if (m.partner < 0)
                        continue;
                    PairPoint p;
                    p.rankA = worldOf[std::size_t(q)];
                    p.rankB = int(m.partner);
                    p.hostA = std::size_t(p.rankA) < ranks.size() ? ranks[std::size_t(p.rankA)].host : "";
                    p.hostB = std::size_t(p.rankB) < ranks.size() ? ranks[std::size_t(p.rankB)].host : "";
                    p.latencyBytes = latBytes;
                    p.latencyUs = m.latencyUs;
                    p.bandwidthBytes = bwBytes;
                    p.bandwidthGBs = m.bandwidthGBs;
                    p.iters = o.bandwidthIters;
                    std::cout << wire::toJson(p).dump() << '\n' << std::flush;
                    ++printed;
                }
            }
            if (comm != MPI_COMM_WORLD)
                MPI_Comm_free(&comm);
        }
        if (local != MPI_COMM_NULL)
            MPI_Comm_free(&local);
        const int sig = stopSignal();
        if (root) {
            const std::string progress = std::to_string(printed) + " of " + std::to_string(expected) + " pairs";
            std::cout << (printed < expected && sig
                              ? wire::endRecord(SessionStatus::Cancelled,
                                                std::string("cancelled by ") + (sig == SIGINT ? "SIGINT" : "SIGTERM") +
                                                    " after " + progress)
                              : wire::endRecord(SessionStatus::Complete, progress))
                             .dump()
                      << '\n'
                      << std::flush;
        }
        if (sig)
            code = 128 + sig;
        MPI_Barrier(MPI_COMM_WORLD);
    }
    return code;
}

void addPairsCommand(CLI::App& app)
{
    auto o = std::make_shared<PairsOptions>();
    auto* cmd = app.add_subcommand(
        "pairs",
        "Point-to-point latency and bandwidth between every pair of ranks (or nodes with --per-node), IMB\n"
        "PingPong style, in round-robin rounds that keep each rank in one pair at a time; run under mpirun/srun.\n"
        "latency = median round trip / 2 in microseconds; bandwidth = bytes / (median round trip / 2) in GB/s.");
    cmd->add_option("--latency-bytes", o->latencyBytes, "Message size for latency (bytes, K/M/G binary)")
        ->capture_default_str();
    cmd->add_option("--bandwidth-bytes", o->bandwidthBytes, "Message size for bandwidth (bytes, K/M/G binary)")
        ->capture_default_str();
    cmd->add_option("--latency-iters", o->latencyIters, "Timed round trips for latency (count)")->capture_default_str();
    cmd->add_option("--bandwidth-iters", o->bandwidthIters, "Timed round trips for bandwidth (count)")
        ->capture_default_str();
    cmd->add_option("-w,--warmup", o->warmup, "Untimed round trips per size (count)")->capture_default_str();
    cmd->add_flag("--per-node", o->perNode, "One rank per node: measure every pair of nodes");
    cmd->add_flag("--one-pair-at-a-time", o->onePairAtATime,
                  "Measure the pairs of a round one after another instead of at the same time");
    cmd->add_option("--delay-rank", o->delayRank,
                    "Testing: this rank sleeps --delay-us before every send (a stand-in for a slow link)");
    cmd->add_option("--delay-us", o->delayUs, "Testing: the stand-in delay in microseconds")->capture_default_str();
    addPointTimeoutOption(cmd, o->pointTimeout);
    cmd->callback([o] {
        const auto lat = units::parseBytes(o->latencyBytes), bw = units::parseBytes(o->bandwidthBytes);
        std::string error;
        if (!lat || *lat < 0 || *lat > (std::int64_t{1} << 30))
            error = "--latency-bytes: \"" + o->latencyBytes + "\" is not a size up to 1G";
        else if (!bw || *bw < 1 || *bw > (std::int64_t{1} << 30))
            error = "--bandwidth-bytes: \"" + o->bandwidthBytes + "\" is not a size from 1 B to 1G";
        else if (o->latencyIters < 1 || o->bandwidthIters < 1 || o->warmup < 0)
            error = "--latency-iters and --bandwidth-iters must be at least 1, --warmup not negative";
        if (!error.empty())
            throw CLI::RuntimeError(reportArgumentError("pairs", error));
        if (const int code = runPairs(*o, *lat, *bw))
            throw CLI::RuntimeError(code);
    });
}
} // namespace

static const bool registered = registerCommand(&addPairsCommand);
} // namespace rl::bench
