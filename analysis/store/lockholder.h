#pragma once
// Who holds an SQLite file's lock, for the message a waiting command prints. SQLite locks with
// POSIX record locks, which Linux lists in /proc/locks with the owner's pid: the rollback
// journal's lock bytes are in the database file, WAL's writer lock in its -shm file.
#include <string>

namespace rl::store {
// "process 1234 (ridgeline-cli run collectives --np 8)", "another connection in this process",
// or "another process" when no lock is listed (gone by now, or a system without /proc/locks).
std::string describeLockHolder(const std::string& databasePath);
} // namespace rl::store
