#pragma once
// Statistics of one rank's timed samples (µs per call), free of MPI so they are checked against a
// known sample in unit tests. The runner reduces each statistic with MPI_MAX over ranks.
#include <vector>

namespace rl {

struct SampleSummary
{
    double mean = 0;
    double min = 0;
    double max = 0;
    double p50 = 0;
    double p99 = 0;
    double cv = 0; // sample standard deviation (n - 1) / mean; 0 for fewer than two samples
};

// q in [0, 1]; linear interpolation between the order statistics at (n - 1) q (numpy's default,
// Hyndman-Fan type 7). `sorted` must be ascending and not empty.
double percentile(const std::vector<double>& sorted, double q);

// Empty input gives all zeros. Sorts its copy.
SampleSummary summarizeSamples(std::vector<double> samples);
} // namespace rl
