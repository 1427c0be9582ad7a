#pragma once
// GEMM result tables: rocblas-bench and hipblaslt-bench output (a CSV header line followed by
// value lines, the header repeated before every result, extra columns with -v, %g numbers) and
// generic GEMM CSV files (M, N, K, dtype, and a time or a FLOP rate), and cutlass_profiler's CSV
// report (Runtime in ms, operand types as "f16:column"). One column mapping serves them all; each
// importer file only sniffs and names its flavour.
#include "importers/importer.h"

#include <memory>
#include <optional>

#include "records/kernelpoints.h"

namespace rl {
enum class GemmTableFlavor { RocblasBench, HipblasltBench, GenericCsv, CutlassProfiler };
ImportResult parseGemmTable(ImportInput& input, const ImportOptions& options, GemmTableFlavor flavor);

// A GEMM table fed a line (or a CSV row) at a time: the importer feeds a file, a live run
// (ridgeline-cli run hipblaslt|rocblas) feeds the bench's stdout as it prints, with the same code.
class GemmTableStream
{
public:
    struct Columns;
    explicit GemmTableStream(GemmTableFlavor flavor);
    ~GemmTableStream();
    // A text line of bench output (launcher prefixes allowed): the point of a value row, if any.
    std::optional<GemmPoint> feed(std::string_view line, const SourceLocation& where);
    // An already split row (CSV files).
    std::optional<GemmPoint> feedFields(const std::vector<std::string>& fields, const SourceLocation& where);
    int headers() const { return m_headers; }
    const std::vector<ImportWarning>& warnings() const { return m_warnings; }
    std::string toolName() const;

private:
    GemmTableFlavor m_flavor;
    std::unique_ptr<Columns> m_columns; // of the last header line
    int m_headers = 0;
    std::vector<ImportWarning> m_warnings;
};

// rocBLAS/hipBLASLt type names ("f32_r", "bf16_r", "f8_r", "i8_r", "xf32_r"), CUTLASS's ("f16",
// "s8", "e4m3") and common spellings ("fp32", "bf16", "float8_e4m3") to Ridgeline dtype names;
// unknown names come back unchanged.
std::string gemmDtype(std::string_view name);
int gemmElementBytes(std::string_view dtype); // 0 when unknown
} // namespace rl
