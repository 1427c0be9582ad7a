#pragma once
// Runs a program for a test: wait for it and collect output, or start it in its own process group
// and read its stdout line by line (to kill it mid-run).
#include <string>
#include <sys/types.h>
#include <vector>

namespace rl::test {
struct Finished
{
    int exitCode = -1;
    std::string out, err;
};
Finished runToEnd(const std::vector<std::string>& argv, int timeoutSeconds = 120);

class Running
{
public:
    // errPath: where the program's stderr goes (a file the test reads after wait()); empty: the test's own.
    explicit Running(const std::vector<std::string>& argv, const std::string& errPath = {});
    ~Running();
    // Next stdout line; false at EOF or after timeoutSeconds.
    bool readLine(std::string& line, int timeoutSeconds = 60);
    void signalGroup(int sig);
    int wait(); // exit code, or 128 + signal
    pid_t pid() const { return m_pid; }

private:
    pid_t m_pid = -1;
    int m_out = -1;
    std::string m_buffer;
    bool m_waited = false;
    int m_status = 0;
};
} // namespace rl::test
