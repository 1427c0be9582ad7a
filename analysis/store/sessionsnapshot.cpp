#include "store/sessionsnapshot.h"

#include <sqlite3.h>

#include <algorithm>
#include <map>
#include <sstream>

#include "io/csv.h"
#include "store/collectiverows.h"
#include "store/database.h"

namespace rl::store {
namespace {

struct RawStatement
{
    RawStatement(Database& db, const std::string& sql) : db(db)
    {
        if (sqlite3_prepare_v2(db.handle(), sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK)
            db.fail("prepare " + sql);
    }
    ~RawStatement() { sqlite3_finalize(stmt); }
    RawStatement(const RawStatement&) = delete;
    RawStatement& operator=(const RawStatement&) = delete;

    bool step()
    {
        const int rc = sqlite3_step(stmt);
        if (rc == SQLITE_ROW)
            return true;
        if (rc != SQLITE_DONE)
            db.fail("step");
        return false;
    }
    SqlValue value(int col) const
    {
        switch (sqlite3_column_type(stmt, col)) {
        case SQLITE_INTEGER: return std::int64_t(sqlite3_column_int64(stmt, col));
        case SQLITE_FLOAT: return sqlite3_column_double(stmt, col);
        case SQLITE_TEXT:
            return std::string(reinterpret_cast<const char*>(sqlite3_column_text(stmt, col)),
                               std::size_t(sqlite3_column_bytes(stmt, col)));
        case SQLITE_BLOB: {
            const auto* p = static_cast<const char*>(sqlite3_column_blob(stmt, col));
            return SqlBlob{std::string(p ? p : "", std::size_t(sqlite3_column_bytes(stmt, col)))};
        }
        default: return std::monostate{};
        }
    }
    void bind(int index, const SqlValue& v)
    {
        int rc = SQLITE_OK;
        if (const auto* i = std::get_if<std::int64_t>(&v))
            rc = sqlite3_bind_int64(stmt, index, *i);
        else if (const auto* d = std::get_if<double>(&v))
            rc = sqlite3_bind_double(stmt, index, *d);
        else if (const auto* s = std::get_if<std::string>(&v))
            rc = sqlite3_bind_text(stmt, index, s->data(), int(s->size()), SQLITE_TRANSIENT);
        else if (const auto* b = std::get_if<SqlBlob>(&v))
            rc = sqlite3_bind_blob(stmt, index, b->bytes.data(), int(b->bytes.size()), SQLITE_TRANSIENT);
        else
            rc = sqlite3_bind_null(stmt, index);
        if (rc != SQLITE_OK)
            db.fail("bind");
    }

    Database& db;
    sqlite3_stmt* stmt = nullptr;
};

std::string quoted(const std::string& name) { return '"' + name + '"'; }

// The tables with a foreign key from session_id to sessions, in schema order.
std::vector<std::string> childTables(Database& db)
{
    std::vector<std::string> tables;
    RawStatement q(db, "SELECT m.name FROM sqlite_master m, pragma_foreign_key_list(m.name) f "
                       "WHERE m.type = 'table' AND f.\"table\" = 'sessions' AND f.\"from\" = 'session_id' "
                       "ORDER BY m.rowid");
    while (q.step())
        tables.push_back(std::get<std::string>(q.value(0)));
    return tables;
}

// Rows of `table` where `column` is one of ids.
TableRows readRows(Database& db, const std::string& table, const std::string& column,
                   const std::vector<std::int64_t>& ids)
{
    TableRows out;
    out.table = table;
    if (ids.empty())
        return out;
    std::string in;
    for (std::size_t i = 0; i < ids.size(); ++i)
        in += i ? ",?" : "?";
    RawStatement q(db, "SELECT * FROM " + quoted(table) + " WHERE " + quoted(column) + " IN (" + in + ") ORDER BY rowid");
    for (std::size_t i = 0; i < ids.size(); ++i)
        q.bind(int(i + 1), ids[i]);
    const int n = sqlite3_column_count(q.stmt);
    for (int c = 0; c < n; ++c)
        out.columns.emplace_back(sqlite3_column_name(q.stmt, c));
    while (q.step()) {
        std::vector<SqlValue> row;
        row.reserve(std::size_t(n));
        for (int c = 0; c < n; ++c)
            row.push_back(q.value(c));
        out.rows.push_back(std::move(row));
    }
    return out;
}

int columnIndex(const TableRows& t, const std::string& name)
{
    const auto it = std::find(t.columns.begin(), t.columns.end(), name);
    return it == t.columns.end() ? -1 : int(it - t.columns.begin());
}

void insertRows(Database& db, const TableRows& t, const char* verb = "INSERT")
{
    if (t.rows.empty())
        return;
    std::string cols, marks;
    for (std::size_t i = 0; i < t.columns.size(); ++i) {
        cols += (i ? "," : "") + quoted(t.columns[i]);
        marks += i ? ",?" : "?";
    }
    RawStatement q(db, std::string(verb) + " INTO " + quoted(t.table) + " (" + cols + ") VALUES (" + marks + ")");
    for (const auto& row : t.rows) {
        for (std::size_t i = 0; i < row.size(); ++i)
            q.bind(int(i + 1), row[i]);
        q.step();
        sqlite3_reset(q.stmt);
        sqlite3_clear_bindings(q.stmt);
    }
}

nlohmann::json toJson(const SqlValue& v)
{
    if (const auto* i = std::get_if<std::int64_t>(&v))
        return *i;
    if (const auto* d = std::get_if<double>(&v))
        return *d;
    if (const auto* s = std::get_if<std::string>(&v))
        return *s;
    if (const auto* b = std::get_if<SqlBlob>(&v))
        return nlohmann::json::binary_t(std::vector<std::uint8_t>(b->bytes.begin(), b->bytes.end()));
    return nullptr;
}

std::string toText(const SqlValue& v)
{
    if (const auto* i = std::get_if<std::int64_t>(&v))
        return std::to_string(*i);
    if (const auto* d = std::get_if<double>(&v)) {
        std::ostringstream s;
        s.precision(17);
        s << *d;
        return s.str();
    }
    if (const auto* s = std::get_if<std::string>(&v))
        return *s;
    return {};
}

// A long session's outline (store/collectiveoutline.h) is made from its points: restored and copied
// with them, never a record of its own to count or show.
bool derivedTable(const std::string& table) { return table == "collective_outlines"; }
} // namespace

std::size_t SessionSnapshot::recordCount() const
{
    std::size_t n = 0;
    for (const auto& t : records) {
        if (derivedTable(t.table))
            continue;
        if (t.table != "collective_blocks") {
            n += t.rows.size();
            continue;
        }
        const auto points = std::size_t(columnIndex(t, "points")); // a row holds a block of them
        for (const auto& row : t.rows)
            n += std::size_t(std::get<std::int64_t>(row[points]));
    }
    return n;
}

SessionSnapshot snapshotSessions(Database& db, const std::vector<std::int64_t>& ids)
{
    SessionSnapshot snap;
    db.exec("SAVEPOINT snapshot"); // one consistent read while a run may be writing
    try {
        snap.sessions = readRows(db, "sessions", "id", ids);
        const int idCol = columnIndex(snap.sessions, "id");
        const int fileCol = columnIndex(snap.sessions, "source_file_id");
        std::vector<std::int64_t> fileIds;
        for (const auto& row : snap.sessions.rows) {
            snap.sessionIds.push_back(std::get<std::int64_t>(row[std::size_t(idCol)]));
            if (const auto* f = std::get_if<std::int64_t>(&row[std::size_t(fileCol)]))
                fileIds.push_back(*f);
        }
        // Back in the order asked for (the list's selection order), not rowid order.
        std::stable_sort(snap.sessionIds.begin(), snap.sessionIds.end(), [&](auto a, auto b) {
            return std::find(ids.begin(), ids.end(), a) < std::find(ids.begin(), ids.end(), b);
        });
        snap.files = readRows(db, "imported_files", "id", fileIds);
        for (const auto& table : childTables(db)) {
            TableRows t = readRows(db, table, "session_id", snap.sessionIds);
            if (!t.rows.empty())
                snap.records.push_back(std::move(t));
        }
    } catch (...) {
        db.exec("RELEASE snapshot");
        throw;
    }
    db.exec("RELEASE snapshot");
    return snap;
}

void restoreSessions(Database& db, const SessionSnapshot& snapshot)
{
    Transaction t(db);
    // A file row that is gone comes back; one whose content was imported again since keeps the
    // new row, and the sessions are pointed at it.
    std::map<std::int64_t, std::int64_t> fileIdNow;
    const int shaCol = columnIndex(snapshot.files, "sha256");
    const int fidCol = columnIndex(snapshot.files, "id");
    for (const auto& row : snapshot.files.rows) {
        const auto oldId = std::get<std::int64_t>(row[std::size_t(fidCol)]);
        RawStatement q(db, "SELECT id FROM imported_files WHERE sha256 = ?");
        q.bind(1, row[std::size_t(shaCol)]);
        if (q.step()) {
            fileIdNow[oldId] = std::get<std::int64_t>(q.value(0));
            continue;
        }
        TableRows one{snapshot.files.table, snapshot.files.columns, {row}};
        insertRows(db, one, "INSERT OR IGNORE");
        RawStatement again(db, "SELECT id FROM imported_files WHERE sha256 = ?");
        again.bind(1, row[std::size_t(shaCol)]);
        if (again.step())
            fileIdNow[oldId] = std::get<std::int64_t>(again.value(0));
    }
    TableRows sessions = snapshot.sessions;
    const int sfCol = columnIndex(sessions, "source_file_id");
    for (auto& row : sessions.rows)
        if (auto* f = std::get_if<std::int64_t>(&row[std::size_t(sfCol)]))
            if (auto it = fileIdNow.find(*f); it != fileIdNow.end())
                *f = it->second;
    insertRows(db, sessions); // a session id in use again fails the whole restore
    for (const auto& records : snapshot.records)
        insertRows(db, records);
    t.commit();
}

namespace {
// The table without one column (a copy gets new row ids from SQLite).
TableRows withoutColumn(const TableRows& t, const std::string& column)
{
    const int drop = columnIndex(t, column);
    if (drop < 0)
        return t;
    TableRows out{t.table, t.columns, t.rows};
    out.columns.erase(out.columns.begin() + drop);
    for (auto& row : out.rows)
        row.erase(row.begin() + drop);
    return out;
}
} // namespace

std::vector<std::int64_t> insertSessionCopies(Database& db, const SessionSnapshot& snapshot,
                                              const std::string& titleSuffix)
{
    Transaction t(db);
    const int idCol = columnIndex(snapshot.sessions, "id");
    std::map<std::int64_t, std::int64_t> copyOf;
    std::vector<std::int64_t> copies;
    for (auto id : snapshot.sessionIds) {
        for (const auto& row : snapshot.sessions.rows) {
            if (std::get<std::int64_t>(row[std::size_t(idCol)]) != id)
                continue;
            TableRows one = withoutColumn({snapshot.sessions.table, snapshot.sessions.columns, {row}}, "id");
            auto& copy = one.rows.front();
            if (const int c = columnIndex(one, "title"); c >= 0)
                if (auto* title = std::get_if<std::string>(&copy[std::size_t(c)]))
                    *title += titleSuffix;
            if (const int c = columnIndex(one, "status"); c >= 0)
                if (auto* status = std::get_if<std::string>(&copy[std::size_t(c)]); status && *status == "running")
                    *status = "incomplete";
            if (const int c = columnIndex(one, "writer_pid"); c >= 0)
                copy[std::size_t(c)] = std::int64_t(0);
            insertRows(db, one);
            copyOf[id] = db.lastInsertId();
            copies.push_back(copyOf[id]);
        }
    }
    for (const auto& records : snapshot.records) {
        TableRows rows = withoutColumn(records, "id");
        const int sid = columnIndex(rows, "session_id");
        for (auto& row : rows.rows)
            row[std::size_t(sid)] = copyOf.at(std::get<std::int64_t>(row[std::size_t(sid)]));
        insertRows(db, rows);
    }
    t.commit();
    return copies;
}

namespace {
std::vector<SqlValue> pointRow(const SqlValue& sessionId, const CollectivePoint& p)
{
    const auto& s = p.stats;
    const auto statInt = [&s](int CallStats::*m) { return s ? SqlValue(std::int64_t((*s).*m)) : SqlValue(); };
    const auto statReal = [&s](double CallStats::*m) { return s ? SqlValue((*s).*m) : SqlValue(); };
    return {sessionId,
            p.op,
            std::int64_t(p.nranks),
            p.dtype,
            p.redop,
            p.bytes,
            p.count,
            std::int64_t(p.inPlace ? 1 : 0),
            std::int64_t(p.root),
            p.timeUs,
            p.algbwGBs,
            p.busbwGBs,
            p.wrong,
            statInt(&CallStats::iters),
            statInt(&CallStats::warmup),
            statInt(&CallStats::callsPerSample),
            statReal(&CallStats::minUs),
            statReal(&CallStats::maxUs),
            statReal(&CallStats::p50Us),
            statReal(&CallStats::p99Us),
            statReal(&CallStats::cv),
            p.imbalance,
            p.group};
}

// The records as a reader wants them: collective_blocks as the table of points they hold, a row
// a point with the columns a point had as a row of its own (collective_results), not as bytes.
std::vector<TableRows> readableRecords(const SessionSnapshot& snapshot)
{
    std::vector<TableRows> out;
    for (const auto& t : snapshot.records) {
        if (derivedTable(t.table))
            continue;
        if (t.table != "collective_blocks") {
            out.push_back(t);
            continue;
        }
        TableRows points{"collective_results", collectivePointColumnNames(), {}};
        const auto col = [&t](const char* name) { return std::size_t(columnIndex(t, name)); };
        const std::size_t sid = col("session_id"), id = col("id"), n = col("points"), data = col("data");
        for (const auto& row : t.rows) {
            const std::string& bytes = std::get<SqlBlob>(row[data]).bytes;
            const PointBlock block{std::get<std::int64_t>(row[id]), std::get<std::int64_t>(row[n]),
                                   std::int64_t(bytes.size())};
            forEachCollectivePointInBytes("the copied records", block, bytes,
                                          [&](const CollectivePoint& p) {
                                              points.rows.push_back(pointRow(row[sid], p));
                                              return true;
                                          });
        }
        out.push_back(std::move(points));
    }
    return out;
}
} // namespace

std::string snapshotCsv(const SessionSnapshot& snapshot)
{
    std::ostringstream out;
    bool first = true;
    for (const auto& t : readableRecords(snapshot)) {
        if (!first)
            out << '\n';
        first = false;
        out << "# " << t.table << '\n';
        std::vector<std::size_t> keep;
        std::vector<std::string> header;
        const int sid = columnIndex(t, "session_id");
        keep.push_back(std::size_t(sid));
        header.push_back("session_id");
        for (std::size_t c = 0; c < t.columns.size(); ++c)
            if (t.columns[c] != "id" && t.columns[c] != "session_id") {
                keep.push_back(c);
                header.push_back(t.columns[c]);
            }
        io::writeCsvRow(out, header);
        for (const auto& row : t.rows) {
            std::vector<std::string> fields;
            // Text columns hold what files and users wrote (hosts, ops, kernel names): no formulas.
            for (auto c : keep)
                fields.push_back(std::holds_alternative<std::string>(row[c]) ? io::csvText(toText(row[c])) : toText(row[c]));
            io::writeCsvRow(out, fields);
        }
    }
    return out.str();
}

nlohmann::json snapshotJson(const SessionSnapshot& snapshot)
{
    nlohmann::json out = nlohmann::json::array();
    const std::vector<TableRows> records = readableRecords(snapshot);
    const int idCol = columnIndex(snapshot.sessions, "id");
    for (auto id : snapshot.sessionIds) {
        nlohmann::json entry = nlohmann::json::object();
        for (const auto& row : snapshot.sessions.rows) {
            if (std::get<std::int64_t>(row[std::size_t(idCol)]) != id)
                continue;
            nlohmann::json s = nlohmann::json::object();
            for (std::size_t c = 0; c < row.size(); ++c)
                s[snapshot.sessions.columns[c]] = toJson(row[c]);
            if (s.contains("params") && s["params"].is_string()) // stored as JSON text
                s["params"] = nlohmann::json::parse(s["params"].get<std::string>(), nullptr, false);
            entry["session"] = std::move(s);
        }
        for (const auto& t : records) {
            const int sid = columnIndex(t, "session_id");
            nlohmann::json rows = nlohmann::json::array();
            for (const auto& row : t.rows) {
                if (std::get<std::int64_t>(row[std::size_t(sid)]) != id)
                    continue;
                nlohmann::json r = nlohmann::json::object();
                for (std::size_t c = 0; c < row.size(); ++c)
                    if (t.columns[c] != "id" && t.columns[c] != "session_id")
                        r[t.columns[c]] = toJson(row[c]);
                rows.push_back(std::move(r));
            }
            if (!rows.empty())
                entry[t.table] = std::move(rows);
        }
        out.push_back(std::move(entry));
    }
    return out;
}
} // namespace rl::store
