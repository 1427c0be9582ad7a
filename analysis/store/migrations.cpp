#include "store/migrations.h"

#include "store/collectiveoutline.h"
#include "store/collectiverows.h"

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

// Version 2: kernel benchmark results (GEMM, STREAM-style bandwidth and its ceilings, peak FLOP/s).
constexpr std::string_view kV2 = R"sql(
CREATE TABLE gemm_results (
    id           INTEGER PRIMARY KEY,
    session_id   INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    dtype        TEXT NOT NULL,
    compute_type TEXT NOT NULL DEFAULT '',
    out_type     TEXT NOT NULL DEFAULT '',
    trans_a      TEXT NOT NULL DEFAULT 'N',
    trans_b      TEXT NOT NULL DEFAULT 'N',
    m            INTEGER NOT NULL,
    n            INTEGER NOT NULL,
    k            INTEGER NOT NULL,
    batch        INTEGER NOT NULL DEFAULT 1,
    time_us      REAL NOT NULL,
    gflops       REAL NOT NULL,
    intensity    REAL NOT NULL DEFAULT 0,
    efficiency   REAL NOT NULL DEFAULT 0,
    threads      INTEGER NOT NULL DEFAULT 0,
    device       TEXT NOT NULL DEFAULT '',
    solution     TEXT NOT NULL DEFAULT ''
);
CREATE INDEX gemm_results_session ON gemm_results(session_id, dtype, m, n, k);
CREATE TABLE membw_results (
    id            INTEGER PRIMARY KEY,
    session_id    INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    kernel        TEXT NOT NULL,
    bytes         INTEGER NOT NULL,
    threads       INTEGER NOT NULL DEFAULT 1,
    best_time_us  REAL NOT NULL DEFAULT 0,
    bandwidth_gbs REAL NOT NULL
);
CREATE INDEX membw_results_session ON membw_results(session_id, kernel, threads, bytes);
CREATE TABLE membw_ceilings (
    id            INTEGER PRIMARY KEY,
    session_id    INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    level         TEXT NOT NULL,
    kernel        TEXT NOT NULL DEFAULT 'triad',
    threads       INTEGER NOT NULL DEFAULT 1,
    from_bytes    INTEGER NOT NULL DEFAULT 0,
    to_bytes      INTEGER NOT NULL DEFAULT 0,
    bandwidth_gbs REAL NOT NULL
);
CREATE INDEX membw_ceilings_session ON membw_ceilings(session_id);
CREATE TABLE peakflops_results (
    id                 INTEGER PRIMARY KEY,
    session_id         INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    dtype              TEXT NOT NULL,
    threads            INTEGER NOT NULL DEFAULT 1,
    gflops             REAL NOT NULL,
    theoretical_gflops REAL NOT NULL DEFAULT 0,
    isa                TEXT NOT NULL DEFAULT '',
    clock_ghz          REAL NOT NULL DEFAULT 0,
    clock_source       TEXT NOT NULL DEFAULT '',
    fma_units          INTEGER NOT NULL DEFAULT 0,
    lanes              INTEGER NOT NULL DEFAULT 0,
    derivation         TEXT NOT NULL DEFAULT ''
);
CREATE INDEX peakflops_results_session ON peakflops_results(session_id, dtype, threads);
)sql";

// Version 3: trace sessions (aggregated per rank and step, per kernel name, per collective shape)
// and training-log series and events. Individual trace events stay in the trace file.
constexpr std::string_view kV3 = R"sql(
CREATE TABLE trace_steps (
    id              INTEGER PRIMARY KEY,
    session_id      INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    rank            INTEGER NOT NULL,
    step            INTEGER NOT NULL,
    start_us        REAL NOT NULL,
    step_us         REAL NOT NULL,
    gemm_us         REAL NOT NULL, attention_us REAL NOT NULL, comm_us REAL NOT NULL,
    memcpy_us       REAL NOT NULL, other_us REAL NOT NULL,
    compute_busy_us REAL NOT NULL, comm_busy_us REAL NOT NULL, overlap_us REAL NOT NULL,
    exposed_comm_us REAL NOT NULL, gpu_busy_us REAL NOT NULL, idle_us REAL NOT NULL,
    kernel_count    INTEGER NOT NULL
);
CREATE INDEX trace_steps_session ON trace_steps(session_id, rank, step);
CREATE TABLE trace_kernels (
    id           INTEGER PRIMARY KEY,
    session_id   INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    rank         INTEGER NOT NULL,
    name         TEXT NOT NULL,
    class        TEXT NOT NULL,
    count        INTEGER NOT NULL,
    total_us     REAL NOT NULL, min_us REAL NOT NULL, max_us REAL NOT NULL, share REAL NOT NULL,
    flops        REAL NOT NULL DEFAULT 0,
    bytes        REAL NOT NULL DEFAULT 0
);
CREATE INDEX trace_kernels_session ON trace_kernels(session_id, rank, total_us);
CREATE TABLE trace_collectives (
    id           INTEGER PRIMARY KEY,
    session_id   INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    rank         INTEGER NOT NULL,
    op           TEXT NOT NULL, dtype TEXT NOT NULL, nranks INTEGER NOT NULL, bytes INTEGER NOT NULL,
    count        INTEGER NOT NULL, total_us REAL NOT NULL, min_us REAL NOT NULL,
    algbw        REAL NOT NULL, busbw REAL NOT NULL, best_busbw REAL NOT NULL
);
CREATE INDEX trace_collectives_session ON trace_collectives(session_id, op, bytes);
CREATE TABLE train_steps (
    id            INTEGER PRIMARY KEY,
    session_id    INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    step          INTEGER NOT NULL,
    loss REAL, step_time_ms REAL, tokens_per_s REAL, tflops REAL, mfu REAL, wall_s REAL, lr REAL, grad_norm REAL,
    skipped       INTEGER NOT NULL DEFAULT 0,
    nan_count     INTEGER NOT NULL DEFAULT 0,
    covered       INTEGER NOT NULL DEFAULT 1,
    segment       INTEGER NOT NULL DEFAULT 0,
    redone        INTEGER NOT NULL DEFAULT 0,
    line          INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX train_steps_session ON train_steps(session_id, id);
CREATE TABLE train_events (
    id         INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    kind       TEXT NOT NULL,
    step       INTEGER NOT NULL,
    wall_s     REAL,
    lost_s     REAL NOT NULL DEFAULT 0,
    message    TEXT NOT NULL DEFAULT '',
    line       INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX train_events_session ON train_events(session_id, id);
)sql";

// v4: model configurations saved by name (the sizing model's editor and `ridgeline-cli config`).
constexpr std::string_view kV4 = R"sql(
CREATE TABLE model_configs (
    name   TEXT PRIMARY KEY,
    config TEXT NOT NULL,
    saved  TEXT NOT NULL
);
)sql";

// v5: the GPU activity of one representative step per rank of a trace, for the timeline view.
constexpr std::string_view kV5 = R"sql(
CREATE TABLE trace_timeline (
    id         INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    rank       INTEGER NOT NULL,
    step       INTEGER NOT NULL,
    stream     INTEGER NOT NULL,
    name       TEXT NOT NULL,
    class      TEXT NOT NULL,
    start_us   REAL NOT NULL,
    dur_us     REAL NOT NULL
);
CREATE INDEX trace_timeline_session ON trace_timeline(session_id, rank, start_us);
)sql";

// v6: storage benchmark points (ridgeline-bench io, fio, IOR); per-rank bandwidths as a JSON array.
constexpr std::string_view kV6 = R"sql(
CREATE TABLE storage_results (
    id                 INTEGER PRIMARY KEY,
    session_id         INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    op                 TEXT NOT NULL CHECK (op IN ('write','read')),
    access             TEXT NOT NULL,
    nranks             INTEGER NOT NULL,
    file_bytes         INTEGER NOT NULL,
    block_bytes        INTEGER NOT NULL DEFAULT 0,
    fsync              INTEGER NOT NULL DEFAULT 0,
    direct             INTEGER NOT NULL DEFAULT 0,
    aggregate_gbs      REAL NOT NULL,
    mean_rank_gbs      REAL NOT NULL DEFAULT 0,
    min_rank_gbs       REAL NOT NULL DEFAULT 0,
    max_rank_gbs       REAL NOT NULL DEFAULT 0,
    slowest_rank       INTEGER NOT NULL DEFAULT -1,
    time_s             REAL NOT NULL DEFAULT 0,
    first_byte_us      REAL NOT NULL DEFAULT 0,
    first_byte_mean_us REAL NOT NULL DEFAULT 0,
    repeats            INTEGER NOT NULL DEFAULT 1,
    rank_gbs           TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX storage_results_session ON storage_results(session_id, op, access, nranks, file_bytes, block_bytes);
)sql";

// v7: how the runner's time was measured, per point: the timed and warm-up calls (now chosen per
// size) and the distribution over the timed samples (NULL for points of other tools); the load
// imbalance of all_to_allv points (0 for other ops); the point-to-point matrix of `pairs` sessions.
constexpr std::string_view kV7 = R"sql(
ALTER TABLE collective_results ADD COLUMN iters INTEGER;
ALTER TABLE collective_results ADD COLUMN warmup INTEGER;
ALTER TABLE collective_results ADD COLUMN calls_per_sample INTEGER;
ALTER TABLE collective_results ADD COLUMN time_min_us REAL;
ALTER TABLE collective_results ADD COLUMN time_max_us REAL;
ALTER TABLE collective_results ADD COLUMN time_p50_us REAL;
ALTER TABLE collective_results ADD COLUMN time_p99_us REAL;
ALTER TABLE collective_results ADD COLUMN time_cv REAL;
ALTER TABLE collective_results ADD COLUMN imbalance REAL NOT NULL DEFAULT 0;
CREATE TABLE pair_results (
    id              INTEGER PRIMARY KEY,
    session_id      INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    rank_a          INTEGER NOT NULL,
    rank_b          INTEGER NOT NULL,
    host_a          TEXT NOT NULL DEFAULT '',
    host_b          TEXT NOT NULL DEFAULT '',
    latency_bytes   INTEGER NOT NULL DEFAULT 0,
    latency_us      REAL NOT NULL,
    bandwidth_bytes INTEGER NOT NULL DEFAULT 0,
    bandwidth_gbs   REAL NOT NULL,
    iters           INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX pair_results_session ON pair_results(session_id, rank_a, rank_b);
)sql";

// v8: the group of ranks a point of a `--split` run was measured on ('' for a run of all ranks and
// for every point stored before).
constexpr std::string_view kV8 = R"sql(
ALTER TABLE collective_results ADD COLUMN split_group TEXT NOT NULL DEFAULT '';
)sql";

// v9: collective points packed, a block of encoded points to a row (store/collectiveblock.h):
// SQLite's per-row work, paid once a block, had held a long session's reads and exports under
// ~1 M points/s. packCollectiveRows (store/collectiverows.h) then moves the former rows into
// blocks and drops their table.
constexpr std::string_view kV9 = R"sql(
CREATE TABLE collective_blocks (
    id         INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    format     INTEGER NOT NULL,
    points     INTEGER NOT NULL,
    has_groups INTEGER NOT NULL DEFAULT 0,
    data       BLOB NOT NULL
);
CREATE INDEX collective_blocks_session ON collective_blocks(session_id, id);
)sql";

// v10: a long session's outline (store/collectiveoutline.h), the points a size chart can show and
// the sums its fits take, so a chart of millions of points is drawn from thousands of them
// (issue 26 item 11). outlineLongSessions then outlines the sessions stored before.
constexpr std::string_view kV10 = R"sql(
CREATE TABLE collective_outlines (
    session_id INTEGER PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
    covers     INTEGER NOT NULL,
    format     INTEGER NOT NULL,
    points     INTEGER NOT NULL,
    data       BLOB NOT NULL,
    sums       BLOB NOT NULL
);
)sql";
} // namespace

const std::vector<Migration>& migrations()
{
    static const std::vector<Migration> list{
        {1, kV1},
        {2, kV2},
        {3, kV3},
        {4, kV4},
        {5, kV5},
        {6, kV6},
        {7, kV7},
        {8, kV8},
        {9, kV9, packCollectiveRows},
        {10, kV10, outlineLongSessions},
    };
    return list;
}

int latestSchemaVersion() { return migrations().back().toVersion; }
} // namespace rl::store
