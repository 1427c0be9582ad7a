#pragma once
// BabelStream (UoB-HPC/BabelStream, src/main.cpp) output: the device memory bandwidth of the
// STREAM kernels on a GPU (cuda-stream, hip-stream, ...). Two forms:
// - the table: "BabelStream", "Version: 5.0", "Implementation: CUDA", "Precision: double",
//   "Array size: 268.4 MB (=0.3 GB)", then "Function    MBytes/sec  Min (sec)   Max  Average" and
//   one row per kernel (Copy, Mul, Add, Triad, Dot; Nstream with --nstream-only). Newer builds say
//   "Number of elements: N" and name the column after the unit ("MB/s", "GiB/s", ...);
// - --csv: "function,num_times,n_elements,sizeof,max_mbytes_per_sec,min_runtime,max_runtime,
//   avg_runtime" (newer: "max_MB_per_sec"), exact element counts.
// Units: BabelStream counts MB = 1e6 B by default; --mibibytes makes it MiB = 2^20 B (the column
// says "MiBytes/sec" / "max_mibytes_per_sec"), newer builds also GB, GiB, TB, TiB. Bytes per kernel
// are BabelStream's own: copy, mul and dot move 2 arrays, add and triad 3, nstream 4, of
// elements x sizeof(T) each. Records store GB/s (1e9 B/s) whatever the tool printed.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "records/importresult.h"

namespace rl {
class BabelStreamStream
{
public:
    // A line of output: the kernel's point when it is a result row.
    std::optional<MemBwPoint> feed(std::string_view line, const SourceLocation& where);
    // Non-empty when the output cannot be read on (a result before the array size is known).
    const std::string& error() const { return m_error; }
    const SourceLocation& errorAt() const { return m_errorAt; }
    const std::vector<ImportWarning>& warnings() const { return m_warnings; }
    // What the header said: version, implementation, device, precision, elements, unit.
    const nlohmann::json& facts() const { return m_facts; }
    std::string version() const { return m_facts.value("version", std::string()); }
    bool sawTable() const { return m_unitBytes > 0; }

private:
    std::optional<MemBwPoint> row(const std::string& function, std::string_view rate, std::int64_t elements,
                                  int elementBytes, const SourceLocation& where);

    nlohmann::json m_facts = nlohmann::json::object();
    std::int64_t m_elements = 0;   // from "Number of elements" or "Array size"
    int m_elementBytes = 8;        // "Precision: double" / "float"
    double m_unitBytes = 0;        // of the table's rate column; 0 until its header
    bool m_csv = false;
    int m_csvColumns = 0;
    std::string m_error;
    SourceLocation m_errorAt;
    std::vector<ImportWarning> m_warnings;
};
} // namespace rl
