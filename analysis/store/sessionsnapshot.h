#pragma once
// Every stored row of some sessions, held in memory: the sessions row, each row of every table
// whose session_id references sessions (found from the schema, so tables added later are
// covered), and the imported_files row they came from. The GUI's Delete keeps one to Undo the
// delete with the same ids, and Copy turns one into CSV or JSON text.
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

namespace rl::store {

class Database;

// One SQLite value: NULL, integer, real, text or blob (kept as bytes in a std::string).
struct SqlBlob
{
    std::string bytes;
};
using SqlValue = std::variant<std::monostate, std::int64_t, double, std::string, SqlBlob>;

struct TableRows
{
    std::string table;
    std::vector<std::string> columns;
    std::vector<std::vector<SqlValue>> rows;
};

struct SessionSnapshot
{
    std::vector<std::int64_t> sessionIds;
    TableRows files;               // imported_files rows the sessions point at
    TableRows sessions;            // the sessions rows
    std::vector<TableRows> records; // per child table (only tables with rows)
    std::size_t recordCount() const;
};

// Reads every row of the sessions (ids that do not exist are skipped).
SessionSnapshot snapshotSessions(Database& db, const std::vector<std::int64_t>& ids);
// Puts the rows back with their ids in one transaction. An imported file deleted with its last
// session comes back too (unless the same content was imported again since: the sessions then
// point at that row). Throws StoreError when a session id is taken again.
void restoreSessions(Database& db, const SessionSnapshot& snapshot);

// Stores a copy of each snapshot session under a new id, titled "<title><titleSuffix>", with every
// record row (new row ids, session_id pointing at the copy) and the same source file, in one
// transaction. A copy of a running session is stored "incomplete": no writer fills it. Returns the
// new ids in the order of snapshot.sessionIds.
std::vector<std::int64_t> insertSessionCopies(Database& db, const SessionSnapshot& snapshot,
                                              const std::string& titleSuffix);

// The records as CSV: one block per table ("# table" line, header with session_id first, the
// rows), blocks separated by a blank line. Ids other than session_id are left out.
std::string snapshotCsv(const SessionSnapshot& snapshot);
// [{"session": {...}, "<table>": [{column: value}, ...]}, ...] in the order of sessionIds.
nlohmann::json snapshotJson(const SessionSnapshot& snapshot);
} // namespace rl::store
