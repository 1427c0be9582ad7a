#pragma once
// A thin RAII layer over the SQLite C API: one Database per connection (one per thread), prepared
// Statements with typed binds, and a Transaction guard that rolls back unless committed.
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace rl::store {

class StoreError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

// How a connection waits while another process holds the file's lock (a benchmark writing, a
// long import, a rollback-journal reader): it says so once the wait is noticeable, naming the
// holder, and gives up after the timeout with the same name in the error.
struct LockWait
{
    std::chrono::milliseconds timeout{10000};
    std::chrono::milliseconds sayAfter{1000};
    std::function<void(const std::string& message)> onWaiting; // empty: wait without a word
};
// Process-wide, set once at start before any connection opens (the CLI prints to stderr).
void setLockWait(LockWait wait);

class Database
{
public:
    // Opens (creating when allowed) with foreign keys and the lock wait above. A file or folder
    // that cannot be written is opened read-only rather than refused: browsing never writes.
    // Nothing here writes the file; the caller switches it to WAL (useWal) once it knows the
    // file is one it may change.
    Database(const std::string& path, bool create);
    ~Database();
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;

    // WAL lets a reader and a benchmark writer share the file. Writes the header of a
    // rollback-journal file; a read-only connection keeps the mode the file has.
    void useWal();
    bool readOnly() const { return !m_readOnlyBecause.empty(); }
    // "the folder /x cannot be written"; empty when writable.
    const std::string& readOnlyBecause() const { return m_readOnlyBecause; }
    // "<file> is read-only (why): cannot <what>": what every refused write says.
    [[noreturn]] void failReadOnly(const std::string& what) const;

    void exec(std::string_view sql);
    std::int64_t lastInsertId() const;
    int changes() const;
    const std::string& path() const { return m_path; }
    sqlite3* handle() const { return m_db; }
    [[noreturn]] void fail(const std::string& what) const;

private:
    void open(const std::string& target, int flags);
    [[noreturn]] void failWith(int rc, const std::string& what, const std::string& sqliteMessage) const;
    static int waitForLock(void* self, int attempt);

    sqlite3* m_db = nullptr;
    std::string m_path;
    std::string m_readOnlyBecause;
    std::chrono::steady_clock::time_point m_waitStarted;
    bool m_saidWaiting = false;
    std::string m_lockHolder; // who the last wait was for, for the error when it gives up
};

class Statement
{
public:
    Statement(Database& db, std::string_view sql);
    ~Statement();
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    Statement& bind(int index, std::int64_t v);
    Statement& bind(int index, int v) { return bind(index, static_cast<std::int64_t>(v)); }
    Statement& bind(int index, double v);
    Statement& bind(int index, std::string_view v);
    Statement& bind(int index, const char* v) { return bind(index, std::string_view(v)); }
    Statement& bind(int index, const std::string& v) { return bind(index, std::string_view(v)); }
    Statement& bindNull(int index);
    Statement& bindBlob(int index, std::string_view bytes);
    Statement& bind(int index, const std::optional<std::int64_t>& v)
    {
        return v ? bind(index, *v) : bindNull(index);
    }

    bool step();   // true while a row is available
    void run();    // step to completion, then reset
    void reset();

    std::int64_t int64(int col) const;
    double real(int col) const;
    std::string text(int col) const;
    // The column's text without a copy: valid until the next step(), reset() or column read.
    std::string_view textView(int col) const;
    // A BLOB column's bytes without a copy, under the same rule.
    std::string_view blobView(int col) const;
    bool isNull(int col) const;

private:
    Database& m_db;
    sqlite3_stmt* m_stmt = nullptr;
};

class Transaction
{
public:
    explicit Transaction(Database& db); // BEGIN IMMEDIATE: writers queue instead of deadlocking
    ~Transaction();
    void commit();

private:
    Database& m_db;
    bool m_done = false;
};

// Several statements that must read one state of the file (BEGIN, deferred: a reader takes no
// write lock), ended when it goes out of scope; nothing when a transaction is open already, whose
// own state they then read.
class ReadSnapshot
{
public:
    explicit ReadSnapshot(Database& db);
    ~ReadSnapshot();
    ReadSnapshot(const ReadSnapshot&) = delete;
    ReadSnapshot& operator=(const ReadSnapshot&) = delete;

private:
    Database& m_db;
    bool m_began = false;
};
} // namespace rl::store
