#pragma once
// A model config named the way a user names one, in the CLI's CONFIG argument or the GUI's model
// fields: a config.json file, a configuration saved in the workspace, or a preset, in that order.
#include <string>

#include "model/modelconfig.h"

namespace rl::store {
class Workspace;
}

namespace rl::model {

// ws may be null (no workspace yet: files and presets only). Throws std::runtime_error naming
// `nameOrPath`, the workspace and the presets; savedHint says where the saved names are listed
// ("a name `ridgeline-cli config list` shows").
ModelConfig findModelConfig(const std::string& nameOrPath, store::Workspace* ws,
                            const std::string& savedHint = "the name of a config saved in the workspace");
} // namespace rl::model
