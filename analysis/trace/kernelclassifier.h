#pragma once
// Kernel classes by editable, ordered rules: the first rule that matches a kernel name wins.
// Rules are case-insensitive substrings or ECMAScript regexes, loadable from JSON:
//   [{"class": "gemm", "substring": "cutlass"}, {"class": "gemm", "regex": "MT\\d+x\\d+x\\d+"}, ...]
#include <cstdint>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "records/tracerecords.h"

namespace rl::trace {

struct ClassRule
{
    KernelClass kernelClass = KernelClass::Other;
    std::string pattern;
    bool isRegex = false;
};

class KernelClassifier
{
public:
    KernelClassifier(); // the built-in rules
    explicit KernelClassifier(std::vector<ClassRule> rules);
    // Throws std::runtime_error naming the rule index for unknown classes or bad regexes.
    static KernelClassifier fromJson(const nlohmann::json& rules);
    static std::vector<ClassRule> defaultRules();
    nlohmann::json toJson() const;

    // Names matching no rule are Other ("elementwise/other").
    KernelClass classify(std::string_view kernelName) const;
    const std::vector<ClassRule>& rules() const { return m_rules; }

private:
    std::vector<ClassRule> m_rules;
    std::vector<std::string> m_lowerPatterns;
    std::vector<std::regex> m_regexes; // parallel to m_rules (empty regex for substring rules)
};
} // namespace rl::trace
