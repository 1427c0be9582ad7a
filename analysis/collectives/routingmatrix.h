#pragma once
// Who sends how many bytes to whom in an all_to_allv: a rank x rank matrix, read from a CSV file or
// generated from MoE routing (experts, top-k, tokens per rank, a skew of the expert load), and
// what it becomes at one size of a sweep. MPI-free, checked against hand-computed matrices.
#include <cstdint>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

namespace rl {

struct RoutingMatrix
{
    int n = 0;
    std::vector<double> bytes; // row-major: bytes[i * n + j] = bytes rank i sends to rank j

    double at(int from, int to) const { return bytes[std::size_t(from) * std::size_t(n) + std::size_t(to)]; }
    double rowSum(int rank) const;    // bytes the rank sends (to itself included)
    double columnSum(int rank) const; // bytes the rank receives
    double total() const;
};

// max over ranks of max(bytes sent, bytes received), over the mean bytes a rank sends (total / n):
// 1 when every rank sends and receives the same, 2 when one rank carries twice the mean. The slowest
// rank bounds an all_to_allv, so busbw falls by about this factor against a balanced all_to_all.
double loadImbalance(const RoutingMatrix& m);

// n lines of n byte counts (comma, semicolon or whitespace separated; K/M/G suffixes binary);
// '#' comments and blank lines skipped, a header row and a first label column are skipped when
// not numbers. Throws std::invalid_argument naming the line for ragged rows, negatives or text.
RoutingMatrix parseRoutingCsv(std::istream& in);

// MoE token dispatch: every rank routes `tokensPerRank` tokens to topK experts each; expert e gets
// the share p_e of all routed copies (uniform 1/E; Zipf p_e ~ 1/(e+1)^s with expert 0 the hottest;
// or a measured per-expert load histogram, normalised). Experts sit on ranks in contiguous blocks
// (E / n per rank, as Megatron places them), so with Zipf the hot experts share a rank: the
// pessimistic placement. Bytes i -> j = tokensPerRank x topK x (sum of p_e on rank j) x
// bytesPerToken: the expected matrix, not one random draw.
struct MoeRouting
{
    enum class Skew { Uniform, Zipf, Histogram };
    int experts = 0;
    int topK = 1;
    std::int64_t tokensPerRank = 4096;
    std::int64_t bytesPerToken = 4096 * 2; // hidden size x element bytes
    Skew skew = Skew::Uniform;
    double zipfExponent = 1.0;
    std::vector<double> histogram; // one load per expert (any unit)
};
// "uniform", "zipf:1.2", "hist:FILE" (numbers separated by commas or whitespace, one per expert).
// Throws std::invalid_argument.
void parseSkew(std::string_view text, MoeRouting& moe);
std::vector<double> expertShares(const MoeRouting& moe); // sums to 1
// Throws std::invalid_argument when experts do not divide evenly over the ranks or a field is bad.
RoutingMatrix moeRoutingMatrix(const MoeRouting& moe, int nranks);

// The matrix at one size of a sweep: scaled so a rank sends `requestedBytes` on average, then
// rounded to whole elements per pair (the same rounding on every rank, so sender and receiver agree).
double routingScale(const RoutingMatrix& m, std::int64_t requestedBytes);
std::int64_t pairElements(const RoutingMatrix& m, double scale, int elemSize, int from, int to);
// Counts and displacements (elements) of one rank's MPI_Alltoallv call.
struct RankCounts
{
    std::vector<int> sendCounts, sendDispls, recvCounts, recvDispls;
};
RankCounts rankCounts(const RoutingMatrix& m, double scale, int elemSize, int rank);
// The integer element matrix of a point, as a RoutingMatrix of bytes (for its imbalance and sums).
RoutingMatrix scaledMatrix(const RoutingMatrix& m, double scale, int elemSize);
} // namespace rl
