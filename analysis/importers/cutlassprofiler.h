#pragma once
// cutlass_profiler (CUTLASS's tools/profiler) GEMM results, in either of the forms it prints
// (performance_report.cpp):
// - the CSV report (--output=FILE writes FILE.gemm.csv; with --verbose and no --output the same
//   table ends stdout after "CSV Results:"): "Problem,Provider,OperationKind,Operation,Disposition,
//   Status,gemm_kind,m,n,k,A,B,C,D,...,Bytes,Flops,Flops/Byte,Runtime,GB/s,GFLOPs", pivot tags first
//   when --tags are given, Runtime in ms, GB/s in GiB/s, no GB/s or GFLOPs on a result that did not
//   run;
// - the console report of each result as it is measured: "Problem ID: N", "Provider: CUTLASS",
//   "Operation: cutlass_...", "Status: Success", "Disposition: Passed", "Arguments: --m=... --A=f16:column
//   ..." (wrapped with a trailing backslash), "Runtime: 0.91 ms", "Math: 604000 GFLOP/s".
// A live run (ridgeline-cli run cutlass) feeds its stdout a line at a time: a point the moment its
// "Math:" line arrives; the CSV that repeats those results at the end is not counted twice.
#include <optional>
#include <string>
#include <vector>

#include "importers/gemmcsv.h"

namespace rl {
class CutlassProfilerStream
{
public:
    CutlassProfilerStream();
    std::optional<GemmPoint> feed(std::string_view line, const SourceLocation& where);
    void finish() { endBlock(); } // at the end of the output: a last block without figures is said
    // Results the profiler itself found wrong (Disposition incorrect or failed), one line each.
    const std::vector<std::string>& incorrect() const { return m_incorrect; }
    const std::vector<ImportWarning>& warnings() const;
    int results() const { return m_results; } // points given
    bool sawResults() const { return m_sawHeader || m_blocks > 0; }

private:
    void endBlock();
    void noteDisposition(const std::string& disposition, const std::string& problem, const std::string& operation);

    GemmTableStream m_table{GemmTableFlavor::CutlassProfiler};
    std::vector<ImportWarning> m_extraWarnings;
    mutable std::vector<ImportWarning> m_allWarnings;
    std::vector<std::string> m_incorrect;
    // The CSV header's columns the table does not read itself.
    bool m_sawHeader = false;
    int m_problemCol = -1, m_operationCol = -1, m_dispositionCol = -1, m_statusCol = -1;
    // The console block being read.
    struct Block
    {
        std::string problem, provider, operation, status, disposition;
        std::vector<std::pair<std::string, std::string>> arguments;
        std::string runtimeMs;
        bool inArguments = false;
        SourceLocation start;
    };
    std::optional<Block> m_block;
    int m_blocks = 0;
    int m_results = 0;
};
} // namespace rl
