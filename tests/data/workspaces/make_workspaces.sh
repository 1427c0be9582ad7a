#!/bin/sh
# Writes v1.db ... v(N-1).db: a workspace as each earlier schema version of Ridgeline left it,
# built with the sqlite3 shell from the migration SQL itself (analysis/store/migrations.cpp, the
# kV1 ... kVN raw strings), not from a copy of it. Run once when a migration is added (see README);
# the files are committed and never regenerated for an old version.
#   tests/data/workspaces/make_workspaces.sh [VERSION...]   (default: every version below the latest)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
migrations="$here/../../../analysis/store/migrations.cpp"
latest=$(grep -c '^constexpr std::string_view kV[0-9]* = R"sql($' "$migrations")

# The SQL of migration K: the lines between `kVK = R"sql(` and `)sql";`.
migration() {
    awk -v start="constexpr std::string_view kV$1 = R\"sql(" '
        $0 == start { inside = 1; next }
        inside && $0 == ")sql\";" { exit }
        inside { print }' "$migrations"
}

# Rows every version has (schema 1): an imported nccl-tests log and its collective session, and a
# run that was killed mid-way (status running, its writer long gone).
rows_v1="
INSERT INTO imported_files (id, path, sha256, format, size_bytes, imported)
  VALUES (1, '/data/allreduce.log', 'sha-of-allreduce-log', 'nccl-tests', 2048, '2025-01-10T09:00:00Z');
INSERT INTO sessions (id, kind, title, created, host, tool, tool_version, command_line, params, notes, status,
                      source_file_id, writer_pid)
  VALUES (1, 'collectives', 'all_reduce 8 GPUs', '2025-01-10T09:00:00Z', 'node01', 'nccl-tests', '2.13.9', '',
          '{\"ngpus\":8}', 'before the switch upgrade', 'complete', 1, 0),
         (2, 'collectives', 'killed run', '2025-01-11T10:00:00Z', 'node02', 'ridgeline-bench', '0.1.0',
          'ridgeline-bench collectives -b 8 -e 1M', '{}', '', 'running', NULL, 4242);
INSERT INTO collective_results (session_id, op, nranks, dtype, redop, bytes, count, in_place, root, time_us, algbw, busbw, wrong)
  VALUES (1, 'all_reduce', 8, 'float', 'sum', 1024, 256, 0, -1, 20.5, 0.05, 0.0875, 0),
         (1, 'all_reduce', 8, 'float', 'sum', 1048576, 262144, 0, -1, 60.25, 17.4, 30.45, 0),
         (1, 'all_reduce', 8, 'float', 'sum', 1048576, 262144, 1, -1, 59.75, 17.55, 30.71, 0),
         (2, 'all_gather', 2, 'float32', '', 8, 2, 0, -1, 5.0, 0.0016, 0.0008, 0);
"
# Schema 2: a GEMM benchmark session.
rows_v2="
INSERT INTO sessions (id, kind, title, created, host, status) VALUES (3, 'gemm', 'gemm bf16', '2025-02-01T08:00:00Z', 'node01', 'complete');
INSERT INTO gemm_results (session_id, dtype, m, n, k, time_us, gflops, device)
  VALUES (3, 'bf16', 4096, 4096, 4096, 180.0, 763549.0, 'H100'), (3, 'bf16', 1024, 1024, 1024, 6.5, 330382.0, 'H100');
"
# Schema 3: a training log.
rows_v3="
INSERT INTO sessions (id, kind, title, created, status) VALUES (4, 'trainlog', 'llama 8B', '2025-03-01T08:00:00Z', 'complete');
INSERT INTO train_steps (session_id, step, loss, step_time_ms) VALUES (4, 1, 10.5, 1500.0), (4, 2, 9.75, 1480.0);
"
rows_v4="INSERT INTO model_configs (name, config, saved) VALUES ('tiny', '{\"name\":\"tiny\"}', '2025-04-01T08:00:00Z');"
rows_v5=""
# Schema 6: a storage benchmark session.
rows_v6="
INSERT INTO sessions (id, kind, title, created, status) VALUES (5, 'storage', 'lustre write', '2025-05-01T08:00:00Z', 'complete');
INSERT INTO storage_results (session_id, op, access, nranks, file_bytes, aggregate_gbs) VALUES (5, 'write', 'file-per-process', 4, 1073741824, 12.5);
"
# Schema 7: runner statistics on a point, and a pairs session.
rows_v7="
UPDATE collective_results SET iters = 20, warmup = 5, calls_per_sample = 1, time_min_us = 4.5, time_max_us = 6.0,
  time_p50_us = 5.0, time_p99_us = 5.9, time_cv = 0.05 WHERE session_id = 2;
INSERT INTO sessions (id, kind, title, created, status) VALUES (6, 'pairs', 'pairs 2 nodes', '2025-06-01T08:00:00Z', 'complete');
INSERT INTO pair_results (session_id, rank_a, rank_b, host_a, host_b, latency_us, bandwidth_gbs) VALUES (6, 0, 1, 'a', 'b', 2.5, 24.0);
"
# Schema 8: a --split run's points, each with its group of ranks.
rows_v8="
INSERT INTO sessions (id, kind, title, created, host, tool, status)
  VALUES (7, 'collectives', 'split 2 nodes', '2025-07-01T08:00:00Z', 'node01', 'ridgeline-bench', 'complete');
INSERT INTO collective_results (session_id, op, nranks, dtype, redop, bytes, count, in_place, root, time_us, algbw, busbw,
                                wrong, iters, warmup, calls_per_sample, time_min_us, time_max_us, time_p50_us,
                                time_p99_us, time_cv, split_group)
  VALUES (7, 'all_reduce', 8, 'float32', 'sum', 4096, 1024, 0, -1, 30.0, 0.1365, 0.2389, 0, 50, 10, 1, 28.0, 35.0,
          29.5, 34.0, 0.04, 'node a'),
         (7, 'all_reduce', 8, 'float32', 'sum', 4096, 1024, 0, -1, 41.0, 0.0999, 0.1748, 0, 50, 10, 1, 39.0, 47.0,
          40.5, 46.0, 0.05, 'nodes a+b');
"

versions=${*:-$(seq 1 $((latest - 1)))}
for v in $versions; do
    out="$here/v$v.db"
    rm -f "$out" "$out-wal" "$out-shm"
    {
        echo "PRAGMA page_size = 1024;" # small files; the page size is no part of the schema
        echo "BEGIN;"
        k=1
        while [ "$k" -le "$v" ]; do
            migration "$k"
            echo "PRAGMA user_version = $k;"
            k=$((k + 1))
        done
        k=1
        while [ "$k" -le "$v" ]; do
            eval "echo \"\$rows_v$k\""
            k=$((k + 1))
        done
        echo "COMMIT;"
        echo "PRAGMA journal_mode = WAL;" # as every version of Ridgeline left its files
    } | sqlite3 -bail "$out" >/dev/null
    echo "v$v.db: schema $(sqlite3 "$out" 'PRAGMA user_version'), $(stat -c %s "$out") bytes"
done
