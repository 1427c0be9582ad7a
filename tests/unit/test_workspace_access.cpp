// Issue 26, items 7 and 9: a workspace that cannot be written is browsed read-only (a killed run
// in it still lists as incomplete) and every write names the file and says why it was refused;
// a lock another process holds is waited for with a message naming the holder, then given up.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "../cli/readonlymount.h"
#include "tempdir.h"
#include "store/database.h"
#include "store/migrations.h"
#include "store/workspace.h"

using namespace rl;
using rl::store::Workspace;
using rl::test::ReadOnlyMount;
using rl::test::TempDir;
namespace fs = std::filesystem;

namespace {
CollectivePoint point(std::int64_t bytes, double us)
{
    CollectivePoint p;
    p.op = "all_reduce";
    p.nranks = 2;
    p.bytes = bytes;
    p.timeUs = us;
    p.algbwGBs = double(bytes) / us / 1e3;
    p.busbwGBs = p.algbwGBs;
    return p;
}

// The message of the StoreError that f throws, or "" when it throws none.
template <typename F>
std::string errorOf(F f)
{
    try {
        f();
    } catch (const store::StoreError& e) {
        return e.what();
    }
    return {};
}

std::vector<std::string> filesIn(const fs::path& folder)
{
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(folder))
        names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}
} // namespace

TEST(ReadOnlyWorkspace, IsBrowsedAndEveryWriteNamesTheFileAndSaysWhy)
{
    TempDir dir;
    const auto file = (dir.path / "w.db").string();
    std::int64_t id = 0;
    {
        Workspace ws(file);
        Session s;
        s.title = "measured";
        id = ws.createSession(s);
        ws.addCollectivePoint(id, point(1024, 3.0));
    } // closed: the last connection checkpointed WAL and removed -wal and -shm
    ASSERT_EQ(filesIn(dir.path), std::vector<std::string>{"w.db"});
    ReadOnlyMount readOnly(dir.path);
    if (!readOnly.error().empty())
        GTEST_SKIP() << "cannot make a read-only folder here: " << readOnly.error();

    Workspace ws(file);
    EXPECT_TRUE(ws.readOnly());
    EXPECT_EQ(ws.schemaVersion(), store::latestSchemaVersion());
    ASSERT_EQ(ws.sessions().size(), 1u);
    EXPECT_EQ(ws.sessions()[0].title, "measured");
    ASSERT_EQ(ws.collectivePoints(id).size(), 1u);
    EXPECT_EQ(ws.collectivePoints(id)[0].bytes, 1024);
    EXPECT_EQ(ws.markOrphanedRuns(), 0); // a browse that would write: nothing, no error
    Workspace second(file);               // the GUI opens one connection per worker
    EXPECT_EQ(second.sessions().size(), 1u);

    const std::string write = errorOf([&] { ws.setTitle(id, "renamed"); });
    EXPECT_NE(write.find(file + " is read-only (on a read-only file system): cannot write to it"), std::string::npos)
        << write;
    const std::string early = errorOf([&] { ws.requireWritable("import into it"); });
    EXPECT_NE(early.find(file + " is read-only"), std::string::npos) << early;
    EXPECT_NE(early.find("cannot import into it"), std::string::npos) << early;
    EXPECT_NE(errorOf([&] { ws.addCollectivePoint(id, point(8, 1.0)); }).find("is read-only"), std::string::npos);
    EXPECT_EQ(ws.sessions()[0].title, "measured");
}

// A run killed mid-way leaves its status "running" and its last points in -wal (and -shm): in a
// folder that cannot be written it lists as incomplete, with those points, and nothing is written.
TEST(ReadOnlyWorkspace, KilledRunListsAsIncompleteWithItsPoints)
{
    TempDir dir;
    const auto file = (dir.path / "w.db").string();
    const pid_t writer = ::fork();
    ASSERT_GE(writer, 0);
    if (writer == 0) {
        try {
            Workspace ws(file);
            Session s;
            s.title = "killed";
            s.status = SessionStatus::Running;
            s.host = hostName();
            s.writerPid = ::getpid();
            const auto id = ws.createSession(s);
            ws.addCollectivePoint(id, point(8, 1.0));
            ws.addCollectivePoint(id, point(1024, 3.0));
            ::_exit(0); // as a kill: no destructor closes the workspace, -wal keeps the points
        } catch (...) {
            ::_exit(1);
        }
    }
    int status = 0;
    ASSERT_EQ(::waitpid(writer, &status, 0), writer);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    ASSERT_TRUE(fs::exists(file + "-wal"));
    ReadOnlyMount readOnly(dir.path);
    if (!readOnly.error().empty())
        GTEST_SKIP() << "cannot make a read-only folder here: " << readOnly.error();

    Workspace ws(file);
    EXPECT_TRUE(ws.readOnly());
    EXPECT_EQ(ws.markOrphanedRuns(), 0);
    const auto sessions = ws.sessions();
    ASSERT_EQ(sessions.size(), 1u);
    EXPECT_EQ(sessions[0].title, "killed");
    EXPECT_EQ(sessions[0].status, SessionStatus::Incomplete);
    EXPECT_EQ(ws.session(sessions[0].id)->status, SessionStatus::Incomplete);
    EXPECT_EQ(ws.collectivePoints(sessions[0].id).size(), 2u);
}

// A workspace of an older schema cannot be upgraded where it cannot be written: said, not half done.
TEST(ReadOnlyWorkspace, OlderSchemaSaysItCannotBeUpgradedThere)
{
    TempDir dir;
    const auto file = (dir.path / "w.db").string();
    {
        store::Database db(file, true);
        db.exec(store::migrations().front().sql);
        db.exec("PRAGMA user_version = 1");
    }
    ReadOnlyMount readOnly(dir.path);
    if (!readOnly.error().empty())
        GTEST_SKIP() << "cannot make a read-only folder here: " << readOnly.error();
    const std::string error = errorOf([&] { Workspace ws(file); });
    EXPECT_NE(error.find(file + " is read-only"), std::string::npos) << error;
    EXPECT_NE(error.find("cannot upgrade it from schema version 1"), std::string::npos) << error;
}

namespace {
// Another process holding the workspace's lock: BEGIN EXCLUSIVE (rollback journal: readers wait
// too) or BEGIN IMMEDIATE (WAL: writers wait), until the object goes.
class LockHolder
{
public:
    LockHolder(const std::string& file, const char* begin)
    {
        int ready[2], release[2];
        if (::pipe(ready) != 0 || ::pipe(release) != 0)
            return;
        m_pid = ::fork();
        if (m_pid == 0) {
            ::close(ready[0]);
            ::close(release[1]);
            try {
                store::Database db(file, false);
                db.exec(begin);
                (void)!::write(ready[1], "x", 1);
                char c;
                (void)!::read(release[0], &c, 1); // until the parent closes its end
            } catch (...) {
            }
            ::_exit(0);
        }
        ::close(ready[1]);
        ::close(release[0]);
        m_release = release[1];
        char c;
        m_holding = ::read(ready[0], &c, 1) == 1;
        ::close(ready[0]);
    }
    ~LockHolder()
    {
        if (m_release >= 0)
            ::close(m_release);
        if (m_pid > 0)
            ::waitpid(m_pid, nullptr, 0);
    }
    bool holding() const { return m_holding; }
    pid_t pid() const { return m_pid; }

private:
    pid_t m_pid = -1;
    int m_release = -1;
    bool m_holding = false;
};

// A short wait for the tests, its messages kept; the default again afterwards.
struct ShortLockWait
{
    std::vector<std::string> messages;
    ShortLockWait()
    {
        store::LockWait wait;
        wait.timeout = std::chrono::milliseconds(1500);
        wait.sayAfter = std::chrono::milliseconds(200);
        wait.onWaiting = [this](const std::string& m) { messages.push_back(m); };
        store::setLockWait(wait);
    }
    ~ShortLockWait() { store::setLockWait({}); }
};

std::string workspaceIn(const TempDir& dir, const char* journalMode)
{
    const auto file = (dir.path / "w.db").string();
    Workspace ws(file);
    ws.database().exec(std::string("PRAGMA journal_mode=") + journalMode);
    return file;
}
} // namespace

// Rollback journal: a reader waits while another process writes; it said nothing for 10 s, then
// "database is locked". Now it says whom it waits for, and names it again when it gives up.
TEST(WorkspaceLock, RollbackJournalWaitIsSaidWithTheHolderAndGivenUp)
{
    TempDir dir;
    const auto file = workspaceIn(dir, "DELETE");
    ShortLockWait wait;
    LockHolder holder(file, "BEGIN EXCLUSIVE");
    ASSERT_TRUE(holder.holding());
    const std::string holderName = "process " + std::to_string(holder.pid());
    const auto started = std::chrono::steady_clock::now();
    const std::string error = errorOf([&] { Workspace ws(file); });
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));
    EXPECT_NE(error.find(file + ": locked by " + holderName + " ("), std::string::npos) << error;
    EXPECT_NE(error.find("gave up waiting"), std::string::npos) << error;
    ASSERT_EQ(wait.messages.size(), 1u);
    EXPECT_EQ(wait.messages[0].rfind("waiting for " + file + ": locked by " + holderName, 0), 0u) << wait.messages[0];
}

// Same file, the other process only reserved it for writing: reading works; the switch to WAL
// waits for it (in a loop of its own, not SQLite's busy handler) and says so the same way.
TEST(WorkspaceLock, RollbackJournalWriterHoldingItIsSaidToo)
{
    TempDir dir;
    const auto file = workspaceIn(dir, "DELETE");
    ShortLockWait wait;
    LockHolder holder(file, "BEGIN IMMEDIATE");
    ASSERT_TRUE(holder.holding());
    const std::string error = errorOf([&] { Workspace ws(file); });
    EXPECT_NE(error.find("locked by process " + std::to_string(holder.pid())), std::string::npos) << error;
    EXPECT_EQ(wait.messages.size(), 1u);
}

// WAL, as before but now also said: a writer waits for another process's write transaction.
TEST(WorkspaceLock, WalWriterWaitIsSaidWithTheHolder)
{
    TempDir dir;
    const auto file = workspaceIn(dir, "WAL");
    ShortLockWait wait;
    LockHolder holder(file, "BEGIN IMMEDIATE");
    ASSERT_TRUE(holder.holding());
    Workspace ws(file); // after the fork: a connection must not be carried into a child
    EXPECT_EQ(ws.sessions().size(), 0u); // readers do not wait in WAL mode
    const std::string error = errorOf([&] { ws.createSession(Session{}); });
    EXPECT_NE(error.find("locked by process " + std::to_string(holder.pid())), std::string::npos) << error;
    ASSERT_EQ(wait.messages.size(), 1u);
    EXPECT_NE(wait.messages[0].find("locked by process " + std::to_string(holder.pid())), std::string::npos);
}
