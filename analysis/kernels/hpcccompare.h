#pragma once
// Runs HPCC (whose STREAM is the reference implementation) and our triad at HPCC's array size and
// thread count, and reports the ratio: the membw acceptance check on this machine.
#include <string>
#include <vector>

namespace rl::kernels {
struct HpccComparison
{
    bool ok = false;
    double hpccTriadGBs = 0;   // median over the rounds
    double oursTriadGBs = 0;   // median over the rounds
    double ratio = 0;          // ours / hpcc, of the medians
    std::vector<double> roundRatios; // each round's ours / hpcc, measured back to back
    long long vectorSize = 0;  // elements per array
    std::string report;        // human text (or the error)
};
// hpccBinary is run as an MPI singleton in a fresh temporary directory with an input sized so the
// STREAM arrays exceed 4 x the last-level cache; our triad runs right after it at the same size.
// Both swing by +-5 % from run to run on a shared VM, so `rounds` alternating pairs are measured
// and the medians compared. About 20 s per round (HPCC runs all its tests).
HpccComparison compareWithHpcc(const std::string& hpccBinary, int repeats, int rounds = 3);
} // namespace rl::kernels
