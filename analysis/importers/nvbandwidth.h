#pragma once
// nvbandwidth (NVIDIA/nvbandwidth) output: one bandwidth (or latency) matrix per testcase, in text
// (output.cpp, inline_common.h's matrix printer) or with -j as JSON (json_output.cpp):
//   Running host_to_device_memcpy_ce.
//   memcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)
//              0         1 ...            column labels, 10 wide
//    0     55.33     55.31 ...            a row label, then a value or N/A per column
//   (blank line)
//   SUM host_to_device_memcpy_ce 442.55   ("&&&& PERF name 442.55GB/s" with --perfFormatter)
// and {"nvbandwidth": {"version", "git_version", "CUDA Runtime Version", "Driver Version",
// "GPU Device list", "testcases": [{"name", "status", "bandwidth_description", "bandwidth_matrix":
// [["N/A", "389.56"], ...], "sum"}]}}.
//
// Stored as a session of kind "copybw" whose params hold the matrices (CopyMatrix::toJson). Why
// not the pairs records of `ridgeline-bench pairs`: a PairPoint is one unordered pair of ranks
// measured once (the heatmap mirrors it into both halves, the slow-pair report counts ranks), while
// nvbandwidth's matrices are directed (row -> column and row <- column differ: CE read vs write),
// have the CPU as an endpoint and come per copy method (CE, SM) and direction. A table of their own
// would take a schema migration and the record plumbing; the matrices in params are read back as
// they are (`sessions --json`).
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "records/importresult.h"

namespace rl {
struct CopyMatrix
{
    std::string testcase;    // "host_to_device_memcpy_ce"
    std::string description; // "memcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)"
    std::string unit;        // "GB/s" (1e9 B/s, as nvbandwidth computes it) or "ns" (latency tests)
    std::vector<std::string> rowLabels, columnLabels;
    std::vector<std::vector<std::optional<double>>> values; // [row][column]; nullopt = N/A
    std::optional<double> sum;                              // the tool's SUM line
    SourceLocation where;                                   // of its description line

    nlohmann::json toJson() const;
    // A matrix kept in a session's params ("matrices"): of an imported file, or edited by hand, so
    // nothing is trusted; a row is padded or cut to the column labels, a non-number is N/A.
    static std::optional<CopyMatrix> fromJson(const nlohmann::json& j);
};

// The matrices a copybw session keeps, in the order the tool printed them.
std::vector<CopyMatrix> copyMatricesOf(const nlohmann::json& params);

class NvbandwidthStream
{
public:
    // A line of text output: a matrix once its SUM line has been read.
    std::optional<CopyMatrix> feed(std::string_view line, const SourceLocation& where);
    // At the end of the output: a matrix cut short before its SUM line, if any.
    std::optional<CopyMatrix> finish();
    const std::string& error() const { return m_error; }
    const SourceLocation& errorAt() const { return m_errorAt; }
    const std::vector<ImportWarning>& warnings() const { return m_warnings; }
    // Version, driver, host and devices the header named; "not_run": testcases waived or failed.
    const nlohmann::json& facts() const { return m_facts; }

private:
    nlohmann::json m_facts = nlohmann::json::object();
    std::string m_testcase;
    std::string m_lastLine; // the host name comes right before the first device
    std::optional<CopyMatrix> m_matrix;
    enum class State { Outside, ColumnLabels, Rows, AfterRows } m_state = State::Outside;
    std::string m_error;
    SourceLocation m_errorAt;
    std::vector<ImportWarning> m_warnings;
};

// nvbandwidth -j output; throws std::runtime_error saying what is missing.
std::vector<CopyMatrix> nvbandwidthJsonMatrices(const nlohmann::json& root, nlohmann::json& facts);
} // namespace rl
