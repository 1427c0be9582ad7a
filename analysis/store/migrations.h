#pragma once
// Forward-only schema migrations. PRAGMA user_version holds the version a file is at; migration i
// takes a file from version i to i + 1. Never edit a released migration: append a new one.
#include <string_view>
#include <vector>

namespace rl::store {
struct Migration
{
    int toVersion;
    std::string_view sql;
};
const std::vector<Migration>& migrations();
int latestSchemaVersion();
} // namespace rl::store
