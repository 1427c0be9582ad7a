#include "launcher.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <optional>
#include <poll.h>
#include <stdexcept>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace rl::cli {
namespace {
int g_wakeFd = -1;
volatile std::sig_atomic_t g_interrupted = 0;

// Between SIGTERM and SIGKILL: mpirun forwards SIGTERM to its ranks and waits for them.
constexpr int kGraceMs = 15000;

void onSignal(int)
{
    g_interrupted = 1;
    const char c = 1;
    [[maybe_unused]] auto n = ::write(g_wakeFd, &c, 1);
}

void drainLines(std::string& buffer, const Launcher::LineFn& fn, bool flushAll)
{
    std::size_t start = 0, nl;
    while ((nl = buffer.find('\n', start)) != std::string::npos) {
        if (fn)
            fn(buffer.substr(start, nl - start));
        start = nl + 1;
    }
    buffer.erase(0, start);
    if (flushAll && !buffer.empty()) {
        if (fn)
            fn(buffer);
        buffer.clear();
    }
}

// SIGTERM to the whole group, and SIGCONT so that a stopped rank (SIGSTOP, a debugger) gets it too.
void terminateGroup(pid_t group)
{
    kill(-group, SIGTERM);
    kill(-group, SIGCONT);
}

// Every process below `root`, from /proc. Open MPI 4 starts each rank in a process group of its
// own, so a signal to mpirun's group reaches mpirun only; mpirun forwards SIGTERM, but a stopped or
// stuck rank may never act on it, and a SIGKILLed mpirun forwards nothing.
std::vector<pid_t> descendantsOf(pid_t root)
{
    std::vector<std::pair<pid_t, pid_t>> parentOf; // (pid, ppid)
    if (DIR* d = opendir("/proc")) {
        while (const dirent* e = readdir(d)) {
            if (e->d_name[0] < '0' || e->d_name[0] > '9')
                continue;
            char path[300], text[512];
            std::snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
            const int fd = open(path, O_RDONLY | O_CLOEXEC);
            if (fd < 0)
                continue;
            const ssize_t n = ::read(fd, text, sizeof text - 1);
            close(fd);
            if (n <= 0)
                continue;
            text[n] = 0;
            const char* close = std::strrchr(text, ')'); // the name may hold spaces and parentheses
            char state = 0;
            int ppid = 0;
            if (close && std::sscanf(close + 1, " %c %d", &state, &ppid) == 2)
                parentOf.emplace_back(static_cast<pid_t>(std::atoi(e->d_name)), static_cast<pid_t>(ppid));
        }
        closedir(d);
    }
    std::vector<pid_t> out{root};
    for (std::size_t i = 0; i < out.size(); ++i)
        for (const auto& [pid, ppid] : parentOf)
            if (ppid == out[i])
                out.push_back(pid);
    out.erase(out.begin());
    return out;
}

// The whole job: the group, and every process below its leader wherever its group is.
std::vector<pid_t> terminateJob(pid_t leader)
{
    const auto below = descendantsOf(leader);
    terminateGroup(leader);
    for (pid_t p : below) {
        kill(p, SIGTERM);
        kill(p, SIGCONT);
    }
    return below;
}

void killJob(pid_t leader, const std::vector<pid_t>& below)
{
    kill(-leader, SIGKILL);
    for (pid_t p : below)
        kill(p, SIGKILL);
}

// The group must not outlive us, however we die. A watcher - a fork of us that joins the group and
// holds only the read end of a pipe whose write end only we hold - reads end-of-file the moment we
// are gone (SIGKILL included, when nothing of ours can run) and then stops the group: SIGTERM, then
// SIGKILL after the grace period. A run that ends here writes one byte first: stand down. A session
// of its own keeps the watcher out of signals sent to our group (a kill of the GUI's child group or
// of a terminal's job, a hangup) that would otherwise take it down with us.
class GroupWatcher
{
public:
    explicit GroupWatcher(pid_t group)
    {
        int fds[2];
        if (pipe2(fds, O_CLOEXEC))
            return; // no watcher: the run works, only a SIGKILL of us would leave the group running
        const pid_t w = fork();
        if (w == 0)
            watch(fds[0], group);
        close(fds[0]);
        if (w < 0) {
            close(fds[1]);
            return;
        }
        m_pid = w;
        m_lifeline = fds[1];
    }
    ~GroupWatcher()
    {
        if (m_pid <= 0)
            return;
        const char standDown = 0;
        [[maybe_unused]] auto n = ::write(m_lifeline, &standDown, 1);
        close(m_lifeline);
        while (waitpid(m_pid, nullptr, 0) < 0 && errno == EINTR) {
        }
    }
    GroupWatcher(const GroupWatcher&) = delete;
    GroupWatcher& operator=(const GroupWatcher&) = delete;

private:
    // Async-signal-safe calls only: this is a fork of a process that may have other threads.
    [[noreturn]] static void watch(int lifeline, pid_t group)
    {
        setsid();
        prctl(PR_SET_NAME, "ridgeline-watch"); // `pkill ridgeline-cli` must not take the watcher too
        struct sigaction ignore{};
        ignore.sa_handler = SIG_IGN;
        for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT})
            sigaction(sig, &ignore, nullptr);
        // Hold nothing of ours: not the terminal's or the GUI's stdout (a reader would wait for
        // our EOF), not the workspace file, not the pipe's write end (or EOF never comes).
        if (const int null = open("/dev/null", O_RDWR); null >= 0) {
            dup2(null, STDIN_FILENO);
            dup2(null, STDOUT_FILENO);
            dup2(null, STDERR_FILENO);
        }
        if (lifeline > 3)
            close_range(3, static_cast<unsigned>(lifeline - 1), 0);
        close_range(static_cast<unsigned>(lifeline + 1), ~0U, 0);
        char c;
        ssize_t r;
        do
            r = ::read(lifeline, &c, 1);
        while (r < 0 && errno == EINTR);
        if (r == 1)
            _exit(0); // the run ended in the launcher, which has dealt with the group
        terminateGroup(group);
        for (int waited = 0; waited < kGraceMs; waited += 100) {
            if (kill(-group, 0) != 0)
                _exit(0);
            poll(nullptr, 0, 100);
        }
        kill(-group, SIGKILL);
        _exit(0);
    }

    pid_t m_pid = -1;
    int m_lifeline = -1;

public:
    pid_t pid() const { return m_pid; }
};

// mpirun may exit before a rank it killed is gone: Open MPI gives a rank that ignores SIGTERM (a
// stopped one, one stuck in a driver) a SIGKILL and leaves without waiting while the kernel
// still tears down its memory. We are the job's subreaper, so such a rank is now our child: the
// run ends when it is gone, and one that is still running after the grace period gets SIGKILL.
void reapOrphans(pid_t watcher)
{
    auto orphans = descendantsOf(getpid());
    orphans.erase(std::remove(orphans.begin(), orphans.end(), watcher), orphans.end());
    for (pid_t p : orphans) {
        kill(p, SIGTERM);
        kill(p, SIGCONT);
    }
    for (int waited = 0; !orphans.empty(); waited += 100) {
        std::erase_if(orphans, [](pid_t p) {
            const pid_t r = waitpid(p, nullptr, WNOHANG);
            return r == p || (r < 0 && errno == ECHILD); // gone, or not ours (a grandchild)
        });
        if (orphans.empty())
            return;
        if (waited >= kGraceMs) {
            for (pid_t p : orphans)
                kill(p, SIGKILL);
            for (pid_t p : orphans)
                while (waitpid(p, nullptr, 0) < 0 && errno == EINTR) {
                }
            return;
        }
        poll(nullptr, 0, 100);
    }
}

// A callback threw (the workspace failed: a full disk): the job stops before the error goes on,
// so that nothing keeps running with nobody storing what it measures.
void stopAndReap(pid_t pid)
{
    const auto below = terminateJob(pid);
    for (int waited = 0;; waited += 100) {
        const pid_t r = waitpid(pid, nullptr, WNOHANG);
        if (r == pid || (r < 0 && errno != EINTR))
            return;
        if (waited >= kGraceMs) {
            killJob(pid, below);
            while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
            }
            return;
        }
        poll(nullptr, 0, 100);
    }
}
} // namespace

void Launcher::stop(int afterMs)
{
    const auto at = std::chrono::steady_clock::now() + std::chrono::milliseconds(afterMs);
    if (!m_stopRequested || at < m_stopAt)
        m_stopAt = at;
    m_stopRequested = true;
}

ChildResult Launcher::run(const std::vector<std::string>& argv, const LineFn& onStdoutLine, int idleTimeoutMs,
                          const LineFn& onStderrLine)
{
    if (argv.empty())
        throw std::runtime_error("empty command");
    int out[2], err[2], wake[2];
    if (pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC) || pipe2(wake, O_CLOEXEC | O_NONBLOCK))
        throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
    int execErr[2];
    if (pipe2(execErr, O_CLOEXEC))
        throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));

    prctl(PR_SET_CHILD_SUBREAPER, 1); // ranks that mpirun leaves behind come to us: reapOrphans
    const pid_t pid = fork();
    if (pid < 0)
        throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
    if (pid == 0) {
        setpgid(0, 0);
        signal(SIGPIPE, SIG_DFL);
        dup2(out[1], STDOUT_FILENO);
        dup2(err[1], STDERR_FILENO);
        std::vector<char*> args;
        for (const auto& a : argv)
            args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        execvp(args[0], args.data());
        const int e = errno;
        [[maybe_unused]] auto n = ::write(execErr[1], &e, sizeof e);
        _exit(127);
    }
    setpgid(pid, pid); // both sides set it: no race with an early signal
    close(out[1]);
    close(err[1]);
    close(execErr[1]);
    int e = 0;
    if (::read(execErr[0], &e, sizeof e) == sizeof e) {
        close(execErr[0]);
        waitpid(pid, nullptr, 0);
        throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(e));
    }
    close(execErr[0]);
    const GroupWatcher watcher(pid);

    g_wakeFd = wake[1];
    g_interrupted = 0;
    m_stopRequested = false;
    struct sigaction sa{}, oldTerm{}, oldInt{};
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, &oldTerm);
    sigaction(SIGINT, &sa, &oldInt);
    signal(SIGPIPE, SIG_IGN);
    const auto restore = [&] {
        sigaction(SIGTERM, &oldTerm, nullptr);
        sigaction(SIGINT, &oldInt, nullptr);
        close(out[0]);
        close(err[0]);
        close(wake[0]);
        close(wake[1]);
        g_wakeFd = -1;
    };

    ChildResult result;
    std::string outBuf, errBuf, errLines;
    bool outOpen = true, errOpen = true;
    bool& forwarded = m_stopping;
    forwarded = false;
    char buf[65536];
    using Clock = std::chrono::steady_clock;
    auto lastLine = Clock::now();
    std::optional<Clock::time_point> killAt;
    std::vector<pid_t> below; // the job's processes when it was told to stop
    try {
        while (outOpen || errOpen) {
            pollfd fds[3] = {{outOpen ? out[0] : -1, POLLIN, 0}, {errOpen ? err[0] : -1, POLLIN, 0}, {wake[0], POLLIN, 0}};
            const int timeout = killAt || idleTimeoutMs > 0 || m_stopRequested ? 100 : -1;
            const int n = poll(fds, 3, timeout);
            if (n < 0 && errno != EINTR)
                break;
            const bool idle = idleTimeoutMs > 0 && !forwarded &&
                              Clock::now() - lastLine > std::chrono::milliseconds(idleTimeoutMs);
            const bool stopNow = m_stopRequested && Clock::now() >= m_stopAt;
            if ((g_interrupted || idle || stopNow) && !forwarded) {
                forwarded = true;
                result.interrupted = g_interrupted;
                result.stoppedByCaller = !g_interrupted && stopNow;
                result.idleTimedOut = !g_interrupted && !stopNow;
                below = terminateJob(pid); // mpirun and every rank
                killAt = Clock::now() + std::chrono::milliseconds(kGraceMs);
            } else if (killAt && Clock::now() >= *killAt) {
                killJob(pid, below);
                killAt.reset();
            }
            if (n > 0 && (fds[2].revents & POLLIN))
                while (::read(wake[0], buf, sizeof buf) > 0) {
                }
            for (int i = 0; n > 0 && i < 2; ++i) {
                if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                    continue;
                const ssize_t r = ::read(fds[i].fd, buf, sizeof buf);
                if (r <= 0) {
                    (i == 0 ? outOpen : errOpen) = false;
                    continue;
                }
                if (i == 0) {
                    if (std::find(buf, buf + r, '\n') != buf + r)
                        lastLine = Clock::now();
                    outBuf.append(buf, static_cast<std::size_t>(r));
                    drainLines(outBuf, onStdoutLine, false);
                } else {
                    [[maybe_unused]] auto w = ::write(STDERR_FILENO, buf, static_cast<std::size_t>(r));
                    errBuf.append(buf, static_cast<std::size_t>(r));
                    if (errBuf.size() > 8192)
                        errBuf.erase(0, errBuf.size() - 8192);
                    errLines.append(buf, static_cast<std::size_t>(r));
                    drainLines(errLines, onStderrLine, errLines.size() > sizeof buf); // a line without end
                }
            }
        }
        drainLines(outBuf, onStdoutLine, true);
        drainLines(errLines, onStderrLine, true);
    } catch (...) {
        stopAndReap(pid);
        restore();
        throw;
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    reapOrphans(watcher.pid());
    if (WIFEXITED(status))
        result.exitCode = WEXITSTATUS(status);
    if (WIFSIGNALED(status))
        result.signal = WTERMSIG(status);
    result.stderrTail = errBuf;
    restore();
    if (g_interrupted)
        result.interrupted = true;
    return result;
}
} // namespace rl::cli
