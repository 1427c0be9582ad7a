#include "store/modelconfigs.h"

#include "records/session.h"
#include "store/database.h"

namespace rl::store {

void saveModelConfig(Database& db, const std::string& name, const std::string& json)
{
    Statement q(db, "INSERT INTO model_configs (name, config, saved) VALUES (?, ?, ?) "
                    "ON CONFLICT(name) DO UPDATE SET config = excluded.config, saved = excluded.saved");
    q.bind(1, name).bind(2, json).bind(3, nowIso8601()).run();
}

std::vector<SavedModelConfig> savedModelConfigs(Database& db)
{
    Statement q(db, "SELECT name, config, saved FROM model_configs ORDER BY name");
    std::vector<SavedModelConfig> out;
    while (q.step())
        out.push_back({q.text(0), q.text(1), q.text(2)});
    return out;
}

std::optional<SavedModelConfig> savedModelConfig(Database& db, const std::string& name)
{
    Statement q(db, "SELECT name, config, saved FROM model_configs WHERE name = ?");
    q.bind(1, name);
    if (!q.step())
        return std::nullopt;
    return SavedModelConfig{q.text(0), q.text(1), q.text(2)};
}
} // namespace rl::store
