#pragma once
// Where Ridgeline keeps per-user data (the default workspace, the user's own hardware profiles):
// $XDG_DATA_HOME/ridgeline, else ~/.local/share/ridgeline. Qt-free, so the CLI and the core agree
// with the GUI.
#include <string>

namespace rl::io {
std::string userDataDir();
} // namespace rl::io
