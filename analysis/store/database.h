#pragma once
// A thin RAII layer over the SQLite C API: one Database per connection (one per thread), prepared
// Statements with typed binds, and a Transaction guard that rolls back unless committed.
#include <cstdint>
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

class Database
{
public:
    // Opens (creating when allowed) with WAL, foreign keys and a busy timeout so a reader and a
    // benchmark writer can share the file.
    Database(const std::string& path, bool create);
    ~Database();
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;

    void exec(std::string_view sql);
    std::int64_t lastInsertId() const;
    int changes() const;
    const std::string& path() const { return m_path; }
    sqlite3* handle() const { return m_db; }
    [[noreturn]] void fail(const std::string& what) const;

private:
    sqlite3* m_db = nullptr;
    std::string m_path;
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
} // namespace rl::store
