#include "store/database.h"

#include <sqlite3.h>

#include <chrono>
#include <thread>

namespace rl::store {

Database::Database(const std::string& path, bool create) : m_path(path)
{
    const int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX;
    if (sqlite3_open_v2(path.c_str(), &m_db, flags, nullptr) != SQLITE_OK) {
        std::string msg = m_db ? sqlite3_errmsg(m_db) : "out of memory";
        sqlite3_close(m_db);
        m_db = nullptr;
        throw StoreError(path + ": cannot open workspace: " + msg);
    }
    sqlite3_extended_result_codes(m_db, 1);
    sqlite3_busy_timeout(m_db, 10000);
    try {
        // Fails here, not later, when the file is not an SQLite database. Switching a new file to
        // WAL takes an exclusive lock and returns SQLITE_BUSY at once, without the busy handler,
        // when another connection opens it at the same moment: retry for the busy timeout.
        for (int attempt = 0;; ++attempt) {
            const int rc = sqlite3_exec(m_db, "PRAGMA journal_mode=WAL", nullptr, nullptr, nullptr);
            if (rc == SQLITE_OK)
                break;
            if ((rc & 0xff) != SQLITE_BUSY || attempt >= 1000)
                fail("cannot open workspace");
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        exec("PRAGMA synchronous=NORMAL");
        exec("PRAGMA foreign_keys=ON");
    } catch (...) {
        sqlite3_close(m_db);
        m_db = nullptr;
        throw;
    }
}

Database::~Database() { sqlite3_close_v2(m_db); }

void Database::fail(const std::string& what) const
{
    throw StoreError(m_path + ": " + what + ": " + sqlite3_errmsg(m_db));
}

void Database::exec(std::string_view sql)
{
    char* err = nullptr;
    const std::string s(sql);
    if (sqlite3_exec(m_db, s.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
        std::string msg = err ? err : "unknown error";
        sqlite3_free(err);
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
} // namespace rl::store
