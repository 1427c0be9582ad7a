#pragma once
// Model configurations saved in the workspace by name, as the sizing model's own JSON
// (model::toJson), so a lab's candidate configurations travel with its measurements.
#include <optional>
#include <string>
#include <vector>

namespace rl::store {
class Database;

struct SavedModelConfig
{
    std::string name;
    std::string json;
    std::string saved; // ISO 8601
};

// Inserts or replaces the configuration called `name`.
void saveModelConfig(Database& db, const std::string& name, const std::string& json);
std::vector<SavedModelConfig> savedModelConfigs(Database& db); // by name
std::optional<SavedModelConfig> savedModelConfig(Database& db, const std::string& name);
} // namespace rl::store
