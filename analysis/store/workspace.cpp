#include "store/workspace.h"

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <signal.h>

#include "io/userpaths.h"
#include "store/collectiveoutline.h"
#include "store/collectiverows.h"
#include "store/parallelpoints.h"
#include "store/kernelresults.h"
#include "store/pairresults.h"
#include "store/migrations.h"
#include "store/storageresults.h"
#include "store/traceresults.h"

namespace rl::store {
namespace fs = std::filesystem;

namespace {
bool processAlive(std::int64_t pid)
{
    if (pid <= 0)
        return false;
    return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
}

Database openDatabase(const std::string& path)
{
    std::error_code ec;
    const fs::path parent = fs::path(path).parent_path();
    if (!parent.empty())
        fs::create_directories(parent, ec);
    return Database(path, true);
}

const char* kSessionColumns = "id, kind, title, created, host, tool, tool_version, command_line, params, notes, "
                              "status, source_file_id, writer_pid";

Session readSession(Statement& q)
{
    Session s;
    s.id = q.int64(0);
    s.kind = q.text(1);
    s.title = q.text(2);
    s.created = q.text(3);
    s.host = q.text(4);
    s.tool = q.text(5);
    s.toolVersion = q.text(6);
    s.commandLine = q.text(7);
    s.params = nlohmann::json::parse(q.text(8), nullptr, false);
    if (s.params.is_discarded())
        s.params = nlohmann::json::object();
    s.notes = q.text(9);
    s.status = sessionStatusFromString(q.text(10)).value_or(SessionStatus::Complete);
    if (!q.isNull(11))
        s.sourceFileId = q.int64(11);
    s.writerPid = q.int64(12);
    // Said on every read rather than only stored by markOrphanedRuns, so that a read-only
    // workspace, which cannot store it, lists a killed run as what it is.
    if (s.status == SessionStatus::Running && s.host == hostName() && !processAlive(s.writerPid))
        s.status = SessionStatus::Incomplete;
    return s;
}
} // namespace

Workspace::Workspace(const std::string& path) : m_db(openDatabase(path)) { migrate(); }

void Workspace::requireWritable(const std::string& what) const
{
    if (readOnly())
        m_db.failReadOnly(what);
}

std::string Workspace::defaultPath()
{
    return (fs::path(io::userDataDir()) / "workspace.db").string();
}

int Workspace::schemaVersion()
{
    Statement q(m_db, "PRAGMA user_version");
    return q.step() ? static_cast<int>(q.int64(0)) : 0;
}

void Workspace::checkNotNewer(int version) const
{
    if (version > latestSchemaVersion())
        throw StoreError(m_db.path() + ": workspace schema version " + std::to_string(version) +
                         " is newer than this Ridgeline understands (" + std::to_string(latestSchemaVersion()) +
                         "); upgrade Ridgeline");
}

void Workspace::refuseForeign(int version)
{
    if (version != 0)
        return;
    // A non-empty file with no version is someone else's database: never write into it. The count
    // and the version again in one statement, one snapshot: another connection opening the same new
    // file may have migrated it since `version` was read (its tables, and now its version, are in).
    Statement q(m_db, "SELECT count(*), (SELECT user_version FROM pragma_user_version) FROM sqlite_master");
    if (q.step() && q.int64(0) > 0 && q.int64(1) == 0)
        throw StoreError(m_db.path() + ": not a Ridgeline workspace (an SQLite file with other tables)");
}

void Workspace::migrate()
{
    // Everything that may refuse the file reads only: a file of a newer Ridgeline or of another
    // program stays byte for byte as it was (switching to WAL rewrites a rollback-journal file's
    // header, so it comes after).
    const int seen = schemaVersion();
    checkNotNewer(seen);
    refuseForeign(seen);
    if (readOnly()) {
        if (seen < latestSchemaVersion())
            m_db.failReadOnly("upgrade it from schema version " + std::to_string(seen) + " to " +
                              std::to_string(latestSchemaVersion()) +
                              " (open it once where it can be written, or browse a copy)");
        return;
    }
    m_db.useWal();
    if (seen == latestSchemaVersion())
        return;
    // BEGIN IMMEDIATE serialises migrators: when several connections open a new or older file at
    // once (the GUI's threads, a CLI run), the others wait here and then see the first one's
    // result; the version is read again under the lock, so no one runs the same CREATE TABLE
    // twice.
    Transaction t(m_db);
    const int current = schemaVersion();
    checkNotNewer(current);
    refuseForeign(current);
    for (const auto& m : migrations()) {
        if (m.toVersion <= current)
            continue;
        m_db.exec(m.sql);
        if (m.then)
            m.then(m_db);
        m_db.exec("PRAGMA user_version = " + std::to_string(m.toVersion));
    }
    t.commit();
}

int Workspace::markOrphanedRuns()
{
    if (readOnly())
        return 0; // sessions() says "incomplete" all the same
    const std::string host = hostName();
    Statement q(m_db, "SELECT id, writer_pid FROM sessions WHERE status = 'running' AND host = ?");
    q.bind(1, host);
    std::vector<std::int64_t> orphans;
    while (q.step())
        if (!processAlive(q.int64(1)))
            orphans.push_back(q.int64(0));
    for (auto id : orphans)
        setStatus(id, SessionStatus::Incomplete);
    return static_cast<int>(orphans.size());
}

std::int64_t Workspace::createSession(const Session& s)
{
    Statement q(m_db, "INSERT INTO sessions (kind, title, created, host, tool, tool_version, command_line, "
                      "params, notes, status, source_file_id, writer_pid) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)");
    q.bind(1, s.kind).bind(2, s.title).bind(3, s.created.empty() ? nowIso8601() : s.created);
    q.bind(4, s.host).bind(5, s.tool).bind(6, s.toolVersion).bind(7, s.commandLine);
    q.bind(8, s.params.dump()).bind(9, s.notes).bind(10, toString(s.status));
    q.bind(11, s.sourceFileId).bind(12, s.writerPid);
    q.run();
    return m_db.lastInsertId();
}

void Workspace::setStatus(std::int64_t id, SessionStatus status)
{
    Statement q(m_db, "UPDATE sessions SET status = ? WHERE id = ?");
    q.bind(1, toString(status)).bind(2, id).run();
}

void Workspace::setNotes(std::int64_t id, const std::string& notes)
{
    Statement q(m_db, "UPDATE sessions SET notes = ? WHERE id = ?");
    q.bind(1, notes).bind(2, id).run();
}

void Workspace::setIdentity(std::int64_t id, const Session& s)
{
    Statement q(m_db, "UPDATE sessions SET title = ?, host = ?, tool = ?, tool_version = ? WHERE id = ?");
    q.bind(1, s.title).bind(2, s.host).bind(3, s.tool).bind(4, s.toolVersion).bind(5, id).run();
}

void Workspace::setTitle(std::int64_t id, const std::string& title)
{
    Statement q(m_db, "UPDATE sessions SET title = ? WHERE id = ?");
    q.bind(1, title).bind(2, id).run();
}

void Workspace::setParams(std::int64_t id, const nlohmann::json& params)
{
    Statement q(m_db, "UPDATE sessions SET params = ? WHERE id = ?");
    q.bind(1, params.dump()).bind(2, id).run();
}

void Workspace::deleteSession(std::int64_t id)
{
    Transaction t(m_db);
    Statement q(m_db, "DELETE FROM sessions WHERE id = ?");
    q.bind(1, id).run();
    // An imported file with no sessions left may be imported again.
    m_db.exec("DELETE FROM imported_files WHERE id NOT IN "
              "(SELECT source_file_id FROM sessions WHERE source_file_id IS NOT NULL)");
    t.commit();
}

std::vector<Session> Workspace::sessions()
{
    Statement q(m_db, std::string("SELECT ") + kSessionColumns + " FROM sessions ORDER BY created DESC, id DESC");
    std::vector<Session> out;
    while (q.step())
        out.push_back(readSession(q));
    return out;
}

std::optional<Session> Workspace::session(std::int64_t id)
{
    Statement q(m_db, std::string("SELECT ") + kSessionColumns + " FROM sessions WHERE id = ?");
    q.bind(1, id);
    if (!q.step())
        return std::nullopt;
    return readSession(q);
}

void Workspace::addCollectivePoint(std::int64_t sessionId, const CollectivePoint& p)
{
    Transaction t(m_db);
    appendCollectivePoint(m_db, sessionId, p);
    t.commit();
}

void Workspace::forEachCollectivePoint(std::int64_t sessionId,
                                       const std::function<bool(const CollectivePoint&)>& visit, PointOrder order)
{
    if (order == PointOrder::Stored) {
        // The blocks as listed, even if the session is deleted meanwhile. The visitor runs inside
        // this read transaction: none writes through this Workspace (its Transaction could not
        // begin inside this one).
        ReadSnapshot snapshot(m_db);
        for (const auto& block : collectivePointBlocks(m_db, sessionId))
            if (!forEachCollectivePointInBlock(m_db, block, visit))
                return;
        return;
    }
    forEachCollectivePointInCurveOrder(*this, sessionId, visit);
}

std::vector<CollectivePoint> Workspace::collectivePoints(std::int64_t sessionId)
{
    // Read in stored order, each point straight into its place (store/parallelpoints.h).
    return readCollectivePoints(*this, sessionId);
}

std::int64_t Workspace::collectivePointCount(std::int64_t sessionId)
{
    return store::collectivePointCount(m_db, sessionId);
}

bool Workspace::collectivePointsHaveGroups(std::int64_t sessionId)
{
    return store::collectivePointsHaveGroups(m_db, sessionId);
}

std::optional<ImportedFile> Workspace::importedFileBySha(const std::string& sha256)
{
    Statement q(m_db, "SELECT id, path, sha256, format, size_bytes, imported FROM imported_files WHERE sha256 = ?");
    q.bind(1, sha256);
    if (!q.step())
        return std::nullopt;
    return ImportedFile{q.int64(0), q.text(1), q.text(2), q.text(3), q.int64(4), q.text(5)};
}

std::vector<std::int64_t> Workspace::sessionsOfFile(std::int64_t fileId)
{
    Statement q(m_db, "SELECT id FROM sessions WHERE source_file_id = ? ORDER BY id");
    q.bind(1, fileId);
    std::vector<std::int64_t> out;
    while (q.step())
        out.push_back(q.int64(0));
    return out;
}

std::int64_t Workspace::insertSessionData(const SessionData& data, std::optional<std::int64_t> fileId)
{
    Session s = data.session;
    s.sourceFileId = fileId;
    if (s.status == SessionStatus::Running)
        s.status = SessionStatus::Incomplete; // a stored copy of a run is not being written by anyone
    const std::int64_t id = createSession(s);
    CollectiveBlockWriter collectives(m_db, id);
    for (const auto& p : data.collectives)
        collectives.add(p);
    collectives.finish();
    storeCollectiveOutline(m_db, id, data.collectives);
    insertKernelRecords(m_db, id, data);
    insertTraceRecords(m_db, id, data);
    insertStorageRecords(m_db, id, data);
    for (const auto& p : data.pairs)
        insertPair(m_db, id, p);
    return id;
}

std::int64_t Workspace::storeSession(const SessionData& data)
{
    Transaction t(m_db);
    const std::int64_t id = insertSessionData(data, std::nullopt);
    t.commit();
    return id;
}

StoredImport Workspace::storeImport(const std::string& path, const std::string& sha256, std::int64_t sizeBytes,
                                    const ImportResult& result)
{
    StoredImport out;
    Transaction t(m_db);
    if (auto existing = importedFileBySha(sha256)) {
        out.alreadyImported = true;
        out.fileId = existing->id;
        out.sessionIds = sessionsOfFile(existing->id);
        return out; // rolls back the empty transaction
    }
    Statement q(m_db, "INSERT INTO imported_files (path, sha256, format, size_bytes, imported) VALUES (?,?,?,?,?)");
    q.bind(1, path).bind(2, sha256).bind(3, result.format).bind(4, sizeBytes).bind(5, nowIso8601());
    q.run();
    out.fileId = m_db.lastInsertId();
    for (const auto& data : result.sessions)
        out.sessionIds.push_back(insertSessionData(data, out.fileId));
    t.commit();
    return out;
}
} // namespace rl::store
