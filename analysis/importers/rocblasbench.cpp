// rocblas-bench output: "transA,transB,M,N,K,alpha,lda,beta,ldb,ldc,rocblas-Gflops,rocblas-GB/s,us"
// (gemm_ex adds a_type..compute_type; -v adds error columns), one header per call.
#include "importers/formats.h"
#include "importers/gemmcsv.h"

namespace rl {
ImporterInfo rocblasBenchImporter()
{
    auto sniff = [](std::string_view head, std::string_view) { return head.find("rocblas-Gflops") != std::string_view::npos ? 95 : 0; };
    return {"rocblas-bench", "rocblas-bench GEMM output", sniff,
            [](ImportInput& in, const ImportOptions& o) { return parseGemmTable(in, o, GemmTableFlavor::RocblasBench); }};
}
} // namespace rl
