#!/usr/bin/env bash
# ridgeline-cli built without Qt (RIDGELINE_GUI=OFF): no Qt library linked; import, results, size
# and the data of every chart kind `export --help` lists as CSV work; images and reports fail with
# a message saying why, leaving no file.
# Usage: cli_without_qt.sh RIDGELINE_CLI SAMPLE_DATA_DIR TEST_DATA_DIR [MPIEXEC RIDGELINE_BENCH]
# (with MPIEXEC and RIDGELINE_BENCH a real 2-rank `run pairs` gives the pairs heatmap's session).
set -euo pipefail
cli=$1 samples=$2 data=$3 mpiexec=${4:-} bench=${5:-}
fail() { echo "FAIL: $*" >&2; exit 1; }
libs=$(ldd "$cli")  # captured: `ldd | grep -q` can lose a match to SIGPIPE under pipefail
if grep -qi 'libQt' <<< "$libs"; then fail "$cli links Qt: $(grep -i libqt <<< "$libs" | head -1)"; fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
db=$tmp/ws.db
# One file per import, so the session ids below follow this order.
import() { "$cli" --db "$db" import "$1" > "$tmp/import.txt" || fail "import $1: $(cat "$tmp/import.txt")"; }
import "$samples/nccl-tests_8xH100_all_collectives.txt"   # 1 all_reduce, 2-5 the other collectives
import "$samples/nccl-tests_2node_16xH100_all_reduce.txt" # 6
import "$samples/nccl-tests_4node_32xH100_all_reduce.txt" # 7
import "$samples/stream-5.10_2threads_kvm-vm.txt"         # 8 membw
import "$data/kernels/gemm-generic.csv"                   # 9 gemm
import "$data/storage/ior-3.2.0-shared.txt"               # 10 storage
import "$data/storage/fio-ckpt-2jobs.json"                # 11 storage
import "$samples/megatron-lm_gpt-8b_16xH100_pretrain.log" # 12 training log
import "$samples/kineto_sampled_trace_rank0_hta.json.gz"  # 13 trace
"$cli" --db "$db" results 1 > "$tmp/results.txt"
grep -q all_reduce "$tmp/results.txt" || fail "results 1 lists no all_reduce"
"$cli" --db "$db" export 1 --chart bandwidth -o "$tmp/bw.csv"
head -1 "$tmp/bw.csv" | grep -q '^session_id,session,op,in_place,nranks' || fail "bandwidth CSV header: $(head -1 "$tmp/bw.csv")"
rows=$(grep -c ',all_reduce,' "$tmp/bw.csv" || true)
[ "$rows" -ge 20 ] || fail "bandwidth CSV has $rows all_reduce rows"

# The sessions each chart kind is exported from, and the start of its CSV header.
declare -A sessions=(
  [bandwidth]="1" [latency]="1" [scaling]="1 6 7" [compare]="1 6"
  [roofline]="8 9" [membw]="8" [gemm-efficiency]="9"
  [trace-steps]="13" [trace-totals]="13" [trace-timeline]="13"
  [trainlog]="12" [trainlog-loss]="12" [trainlog-steptime]="12" [trainlog-throughput]="12"
  [trainlog-tflops]="12" [trainlog-mfu]="12"
  [storage-size]="10 11" [storage-ranks]="10 11")
declare -A header=(
  [bandwidth]="session_id," [latency]="session_id," [scaling]="op,nranks," [compare]="op,in_place,bytes,"
  [roofline]="ceiling,name," [membw]="session_id,kernel," [gemm-efficiency]="session_id,dtype,m,n,k,"
  [trace-steps]="step,rank,gemm_ms," [trace-totals]="rank,steps,gemm_ms," [trace-timeline]="rank,step,stream,"
  [trainlog]="step,segment,redone,wall_s,loss" [trainlog-loss]="step,segment,redone,wall_s,loss"
  [trainlog-steptime]="step,segment,redone,wall_s,step_time_ms"
  [trainlog-throughput]="step,segment,redone,wall_s,tokens_per_s"
  [trainlog-tflops]="step,segment,redone,wall_s,tflops_per_gpu"
  [trainlog-mfu]="step,segment,redone,wall_s,mfu_percent"
  [storage-size]="series,file_bytes_per_rank," [storage-ranks]="series,ranks,"
  [pairs-heatmap]="rank_a,")
if [ -n "$bench" ] && [ -x "$bench" ] && [ -x "$mpiexec" ]; then
  extra=()
  if grep -q 'Open MPI' <<< "$("$mpiexec" --version 2>&1)"; then
    for a in --oversubscribe --mca pml ob1 --mca btl self,vader; do extra+=(--mpirun-arg "$a"); done
  fi
  "$cli" --db "$db" run pairs -np 2 --mpirun "$mpiexec" --bench "$bench" "${extra[@]}" -- \
    --bandwidth-bytes 64K --latency-iters 5 --bandwidth-iters 3 -w 1 > "$tmp/pairs.txt" 2>&1 \
    || fail "run pairs: $(tail -5 "$tmp/pairs.txt")"
  sessions[pairs-heatmap]=14
else
  echo "note: no ridgeline-bench or mpiexec: pairs-heatmap not exported" >&2
fi

# Every kind `export --help` lists must have sessions above (a new kind fails here until it does).
kinds=$("$cli" export --help | grep -o 'Chart kind: .*' | sed 's/^Chart kind: //; s/, /\n/g')
[ "$(wc -l <<< "$kinds")" -ge 19 ] || fail "export --help lists only: $kinds"
for kind in $kinds; do
  if [ -z "${sessions[$kind]:-}" ]; then
    [ "$kind" = pairs-heatmap ] && [ -z "$bench" ] && continue
    fail "no sessions to export --chart $kind from: add them to this test"
  fi
  out=$tmp/$kind.csv
  # shellcheck disable=SC2086
  "$cli" --db "$db" export ${sessions[$kind]} --chart "$kind" -o "$out" > "$tmp/export.txt" 2>&1 \
    || fail "export --chart $kind -o x.csv: $(cat "$tmp/export.txt")"
  head -1 "$out" | grep -q "^${header[$kind]}" || fail "$kind CSV header: $(head -1 "$out")"
  rows=$(tail -n +2 "$out" | grep -c , || true)
  [ "$rows" -ge 1 ] || fail "$kind CSV has a header and no rows"
done

"$cli" size llama-3-8b --hardware h100-sxm --parallel tp=8 > "$tmp/size.txt" || fail "size failed"
expect_no_image() { # command... ; the output file is the last argument
  local out="${*: -1}" err
  if err=$("$@" 2>&1); then fail "$* succeeded in a build without Qt"; fi
  grep -q "image export needs the GUI build" <<< "$err" || fail "$* gave: $err"
  grep -q -- "-o FILE.csv writes the data" <<< "$err" || fail "$* gave: $err"
  [ ! -e "$out" ] || fail "$out was written"
}
expect_no_image "$cli" --db "$db" export 1 --chart bandwidth -o "$tmp/bw.png"
expect_no_image "$cli" --db "$db" export 8 --chart roofline -o "$tmp/roofline.svg"
expect_no_image "$cli" --db "$db" export 12 --chart trainlog -o "$tmp/trainlog.pdf"
if err=$("$cli" --db "$db" report 1 -o "$tmp/report.html" 2>&1); then fail "report succeeded in a build without Qt"; fi
grep -q "report needs the GUI build" <<< "$err" || fail "report gave: $err"
[ ! -e "$tmp/report.html" ] || fail "report.html was written"
"$cli" --version | grep -Eq '^MPI \(ridgeline-bench\) (Open MPI v|MPICH )[0-9]' || fail "--version names no MPI library: $("$cli" --version | grep MPI)"
echo "ridgeline-cli without Qt: import, results, size and every chart's CSV work; images and reports say why not"
