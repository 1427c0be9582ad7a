#pragma once
// The fixture of the GPU tool CLI tests (test_cli_gputools, test_cli_nvtools): a workspace and a
// user data dir of their own (no tools.json of the machine's user), the stand-ins' controls reset,
// ridgeline-cli's argv on that workspace and the sessions it stored.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "tempdir.h"
#include "store/workspace.h"

namespace rl::test {
class GpuToolCli : public ::testing::Test
{
protected:
    TempDir dir;
    std::filesystem::path db = dir.path / "ws.db";

    void SetUp() override
    {
        setenv("XDG_DATA_HOME", (dir.path / "data").c_str(), 1);
        for (const char* v : {"STANDIN_DELAY_MS", "STANDIN_FAIL_AFTER", "STANDIN_HANG_AFTER", "STANDIN_WRONG_ROW",
                              "STANDIN_FLAVOR", "STANDIN_FAIL_ON_STDERR", "STANDIN_GPUS"})
            unsetenv(v);
        setenv("STANDIN_DELAY_MS", "5", 1);
    }
    std::vector<std::string> cli(std::vector<std::string> args) const
    {
        std::vector<std::string> argv{RIDGELINE_CLI, "--db", db.string()};
        argv.insert(argv.end(), args.begin(), args.end());
        return argv;
    }
    std::vector<Session> sessions()
    {
        store::Workspace ws(db.string());
        return ws.sessions();
    }
};
} // namespace rl::test
