#pragma once
// Runs HPCC (whose STREAM is the reference implementation) and our triad at HPCC's array size and
// thread count, and reports the ratio: the membw acceptance check on this machine.
#include <string>

namespace rl::kernels {
struct HpccComparison
{
    bool ok = false;
    double hpccTriadGBs = 0;
    double oursTriadGBs = 0;
    double ratio = 0;          // ours / hpcc
    long long vectorSize = 0;  // elements per array
    std::string report;        // human text (or the error)
};
// hpccBinary is run as an MPI singleton in a fresh temporary directory with an input sized so the
// STREAM arrays exceed 4 x the last-level cache. Takes about a minute (HPCC runs all its tests).
HpccComparison compareWithHpcc(const std::string& hpccBinary, int repeats);
} // namespace rl::kernels
