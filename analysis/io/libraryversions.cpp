#include "io/libraryversions.h"

#include <sqlite3.h>

#include <Eigen/Core>
#include <simdjson.h>

#ifndef RIDGELINE_MPI_LIBRARY
#define RIDGELINE_MPI_LIBRARY "not built"
#endif

namespace rl::io {
namespace {
#define RL_STRINGIFY_IMPL(x) #x
#define RL_STRINGIFY(x) RL_STRINGIFY_IMPL(x)
} // namespace

std::vector<std::pair<std::string, std::string>> libraryVersions()
{
    return {
        {"SQLite", sqlite3_libversion()},
        {"simdjson", RL_STRINGIFY(SIMDJSON_VERSION)},
        {"Eigen", std::to_string(EIGEN_WORLD_VERSION) + "." + std::to_string(EIGEN_MAJOR_VERSION) + "." +
                      std::to_string(EIGEN_MINOR_VERSION)},
        {"MPI (ridgeline-bench)", RIDGELINE_MPI_LIBRARY},
    };
}
} // namespace rl::io
