#pragma once
// Writes a file so that readers see the old file or the whole new one, never half of it: the
// content goes to PATH.part, is flushed, then renamed over PATH. On failure the .part file is
// removed and std::runtime_error names the path and the reason.
#include <functional>
#include <ostream>
#include <string>

namespace rl::io {
void writeFileAtomically(const std::string& path, const std::function<void(std::ostream&)>& write);
void writeFileAtomically(const std::string& path, const std::string& text);

// Throws std::runtime_error naming PATH, its missing folder and what to do when the folder PATH
// would be written in does not exist: checked before a long job, so it fails at once and says
// more than the writer's bare "No such file or directory" at its end.
void requireOutputFolder(const std::string& path, const std::string& option);
} // namespace rl::io
