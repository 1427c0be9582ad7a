#include "store/database.h"

#include <sqlite3.h>

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <thread>

#include "store/lockholder.h"

namespace rl::store {
namespace fs = std::filesystem;

namespace {
LockWait& processLockWait()
{
    static LockWait wait;
    return wait;
}

std::string seconds(std::chrono::milliseconds ms) { return std::to_string((ms.count() + 500) / 1000) + " s"; }

// Why a file (or the file a path would be) cannot be written, in words; empty when it can. A
// workspace writes beside its file too (-journal, or -wal and -shm), so its folder counts.
std::string whyReadOnly(const std::string& path)
{
    const fs::path file(path);
    const fs::path folder = file.parent_path().empty() ? fs::path(".") : file.parent_path();
    const auto because = [](const std::string& what, int err) {
        return err == EROFS ? std::string("on a read-only file system") : what + " cannot be written";
    };
    std::error_code ec;
    if (fs::exists(file, ec) && ::access(path.c_str(), W_OK) != 0)
        return because("the file", errno);
    if (::access(folder.c_str(), W_OK) != 0)
        return because("its folder " + folder.string(), errno);
    return {};
}

// file:PATH?immutable=1 with the path percent-encoded, as SQLite's URI filenames require.
std::string immutableUri(const std::string& path)
{
    static const char* hex = "0123456789ABCDEF";
    std::string uri = "file:";
    for (unsigned char c : path) {
        if (std::isalnum(c) || c == '/' || c == '.' || c == '-' || c == '_' || c == '~') {
            uri += static_cast<char>(c);
        } else {
            uri += '%';
            uri += hex[c >> 4];
            uri += hex[c & 15];
        }
    }
    return uri + "?immutable=1";
}

int readSchema(sqlite3* db)
{
    return sqlite3_exec(db, "SELECT count(*) FROM sqlite_master", nullptr, nullptr, nullptr);
}
} // namespace

void setLockWait(LockWait wait) { processLockWait() = std::move(wait); }

Database::Database(const std::string& path, bool create) : m_path(path)
{
    std::error_code ec;
    const bool exists = fs::exists(path, ec);
    m_readOnlyBecause = whyReadOnly(path);
    if (!exists && readOnly() && create)
        throw StoreError(path + ": cannot create a workspace there: " + m_readOnlyBecause);
    try {
        if (!readOnly()) {
            open(path, SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0));
            // SQLite opens read-only by itself when the file refuses writing in a way the checks
            // above did not see (another user's file under a network file system's rules).
            if (sqlite3_db_readonly(m_db, "main") == 1)
                m_readOnlyBecause = "the file cannot be opened for writing";
        } else {
            open(path, SQLITE_OPEN_READONLY);
            // A WAL file is read through its -shm index, which SQLite creates beside it when
            // absent (once the last connection has closed it is gone). Where it cannot be created
            // SQLite reads the file only as immutable: no index, no locks, the -wal ignored
            // (https://www.sqlite.org/wal.html#readonly). Both are fine here: a folder no one can
            // write to has no writer appending to a -wal, and with no -shm there is no -wal with
            // content either, as the last writer to close checkpointed it.
            if ((readSchema(m_db) & 0xff) == SQLITE_CANTOPEN && !fs::exists(path + "-shm", ec)) {
                sqlite3_close_v2(m_db);
                m_db = nullptr;
                open(immutableUri(path), SQLITE_OPEN_READONLY | SQLITE_OPEN_URI);
            }
        }
        // Fails here, not later, when the file is not an SQLite database.
        if (const int rc = readSchema(m_db); rc != SQLITE_OK)
            failWith(rc, "cannot open workspace", sqlite3_errmsg(m_db));
        exec("PRAGMA foreign_keys=ON");
    } catch (...) {
        sqlite3_close_v2(m_db);
        m_db = nullptr;
        throw;
    }
}

void Database::open(const std::string& target, int flags)
{
    if (sqlite3_open_v2(target.c_str(), &m_db, flags | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK) {
        std::string msg = m_db ? sqlite3_errmsg(m_db) : "out of memory";
        sqlite3_close_v2(m_db);
        m_db = nullptr;
        throw StoreError(m_path + ": cannot open workspace: " + msg);
    }
    sqlite3_extended_result_codes(m_db, 1);
    sqlite3_busy_handler(m_db, &Database::waitForLock, this);
}

void Database::useWal()
{
    if (readOnly())
        return;
    // Switching a file to WAL takes an exclusive lock and returns SQLITE_BUSY at once, without
    // the busy handler, when another connection opens it at the same moment: retry for the
    // lock wait's timeout.
    for (int attempt = 0;; ++attempt) {
        const int rc = sqlite3_exec(m_db, "PRAGMA journal_mode=WAL", nullptr, nullptr, nullptr);
        if (rc == SQLITE_OK)
            break;
        if ((rc & 0xff) != SQLITE_BUSY || !waitForLock(this, attempt))
            failWith(rc, "cannot open workspace", sqlite3_errmsg(m_db));
    }
    exec("PRAGMA synchronous=NORMAL");
}

// SQLite's busy handler (and useWal's): called while another connection holds a lock this one
// needs, with the number of times it has been called for this wait; returning 0 gives up.
int Database::waitForLock(void* self, int attempt)
{
    auto& db = *static_cast<Database*>(self);
    const LockWait& how = processLockWait();
    const auto now = std::chrono::steady_clock::now();
    if (attempt == 0) {
        db.m_waitStarted = now;
        db.m_saidWaiting = false;
    }
    const auto waited = now - db.m_waitStarted;
    if (waited >= how.timeout) {
        db.m_lockHolder = describeLockHolder(db.m_path);
        return 0;
    }
    if (!db.m_saidWaiting && waited >= how.sayAfter) {
        db.m_saidWaiting = true;
        db.m_lockHolder = describeLockHolder(db.m_path);
        if (how.onWaiting)
            how.onWaiting("waiting for " + db.m_path + ": locked by " + db.m_lockHolder + "; giving up after " +
                          seconds(how.timeout));
    }
    // Short sleeps first: most locks are a commit that ends within milliseconds.
    const auto nap = std::chrono::milliseconds(attempt < 10 ? 2 : 20);
    std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(nap, how.timeout - waited));
    return 1;
}

Database::~Database() { sqlite3_close_v2(m_db); }

void Database::failReadOnly(const std::string& what) const
{
    const std::string why = readOnly() ? m_readOnlyBecause : "opened read-only";
    throw StoreError(m_path + " is read-only (" + why + "): cannot " + what);
}

void Database::failWith(int rc, const std::string& what, const std::string& sqliteMessage) const
{
    switch (rc & 0xff) {
    case SQLITE_READONLY:
        failReadOnly("write to it"); // whatever the statement was, a write is what it was refused
    case SQLITE_BUSY: {
        const std::string holder = m_lockHolder.empty() ? describeLockHolder(m_path) : m_lockHolder;
        throw StoreError(m_path + ": locked by " + holder + " for more than " + seconds(processLockWait().timeout) +
                         "; gave up waiting (try again when it has finished)");
    }
    default:
        throw StoreError(m_path + ": " + what + ": " + sqliteMessage);
    }
}

void Database::fail(const std::string& what) const { failWith(sqlite3_extended_errcode(m_db), what, sqlite3_errmsg(m_db)); }

void Database::exec(std::string_view sql)
{
    char* err = nullptr;
    const std::string s(sql);
    if (const int rc = sqlite3_exec(m_db, s.c_str(), nullptr, nullptr, &err); rc != SQLITE_OK) {
        std::string msg = err ? err : "unknown error";
        sqlite3_free(err);
        if (const int primary = rc & 0xff; primary == SQLITE_READONLY || primary == SQLITE_BUSY)
            failWith(rc, {}, msg); // said in our words: read-only, or locked by whom
        throw StoreError(m_path + ": " + msg);
    }
}

std::int64_t Database::lastInsertId() const { return sqlite3_last_insert_rowid(m_db); }
int Database::changes() const { return sqlite3_changes(m_db); }

Statement::Statement(Database& db, std::string_view sql) : m_db(db)
{
    if (sqlite3_prepare_v2(db.handle(), sql.data(), static_cast<int>(sql.size()), &m_stmt, nullptr) != SQLITE_OK)
        db.fail("prepare failed");
}

Statement::~Statement() { sqlite3_finalize(m_stmt); }

Statement& Statement::bind(int i, std::int64_t v)
{
    if (sqlite3_bind_int64(m_stmt, i, v) != SQLITE_OK)
        m_db.fail("bind failed");
    return *this;
}
Statement& Statement::bind(int i, double v)
{
    if (sqlite3_bind_double(m_stmt, i, v) != SQLITE_OK)
        m_db.fail("bind failed");
    return *this;
}
Statement& Statement::bind(int i, std::string_view v)
{
    if (sqlite3_bind_text(m_stmt, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT) != SQLITE_OK)
        m_db.fail("bind failed");
    return *this;
}
Statement& Statement::bindBlob(int i, std::string_view bytes)
{
    if (sqlite3_bind_blob64(m_stmt, i, bytes.data(), bytes.size(), SQLITE_TRANSIENT) != SQLITE_OK)
        m_db.fail("bind failed");
    return *this;
}
Statement& Statement::bindNull(int i)
{
    if (sqlite3_bind_null(m_stmt, i) != SQLITE_OK)
        m_db.fail("bind failed");
    return *this;
}

bool Statement::step()
{
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW)
        return true;
    if (rc == SQLITE_DONE)
        return false;
    m_db.fail("query failed");
}

void Statement::run()
{
    while (step()) {
    }
    reset();
}

void Statement::reset()
{
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
}

std::int64_t Statement::int64(int c) const { return sqlite3_column_int64(m_stmt, c); }
double Statement::real(int c) const { return sqlite3_column_double(m_stmt, c); }
bool Statement::isNull(int c) const { return sqlite3_column_type(m_stmt, c) == SQLITE_NULL; }
std::string Statement::text(int c) const
{
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(m_stmt, c));
    return p ? std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, c))) : std::string();
}

std::string_view Statement::textView(int c) const
{
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(m_stmt, c));
    return p ? std::string_view(p, static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, c))) : std::string_view();
}

std::string_view Statement::blobView(int c) const
{
    const auto* p = static_cast<const char*>(sqlite3_column_blob(m_stmt, c));
    return p ? std::string_view(p, static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, c))) : std::string_view();
}

Transaction::Transaction(Database& db) : m_db(db) { m_db.exec("BEGIN IMMEDIATE"); }
Transaction::~Transaction()
{
    if (!m_done) {
        try {
            m_db.exec("ROLLBACK");
        } catch (...) {
        }
    }
}
void Transaction::commit()
{
    m_db.exec("COMMIT");
    m_done = true;
}

ReadSnapshot::ReadSnapshot(Database& db) : m_db(db)
{
    if (sqlite3_get_autocommit(m_db.handle()) != 0) {
        m_db.exec("BEGIN");
        m_began = true;
    }
}
ReadSnapshot::~ReadSnapshot()
{
    if (m_began)
        sqlite3_exec(m_db.handle(), "COMMIT", nullptr, nullptr, nullptr); // reads only: nothing to lose
}
} // namespace rl::store
