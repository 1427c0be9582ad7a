#include "tools/toolfailure.h"

namespace rl::tools {
bool isToolFailureLine(std::string_view line)
{
    for (std::string_view marker : {"NCCL failure", "CUDA failure", "HIP failure", "RCCL failure", "Test failure",
                                    "hipBLASLt error", "rocBLAS error", "hipBLAS error", "Validation failed on", " in expression "})
        if (line.find(marker) != std::string_view::npos)
            return true;
    return false;
}
} // namespace rl::tools
