#pragma once
// Forward-only schema migrations. PRAGMA user_version holds the version a file is at; migration i
// takes a file from version i to i + 1. Never edit a released migration: append a new one.
#include <string_view>
#include <vector>

namespace rl::store {
class Database;

struct Migration
{
    int toVersion;
    std::string_view sql;
    // What SQL cannot do, run after `sql` in the same transaction (v9 packs the collective rows
    // into blocks of encoded points); none for most.
    void (*then)(Database&) = nullptr;
};
const std::vector<Migration>& migrations();
int latestSchemaVersion();
} // namespace rl::store
