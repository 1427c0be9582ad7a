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
} // namespace rl::io
