#include "childprocess.h"

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace rl::test {
namespace {
pid_t spawn(const std::vector<std::string>& argv, int outFd, int errFd)
{
    const pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        dup2(outFd, 1);
        if (errFd >= 0)
            dup2(errFd, 2);
        std::vector<char*> args;
        for (const auto& a : argv)
            args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        execvp(args[0], args.data());
        _exit(127);
    }
    return pid;
}
int decode(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status); }
} // namespace

Finished runToEnd(const std::vector<std::string>& argv, int timeoutSeconds)
{
    int out[2], err[2];
    if (pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC))
        return {};
    const pid_t pid = spawn(argv, out[1], err[1]);
    close(out[1]);
    close(err[1]);
    Finished f;
    bool open[2] = {true, true};
    const int fds[2] = {out[0], err[0]};
    char buf[4096];
    int waitedMs = 0;
    while ((open[0] || open[1]) && waitedMs < timeoutSeconds * 1000) {
        pollfd p[2] = {{open[0] ? fds[0] : -1, POLLIN, 0}, {open[1] ? fds[1] : -1, POLLIN, 0}};
        const int n = poll(p, 2, 200);
        if (n == 0)
            waitedMs += 200;
        for (int i = 0; i < 2; ++i)
            if (p[i].revents) {
                const ssize_t r = read(fds[i], buf, sizeof buf);
                if (r <= 0)
                    open[i] = false;
                else
                    (i ? f.err : f.out).append(buf, static_cast<std::size_t>(r));
            }
    }
    if (open[0] || open[1]) {
        kill(-pid, SIGKILL);
        f.err += "\n[test: timed out, killed]";
    }
    close(out[0]);
    close(err[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    f.exitCode = decode(status);
    return f;
}

Running::Running(const std::vector<std::string>& argv, const std::string& errPath)
{
    int out[2];
    if (pipe2(out, O_CLOEXEC))
        return;
    const int err = errPath.empty() ? -1 : open(errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    m_pid = spawn(argv, out[1], err);
    setpgid(m_pid, m_pid);
    close(out[1]);
    if (err >= 0)
        close(err);
    m_out = out[0];
}

Running::~Running()
{
    if (!m_waited && m_pid > 0) {
        kill(-m_pid, SIGKILL);
        wait();
    }
    if (m_out >= 0)
        close(m_out);
}

bool Running::readLine(std::string& line, int timeoutSeconds)
{
    int waitedMs = 0;
    for (;;) {
        const auto nl = m_buffer.find('\n');
        if (nl != std::string::npos) {
            line = m_buffer.substr(0, nl);
            m_buffer.erase(0, nl + 1);
            return true;
        }
        pollfd p{m_out, POLLIN, 0};
        const int n = poll(&p, 1, 200);
        if (n == 0) {
            waitedMs += 200;
            if (waitedMs >= timeoutSeconds * 1000)
                return false;
            continue;
        }
        char buf[4096];
        const ssize_t r = read(m_out, buf, sizeof buf);
        if (r <= 0)
            return false;
        m_buffer.append(buf, static_cast<std::size_t>(r));
    }
}

void Running::signalGroup(int sig) { kill(-m_pid, sig); }

int Running::wait()
{
    if (!m_waited) {
        while (waitpid(m_pid, &m_status, 0) < 0 && errno == EINTR) {
        }
        m_waited = true;
    }
    return decode(m_status);
}
} // namespace rl::test
