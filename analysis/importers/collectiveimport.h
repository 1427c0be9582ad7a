#pragma once
// Helpers the collective importers share: building points in nccl-tests conventions, and reading
// rank counts off launcher command lines that logs often echo.
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "collectives/collectiveop.h"
#include "records/collectivepoint.h"

namespace rl::importers {

// A point whose bytes are already the nccl-tests size; algbw = bytes / time, busbw = algbw x the
// op's bus factor (factor 1 when nranks is unknown, i.e. 0). count uses the dtype size when known.
CollectivePoint makePoint(CollectiveOp op, int nranks, const std::string& dtype, const std::string& redop,
                          std::int64_t bytes, double timeUs);

// nccl-tests' count column: elements per rank buffer (size / nranks for the gather/scatter ops).
std::int64_t elementCount(CollectiveOp op, int nranks, std::int64_t bytes, const std::string& dtype);

// "mpirun -np 16 ...", "mpiexec -n 8", "srun -n 32", "srun --ntasks=8": the rank count, if the line
// is such a command.
std::optional<int> ranksFromLauncherLine(std::string_view line);

// The environment variables a session's provenance keeps: those of the communication and GPU
// libraries and MPI (NCCL_*, RCCL_*, CUDA_*, UCX_*, OMPI_MCA_*, ...), which change the numbers; PATH
// and the like say nothing about them and stay out. The JSON and text nccl-tests importers both
// store them as params["environment"] {NAME: value}.
bool isProvenanceVariable(std::string_view name);
// NCCL's (and RCCL's) note of a variable it read, with NCCL_DEBUG=INFO: "host:1:1 [0] NCCL INFO
// NCCL_SOCKET_IFNAME set by environment to ib0", "NCCL INFO NCCL_IB_HCA set to mlx5_0:1" -> name
// and value, when the line is one and the name isProvenanceVariable.
std::optional<std::pair<std::string, std::string>> ncclEnvironmentLine(std::string_view line);

// Base name of a path, for session titles.
std::string baseName(const std::string& path);
} // namespace rl::importers
