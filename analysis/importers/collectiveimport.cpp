#include "importers/collectiveimport.h"

#include <filesystem>

#include "io/linereader.h"
#include "units/units.h"

namespace rl::importers {

std::int64_t elementCount(CollectiveOp op, int nranks, std::int64_t bytes, const std::string& dtype)
{
    const int size = dtypeSize(dtype).value_or(1);
    std::int64_t count = bytes / size;
    if (nranks > 0 && (op == CollectiveOp::ReduceScatter || op == CollectiveOp::AllGather || op == CollectiveOp::AllToAll))
        count /= nranks;
    return count;
}

CollectivePoint makePoint(CollectiveOp op, int nranks, const std::string& dtype, const std::string& redop,
                          std::int64_t bytes, double timeUs)
{
    CollectivePoint p;
    p.op = toString(op);
    p.nranks = nranks;
    p.dtype = dtype;
    p.redop = hasReduction(op) ? redop : std::string{};
    p.bytes = bytes;
    p.count = elementCount(op, nranks, bytes, dtype);
    p.root = hasRoot(op) ? 0 : -1;
    p.timeUs = timeUs;
    p.algbwGBs = timeUs > 0 ? static_cast<double>(bytes) / (timeUs * 1e-6) / units::kGB : 0.0;
    p.busbwGBs = p.algbwGBs * busFactor(op, nranks);
    p.wrong = -1;
    return p;
}

std::optional<int> ranksFromLauncherLine(std::string_view line)
{
    const auto tokens = io::splitWhitespace(line);
    bool launcher = false;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const std::string_view t = tokens[i];
        const std::string_view base = t.substr(t.rfind('/') == std::string_view::npos ? 0 : t.rfind('/') + 1);
        if (base == "mpirun" || base == "mpiexec" || base == "srun" || base == "mpiexec.hydra" || base == "orterun") {
            launcher = true;
            continue;
        }
        if (!launcher)
            continue;
        auto value = [&](std::string_view v) -> std::optional<int> {
            if (auto n = units::parseInt(v); n && *n > 0 && *n < 10'000'000)
                return static_cast<int>(*n);
            return std::nullopt;
        };
        if ((t == "-np" || t == "-n" || t == "--np" || t == "--ntasks") && i + 1 < tokens.size()) {
            if (auto n = value(tokens[i + 1]))
                return n;
        }
        for (std::string_view key : {"--ntasks=", "--np=", "-np="})
            if (t.starts_with(key))
                if (auto n = value(t.substr(key.size())))
                    return n;
    }
    return std::nullopt;
}

bool isProvenanceVariable(std::string_view name)
{
    for (const char* prefix : {"NCCL_", "RCCL_", "CUDA_", "HIP_", "HSA_", "ROCR_", "UCX_", "FI_", "OMPI_MCA_",
                               "MPICH_", "NVSHMEM_"})
        if (name.starts_with(prefix))
            return true;
    return false;
}

std::optional<std::pair<std::string, std::string>> ncclEnvironmentLine(std::string_view line)
{
    for (std::string_view tag : {"NCCL INFO ", "RCCL INFO "}) {
        const auto at = line.find(tag);
        if (at == std::string_view::npos)
            continue;
        std::string_view rest = line.substr(at + tag.size());
        const auto space = rest.find(' ');
        const std::string_view name = rest.substr(0, space);
        if (space == std::string_view::npos || !isProvenanceVariable(name))
            return std::nullopt;
        rest = rest.substr(space + 1);
        for (std::string_view verb : {"set by environment to ", "set to "})
            if (rest.starts_with(verb)) {
                const std::string_view value = io::trim(rest.substr(verb.size()));
                if (value.empty())
                    return std::nullopt;
                return std::pair{std::string(name), std::string(value.ends_with('.') ? value.substr(0, value.size() - 1) : value)};
            }
        return std::nullopt;
    }
    return std::nullopt;
}

std::string baseName(const std::string& path) { return std::filesystem::path(path).filename().string(); }
} // namespace rl::importers
