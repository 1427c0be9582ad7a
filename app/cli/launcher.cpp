#include "launcher.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

namespace rl::cli {
namespace {
int g_wakeFd = -1;
volatile std::sig_atomic_t g_interrupted = 0;

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
        fn(buffer.substr(start, nl - start));
        start = nl + 1;
    }
    buffer.erase(0, start);
    if (flushAll && !buffer.empty()) {
        fn(buffer);
        buffer.clear();
    }
}
} // namespace

ChildResult Launcher::run(const std::vector<std::string>& argv, const LineFn& onStdoutLine, int idleTimeoutMs)
{
    if (argv.empty())
        throw std::runtime_error("empty command");
    int out[2], err[2], wake[2];
    if (pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC) || pipe2(wake, O_CLOEXEC | O_NONBLOCK))
        throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
    int execErr[2];
    if (pipe2(execErr, O_CLOEXEC))
        throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));

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

    g_wakeFd = wake[1];
    g_interrupted = 0;
    struct sigaction sa{}, oldTerm{}, oldInt{};
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, &oldTerm);
    sigaction(SIGINT, &sa, &oldInt);
    signal(SIGPIPE, SIG_IGN);

    ChildResult result;
    std::string outBuf, errBuf;
    bool outOpen = true, errOpen = true, forwarded = false;
    int killAfterMs = -1;
    char buf[65536];
    using Clock = std::chrono::steady_clock;
    auto lastLine = Clock::now();
    while (outOpen || errOpen) {
        pollfd fds[3] = {{outOpen ? out[0] : -1, POLLIN, 0}, {errOpen ? err[0] : -1, POLLIN, 0}, {wake[0], POLLIN, 0}};
        const int timeout = killAfterMs >= 0 || idleTimeoutMs > 0 ? 500 : -1;
        const int n = poll(fds, 3, timeout);
        if (n < 0 && errno != EINTR)
            break;
        const bool idle = idleTimeoutMs > 0 && !forwarded &&
                          Clock::now() - lastLine > std::chrono::milliseconds(idleTimeoutMs);
        if ((g_interrupted || idle) && !forwarded) {
            forwarded = true;
            result.interrupted = g_interrupted;
            result.idleTimedOut = !g_interrupted;
            kill(-pid, SIGTERM); // all ranks: mpirun and its children share the group locally
            killAfterMs = 15000;
        } else if (killAfterMs > 0 && n == 0) {
            killAfterMs -= 500;
            if (killAfterMs <= 0)
                kill(-pid, SIGKILL);
        }
        if (fds[2].revents & POLLIN)
            while (::read(wake[0], buf, sizeof buf) > 0) {
            }
        for (int i = 0; i < 2; ++i) {
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
            }
        }
    }
    drainLines(outBuf, onStdoutLine, true);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status))
        result.exitCode = WEXITSTATUS(status);
    if (WIFSIGNALED(status))
        result.signal = WTERMSIG(status);
    result.stderrTail = errBuf;
    sigaction(SIGTERM, &oldTerm, nullptr);
    sigaction(SIGINT, &oldInt, nullptr);
    close(out[0]);
    close(err[0]);
    close(wake[0]);
    close(wake[1]);
    g_wakeFd = -1;
    if (g_interrupted)
        result.interrupted = true;
    return result;
}
} // namespace rl::cli
