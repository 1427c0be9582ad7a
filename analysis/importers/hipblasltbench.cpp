// hipblaslt-bench output and tuning dumps: an indented CSV header
// "transA,transB,grouped_gemm,batch_count,m,n,k,alpha,...,hipblaslt-Gflops,hipblaslt-GB/s,us,solution_index,..."
// repeated before every result line, fp8/bf16/f32 type columns.
#include "importers/formats.h"
#include "importers/gemmcsv.h"

namespace rl {
ImporterInfo hipblasltBenchImporter()
{
    auto sniff = [](std::string_view head, std::string_view) { return head.find("hipblaslt-Gflops") != std::string_view::npos ? 95 : 0; };
    return {"hipblaslt-bench", "hipblaslt-bench GEMM output", sniff,
            [](ImportInput& in, const ImportOptions& o) { return parseGemmTable(in, o, GemmTableFlavor::HipblasltBench); }};
}
} // namespace rl
