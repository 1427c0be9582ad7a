#pragma once
// A folder under /tmp for one test, removed with everything in it when the test ends.
#include <cstdlib>
#include <filesystem>

namespace rl::test {

struct TempDir
{
    std::filesystem::path path;
    TempDir()
    {
        char tmpl[] = "/tmp/ridgeline-test-XXXXXX";
        path = mkdtemp(tmpl);
    }
    ~TempDir() { std::filesystem::remove_all(path); }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
};
} // namespace rl::test
