#include "collectives/collectiveop.h"

#include <algorithm>
#include <cctype>
#include <utility>

namespace rl {
namespace {
// Lower-case with '_', '-' and ' ' removed, and a trailing "_perf"/leading "osu_" stripped, so
// every tool's spelling of an op maps to one key.
std::string squash(std::string_view name)
{
    std::string s;
    for (char c : name)
        if (c != '_' && c != '-' && c != ' ')
            s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (s.size() > 4 && s.ends_with("perf"))
        s.resize(s.size() - 4);
    if (s.starts_with("osu"))
        s.erase(0, 3);
    return s;
}
} // namespace

const char* toString(CollectiveOp op)
{
    switch (op) {
    case CollectiveOp::AllReduce: return "all_reduce";
    case CollectiveOp::ReduceScatter: return "reduce_scatter";
    case CollectiveOp::AllGather: return "all_gather";
    case CollectiveOp::Broadcast: return "broadcast";
    case CollectiveOp::AllToAll: return "all_to_all";
    case CollectiveOp::Reduce: return "reduce";
    case CollectiveOp::SendRecv: return "send_recv";
    case CollectiveOp::AllToAllV: return "all_to_allv";
    }
    return "all_reduce";
}

std::optional<CollectiveOp> collectiveOpFromString(std::string_view name)
{
    static const std::pair<const char*, CollectiveOp> table[] = {
        {"allreduce", CollectiveOp::AllReduce},         {"reducescatter", CollectiveOp::ReduceScatter},
        {"reducescatterblock", CollectiveOp::ReduceScatter}, {"allgather", CollectiveOp::AllGather},
        {"broadcast", CollectiveOp::Broadcast},         {"bcast", CollectiveOp::Broadcast},
        {"alltoall", CollectiveOp::AllToAll},           {"reduce", CollectiveOp::Reduce},
        {"sendrecv", CollectiveOp::SendRecv},           {"alltoallv", CollectiveOp::AllToAllV},
    };
    const std::string key = squash(name);
    for (const auto& [k, op] : table)
        if (key == k)
            return op;
    return std::nullopt;
}

const std::vector<CollectiveOp>& benchmarkedOps()
{
    static const std::vector<CollectiveOp> ops{CollectiveOp::AllReduce, CollectiveOp::ReduceScatter,
                                               CollectiveOp::AllGather, CollectiveOp::Broadcast,
                                               CollectiveOp::AllToAll};
    return ops;
}

double busFactor(CollectiveOp op, int n)
{
    if (n <= 0)
        return 1.0;
    switch (op) {
    case CollectiveOp::AllReduce: return 2.0 * (n - 1) / n;
    case CollectiveOp::ReduceScatter:
    case CollectiveOp::AllGather:
    case CollectiveOp::AllToAll:
    case CollectiveOp::AllToAllV: return double(n - 1) / n;
    case CollectiveOp::Broadcast:
    case CollectiveOp::Reduce:
    case CollectiveOp::SendRecv: return 1.0;
    }
    return 1.0;
}

bool hasReduction(CollectiveOp op)
{
    return op == CollectiveOp::AllReduce || op == CollectiveOp::ReduceScatter || op == CollectiveOp::Reduce;
}

bool hasRoot(CollectiveOp op) { return op == CollectiveOp::Broadcast || op == CollectiveOp::Reduce; }

std::string canonicalDtype(std::string_view dtype)
{
    static const std::pair<const char*, const char*> table[] = {
        {"float", "float32"},    {"fp32", "float32"},   {"f32", "float32"},    {"float32", "float32"},
        {"double", "float64"},   {"fp64", "float64"},   {"f64", "float64"},    {"float64", "float64"},
        {"half", "float16"},     {"fp16", "float16"},   {"f16", "float16"},    {"float16", "float16"},
        {"bfloat16", "bfloat16"}, {"bf16", "bfloat16"}, {"int", "int32"},      {"int32", "int32"},
        {"uint32", "uint32"},    {"int64", "int64"},    {"uint64", "uint64"},  {"int8", "int8"},
        {"uint8", "uint8"},      {"char", "int8"},      {"fp8_e4m3", "fp8_e4m3"}, {"fp8_e5m2", "fp8_e5m2"},
    };
    std::string lower;
    for (char c : dtype)
        lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (const auto& [k, v] : table)
        if (lower == k)
            return v;
    return std::string(dtype);
}

std::optional<int> dtypeSize(std::string_view dtype)
{
    const std::string d = canonicalDtype(dtype);
    if (d == "float64" || d == "int64" || d == "uint64")
        return 8;
    if (d == "float32" || d == "int32" || d == "uint32")
        return 4;
    if (d == "float16" || d == "bfloat16")
        return 2;
    if (d == "int8" || d == "uint8" || d == "fp8_e4m3" || d == "fp8_e5m2")
        return 1;
    return std::nullopt;
}
} // namespace rl
