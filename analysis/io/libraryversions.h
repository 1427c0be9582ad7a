#pragma once
// The versions of the libraries Ridgeline is built with, Qt-free so the CLI and the GUI's About
// dialog report the same: SQLite (the one linked, at run time), simdjson, Eigen and the MPI that
// ridgeline-bench was built against (the analysis library does not link MPI: "not built" when
// CMake found none).
#include <string>
#include <utility>
#include <vector>

namespace rl::io {

// (library, version) pairs in a fixed order.
std::vector<std::pair<std::string, std::string>> libraryVersions();
} // namespace rl::io
