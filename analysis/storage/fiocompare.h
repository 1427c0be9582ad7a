#pragma once
// `ridgeline-bench io --compare-fio`: fio and our write/read phase on one file of the same size and
// block size, on this machine, in alternating rounds (both swing by several percent on a shared VM),
// medians compared. The acceptance check for the io runner: within 10 % of fio.
#include <cstdint>
#include <string>
#include <vector>

namespace rl::storage {

struct FioComparison
{
    bool ok = false;
    double fioWriteGBs = 0, oursWriteGBs = 0; // medians over the rounds, GB/s (1e9 B/s)
    double fioReadGBs = 0, oursReadGBs = 0;
    double writeRatio = 0, readRatio = 0;     // ours / fio of the medians
    // Geometric mean of each round's ours / fio (rounds made even, order flipped every round): the
    // two runs of a direction are back to back and share the machine's load; the verdict.
    double pairedWriteRatio = 0, pairedReadRatio = 0;
    std::string report;                       // human text, or the error
};

struct FioCompareSpec
{
    std::string fio = "fio";
    std::string dir = ".";
    std::int64_t fileBytes = 256ll << 20;
    std::int64_t blockBytes = 1 << 20;
    bool direct = false; // O_DIRECT on both; otherwise buffered with fsync at the end (fio end_fsync=1)
    int rounds = 6;
    // Idle time before every timed run. Virtual disks meter bandwidth with a token bucket (this VM's:
    // a first 256 MiB write at ~1.7 GB/s, a second one straight after at ~0.35 GB/s, whichever tool
    // it was); the pause lets the bucket refill so each run starts from the same state.
    double settleSeconds = 2.0;
};

FioComparison compareWithFio(const FioCompareSpec& spec);
} // namespace rl::storage
