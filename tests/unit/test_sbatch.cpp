// The Slurm batch job pieces that need no Slurm: the job script (its #SBATCH lines, exports and
// quoting, checked by running it under bash), Slurm's state names, the end state from sacct and
// scontrol output, and following a file that grows in pieces.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>
#include <unistd.h>

#include "tempdir.h"
#include "io/linereader.h"
#include "io/runcommand.h"
#include "slurm/filetail.h"
#include "slurm/sbatch.h"

using namespace rl::slurm;
using rl::io::runCommand;

namespace {
SbatchSpec sampleSpec()
{
    SbatchSpec s;
    s.jobName = "sweep 1";
    s.options = {"--nodes=2", "--ntasks-per-node=8", "--time=00:30:00", "--comment=two words", "-p debug"};
    s.command = {"srun", "ridgeline-bench", "collectives", "--ops", "all_reduce", "-b", "8"};
    s.environment = {{"NCCL_DEBUG", "INFO"}, {"NCCL_SOCKET_IFNAME", "eth0,ib0"}, {"NOTE", "it's \"quoted\" $HOME"}};
    s.outputPath = "/scratch/runs/out dir/job.out";
    s.workDir = "/scratch/runs";
    return s;
}

std::vector<std::string> linesOf(const std::string& text)
{
    std::vector<std::string> lines;
    std::size_t start = 0, nl;
    while ((nl = text.find('\n', start)) != std::string::npos) {
        lines.push_back(text.substr(start, nl - start));
        start = nl + 1;
    }
    if (start < text.size())
        lines.push_back(text.substr(start));
    return lines;
}
} // namespace

TEST(JobScript, SbatchLinesExportsAndCommandInOrder)
{
    const auto lines = linesOf(buildJobScript(sampleSpec()));
    const std::vector<std::string> expected{
        "#!/bin/bash",
        "#SBATCH --job-name='sweep 1'",
        "#SBATCH --output='/scratch/runs/out dir/job.out'",
        "#SBATCH --chdir=/scratch/runs",
        "#SBATCH --nodes=2",
        "#SBATCH --ntasks-per-node=8",
        "#SBATCH --time=00:30:00",
        "#SBATCH --comment='two words'",
        "#SBATCH -p debug",
        "# Written by Ridgeline.",
        "export NCCL_DEBUG=INFO",
        "export NCCL_SOCKET_IFNAME=eth0,ib0",
        "export NOTE='it'\\''s \"quoted\" $HOME'",
        "srun ridgeline-bench collectives --ops all_reduce -b 8",
    };
    EXPECT_EQ(lines, expected);
}

TEST(JobScript, AShellCommandStaysOneQuotedArgument)
{
    SbatchSpec s;
    s.command = {"/bin/sh", "-c", "echo hi; exit 3"};
    s.outputPath = "/tmp/x.out";
    const auto script = buildJobScript(s);
    EXPECT_TRUE(script.ends_with("\n/bin/sh -c 'echo hi; exit 3'\n")) << script;
}

TEST(JobScript, NoChdirLineWithoutAWorkDirAndNoNameLineWithoutAName)
{
    SbatchSpec s;
    s.jobName.clear();
    s.command = {"true"};
    s.outputPath = "/tmp/x.out";
    const auto script = buildJobScript(s);
    EXPECT_EQ(script.find("--chdir"), std::string::npos);
    EXPECT_EQ(script.find("--job-name"), std::string::npos);
    EXPECT_NE(script.find("#SBATCH --output=/tmp/x.out\n"), std::string::npos);
}

TEST(JobScript, RejectsWhatWouldMakeABrokenScript)
{
    auto bad = [](auto edit) {
        SbatchSpec s = sampleSpec();
        edit(s);
        EXPECT_THROW(buildJobScript(s), std::invalid_argument);
    };
    bad([](SbatchSpec& s) { s.command.clear(); });
    bad([](SbatchSpec& s) { s.outputPath = "relative/job.out"; });
    bad([](SbatchSpec& s) { s.outputPath.clear(); });
    bad([](SbatchSpec& s) { s.options.push_back("nodes=2"); });
    bad([](SbatchSpec& s) { s.options.push_back("--comment=two\nlines"); });
    bad([](SbatchSpec& s) { s.jobName = "a\nb"; });
    bad([](SbatchSpec& s) { s.environment.push_back({"NCCL-DEBUG", "x"}); });
    bad([](SbatchSpec& s) { s.environment.push_back({"1X", "x"}); });
    bad([](SbatchSpec& s) { s.environment.push_back({"", "x"}); });
}

// The script run by bash as the job runs it: every argument and value arrives unchanged.
TEST(JobScript, ArgumentsAndValuesSurviveTheShell)
{
    rl::test::TempDir dir;
    SbatchSpec s;
    s.outputPath = (dir.path / "job.out").string();
    const std::vector<std::string> args{"plain", "two words", "it's", "say \"hi\"", "$HOME", "`id`", "a;b|c&d",
                                        "back\\slash", "", "tab\there", "*", "new\nline"};
    s.environment = {{"RL_A", "x y"}, {"RL_B", "it's \"q\" $PATH `id`"}, {"RL_C", ""}};
    s.command = {"/bin/sh", "-c", "printf '[%s]\\n' \"$@\"; printf '{%s}\\n' \"$RL_A\" \"$RL_B\" \"${RL_C-unset}\"",
                 "sh"};
    s.command.insert(s.command.end(), args.begin(), args.end());
    const auto scriptPath = dir.path / "job.sh";
    std::ofstream(scriptPath) << buildJobScript(s);
    const auto r = runCommand({"bash", scriptPath.string()});
    ASSERT_TRUE(r.ok()) << r.err;
    std::string expected;
    for (const auto& a : args)
        expected += "[" + a + "]\n";
    expected += "{x y}\n{it's \"q\" $PATH `id`}\n{}\n";
    EXPECT_EQ(r.out, expected);
}

TEST(JobStates, SlurmNamesAbbreviationsAndSacctTruncation)
{
    EXPECT_EQ(jobStateFromSlurm("PENDING"), JobState::Pending);
    EXPECT_EQ(jobStateFromSlurm("PD"), JobState::Pending);
    EXPECT_EQ(jobStateFromSlurm("CONFIGURING"), JobState::Pending);
    EXPECT_EQ(jobStateFromSlurm("RUNNING"), JobState::Running);
    EXPECT_EQ(jobStateFromSlurm("COMPLETING"), JobState::Running);
    EXPECT_EQ(jobStateFromSlurm("CG"), JobState::Running);
    EXPECT_EQ(jobStateFromSlurm("COMPLETED"), JobState::Completed);
    EXPECT_EQ(jobStateFromSlurm("FAILED"), JobState::Failed);
    EXPECT_EQ(jobStateFromSlurm("CANCELLED by 0"), JobState::Cancelled);
    EXPECT_EQ(jobStateFromSlurm("CANCELLED+"), JobState::Cancelled);
    EXPECT_EQ(jobStateFromSlurm("TIMEOUT"), JobState::Timeout);
    EXPECT_EQ(jobStateFromSlurm("NODE_FAIL"), JobState::NodeFail);
    EXPECT_EQ(jobStateFromSlurm("BOOT_FAIL"), JobState::NodeFail);
    EXPECT_EQ(jobStateFromSlurm("OUT_OF_MEMORY"), JobState::OutOfMemory);
    EXPECT_EQ(jobStateFromSlurm("OUT_OF_ME+"), JobState::OutOfMemory);
    EXPECT_EQ(jobStateFromSlurm("  RUNNING\n"), JobState::Running);
    EXPECT_EQ(jobStateFromSlurm(""), JobState::Unknown);
    EXPECT_EQ(jobStateFromSlurm("SOMETHING_NEW"), JobState::Unknown);
    EXPECT_FALSE(isFinal(JobState::Pending));
    EXPECT_FALSE(isFinal(JobState::Running));
    EXPECT_FALSE(isFinal(JobState::Unknown));
    EXPECT_TRUE(isFinal(JobState::Completed));
    EXPECT_TRUE(isFinal(JobState::Cancelled));
    EXPECT_STREQ(jobStateName(JobState::OutOfMemory), "OutOfMemory");
}

TEST(JobStates, EndFromScontrolAndSacct)
{
    // `scontrol -o show job` of this Slurm (22.05), shortened.
    const auto failed = outcomeFromScontrol(
        "JobId=5 JobName=my job UserId=root(0) JobState=FAILED Reason=NonZeroExitCode Dependency=(null) "
        "Requeue=1 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=3:0 RunTime=00:00:01\n");
    EXPECT_EQ(failed.state, JobState::Failed);
    EXPECT_EQ(failed.exitCode, 3);
    EXPECT_EQ(failed.signal, 0);
    EXPECT_EQ(failed.reason, "NonZeroExitCode");
    const auto cancelled = outcomeFromScontrol("JobId=7 JobState=CANCELLED Reason=None ExitCode=0:15");
    EXPECT_EQ(cancelled.state, JobState::Cancelled);
    EXPECT_EQ(cancelled.exitCode, 0);
    EXPECT_EQ(cancelled.signal, 15);
    EXPECT_EQ(cancelled.reason, "");
    EXPECT_EQ(outcomeFromScontrol("slurm_load_jobs error: Invalid job id specified").state, JobState::Unknown);

    const auto done = outcomeFromSacct("COMPLETED|0:0|None\n");
    EXPECT_EQ(done.state, JobState::Completed);
    EXPECT_EQ(done.exitCode, 0);
    const auto oom = outcomeFromSacct("\nOUT_OF_MEMORY|0:125|None\n");
    EXPECT_EQ(oom.state, JobState::OutOfMemory);
    EXPECT_EQ(oom.signal, 125);
    const auto byUser = outcomeFromSacct("CANCELLED by 0|0:15|None");
    EXPECT_EQ(byUser.state, JobState::Cancelled);
    EXPECT_EQ(outcomeFromSacct("").state, JobState::Unknown);
}

TEST(FileTail, EachLineOnceAsTheFileGrowsMidLine)
{
    rl::test::TempDir dir;
    const auto path = (dir.path / "job.out").string();
    FileTail tail(path);
    std::vector<std::string> got;
    auto collect = [&](const std::string& l) { got.push_back(l); };

    EXPECT_EQ(tail.poll(collect), 0u); // the job has not started: no file yet
    std::ofstream out(path);
    out << std::unitbuf;
    EXPECT_EQ(tail.poll(collect), 0u); // empty
    out << "first line\nsec";
    EXPECT_EQ(tail.poll(collect), 1u);
    EXPECT_EQ(got, (std::vector<std::string>{"first line"}));
    out << "ond hal";
    EXPECT_EQ(tail.poll(collect), 0u); // still mid-line
    out << "f\r\n\nthird\nfour";
    EXPECT_EQ(tail.poll(collect), 3u);
    EXPECT_EQ(tail.poll(collect), 0u); // nothing new
    out << "th";
    EXPECT_EQ(tail.finish(collect), 1u); // the writer is done: the unterminated last line
    EXPECT_EQ(got, (std::vector<std::string>{"first line", "second half", "", "third", "fourth"}));
}

TEST(FileTail, LongLinesAcrossReadBuffers)
{
    rl::test::TempDir dir;
    const auto path = (dir.path / "big.out").string();
    const std::string longLine(200000, 'x');
    std::ofstream(path) << longLine << "\n" << longLine.substr(0, 70000);
    FileTail tail(path);
    std::vector<std::string> got;
    tail.poll([&](const std::string& l) { got.push_back(l); });
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0], longLine);
    std::ofstream(path, std::ios::app) << "y\n";
    tail.poll([&](const std::string& l) { got.push_back(l); });
    ASSERT_EQ(got.size(), 2u);
    EXPECT_EQ(got[1], longLine.substr(0, 70000) + "y");
}

TEST(FileTail, ReplacedOrTruncatedFileIsReadFromItsStart)
{
    rl::test::TempDir dir;
    const auto path = (dir.path / "job.out").string();
    std::ofstream(path) << "old 1\nold 2\n";
    FileTail tail(path);
    std::vector<std::string> got;
    auto collect = [&](const std::string& l) { got.push_back(l); };
    tail.poll(collect);
    std::ofstream(path, std::ios::trunc) << "new\n"; // truncated: shorter than what was read
    tail.poll(collect);
    unlink(path.c_str());
    std::ofstream(path) << "again, a new file of the same length or more\n"; // replaced
    tail.poll(collect);
    EXPECT_EQ(got, (std::vector<std::string>{"old 1", "old 2", "new", "again, a new file of the same length or more"}));
}

TEST(RunCommand, OutputErrorsStatusAndTimeout)
{
    const auto r = runCommand({"sh", "-c", "echo out; echo err >&2; exit 3"});
    EXPECT_EQ(r.exitCode, 3);
    EXPECT_EQ(r.out, "out\n");
    EXPECT_EQ(r.err, "err\n");
    EXPECT_FALSE(r.ok());
    EXPECT_TRUE(runCommand({"true"}).ok());
    const auto slow = runCommand({"sleep", "10"}, 200);
    EXPECT_TRUE(slow.timedOut);
    EXPECT_EQ(slow.signal, 9);
    EXPECT_THROW(runCommand({"/nonexistent/ridgeline-no-such-program"}), std::runtime_error);
    }

// SbatchJob against stand-in Slurm commands (shell scripts reading files the test writes), so the
// polling, streaming and cancel logic is tested where no Slurm runs; tests/slurm runs the real one.
namespace {
class FakeSlurm
{
public:
    FakeSlurm()
    {
        const std::string d = dir.path.string();
        script("sbatch", "printf '%s\\n' \"$@\" > " + d + "/sbatch.args\n"
                         "if [ -f " + d + "/sbatch.err ]; then cat " + d + "/sbatch.err >&2; exit 1; fi\n"
                         "echo '42;ridgeline-test'\n");
        // squeue.log: every answer given, so a test can wait until follow() has asked in a state.
        script("squeue", "if [ -f " + d + "/squeue.err ]; then cat " + d + "/squeue.err >&2; exit 1; fi\n"
                         "cat " + d + "/squeue.out 2>/dev/null | tee -a " + d + "/squeue.log; exit 0\n");
        script("sacct", "echo 'Slurm accounting storage is disabled' >&2; exit 1\n");
        script("scontrol", "if [ -f " + d + "/scontrol.out ]; then cat " + d + "/scontrol.out; exit 0; fi\n"
                           "echo 'slurm_load_jobs error: Invalid job id specified' >&2; exit 1\n");
        // scancel ends the job at once: gone from the queue, CANCELLED in scontrol.
        script("scancel", "echo \"$@\" >> " + d + "/scancel.log\n"
                          "echo 'JobState=CANCELLED Reason=None ExitCode=0:15' > " + d + "/scontrol.tmp\n"
                          "mv " + d + "/scontrol.tmp " + d + "/scontrol.out\n"
                          "rm -f " + d + "/squeue.out\n");
    }
    SlurmCommands commands() const
    {
        const std::string d = dir.path.string();
        return {d + "/sbatch", d + "/squeue", d + "/sacct", d + "/scontrol", d + "/scancel"};
    }
    // Replaced in one rename, so a poll never reads a half-written file.
    void set(const std::string& name, const std::string& text) const
    {
        const auto tmp = dir.path / (name + ".tmp");
        std::ofstream(tmp) << text;
        std::filesystem::rename(tmp, dir.path / name);
    }
    void remove(const std::string& name) const { std::filesystem::remove(dir.path / name); }
    std::string read(const std::string& name) const
    {
        std::ifstream in(dir.path / name);
        return {std::istreambuf_iterator<char>(in), {}};
    }
    SbatchSpec spec() const
    {
        SbatchSpec s;
        s.command = {"ridgeline-bench", "collectives"};
        s.outputPath = (dir.path / "out" / "job.out").string();
        return s;
    }
    rl::test::TempDir dir;

private:
    void script(const std::string& name, const std::string& body) const
    {
        const auto p = dir.path / name;
        std::ofstream(p) << "#!/bin/sh\n" << body;
        std::filesystem::permissions(p, std::filesystem::perms::owner_all);
    }
};

// What follow() has handed over so far, shared with a fake job's thread: the job takes its next
// step only once follow() has seen the last one, so no step slips between two polls however slow
// the machine. A wait gives up after 10 s (the test then fails on what was seen) rather than hang.
class Followed
{
public:
    void line(const std::string& l) { add([&] { m_lines.push_back(l); }); }
    void state(JobState s) { add([&] { m_states.push_back(s); }); }
    bool sawLine(const std::string& l)
    {
        return waitFor([&] { return std::find(m_lines.begin(), m_lines.end(), l) != m_lines.end(); });
    }
    bool sawState(JobState s)
    {
        return waitFor([&] { return std::find(m_states.begin(), m_states.end(), s) != m_states.end(); });
    }
    std::vector<std::string> lines()
    {
        std::lock_guard lock(m_mutex);
        return m_lines;
    }
    std::vector<JobState> states()
    {
        std::lock_guard lock(m_mutex);
        return m_states;
    }

private:
    template <typename F>
    void add(F f)
    {
        {
            std::lock_guard lock(m_mutex);
            f();
        }
        m_changed.notify_all();
    }
    template <typename Pred>
    bool waitFor(Pred pred)
    {
        std::unique_lock lock(m_mutex);
        return m_changed.wait_for(lock, std::chrono::seconds(10), pred);
    }
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::vector<std::string> m_lines;
    std::vector<JobState> m_states;
};

// Until the fake squeue has answered with `state` (it logs its answers; a child's output has no
// signal to wait on, so the log is read every 10 ms), for at most 10 s.
bool squeueAnswered(const FakeSlurm& slurm, const std::string& state)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (slurm.read("squeue.log").find(state) == std::string::npos) {
        if (std::chrono::steady_clock::now() > deadline)
            return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return true;
}
} // namespace

TEST(SbatchJobFake, SubmitsFollowsStreamsAndTakesTheEndFromScontrol)
{
    FakeSlurm slurm;
    slurm.set("squeue.out", "PENDING|Resources\n");
    SbatchJob job(slurm.commands());
    const auto spec = slurm.spec();
    // An earlier run's output is removed, so it is not streamed as this job's.
    std::filesystem::create_directories(std::filesystem::path(spec.outputPath).parent_path());
    std::ofstream(spec.outputPath) << "stale line from an earlier run\n";
    EXPECT_EQ(job.submit(spec), "42");
    EXPECT_EQ(job.jobId(), "42");
    EXPECT_EQ(job.scriptPath(), spec.outputPath + ".sbatch");
    EXPECT_EQ(slurm.read("sbatch.args"), "--parsable\n" + job.scriptPath() + "\n");
    EXPECT_FALSE(std::filesystem::exists(spec.outputPath));

    // The job's life, each step once follow() has seen the one before: pending, then running with
    // a line and the start of the next, the rest of that line, completing with an unfinished last
    // line, and gone from the queue with its end in scontrol.
    Followed seen;
    std::thread jobRuns([&] {
        EXPECT_TRUE(seen.sawState(JobState::Pending)) << "follow() never reported the pending job";
        slurm.set("squeue.out", "RUNNING|None\n");
        std::ofstream out(spec.outputPath);
        out << std::unitbuf << "line 1\nline";
        EXPECT_TRUE(seen.sawLine("line 1")) << "follow() never streamed the first line";
        out << " 2\n"; // "line" was read with "line 1": the half line is completed in a later read
        EXPECT_TRUE(seen.sawLine("line 2")) << "follow() never streamed the line written in two pieces";
        slurm.set("squeue.out", "COMPLETING|None\n");
        out << "line 3 without a newline";
        EXPECT_TRUE(squeueAnswered(slurm, "COMPLETING")) << "follow() never asked squeue about the completing job";
        slurm.set("scontrol.out", "JobId=42 JobState=COMPLETED Reason=None ExitCode=0:0\n");
        slurm.remove("squeue.out");
    });
    const auto outcome = job.follow([&](const std::string& l) { seen.line(l); }, {},
                                    [&](JobState s) { seen.state(s); }, 20);
    jobRuns.join();
    EXPECT_EQ(outcome.state, JobState::Completed) << outcome.reason;
    EXPECT_EQ(outcome.exitCode, 0);
    EXPECT_EQ(seen.lines(), (std::vector<std::string>{"line 1", "line 2", "line 3 without a newline"}));
    EXPECT_EQ(seen.states(), (std::vector<JobState>{JobState::Pending, JobState::Running, JobState::Completed}));
    EXPECT_EQ(slurm.read("scancel.log"), "");
}

TEST(SbatchJobFake, ShouldCancelRunsScancelAndReturnsCancelled)
{
    FakeSlurm slurm;
    slurm.set("squeue.out", "RUNNING|None\n");
    SbatchJob job(slurm.commands());
    const auto spec = slurm.spec();
    job.submit(spec);
    std::ofstream(spec.outputPath) << "started\n";
    std::vector<std::string> lines;
    int asked = 0;
    // Says yes once only: the request must not be lost.
    auto once = [&] { return !lines.empty() && ++asked == 1; };
    const auto outcome = job.follow([&](const std::string& l) { lines.push_back(l); }, once, {}, 20);
    EXPECT_EQ(outcome.state, JobState::Cancelled) << outcome.reason;
    EXPECT_EQ(outcome.signal, 15);
    EXPECT_EQ(slurm.read("scancel.log"), "42\n");
    EXPECT_EQ(lines, (std::vector<std::string>{"started"}));
}

TEST(SbatchJobFake, ARefusedSubmissionThrowsWhatSbatchSaid)
{
    FakeSlurm slurm;
    slurm.set("sbatch.err", "sbatch: error: Batch job submission failed: Invalid partition name specified\n");
    SbatchJob job(slurm.commands());
    try {
        job.submit(slurm.spec());
        FAIL() << "no exception";
    } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "sbatch: error: Batch job submission failed: Invalid partition name specified");
    }
    EXPECT_TRUE(job.jobId().empty());
    EXPECT_THROW(job.follow({}, {}), std::runtime_error); // nothing to follow
}

TEST(SbatchJobFake, AForgottenJobEndsUnknownWithTheReason)
{
    FakeSlurm slurm;
    SbatchJob job(slurm.commands());
    job.submit(slurm.spec());
    slurm.set("squeue.err", "slurm_load_jobs error: Invalid job id specified\n");
    const auto outcome = job.follow({}, {}, {}, 10);
    EXPECT_EQ(outcome.state, JobState::Unknown);
    EXPECT_NE(outcome.reason.find("Slurm accounting storage is disabled"), std::string::npos) << outcome.reason;
    EXPECT_NE(outcome.reason.find("Invalid job id specified"), std::string::npos) << outcome.reason;
}
