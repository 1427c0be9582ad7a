#pragma once
// What the stand-ins of the GPU tools share (gputool_standin.cpp is the one program; each tool's
// output lives in its own file): the STANDIN_* controls and the NVIDIA tools' entry points.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

namespace standin {
inline int envInt(const char* name, int fallback)
{
    const char* v = std::getenv(name);
    return v && *v ? std::atoi(v) : fallback;
}

inline void pause(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

// Sleeps before the next result as a real tool takes time per result (STANDIN_DELAY_MS, default 20).
inline void resultDelay() { pause(envInt("STANDIN_DELAY_MS", 20)); }

[[noreturn]] inline void hang()
{
    std::fflush(stdout);
    for (;;)
        pause(1000);
}

// The value of --name=V or --name V (argv[i] and maybe argv[i + 1]); advances i past it.
inline bool option(int argc, char** argv, int& i, const std::string& name, std::string& value)
{
    const std::string a = argv[i];
    if (a.rfind(name + "=", 0) == 0) {
        value = a.substr(name.size() + 1);
        return true;
    }
    if (a == name && i + 1 < argc) {
        value = argv[++i];
        return true;
    }
    return false;
}

int cutlassProfiler(int argc, char** argv);                    // nvidia_standins.cpp
int babelStream(const std::string& program, int argc, char** argv); // nvidia_standins.cpp
int nvbandwidth(int argc, char** argv);                        // nvidia_standins.cpp
} // namespace standin
