#include "store/migrations.h"

namespace rl::store {
namespace {
// Version 1: sessions, imported files, collective results.
constexpr std::string_view kV1 = R"sql(
CREATE TABLE imported_files (
    id          INTEGER PRIMARY KEY,
    path        TEXT NOT NULL,
    sha256      TEXT NOT NULL UNIQUE,
    format      TEXT NOT NULL,
    size_bytes  INTEGER NOT NULL DEFAULT 0,
    imported    TEXT NOT NULL
);
CREATE TABLE sessions (
    id             INTEGER PRIMARY KEY,
    kind           TEXT NOT NULL,
    title          TEXT NOT NULL DEFAULT '',
    created        TEXT NOT NULL,
    host           TEXT NOT NULL DEFAULT '',
    tool           TEXT NOT NULL DEFAULT '',
    tool_version   TEXT NOT NULL DEFAULT '',
    command_line   TEXT NOT NULL DEFAULT '',
    params         TEXT NOT NULL DEFAULT '{}',
    notes          TEXT NOT NULL DEFAULT '',
    status         TEXT NOT NULL CHECK (status IN ('running','complete','cancelled','failed','incomplete')),
    source_file_id INTEGER REFERENCES imported_files(id) ON DELETE SET NULL,
    writer_pid     INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX sessions_kind_created ON sessions(kind, created);
CREATE TABLE collective_results (
    id         INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    op         TEXT NOT NULL,
    nranks     INTEGER NOT NULL,
    dtype      TEXT NOT NULL DEFAULT '',
    redop      TEXT NOT NULL DEFAULT '',
    bytes      INTEGER NOT NULL,
    count      INTEGER NOT NULL DEFAULT 0,
    in_place   INTEGER NOT NULL DEFAULT 0,
    root       INTEGER NOT NULL DEFAULT -1,
    time_us    REAL NOT NULL,
    algbw      REAL NOT NULL,
    busbw      REAL NOT NULL,
    wrong      INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX collective_results_session ON collective_results(session_id, op, bytes);
)sql";
} // namespace

const std::vector<Migration>& migrations()
{
    static const std::vector<Migration> list{
        {1, kV1},
    };
    return list;
}

int latestSchemaVersion() { return migrations().back().toVersion; }
} // namespace rl::store
