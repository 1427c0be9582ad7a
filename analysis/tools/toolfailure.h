#pragma once
// The line in which a GPU tool says it failed: nccl-tests / rccl-tests ("host: Test NCCL failure
// common.cu:1090 'unhandled cuda error ...'", "Test CUDA failure", "Test HIP failure", " .. host pid
// 12: Test failure common.cu:1016"), hipblaslt-bench and rocblas-bench ("hipBLASLt error:
// HIPBLAS_STATUS_NOT_SUPPORTED", "rocBLAS error: ..."), BabelStream's check of its arrays
// ("Validation failed on a[]. Average error 0.1", on stderr, and it still exits 0) and nvbandwidth's
// CUDA checks ("[CUDA_ERROR_ILLEGAL_ADDRESS] an illegal memory access was encountered in expression
// cuStreamSynchronize(stream) on host, rank = 0 in ..."). Some builds print it on stdout (printf),
// others on stderr (fprintf + MPI_Abort, whose banner then buries it): either way it is the cause
// a failed session must keep.
#include <string_view>

namespace rl::tools {
bool isToolFailureLine(std::string_view line);
} // namespace rl::tools
