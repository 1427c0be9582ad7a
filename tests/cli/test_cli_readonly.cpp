// Issue 26, items 7 and 9, through the real ridgeline-cli: a workspace on a read-only mount is
// listed, shown and exported, and the commands that write fail at once naming the file and why;
// a workspace another process holds locked is waited for with a message on stderr.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "childprocess.h"
#include "readonlymount.h"
#include "store/database.h"
#include "tempdir.h"

namespace fs = std::filesystem;
using rl::test::runToEnd;

namespace {
std::vector<std::string> cli(const fs::path& db, std::vector<std::string> args)
{
    args.insert(args.begin(), {RIDGELINE_CLI, "--db", db.string()});
    return args;
}

const std::string kLog = std::string(RIDGELINE_TEST_DATA) + "/collectives/nccl_2.13_allreduce_8xh100.txt";
}

TEST(CliReadOnly, BrowsesAReadOnlyWorkspaceAndRefusesWritesNamingTheFile)
{
    rl::test::TempDir dir, out;
    const fs::path db = dir.path / "w.db";
    const auto imported = runToEnd(cli(db, {"import", kLog}));
    ASSERT_EQ(imported.exitCode, 0) << imported.err;
    rl::test::ReadOnlyMount readOnly(dir.path);
    if (!readOnly.error().empty())
        GTEST_SKIP() << "cannot make a read-only folder here: " << readOnly.error();

    const auto listed = runToEnd(cli(db, {"sessions", "--json"}));
    ASSERT_EQ(listed.exitCode, 0) << listed.err;
    const auto sessions = nlohmann::json::parse(listed.out);
    ASSERT_EQ(sessions.size(), 1u);
    const std::string id = std::to_string(sessions[0]["id"].get<int>());
    const auto results = runToEnd(cli(db, {"results", id}));
    EXPECT_EQ(results.exitCode, 0) << results.err;
    EXPECT_NE(results.out.find("all_reduce"), std::string::npos);
    const auto exported = runToEnd(cli(db, {"export", id, "--chart", "bandwidth", "-o", (out.path / "bw.csv").string()}));
    EXPECT_EQ(exported.exitCode, 0) << exported.err;
    EXPECT_TRUE(fs::exists(out.path / "bw.csv"));

    const std::string readOnlyFile = db.string() + " is read-only (on a read-only file system): cannot ";
    const auto import = runToEnd(cli(db, {"import", std::string(RIDGELINE_TEST_DATA) + "/collectives/nccl_2.17_two_collectives.txt"}));
    EXPECT_EQ(import.exitCode, 1);
    EXPECT_NE(import.err.find(readOnlyFile + "import into it"), std::string::npos) << import.err;
    const auto save = runToEnd(cli(db, {"config", "save", "mine", "llama-3-8b"}));
    EXPECT_EQ(save.exitCode, 1);
    EXPECT_NE(save.err.find(readOnlyFile + "save a model configuration in it"), std::string::npos) << save.err;
}

// A rollback-journal workspace another process is writing: `sessions` used to wait 10 s without
// a word; now it says whom it waits for, then gives up naming it.
TEST(CliReadOnly, SaysWhomItWaitsForOnALockedWorkspace)
{
    rl::test::TempDir dir;
    const fs::path db = dir.path / "w.db";
    ASSERT_EQ(runToEnd(cli(db, {"import", kLog})).exitCode, 0);
    {
        rl::store::Database raw(db.string(), false);
        raw.exec("PRAGMA journal_mode=DELETE");
    }
    int ready[2], release[2];
    ASSERT_EQ(::pipe(ready), 0);
    ASSERT_EQ(::pipe(release), 0);
    const pid_t holder = ::fork();
    ASSERT_GE(holder, 0);
    if (holder == 0) {
        ::close(ready[0]);
        ::close(release[1]); // so that the parent's close is the last and read() returns
        try {
            rl::store::Database raw(db.string(), false);
            raw.exec("BEGIN EXCLUSIVE");
            (void)!::write(ready[1], "x", 1);
            char c;
            (void)!::read(release[0], &c, 1);
        } catch (...) {
        }
        ::_exit(0);
    }
    ::close(ready[1]);
    ::close(release[0]);
    char c;
    ASSERT_EQ(::read(ready[0], &c, 1), 1);
    const auto listed = runToEnd(cli(db, {"sessions"}));
    ::close(release[1]);
    ::waitpid(holder, nullptr, 0);
    EXPECT_EQ(listed.exitCode, 1);
    const std::string byHolder = "locked by process " + std::to_string(holder);
    EXPECT_NE(listed.err.find("ridgeline-cli: waiting for " + db.string() + ": " + byHolder), std::string::npos)
        << listed.err;
    EXPECT_NE(listed.err.find(db.string() + ": " + byHolder), std::string::npos) << listed.err;
    EXPECT_NE(listed.err.find("gave up waiting"), std::string::npos) << listed.err;
}
