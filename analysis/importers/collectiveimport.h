#pragma once
// Helpers the collective importers share: building points in nccl-tests conventions, and reading
// rank counts off launcher command lines that logs often echo.
#include <optional>
#include <string>
#include <string_view>

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

// Base name of a path, for session titles.
std::string baseName(const std::string& path);
} // namespace rl::importers
