// ridgeline-bench and SbatchJob through a real single-node Slurm (tests/slurm/slurm-up.sh): srun
// with two MPI ranks, sbatch with the output streamed as it grows, a stand-in nccl-tests sweep
// (ridgeline-bench --format nccl under mpirun inside the allocation) imported at the end, scancel,
// a failing job and a refused submission.
//
// What works under Debian 12's Slurm 22.05 with its Open MPI 4.1.4 (found for these tests):
//  - `srun --mpi=pmix` starts the ranks (Slurm's mpi_pmix_v4 plugin, Open MPI's pmix ext3x);
//    `srun --mpi=pmi2` and `--mpi=none` do not (this Open MPI has no PMI2 client: every rank
//    aborts in MPI_Init). slurm-up.sh sets MpiDefault=pmix.
//  - `mpirun` inside an sbatch allocation works (Open MPI reads the allocation and starts its
//    daemons with srun).
//  - Without slurmdbd sacct says "Slurm accounting storage is disabled"; the end state and exit
//    code come from `scontrol show job` (MinJobAge=600 in the generated slurm.conf).
//
// Under ctest the fixture SlurmUp/SlurmDown starts and stops one Slurm for all of these and
// passes its folder in RIDGELINE_SLURM_DIR; run by hand, the binary starts its own. Where Slurm
// cannot start, every test skips with slurm-up.sh's reason.
#include <gtest/gtest.h>

#include <atomic>
#include <csignal>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <unistd.h>

#include "tempdir.h"
#include "../integration/benchlaunch.h"
#include "importers/importerregistry.h"
#include "io/linereader.h"
#include "io/runcommand.h"
#include "slurm/sbatch.h"
#include "store/workspace.h"

extern char** environ;

using namespace rl;
using namespace rl::slurm;
using rl::io::runCommand;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {
std::string g_unavailable; // why Slurm is not there; empty when it is

double secondsSince(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::string readFile(const fs::path& p)
{
    std::ifstream in(p);
    return {std::istreambuf_iterator<char>(in), {}};
}

class SlurmEnvironment : public ::testing::Environment
{
public:
    void SetUp() override
    {
        // Nothing from an outer Slurm (a CI job running inside one) may reach ours.
        std::vector<std::string> outer;
        for (char** e = environ; *e; ++e) {
            const std::string kv = *e;
            if (kv.starts_with("SLURM_") || kv.starts_with("SBATCH_") || kv.starts_with("SRUN_") ||
                kv.starts_with("SALLOC_") || kv.starts_with("SQUEUE_"))
                outer.push_back(kv.substr(0, kv.find('=')));
        }
        for (const auto& name : outer)
            unsetenv(name.c_str());
        // Open MPI's ranks: root is allowed, shared memory only.
        setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
        setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
        setenv("OMPI_MCA_pml", "ob1", 1);
        setenv("OMPI_MCA_btl", "self,vader", 1);

        if (const char* d = std::getenv("RIDGELINE_SLURM_DIR"); d && *d) {
            m_dir = d;
        } else {
            m_own.emplace("ridgeline-slurm");
            m_dir = m_own->path;
            try {
                // The watchdog stops Slurm should this process die before TearDown.
                setenv("SLURM_UP_OWNER_PID", std::to_string(getpid()).c_str(), 1);
                const auto r = runCommand({RIDGELINE_SLURM_SCRIPTS "/slurm-up.sh", m_dir.string()}, 60000);
                unsetenv("SLURM_UP_OWNER_PID");
                std::cerr << r.out << r.err;
            } catch (const std::exception& e) {
                g_unavailable = e.what();
                return;
            }
        }
        if (fs::exists(m_dir / "unavailable"))
            g_unavailable = std::string(rl::io::trim(readFile(m_dir / "unavailable")));
        else if (!fs::exists(m_dir / "env"))
            g_unavailable = "tests/slurm/slurm-up.sh did not bring Slurm up in " + m_dir.string();
        else
            setenv("SLURM_CONF", (m_dir / "slurm.conf").c_str(), 1);
    }
    void TearDown() override
    {
        if (!m_own)
            return;
        try {
            runCommand({RIDGELINE_SLURM_SCRIPTS "/slurm-down.sh", m_dir.string()}, 60000);
        } catch (const std::exception&) {
        }
        m_own.reset();
    }

private:
    fs::path m_dir;
    std::optional<rl::test::TempDir> m_own; // the Slurm this process started, removed once it is down
};
const auto* g_env = ::testing::AddGlobalTestEnvironment(new SlurmEnvironment);

#define REQUIRE_SLURM()                                                                                        \
    do {                                                                                                       \
        if (!g_unavailable.empty())                                                                            \
            GTEST_SKIP() << "no Slurm: " << g_unavailable;                                                     \
    } while (0)

// A short sweep: all_reduce at 6 sizes (8 B .. 8 KiB), out-of-place and in-place = 12 points.
const std::vector<std::string> kSweep{"collectives", "--ops", "all_reduce", "-b", "8", "-e", "8K", "-f", "4"};
constexpr std::size_t kSweepPoints = 12;

std::vector<std::string> withArgs(std::vector<std::string> argv, const std::vector<std::string>& more)
{
    argv.insert(argv.end(), more.begin(), more.end());
    return argv;
}

void checkSweep(const test::BenchRun<CollectivePoint>& run)
{
    ASSERT_TRUE(run.header);
    EXPECT_EQ(run.header->params.value("nranks", 0), 2);
    ASSERT_EQ(run.points.size(), kSweepPoints);
    std::set<std::pair<std::int64_t, bool>> seen;
    for (const auto& p : run.points) {
        EXPECT_EQ(p.op, "all_reduce");
        EXPECT_EQ(p.nranks, 2);
        EXPECT_EQ(p.wrong, 0);
        EXPECT_GT(p.timeUs, 0.0);
        seen.insert({p.bytes, p.inPlace});
    }
    EXPECT_EQ(seen.size(), kSweepPoints);
    ASSERT_TRUE(run.end);
    EXPECT_EQ(run.end->status, SessionStatus::Complete) << run.end->message;
}

// The processes still running in a Slurm job (its job id in their environment).
std::vector<int> jobProcesses(const std::string& jobId)
{
    std::vector<int> pids;
    const std::string needle = "SLURM_JOB_ID=" + jobId;
    for (const auto& entry : fs::directory_iterator("/proc")) {
        const std::string name = entry.path().filename();
        if (name.find_first_not_of("0123456789") != std::string::npos)
            continue;
        const std::string env = readFile(entry.path() / "environ");
        std::size_t pos = 0;
        for (std::size_t nul; (nul = env.find('\0', pos)) != std::string::npos; pos = nul + 1)
            if (env.compare(pos, nul - pos, needle) == 0) {
                pids.push_back(std::stoi(name));
                break;
            }
    }
    return pids;
}

struct Followed
{
    JobOutcome outcome;
    std::vector<std::string> lines;
    std::vector<JobState> states;
    std::size_t linesBeforeEnd = 0; // handed over before follow() saw the job end
    double seconds = 0;
};

Followed follow(SbatchJob& job, const std::function<bool(const Followed&)>& cancelWhen = {})
{
    Followed f;
    bool ended = false;
    const auto start = Clock::now();
    f.outcome = job.follow(
        [&](const std::string& line) {
            f.lines.push_back(line);
            if (!ended)
                ++f.linesBeforeEnd;
        },
        [&] { return cancelWhen && cancelWhen(f); },
        [&](JobState s) {
            f.states.push_back(s);
            ended = isFinal(s);
        },
        200);
    f.seconds = secondsSince(start);
    return f;
}

std::string joined(const std::vector<std::string>& lines)
{
    std::string out;
    for (const auto& l : lines)
        out += l + "\n";
    return out;
}
} // namespace

TEST(Slurm, SrunRunsACollectiveSweepOnTwoRanks)
{
    REQUIRE_SLURM();
    const auto r = runCommand(withArgs({"srun", "-n", "2", "--mpi=pmix", RIDGELINE_BENCH}, withArgs(kSweep, {"-w", "1", "-n", "3"})),
                              60000);
    ASSERT_TRUE(r.ok()) << "srun exit " << r.exitCode << ": " << r.err;
    const auto run = test::parseBenchRun<CollectivePoint>(r.out);
    EXPECT_TRUE(run.badLines.empty()) << run.badLines.front();
    checkSweep(run);
    if (HasFailure())
        std::cerr << "srun's stdout:\n" << r.out << "srun's stderr:\n" << r.err;
}

TEST(Slurm, SbatchStreamsTheSweepWhileTheJobRuns)
{
    REQUIRE_SLURM();
    test::TempDir dir;
    SbatchSpec spec;
    spec.jobName = "ridgeline sweep";
    spec.options = {"--ntasks=2", "--time=00:05:00"};
    // About 0.15 s a point: the job runs ~2 s, long enough to see its points arrive one by one.
    spec.command = withArgs({"srun", "--mpi=pmix", RIDGELINE_BENCH}, withArgs(kSweep, {"--time-per-size", "0.15"}));
    spec.environment = {{"OMPI_MCA_pml", "ob1"}, {"OMPI_MCA_btl", "self,vader"}};
    spec.outputPath = (dir.path / "out dir" / "sweep.out").string();
    spec.workDir = dir.path.string();
    SbatchJob job;
    const std::string id = job.submit(spec);
    EXPECT_FALSE(id.empty());
    EXPECT_EQ(readFile(job.scriptPath()), buildJobScript(spec));

    const auto f = follow(job);
    EXPECT_EQ(f.outcome.state, JobState::Completed) << f.outcome.reason << "\n" << joined(f.lines);
    EXPECT_EQ(f.outcome.exitCode, 0);
    ASSERT_FALSE(f.states.empty());
    EXPECT_EQ(f.states.back(), JobState::Completed);
    EXPECT_TRUE(f.states.front() == JobState::Pending || f.states.front() == JobState::Running);
    const auto run = test::parseBenchRun<CollectivePoint>(joined(f.lines));
    checkSweep(run);
    // Streamed, not read at the end: most lines were handed over while the job still ran.
    EXPECT_GE(f.linesBeforeEnd, kSweepPoints / 2) << f.linesBeforeEnd << " of " << f.lines.size();
    // Every line of the file, once.
    EXPECT_EQ(joined(f.lines), readFile(spec.outputPath));
    std::cerr << "[ info ] job " << id << ": " << f.lines.size() << " lines, " << f.linesBeforeEnd
              << " before the end, followed for " << f.seconds << " s\n";
}

TEST(Slurm, SbatchRunsAStandInNcclTestsSweepUnderMpirunAndItImports)
{
    REQUIRE_SLURM();
    test::TempDir dir;
    SbatchSpec spec;
    spec.options = {"--ntasks=2"};
    spec.command = withArgs({"mpirun", "-np", "2", "--mca", "pml", "ob1", "--mca", "btl", "self,vader", RIDGELINE_BENCH},
                            withArgs(kSweep, {"--format", "nccl", "-w", "1", "-n", "3"}));
    spec.environment = {{"OMPI_ALLOW_RUN_AS_ROOT", "1"}, {"OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1"}};
    spec.outputPath = (dir.path / "nccl.out").string();
    SbatchJob job;
    job.submit(spec);
    const auto f = follow(job);
    ASSERT_EQ(f.outcome.state, JobState::Completed) << f.outcome.reason << "\n" << joined(f.lines);
    EXPECT_EQ(f.outcome.exitCode, 0);

    // What is there when the job ends is imported as nccl-tests output.
    const ImportResult r = importFile(spec.outputPath);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.format, "nccl-tests");
    ASSERT_EQ(r.sessions.size(), 1u);
    EXPECT_EQ(r.sessions[0].collectives.size(), kSweepPoints);
    for (const auto& p : r.sessions[0].collectives) {
        EXPECT_EQ(p.op, "all_reduce");
        EXPECT_EQ(p.nranks, 2);
    }
}

TEST(Slurm, ScancelEndsARunningSweepPromptly)
{
    REQUIRE_SLURM();
    test::TempDir dir;
    SbatchSpec spec;
    spec.options = {"--ntasks=2"};
    // 512 points: far longer than the test waits. scancel's SIGTERM reaches the ranks, which stop
    // after the point they are in and print an end record "cancelled by SIGTERM".
    spec.command = withArgs({"srun", "--mpi=pmix", RIDGELINE_BENCH},
                            {"collectives", "--ops", "all_reduce", "-b", "1K", "-e", "64M", "-i", "256K", "-w", "2", "-n", "50"});
    spec.outputPath = (dir.path / "long.out").string();
    SbatchJob job;
    const std::string id = job.submit(spec);
    Clock::time_point asked{};
    const auto f = follow(job, [&](const Followed& sofar) {
        if (test::parseBenchRun<CollectivePoint>(joined(sofar.lines)).points.size() < 3)
            return false; // the sweep is well under way
        if (asked == Clock::time_point{})
            asked = Clock::now();
        return true;
    });
    ASSERT_NE(asked, Clock::time_point{}) << "the job ended before its third point: " << f.outcome.reason << "\n"
                                          << joined(f.lines);
    EXPECT_EQ(f.outcome.state, JobState::Cancelled) << f.outcome.reason;
    const double afterAsk = secondsSince(asked);
    EXPECT_LT(afterAsk, 8.0) << "follow() took this long after shouldCancel()";
    const auto run = test::parseBenchRun<CollectivePoint>(joined(f.lines));
    EXPECT_GE(run.points.size(), 3u);
    EXPECT_LT(run.points.size(), 100u);
    ASSERT_TRUE(run.end) << "no end record in what the job wrote:\n" << joined(f.lines);
    EXPECT_EQ(run.end->status, SessionStatus::Cancelled);
    EXPECT_NE(run.end->message.find("SIGTERM"), std::string::npos) << run.end->message;
    // No rank of the job is left behind.
    std::vector<int> left;
    for (int i = 0; i < 50 && !(left = jobProcesses(id)).empty(); ++i)
        usleep(100000);
    EXPECT_TRUE(left.empty()) << left.size() << " processes of job " << id << " still run, e.g. pid " << left.front();
    EXPECT_EQ(job.query().state, JobState::Cancelled);
    std::cerr << "[ info ] job " << id << " cancelled after " << run.points.size() << " points; follow() returned "
              << afterAsk << " s after the request\n";
}

TEST(Slurm, AFailingJobIsFailedWithItsExitCode)
{
    REQUIRE_SLURM();
    test::TempDir dir;
    SbatchSpec spec;
    spec.command = {"/bin/sh", "-c", "echo about to fail; echo on stderr >&2; exit 3"};
    spec.outputPath = (dir.path / "fail.out").string();
    SbatchJob job;
    job.submit(spec);
    const auto f = follow(job);
    EXPECT_EQ(f.outcome.state, JobState::Failed) << f.outcome.reason;
    EXPECT_EQ(f.outcome.exitCode, 3);
    EXPECT_EQ(f.outcome.reason, "NonZeroExitCode");
    EXPECT_EQ(f.lines, (std::vector<std::string>{"about to fail", "on stderr"}));
}

TEST(Slurm, ARefusedSubmissionThrowsSbatchsError)
{
    REQUIRE_SLURM();
    test::TempDir dir;
    SbatchSpec spec;
    spec.options = {"--partition=no-such-partition"};
    spec.command = {"true"};
    spec.outputPath = (dir.path / "never.out").string();
    SbatchJob job;
    try {
        job.submit(spec);
        FAIL() << "sbatch accepted a job for a partition that does not exist";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("sbatch: error"), std::string::npos) << e.what();
    }
    EXPECT_TRUE(job.jobId().empty());
}

// ---- ridgeline-cli run ... --sbatch: the same runs a user starts, through the real Slurm.
#ifdef RIDGELINE_CLI
namespace {
struct CliRun
{
    test::TempDir dir;
    std::string db = (dir.path / "ws.db").string();
    std::vector<std::string> argv(std::vector<std::string> args) const
    {
        std::vector<std::string> a{RIDGELINE_CLI, "--db", db};
        a.insert(a.end(), args.begin(), args.end());
        return a;
    }
    std::vector<std::string> sbatch() const { return {"--sbatch", "--sbatch-dir", dir.path.string()}; }
};
} // namespace

TEST(SlurmCli, RunCollectivesWithSbatchStoresTheSweepAndTheJob)
{
    REQUIRE_SLURM();
    CliRun c;
    auto args = withArgs({"run", "collectives", "-np", "2", "--mpirun-arg", "--oversubscribe"}, c.sbatch());
    args.push_back("--");
    args = withArgs(args, {"--ops", "all_reduce", "-b", "8", "-e", "8K", "-f", "4", "-w", "1", "-n", "3"});
    const auto r = test::runToEnd(c.argv(args), 90);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.err.find("#SBATCH --ntasks=2"), std::string::npos) << r.err; // the script is shown first
    store::Workspace ws(c.db);
    const auto sessions = ws.sessions();
    ASSERT_EQ(sessions.size(), 1u);
    EXPECT_EQ(sessions[0].status, SessionStatus::Complete) << sessions[0].notes;
    EXPECT_FALSE(sessions[0].params.value("slurm_job_id", "").empty());
    EXPECT_TRUE(fs::exists(sessions[0].params.value("job_script", "")));
    EXPECT_EQ(ws.collectivePoints(sessions[0].id).size(), kSweepPoints);
}

TEST(SlurmCli, NcclTestsStandInThroughSbatchAndSrunCountsTheTasks)
{
    REQUIRE_SLURM();
    CliRun c;
    setenv("STANDIN_DELAY_MS", "5", 1);
    auto args = withArgs({"run", "nccl-tests", "--tool-dir", RIDGELINE_STANDIN_BIN, "-np", "2", "--launcher",
                          "srun --mpi=pmix {bench}", "--env", "NCCL_ALGO=Ring"},
                         c.sbatch());
    args = withArgs(args, {"--", "-b", "8", "-e", "1K", "-f", "2"});
    const auto r = test::runToEnd(c.argv(args), 90);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.err.find("export NCCL_ALGO=Ring"), std::string::npos) << r.err;
    store::Workspace ws(c.db);
    const auto sessions = ws.sessions();
    ASSERT_EQ(sessions.size(), 1u);
    EXPECT_EQ(sessions[0].status, SessionStatus::Complete) << sessions[0].notes;
    EXPECT_EQ(sessions[0].params["nranks"], 2); // SLURM_NTASKS, as nccl-tests under srun sees it
    EXPECT_EQ(ws.collectivePoints(sessions[0].id).size(), 16u);
}

TEST(SlurmCli, CancellingAnSbatchRunRunsScancelAndKeepsThePoints)
{
    REQUIRE_SLURM();
    CliRun c;
    setenv("STANDIN_DELAY_MS", "300", 1);
    auto args = withArgs({"run", "nccl-tests", "--tool-dir", RIDGELINE_STANDIN_BIN}, c.sbatch());
    args = withArgs(args, {"--", "-b", "8", "-e", "1G", "-f", "2"});
    test::Running run(c.argv(args));
    std::string line;
    int points = 0;
    while (points < 2 && run.readLine(line, 60))
        points += line.find("\"record\":\"collective\"") != std::string::npos;
    ASSERT_EQ(points, 2);
    const auto t0 = Clock::now();
    run.signalGroup(SIGTERM);
    while (run.readLine(line, 60)) {
    }
    EXPECT_EQ(run.wait(), 130);
    EXPECT_LT(secondsSince(t0), 30);
    unsetenv("STANDIN_DELAY_MS");
    store::Workspace ws(c.db);
    const auto sessions = ws.sessions();
    ASSERT_EQ(sessions.size(), 1u);
    EXPECT_EQ(sessions[0].status, SessionStatus::Cancelled);
    EXPECT_GE(ws.collectivePoints(sessions[0].id).size(), 2u);
    const auto q = runCommand({"squeue", "-h", "-j", sessions[0].params.value("slurm_job_id", "0")});
    EXPECT_EQ(std::string(rl::io::trim(q.out)), "") << "the job is still queued or running";
}
#endif
