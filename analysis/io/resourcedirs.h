#pragma once
// Where the shipped data files (hardware profiles, model presets, sample data) are found, in the
// order a program looks: next to the running executable as `cmake --install` lays it out
// (<prefix>/bin/../share/ridgeline, whatever prefix was chosen at install time), the install
// directory configured at build time, then the source tree (running from a build directory).
#include <filesystem>
#include <string>
#include <vector>

namespace rl::io {
std::vector<std::filesystem::path> resourceDirCandidates();

// The first candidate that has `subdir` (e.g. "hardware"), as candidate/subdir; the source tree's
// when none has it, so error messages still name a real place to put files.
std::filesystem::path findResourceDir(const std::string& subdir);
} // namespace rl::io
