#pragma once
// GEMM result tables: rocblas-bench and hipblaslt-bench output (a CSV header line followed by
// value lines, the header repeated before every result, extra columns with -v, %g numbers) and
// generic GEMM CSV files (M, N, K, dtype, and a time or a FLOP rate). One column mapping serves
// all three; each importer file only sniffs and names its flavour.
#include "importers/importer.h"

namespace rl {
enum class GemmTableFlavor { RocblasBench, HipblasltBench, GenericCsv };
ImportResult parseGemmTable(ImportInput& input, const ImportOptions& options, GemmTableFlavor flavor);

// rocBLAS/hipBLASLt type names ("f32_r", "bf16_r", "f8_r", "i8_r", "xf32_r") and common spellings
// ("fp32", "bf16", "float8_e4m3") to Ridgeline dtype names; unknown names come back unchanged.
std::string gemmDtype(std::string_view name);
int gemmElementBytes(std::string_view dtype); // 0 when unknown
} // namespace rl
