#include "trace/kernelclassifier.h"

#include <algorithm>
#include <stdexcept>

namespace rl::trace {
namespace {
std::string lower(std::string_view s)
{
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return out;
}
} // namespace


std::vector<ClassRule> KernelClassifier::defaultRules()
{
    using K = KernelClass;
    // Order matters: communication first (NCCL kernel names mention reductions), memory copies
    // next, attention before GEMM (flash/fmha kernels are built from cutlass GEMM tiles).
    return {
        {K::Communication, "nccl", false},         {K::Communication, "rccl", false},
        {K::Communication, "msccl", false},        {K::Memcpy, "memcpy", false},
        {K::Memcpy, "memset", false},              {K::Memcpy, "__amd_rocclr_copybuffer", false},
        {K::Memcpy, "__amd_rocclr_fillbuffer", false},
        {K::Attention, "flash", false},            {K::Attention, "fmha", false},
        {K::Attention, "attn", false},             {K::Attention, "attention", false},
        // "gemm" but not inside "fbgemm": fbgemm_gpu's embedding, quantize and permute kernels
        // (split_embedding_*, _FP8rowwise_to_float, permute_2D_data) live in namespace fbgemm_gpu or
        // take fbgemm_gpu:: types, and are no GEMMs. std::regex has no lookbehind, hence the spelling.
        {K::Gemm, "(^|[^b]|(^|[^f])b)gemm", true}, {K::Gemm, "gemv", false},
        {K::Gemm, "cutlass", false},               {K::Gemm, "Cijk_", false},
        {K::Gemm, "nvjet", false},                 {K::Gemm, "xmma", false},
        {K::Gemm, "MT[0-9]+x[0-9]+x[0-9]+", true}, {K::Gemm, "ampere_.*gemm", true},
    };
}

KernelClassifier::KernelClassifier() : KernelClassifier(defaultRules()) {}

KernelClassifier::KernelClassifier(std::vector<ClassRule> rules) : m_rules(std::move(rules))
{
    for (std::size_t i = 0; i < m_rules.size(); ++i) {
        const auto& r = m_rules[i];
        m_lowerPatterns.push_back(lower(r.pattern));
        try {
            m_regexes.emplace_back(r.isRegex ? std::regex(r.pattern, std::regex::icase | std::regex::optimize)
                                             : std::regex());
        } catch (const std::regex_error& e) {
            throw std::runtime_error("kernel class rule " + std::to_string(i + 1) + ": bad regex '" + r.pattern +
                                     "': " + e.what());
        }
    }
}

KernelClassifier KernelClassifier::fromJson(const nlohmann::json& rules)
{
    if (!rules.is_array())
        throw std::runtime_error("kernel class rules: expected a JSON array of rules");
    std::vector<ClassRule> out;
    for (std::size_t i = 0; i < rules.size(); ++i) {
        const auto& r = rules[i];
        const std::string where = "kernel class rule " + std::to_string(i + 1);
        if (!r.is_object() || !r.contains("class") || !r["class"].is_string())
            throw std::runtime_error(where + ": needs a \"class\" string");
        ClassRule rule;
        if (!kernelClassFromString(r["class"].get<std::string>(), rule.kernelClass))
            throw std::runtime_error(where + ": unknown class '" + r["class"].get<std::string>() +
                                     "' (gemm, attention, communication, memcpy, other)");
        if (r.contains("regex") && r["regex"].is_string()) {
            rule.pattern = r["regex"].get<std::string>();
            rule.isRegex = true;
        } else if (r.contains("substring") && r["substring"].is_string()) {
            rule.pattern = r["substring"].get<std::string>();
        } else {
            throw std::runtime_error(where + ": needs a \"substring\" or \"regex\" string");
        }
        out.push_back(std::move(rule));
    }
    return KernelClassifier(std::move(out));
}

nlohmann::json KernelClassifier::toJson() const
{
    nlohmann::json out = nlohmann::json::array();
    for (const auto& r : m_rules)
        out.push_back({{"class", toString(r.kernelClass)}, {r.isRegex ? "regex" : "substring", r.pattern}});
    return out;
}

KernelClass KernelClassifier::classify(std::string_view name) const
{
    const std::string l = lower(name);
    for (std::size_t i = 0; i < m_rules.size(); ++i) {
        const bool hit = m_rules[i].isRegex ? std::regex_search(name.begin(), name.end(), m_regexes[i])
                                            : l.find(m_lowerPatterns[i]) != std::string::npos;
        if (hit)
            return m_rules[i].kernelClass;
    }
    return KernelClass::Other;
}
} // namespace rl::trace

namespace rl {
const char* toString(KernelClass c)
{
    switch (c) {
    case KernelClass::Gemm: return "gemm";
    case KernelClass::Attention: return "attention";
    case KernelClass::Communication: return "communication";
    case KernelClass::Memcpy: return "memcpy";
    case KernelClass::Other: return "other";
    }
    return "other";
}

bool kernelClassFromString(std::string_view s, KernelClass& out)
{
    for (auto c : {KernelClass::Gemm, KernelClass::Attention, KernelClass::Communication, KernelClass::Memcpy,
                   KernelClass::Other})
        if (s == toString(c)) {
            out = c;
            return true;
        }
    if (s == "elementwise") {
        out = KernelClass::Other;
        return true;
    }
    return false;
}
} // namespace rl
