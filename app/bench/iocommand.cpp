// `ridgeline-bench io`: storage bandwidth under MPI. Every active rank writes then reads back its own
// file (file-per-process, like a sharded checkpoint) or its disjoint range of one shared file, over
// file and block sizes and active rank counts. Rank 0 prints a session header, one "storage" JSON
// line per phase (write, read) and an end record. The benchmark's files are removed after each case
// and on every way out but SIGKILL: errors (a full disk), SIGINT/SIGTERM (checked between blocks).
#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <memory>
#include <set>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "benchcommands.h"
#include "kernels/sizelist.h"
#include "mpicollectiverunner.h"
#include "mpienvironment.h"
#include "pointwatchdog.h"
#include "records/wireformat.h"
#include "stopsignal.h"
#include "storage/fiocompare.h"
#include "storage/iosweep.h"
#include "units/units.h"

namespace rl::bench {
namespace {
struct Options
{
    std::string dir = ".";
    std::string sizes = "64M,256M";
    std::string blocks = "1M,16M";
    std::string access = "fpp";
    std::string ranks;
    bool fsync = false;
    bool direct = false;
    bool keepCache = false;
    int repeats = 1;
    // --compare-fio (iocompare.cpp)
    bool compareFio = false;
    std::string fioPath = "fio";
    int rounds = storage::FioCompareSpec{}.rounds;
    double settleSeconds = storage::FioCompareSpec{}.settleSeconds;
    double pointTimeout = 0;
};

void printLine(const nlohmann::json& j) { std::cout << j.dump() << '\n' << std::flush; }

std::vector<std::string> splitList(const std::string& text)
{
    std::vector<std::string> out;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        const auto comma = std::min(text.find(',', pos), text.size());
        if (comma > pos)
            out.push_back(text.substr(pos, comma - pos));
        pos = comma + 1;
    }
    return out;
}

storage::IoSweepConfig toConfig(const Options& o)
{
    storage::IoSweepConfig c;
    c.fileBytes = kernels::parseIntList(o.sizes, 1000);
    c.blockBytes = kernels::parseIntList(o.blocks, 1000);
    c.access.clear();
    for (const auto& a : splitList(o.access == "both" ? std::string("fpp,shared") : o.access))
        c.access.push_back(storage::canonicalAccess(a));
    if (!o.ranks.empty())
        for (auto n : kernels::parseIntList(o.ranks, 4096))
            c.ranks.push_back(static_cast<int>(n));
    c.fsync = o.fsync;
    c.direct = o.direct;
    c.dropCache = !o.keepCache;
    c.repeats = o.repeats;
    return c;
}

std::string fileSystemName(const std::string& dir)
{
    struct statfs s = {};
    if (::statfs(dir.c_str(), &s) != 0)
        return "unknown";
    switch (static_cast<unsigned long>(s.f_type)) {
    case 0xEF53: return "ext4";
    case 0x58465342: return "xfs";
    case 0x9123683E: return "btrfs";
    case 0x01021994: return "tmpfs";
    case 0x794C7630: return "overlayfs";
    case 0x6969: return "nfs";
    case 0x0BD00BD0: return "lustre";
    case 0x47504653: return "gpfs";
    case 0x19830326: return "beegfs";
    case 0x65735546: return "fuse";
    case 0x2FC12FC1: return "zfs";
    default: {
        char hex[32];
        std::snprintf(hex, sizeof hex, "0x%lx", static_cast<unsigned long>(s.f_type));
        return hex;
    }
    }
}

std::int64_t freeBytes(const std::string& dir)
{
    struct statvfs v = {};
    if (::statvfs(dir.c_str(), &v) != 0)
        return -1;
    return static_cast<std::int64_t>(v.f_bavail) * static_cast<std::int64_t>(v.f_frsize);
}

enum PhaseStatus : int { Ok = 0, Cancelled = 1, Failed = 2 };

// Everything rank 0 needs from one phase on every rank, in one gather.
struct Gathered
{
    std::vector<storage::IoTiming> timings; // rank 0 only
    int status = Ok;                        // agreed on every rank
    std::string errors;                     // rank 0: "rank 1: write ...: No space left on device ...\n"
};

Gathered gatherPhase(const storage::IoTiming& mine, bool active, int nranks)
{
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int myStatus = !active ? Ok : mine.error ? Failed : mine.cancelled ? Cancelled : Ok;
    Gathered g;
    MPI_Allreduce(&myStatus, &g.status, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    double mineValues[3] = {mine.firstByteS, mine.totalS, double(mine.bytesDone)};
    std::vector<double> all(rank == 0 ? std::size_t(size) * 3 : 0);
    MPI_Gather(mineValues, 3, MPI_DOUBLE, all.data(), 3, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (g.status == Failed) {
        constexpr int kLen = 512;
        char text[kLen] = {};
        std::strncpy(text, mine.message.c_str(), kLen - 1);
        std::vector<char> texts(rank == 0 ? std::size_t(size) * kLen : 0);
        MPI_Gather(text, kLen, MPI_CHAR, texts.data(), kLen, MPI_CHAR, 0, MPI_COMM_WORLD);
        for (int r = 0; r < size && rank == 0; ++r) {
            const char* t = texts.data() + std::size_t(r) * kLen;
            if (*t)
                g.errors += "rank " + std::to_string(r) + ": " + std::string(t, strnlen(t, kLen)) + '\n';
        }
    }
    if (rank == 0)
        for (int r = 0; r < nranks; ++r) {
            storage::IoTiming t;
            t.firstByteS = all[std::size_t(r) * 3];
            t.totalS = all[std::size_t(r) * 3 + 1];
            t.bytesDone = static_cast<std::int64_t>(all[std::size_t(r) * 3 + 2]);
            g.timings.push_back(t);
        }
    return g;
}

std::string describe(const StoragePoint& p)
{
    char line[400];
    std::snprintf(line, sizeof line, "%-5s %-16s %3d ranks %9s file %9s block: %s aggregate, per rank %s..%s (slowest rank %d), first byte %.0f us\n",
                  p.op.c_str(), p.access.c_str(), p.nranks, units::formatBytes(double(p.fileBytes)).c_str(),
                  units::formatBytes(double(p.blockBytes)).c_str(), units::formatBandwidth(p.aggregateGBs).c_str(),
                  units::formatBandwidth(p.minRankGBs).c_str(), units::formatBandwidth(p.maxRankGBs).c_str(),
                  p.slowestRank, p.firstByteUs);
    return line;
}

Session sessionHeader(const Options& o, const storage::IoSweepConfig& c, const std::vector<storage::IoCase>& plan,
                      int nranks, const std::vector<RankInfo>& ranks)
{
    Session s = benchSession(kind::Storage);
    const auto hosts = distinctHosts(ranks);
    std::vector<int> rankCounts;
    for (const auto& p : plan)
        if (std::find(rankCounts.begin(), rankCounts.end(), p.nranks) == rankCounts.end())
            rankCounts.push_back(p.nranks);
    s.params = {{"dir", o.dir},
                {"filesystem", fileSystemName(o.dir)},
                {"free_bytes", freeBytes(o.dir)},
                {"file_bytes", c.fileBytes},
                {"block_bytes", c.blockBytes},
                {"access", c.access},
                {"rank_counts", rankCounts},
                {"fsync", c.fsync},
                {"direct", c.direct},
                {"read_cache", c.dropCache ? "dropped before each read (fdatasync + POSIX_FADV_DONTNEED)" : "kept"},
                {"repeats", c.repeats},
                {"nranks", nranks},
                {"hosts", hosts},
                {"nodes", hosts.size()},
                {"mpi_library", mpiLibraryVersion()},
                {"bandwidth", "GB/s = 1e9 B/s; aggregate = all ranks' bytes / slowest rank's open-to-close time"},
                {"expected_points", plan.size() * 2}};
    s.title = "storage I/O, " + std::to_string(nranks) + " ranks on " + std::to_string(hosts.size()) +
              (hosts.size() == 1 ? " host" : " hosts") + " (" + s.params["filesystem"].get<std::string>() + " " + o.dir + ")";
    return s;
}

// Returns the exit code; runs on every rank.
int runIo(const Options& o, const storage::IoSweepConfig& config)
{
    int code = 0;
    MpiEnvironment mpi;
    const bool root = mpi.rank() == 0;
    installStopHandlers();
    std::vector<storage::IoCase> plan;
    try {
        plan = storage::planIoSweep(config, mpi.size());
    } catch (const std::exception& e) {
        if (root)
            std::cerr << "ridgeline-bench io: " << e.what() << '\n';
        return 2;
    }
    // Every rank checks the folder: on a cluster it may exist on some nodes only.
    const int mine = ::access(o.dir.c_str(), W_OK | X_OK) == 0 ? 0 : errno;
    int worst = 0;
    MPI_Allreduce(&mine, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (worst) {
        if (root)
            std::cerr << "ridgeline-bench io: --dir " << o.dir << " is not a writable folder on every rank ("
                      << std::strerror(worst) << ")\n";
        return 2;
    }
    // One tag per run so two runs in one folder never touch each other's files.
    long long tag = root ? static_cast<long long>(getpid()) : 0;
    MPI_Bcast(&tag, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    const auto ranks = gatherRankInfo();
    if (root) {
        printLine(wire::toJson(sessionHeader(o, config, plan, mpi.size(), ranks)));
        const auto peak = storage::peakScratchBytes(plan), free = freeBytes(o.dir);
        if (free >= 0 && peak > free)
            std::cerr << "ridgeline-bench io: warning: the largest case writes " << units::formatBytes(double(peak))
                      << " at once; " << o.dir << " has " << units::formatBytes(double(free)) << " free\n";
    }
    storage::ScratchFiles files;
    const auto cancel = [] { return stopSignal() != 0; };
    std::size_t donePoints = 0;
    std::string failure;
    PointWatchdog watchdog(o.pointTimeout, mpi.rank(), hostName());
    for (const auto& c : plan) {
        watchdog.arm(c.access + " " + std::to_string(c.nranks) + " ranks, " + units::formatBytes(double(c.fileBytes)) +
                     " file, " + units::formatBytes(double(c.blockBytes)) + " blocks");
        if (stopAgreed(MPI_COMM_WORLD))
            break;
        const bool active = mpi.rank() < c.nranks;
        const std::string path = storage::scratchPath(o.dir, std::to_string(tag), c.access, mpi.rank());
        const auto range = storage::rangeOf(c, path, mpi.rank(), config.fsync, config.direct);
        std::vector<StoragePoint> writes, reads;
        int status = Ok;
        for (int rep = 0; rep < config.repeats && status == Ok; ++rep) {
            if (active)
                files.add(path);
            if (c.access == storage_access::SharedFile && root) // one create, before anyone opens it
                if (const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644); fd >= 0)
                    ::close(fd);
            MPI_Barrier(MPI_COMM_WORLD);
            const auto w = active ? storage::writeRange(range, cancel) : storage::IoTiming{};
            auto g = gatherPhase(w, active, c.nranks);
            if ((status = g.status) != Ok) {
                failure = g.errors;
                break;
            }
            if (root)
                writes.push_back(storage::summarize(c, "write", config.fsync, config.direct, g.timings));
            if (active && config.dropCache)
                storage::dropCachedRange(path, range.offset, range.bytes);
            MPI_Barrier(MPI_COMM_WORLD);
            const auto r = active ? storage::readRange(range, cancel) : storage::IoTiming{};
            g = gatherPhase(r, active, c.nranks);
            if ((status = g.status) != Ok) {
                failure = g.errors;
                break;
            }
            if (root)
                reads.push_back(storage::summarize(c, "read", config.fsync, config.direct, g.timings));
            MPI_Barrier(MPI_COMM_WORLD); // nobody still reads the shared file
            if (active)
                files.remove(path);
        }
        if (status != Ok) {
            files.removeAll();
            if (status == Failed)
                code = 1;
            break;
        }
        if (root) {
            for (const auto& p : {storage::medianRun(writes), storage::medianRun(reads)}) {
                printLine(wire::toJson(p));
                std::cerr << describe(p);
            }
        }
        donePoints += 2;
        watchdog.disarm();
    }
    files.removeAll();
    MPI_Barrier(MPI_COMM_WORLD); // every rank's files are gone before rank 0 says so
    const int sig = stopSignal();
    const std::string progress = std::to_string(donePoints) + " of " + std::to_string(plan.size() * 2) + " points";
    if (code == 1) {
        if (root) {
            std::cerr << "ridgeline-bench io: " << failure << "ridgeline-bench io: stopped after " << progress
                      << "; the benchmark's files are removed\n";
            std::string first = failure.substr(0, failure.find('\n'));
            printLine(wire::endRecord(SessionStatus::Failed, first + " (after " + progress + "; files removed)"));
        }
    } else if (donePoints < plan.size() * 2) {
        if (root)
            printLine(wire::endRecord(SessionStatus::Cancelled, std::string("cancelled by ") +
                                                                    (sig == SIGINT ? "SIGINT" : "SIGTERM") + " after " +
                                                                    progress + "; files removed"));
        code = 128 + (sig ? sig : SIGTERM);
    } else if (root) {
        printLine(wire::endRecord(SessionStatus::Complete, progress));
    }
    return code;
}
void addIoCommand(CLI::App& app)
{
    auto opts = std::make_shared<Options>();
    auto* cmd = app.add_subcommand(
        "io",
        "Storage bandwidth under mpirun/srun: each rank writes then reads back its own file (file-per-process, like\n"
        "a sharded checkpoint) or its range of one shared file, over file sizes, block sizes and active rank\n"
        "counts. Per-rank GB/s = own bytes / own open-to-close time; aggregate GB/s = all bytes / the slowest\n"
        "rank's time (GB = 1e9 B); time to first byte = open + first call. Files are removed afterwards, also\n"
        "after an error or SIGINT/SIGTERM.");
    cmd->add_option("--dir", opts->dir, "Folder for the files (on the file system to measure)")->capture_default_str();
    cmd->add_option("-s,--sizes", opts->sizes, "Bytes per rank, list or range (K/M/G binary)")->capture_default_str();
    cmd->add_option("-b,--blocks", opts->blocks, "Bytes per write/read call, list (K/M/G binary)")->capture_default_str();
    cmd->add_option("--access", opts->access, "fpp (file per process), shared (disjoint ranges of one file), or both")
        ->capture_default_str();
    cmd->add_option("--ranks", opts->ranks, "Active rank counts, e.g. 1,2,4 (default: powers of two and all ranks)");
    cmd->add_flag("--fsync", opts->fsync, "fsync() each file before close, inside the timed span");
    cmd->add_flag("--direct", opts->direct, "O_DIRECT (sizes and blocks multiples of 4 KiB)");
    cmd->add_flag("--keep-cache", opts->keepCache, "Read back without dropping the file's pages from the page cache");
    cmd->add_option("--repeats", opts->repeats, "Runs per case; the median by aggregate bandwidth is reported")
        ->capture_default_str()->check(CLI::Range(1, 100));
    cmd->add_flag("--compare-fio", opts->compareFio,
                  "No MPI: fio and ridgeline-bench io on one file of the first --sizes and --blocks, alternating "
                  "rounds; prints write and read ratios");
    cmd->add_option("--fio", opts->fioPath, "fio binary for --compare-fio")->capture_default_str();
    cmd->add_option("--rounds", opts->rounds, "--compare-fio: alternating rounds (medians compared)")
        ->capture_default_str()->check(CLI::Range(1, 50));
    cmd->add_option("--settle", opts->settleSeconds,
                    "--compare-fio: idle seconds before every timed run, so a virtual disk's bandwidth budget "
                    "refills and neither tool inherits the other's throttling")
        ->capture_default_str()->check(CLI::Range(0.0, 60.0));
    addPointTimeoutOption(cmd, opts->pointTimeout);
    cmd->callback([opts] {
        storage::IoSweepConfig config;
        try {
            config = toConfig(*opts);
        } catch (const std::exception& e) {
            throw CLI::RuntimeError(reportArgumentError("io", e.what()));
        }
        if (opts->compareFio) {
            storage::FioCompareSpec spec;
            spec.fio = opts->fioPath;
            spec.dir = opts->dir;
            spec.fileBytes = config.fileBytes.front();
            spec.blockBytes = config.blockBytes.front();
            spec.direct = opts->direct;
            spec.rounds = opts->rounds;
            spec.settleSeconds = opts->settleSeconds;
            const auto cmp = storage::compareWithFio(spec);
            std::cout << cmp.report << std::flush;
            if (!cmp.ok)
                throw CLI::RuntimeError(1);
            return;
        }
        const int code = runIo(*opts, config);
        if (code != 0)
            throw CLI::RuntimeError(code);
    });
}
} // namespace

static const bool registered = registerCommand(&addIoCommand);
} // namespace rl::bench
