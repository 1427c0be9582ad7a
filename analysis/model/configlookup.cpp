#include "model/configlookup.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "store/modelconfigs.h"
#include "store/workspace.h"

namespace rl::model {

ModelConfig findModelConfig(const std::string& nameOrPath, store::Workspace* ws, const std::string& savedHint)
{
    std::error_code ec;
    if (ws && !std::filesystem::is_regular_file(nameOrPath, ec))
        if (const auto saved = store::savedModelConfig(ws->database(), nameOrPath))
            return fromJson(nlohmann::json::parse(saved->json), ws->path() + ": config '" + nameOrPath + "'");
    const auto presets = presetNames();
    if (!std::filesystem::exists(nameOrPath, ec) && std::find(presets.begin(), presets.end(), nameOrPath) == presets.end()) {
        std::string known;
        for (const auto& n : presets)
            known += (known.empty() ? "" : ", ") + n;
        throw std::runtime_error("'" + nameOrPath + "' is neither a file, a preset nor a config saved in " +
                                 (ws ? ws->path() : std::string("the workspace")) + ": give the path of a config.json, a preset (" +
                                 known + ") or " + savedHint);
    }
    return loadModelConfig(nameOrPath);
}
} // namespace rl::model
