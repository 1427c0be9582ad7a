#include "slurm/sbatch.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <thread>

#include "runs/launch.h"
#include "io/linereader.h"
#include "io/runcommand.h"
#include "slurm/filetail.h"

namespace rl::slurm {
namespace {
namespace fs = std::filesystem;
using io::CommandResult;
using io::runCommand;

// One-line answers and errors of the Slurm commands, without their surrounding white space.
std::string trimmed(const std::string& text) { return std::string(io::trim(text)); }

bool isIdentifier(const std::string& s)
{
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0])))
        return false;
    for (char c : s)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
            return false;
    return true;
}

void requireOneLine(const std::string& what, const std::string& value)
{
    if (value.find_first_of("\r\n") != std::string::npos)
        throw std::invalid_argument(what + " holds a line break: " + value);
}

// "--time=00:30:00" stays as it is; "--comment=two words" becomes "--comment='two words'" (sbatch
// reads #SBATCH lines with shell-like quoting); "-N 2" keeps its space between flag and value.
std::string quoteOption(const std::string& option)
{
    const auto eq = option.find('=');
    const auto sp = option.find(' ');
    if (eq != std::string::npos && (sp == std::string::npos || eq < sp))
        return option.substr(0, eq + 1) + shellQuote(option.substr(eq + 1));
    if (sp != std::string::npos)
        return option.substr(0, sp + 1) + shellQuote(option.substr(sp + 1));
    return option;
}

void sleepMs(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

// "3:0" -> exit 3, signal 0.
void parseExitCode(const std::string& text, JobOutcome& outcome)
{
    const auto colon = text.find(':');
    try {
        outcome.exitCode = std::stoi(text.substr(0, colon));
        outcome.signal = colon == std::string::npos ? 0 : std::stoi(text.substr(colon + 1));
    } catch (const std::exception&) {
        outcome.exitCode = -1;
    }
}

// The first line of a command's stderr (or its exit status), for messages.
std::string errorText(const std::string& what, const CommandResult& r)
{
    std::string e = trimmed(r.err);
    if (e.empty())
        e = trimmed(r.out);
    if (const auto nl = e.find('\n'); nl != std::string::npos)
        e = e.substr(0, nl);
    if (!e.empty())
        return e;
    if (r.timedOut)
        return what + " timed out";
    if (r.signal)
        return what + " killed by signal " + std::to_string(r.signal);
    return what + " exited with status " + std::to_string(r.exitCode);
}
} // namespace

std::string buildJobScript(const SbatchSpec& spec)
{
    if (spec.command.empty())
        throw std::invalid_argument("the job has no command");
    if (spec.outputPath.empty() || spec.outputPath[0] != '/')
        throw std::invalid_argument("the job's output path must be absolute: '" + spec.outputPath + "'");
    requireOneLine("the job name", spec.jobName);
    requireOneLine("the output path", spec.outputPath);
    requireOneLine("the working directory", spec.workDir);

    std::ostringstream s;
    s << "#!/bin/bash\n";
    if (!spec.jobName.empty())
        s << "#SBATCH --job-name=" << shellQuote(spec.jobName) << "\n";
    s << "#SBATCH --output=" << shellQuote(spec.outputPath) << "\n";
    if (!spec.workDir.empty())
        s << "#SBATCH --chdir=" << shellQuote(spec.workDir) << "\n";
    for (const auto& o : spec.options) {
        if (o.empty() || o[0] != '-')
            throw std::invalid_argument("an sbatch option must start with '-': '" + o + "'");
        requireOneLine("the sbatch option", o);
        s << "#SBATCH " << quoteOption(o) << "\n";
    }
    s << "# Written by Ridgeline.\n";
    for (const auto& [name, value] : spec.environment) {
        if (!isIdentifier(name))
            throw std::invalid_argument("not an environment variable name: '" + name + "'");
        s << "export " << name << "=" << shellQuote(value) << "\n";
    }
    // Every argument quoted as it is (displayCommand would show a "/bin/sh -c X" as bare X).
    std::string line;
    for (const auto& a : spec.command)
        line += (line.empty() ? "" : " ") + shellQuote(a);
    s << line << "\n";
    return s.str();
}

const char* jobStateName(JobState state)
{
    switch (state) {
    case JobState::Pending: return "Pending";
    case JobState::Running: return "Running";
    case JobState::Completed: return "Completed";
    case JobState::Failed: return "Failed";
    case JobState::Cancelled: return "Cancelled";
    case JobState::Timeout: return "Timeout";
    case JobState::NodeFail: return "NodeFail";
    case JobState::OutOfMemory: return "OutOfMemory";
    case JobState::Unknown: break;
    }
    return "Unknown";
}

JobState jobStateFromSlurm(const std::string& text)
{
    std::string s = trimmed(text);
    s = s.substr(0, s.find_first_of(" +")); // "CANCELLED by 0", sacct's truncated "OUT_OF_ME+"
    struct Name { const char* full; const char* abbrev; JobState state; };
    static const Name names[] = {
        {"PENDING", "PD", JobState::Pending},       {"CONFIGURING", "CF", JobState::Pending},
        {"REQUEUED", "RQ", JobState::Pending},      {"REQUEUE_FED", "RF", JobState::Pending},
        {"REQUEUE_HOLD", "RH", JobState::Pending},  {"RESV_DEL_HOLD", "RD", JobState::Pending},
        {"RUNNING", "R", JobState::Running},        {"COMPLETING", "CG", JobState::Running},
        {"SUSPENDED", "S", JobState::Running},      {"STOPPED", "ST", JobState::Running},
        {"RESIZING", "RS", JobState::Running},      {"SIGNALING", "SI", JobState::Running},
        {"STAGE_OUT", "SO", JobState::Running},     {"COMPLETED", "CD", JobState::Completed},
        {"FAILED", "F", JobState::Failed},          {"SPECIAL_EXIT", "SE", JobState::Failed},
        {"CANCELLED", "CA", JobState::Cancelled},   {"PREEMPTED", "PR", JobState::Cancelled},
        {"REVOKED", "RV", JobState::Cancelled},     {"TIMEOUT", "TO", JobState::Timeout},
        {"DEADLINE", "DL", JobState::Timeout},      {"NODE_FAIL", "NF", JobState::NodeFail},
        {"BOOT_FAIL", "BF", JobState::NodeFail},    {"OUT_OF_MEMORY", "OOM", JobState::OutOfMemory},
    };
    for (const auto& n : names)
        if (s == n.full || s == n.abbrev)
            return n.state;
    if (s.size() >= 6 && std::string("OUT_OF_MEMORY").starts_with(s)) // sacct cuts at 10 columns
        return JobState::OutOfMemory;
    return JobState::Unknown;
}

bool isFinal(JobState state)
{
    return state != JobState::Pending && state != JobState::Running && state != JobState::Unknown;
}

JobOutcome outcomeFromScontrol(const std::string& text)
{
    JobOutcome o;
    // Fields are "Key=value" separated by white space; Reason's value never holds a space.
    std::istringstream in(text);
    std::string field;
    while (in >> field) {
        const auto eq = field.find('=');
        if (eq == std::string::npos)
            continue;
        const std::string key = field.substr(0, eq), value = field.substr(eq + 1);
        if (key == "JobState")
            o.state = jobStateFromSlurm(value);
        else if (key == "ExitCode")
            parseExitCode(value, o);
        else if (key == "Reason" && value != "None")
            o.reason = value;
    }
    return o;
}

JobOutcome outcomeFromSacct(const std::string& text)
{
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        line = trimmed(line);
        if (line.empty())
            continue;
        std::vector<std::string> f;
        std::istringstream fields(line);
        for (std::string x; std::getline(fields, x, '|');)
            f.push_back(x);
        if (f.size() < 2)
            continue;
        JobOutcome o;
        o.state = jobStateFromSlurm(f[0]);
        if (o.state == JobState::Unknown)
            continue;
        parseExitCode(f[1], o);
        if (f.size() > 2 && f[2] != "None")
            o.reason = f[2];
        return o;
    }
    return {};
}

SbatchJob::SbatchJob(SlurmCommands commands) : cmd_(std::move(commands)) {}

std::string SbatchJob::submit(const SbatchSpec& spec, const std::string& scriptPath)
{
    const std::string script = buildJobScript(spec);
    const std::string path = scriptPath.empty() ? spec.outputPath + ".sbatch" : scriptPath;
    std::error_code ec;
    const fs::path outDir = fs::path(spec.outputPath).parent_path();
    fs::create_directories(outDir, ec);
    if (ec)
        throw std::runtime_error("cannot create " + outDir.string() + ": " + ec.message());
    if (const auto dir = fs::path(path).parent_path(); !dir.empty())
        fs::create_directories(dir, ec);
    {
        std::ofstream f(path, std::ios::trunc);
        f << script;
        if (!f.flush())
            throw std::runtime_error("cannot write the job script " + path);
    }
    fs::remove(spec.outputPath, ec); // an earlier run's output would be streamed as this job's

    const CommandResult r = runCommand({cmd_.sbatch, "--parsable", path});
    if (!r.ok()) // all of sbatch's complaint: it may take more than one line
        throw std::runtime_error(trimmed(r.err).empty() ? errorText("sbatch", r) : trimmed(r.err));
    // --parsable prints "id" or "id;cluster".
    std::string id = trimmed(r.out);
    id = id.substr(0, id.find(';'));
    if (id.empty() || id.find_first_not_of("0123456789_") != std::string::npos)
        throw std::runtime_error("sbatch gave no job id: '" + trimmed(r.out) + "'");
    jobId_ = id;
    outputPath_ = spec.outputPath;
    scriptPath_ = path;
    return jobId_;
}

void SbatchJob::cancel()
{
    if (jobId_.empty())
        throw std::runtime_error("no job submitted");
    const CommandResult r = runCommand({cmd_.scancel, jobId_});
    if (!r.ok())
        throw std::runtime_error(errorText("scancel", r));
}

JobOutcome SbatchJob::endOutcome()
{
    // sacct first (it keeps jobs for good); it lags behind slurmctld by a moment, so a state
    // that is not final yet there is checked against scontrol, which is current but forgets a
    // job MinJobAge seconds after its end.
    std::string why;
    std::optional<JobOutcome> notFinal;
    try {
        const CommandResult r = runCommand({cmd_.sacct, "-n", "-P", "-X", "-j", jobId_, "-o", "State,ExitCode,Reason"});
        if (r.ok()) {
            const JobOutcome o = outcomeFromSacct(r.out);
            if (isFinal(o.state))
                return o;
            if (o.state != JobState::Unknown)
                notFinal = o;
            why = "sacct knows no end of job " + jobId_;
        } else {
            why = errorText("sacct", r); // "Slurm accounting storage is disabled"
        }
    } catch (const std::exception& e) {
        why = e.what();
    }
    try {
        const CommandResult r = runCommand({cmd_.scontrol, "-o", "show", "job", jobId_});
        if (r.ok()) {
            const JobOutcome o = outcomeFromScontrol(r.out);
            if (isFinal(o.state))
                return o;
            if (o.state != JobState::Unknown)
                notFinal = o;
            why += "; scontrol shows no end of job " + jobId_;
        } else {
            why += "; " + errorText("scontrol", r); // "Invalid job id specified" after MinJobAge
        }
    } catch (const std::exception& e) {
        why += std::string("; ") + e.what();
    }
    if (notFinal)
        return *notFinal; // ending: the caller asks again
    JobOutcome o;
    o.reason = "the job's end state is unknown: " + why;
    return o;
}

JobOutcome SbatchJob::query()
{
    if (jobId_.empty())
        throw std::runtime_error("no job submitted");
    // squeue -j lists a job while it is pending, running or completing; afterwards nothing
    // (or "Invalid job id specified" once it is purged).
    const CommandResult r = runCommand({cmd_.squeue, "-h", "-j", jobId_, "-o", "%T|%r"});
    if (r.ok()) {
        const std::string line = trimmed(r.out.substr(0, r.out.find('\n')));
        if (!line.empty()) {
            JobOutcome o;
            const auto bar = line.find('|');
            o.state = jobStateFromSlurm(line.substr(0, bar));
            if (bar != std::string::npos && line.substr(bar + 1) != "None")
                o.reason = line.substr(bar + 1);
            if (!isFinal(o.state) && o.state != JobState::Unknown)
                return o;
        }
        return endOutcome();
    }
    if (r.err.find("Invalid job id") != std::string::npos)
        return endOutcome();
    JobOutcome o;
    o.reason = errorText("squeue", r);
    return o;
}

JobOutcome SbatchJob::follow(const std::function<void(const std::string&)>& onLine,
                             const std::function<bool()>& shouldCancel,
                             const std::function<void(JobState)>& onState, int pollMs)
{
    if (jobId_.empty())
        throw std::runtime_error("no job submitted");
    pollMs = std::max(pollMs, 10);
    FileTail tail(outputPath_);
    bool reported = false;
    JobState last = JobState::Unknown;
    auto report = [&](JobState s) {
        if (reported && s == last)
            return;
        reported = true;
        last = s;
        if (onState)
            onState(s);
    };
    // An unknown state (squeue failing, a busy slurmctld, a job already forgotten) is asked again;
    // this many in a row end the follow with state Unknown and the reason.
    constexpr int kMaxQueryFailures = 10;
    int failures = 0;
    const int slice = std::min(pollMs, 100); // the file and shouldCancel are checked this often
    auto finish = [&](JobOutcome o) {
        report(o.state);
        tail.finish(onLine);
        return o;
    };

    bool cancelAsked = false; // shouldCancel() is asked until it says yes once
    auto askCancel = [&] { return cancelAsked = cancelAsked || (shouldCancel && shouldCancel()); };

    for (;;) {
        tail.poll(onLine);
        if (askCancel()) {
            std::string cancelError;
            try {
                cancel();
            } catch (const std::exception& e) {
                cancelError = e.what();
            }
            JobOutcome o;
            const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(cancelWaitMs);
            for (;;) {
                tail.poll(onLine);
                o = query();
                if (isFinal(o.state) || !cancelError.empty() || std::chrono::steady_clock::now() >= deadline)
                    break;
                sleepMs(slice);
            }
            if (isFinal(o.state)) { // Cancelled, or the job's own end when it beat the scancel
                if (o.state == JobState::Cancelled && o.reason.empty())
                    o.reason = "scancel";
                return finish(o);
            }
            if (!cancelError.empty()) { // the job goes on: say so rather than claim it was cancelled
                o.reason = "scancel failed: " + cancelError;
                return finish(o);
            }
            JobOutcome c{JobState::Cancelled, o.exitCode, {}, o.signal};
            c.reason = "scancel sent; the job had not ended after " + std::to_string(cancelWaitMs / 1000) + " s";
            return finish(c);
        }
        JobOutcome o = query();
        if (isFinal(o.state))
            return finish(o);
        if (o.state == JobState::Unknown) {
            if (++failures >= kMaxQueryFailures)
                return finish(o);
        } else {
            failures = 0;
            report(o.state);
        }
        for (int waited = 0; waited < pollMs; waited += slice) {
            sleepMs(slice);
            tail.poll(onLine);
            if (askCancel())
                break;
        }
    }
}
} // namespace rl::slurm
