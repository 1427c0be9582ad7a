#!/usr/bin/env bash
# ridgeline-cli built without Qt (RIDGELINE_GUI=OFF): no Qt library linked; import, results, size
# and chart data as CSV work; images and reports fail with a message saying why, leaving no file.
# Usage: cli_without_qt.sh RIDGELINE_CLI SAMPLE_DATA_DIR
set -euo pipefail
cli=$1 samples=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
if ldd "$cli" | grep -qi 'libQt'; then fail "$cli links Qt: $(ldd "$cli" | grep -i libqt | head -1)"; fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
db=$tmp/ws.db
"$cli" --db "$db" import "$samples/nccl-tests_8xH100_all_collectives.txt" > "$tmp/import.txt"
"$cli" --db "$db" results 1 > "$tmp/results.txt"
grep -q all_reduce "$tmp/results.txt" || fail "results 1 lists no all_reduce"
"$cli" --db "$db" export 1 --chart bandwidth -o "$tmp/bw.csv"
head -1 "$tmp/bw.csv" | grep -q '^session_id,session,op,in_place,nranks' || fail "bandwidth CSV header: $(head -1 "$tmp/bw.csv")"
rows=$(grep -c ',all_reduce,' "$tmp/bw.csv" || true)
[ "$rows" -ge 20 ] || fail "bandwidth CSV has $rows all_reduce rows"
"$cli" size llama-3-8b --hardware h100-sxm --parallel tp=8 > "$tmp/size.txt" || fail "size failed"
expect_no_image() { # command... ; the output file is the last argument
  local out="${*: -1}" err
  if err=$("$@" 2>&1); then fail "$* succeeded in a build without Qt"; fi
  grep -q "built without Qt" <<< "$err" || fail "$* gave: $err"
  [ ! -e "$out" ] || fail "$out was written"
}
expect_no_image "$cli" --db "$db" export 1 --chart bandwidth -o "$tmp/bw.png"
expect_no_image "$cli" --db "$db" report 1 -o "$tmp/report.html"
"$cli" --version | grep -Eq '^MPI \(ridgeline-bench\) (Open MPI v|MPICH )[0-9]' || fail "--version names no MPI library: $("$cli" --version | grep MPI)"
echo "ridgeline-cli without Qt: import, results, size and CSV work; images and reports say why not"
