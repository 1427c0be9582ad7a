#pragma once
// A workspace is one SQLite file: sessions, their typed records and the files they came from.
// One Workspace object per thread (each is its own connection); WAL lets a benchmark writer and
// the GUI's readers share the file.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "records/importresult.h"
#include "store/database.h"

namespace rl::store {

struct ImportedFile
{
    std::int64_t id = 0;
    std::string path;
    std::string sha256;
    std::string format;
    std::int64_t sizeBytes = 0;
    std::string imported;
};

struct StoredImport
{
    bool alreadyImported = false;       // same content (sha256) was imported before
    std::int64_t fileId = 0;
    std::vector<std::int64_t> sessionIds; // the new sessions, or the existing ones when already imported
};

class Workspace
{
public:
    // Opens or creates; migrates older files forward. Throws StoreError naming the file. A file
    // that cannot be written (a read-only folder or mount, a read-only file) opens read-only:
    // every read works, every write throws "<file> is read-only (why): ...".
    explicit Workspace(const std::string& path);
    static std::string defaultPath(); // $XDG_DATA_HOME/ridgeline/workspace.db (or ~/.local/share/...)

    int schemaVersion();
    const std::string& path() const { return m_db.path(); }
    bool readOnly() const { return m_db.readOnly(); }
    // For a command that is about to write (import, run, save): the read-only error at once,
    // naming what could not be done, rather than halfway through.
    void requireWritable(const std::string& what) const;
    Database& database() { return m_db; }

    // Sessions
    std::int64_t createSession(const Session& s);
    void setStatus(std::int64_t sessionId, SessionStatus status);
    void setNotes(std::int64_t sessionId, const std::string& notes);
    void setParams(std::int64_t sessionId, const nlohmann::json& params);
    // Title, host, tool and tool version, as a run learns them from the tool's own output.
    void setIdentity(std::int64_t sessionId, const Session& s);
    void setTitle(std::int64_t sessionId, const std::string& title); // a user's rename
    void deleteSession(std::int64_t sessionId);
    // A running session whose writer process on this host is gone reads as "incomplete" (also
    // in a read-only workspace, where it cannot be stored so).
    std::vector<Session> sessions(); // newest first
    std::optional<Session> session(std::int64_t id);
    // Stores those sessions as "incomplete"; nothing (0) in a read-only workspace.
    int markOrphanedRuns();

    // Collective results. addCollectivePoint commits the point at once (its own transaction), so
    // a killed run keeps every point it finished.
    void addCollectivePoint(std::int64_t sessionId, const CollectivePoint& p);
    std::vector<CollectivePoint> collectivePoints(std::int64_t sessionId);
    // The same points, one at a time; the point passed is reused for the next one; visit returns
    // false to stop. Stored: the order they were stored in (as they ran, or as the imported file
    // had them), a block at a time, with the memory of one block: what an export uses. Curves:
    // sorted by op, in-place and size, in bounded memory (an external merge sort through temporary
    // files for a long session: store/curveorderedpoints.h).
    enum class PointOrder { Curves, Stored };
    void forEachCollectivePoint(std::int64_t sessionId, const std::function<bool(const CollectivePoint&)>& visit,
                                PointOrder order = PointOrder::Curves);
    std::int64_t collectivePointCount(std::int64_t sessionId);
    // Whether some point of the session has a --split group (the CSV's optional column).
    bool collectivePointsHaveGroups(std::int64_t sessionId);

    // Imports: all sessions of one file in one transaction, or nothing.
    std::optional<ImportedFile> importedFileBySha(const std::string& sha256);
    StoredImport storeImport(const std::string& path, const std::string& sha256, std::int64_t sizeBytes,
                             const ImportResult& result);
    std::vector<std::int64_t> sessionsOfFile(std::int64_t fileId);
    // Stores one session with all its records in one transaction (e.g. a run replayed from JSON lines).
    std::int64_t storeSession(const SessionData& data);

private:
    void migrate();
    void checkNotNewer(int version) const;
    void refuseForeign(int version);
    std::int64_t insertSessionData(const SessionData& data, std::optional<std::int64_t> fileId);

    Database m_db;
};
} // namespace rl::store
