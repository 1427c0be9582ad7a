#!/usr/bin/env bash
# One pass of ridgeline-probe on a GPU node, each subcommand's JSON lines into OUTDIR, for the figures
# issue 25 asks for: GEMM at 8192^3 bf16 against a bare torch.matmul loop in the same process, HBM copy
# against a bare tensor.copy_ loop, attention per backend, a collective sweep, and a traced training
# step. Import the files here with `ridgeline-cli import OUTDIR`, then `profile build` and `vs-measured`.
#
#   tests/benchmarks/probe_gpu.sh OUTDIR          # sizes for a data-centre GPU
#   RIDGELINE_PROBE_SMALL=1 tests/benchmarks/probe_gpu.sh OUTDIR   # tiny sizes: checks the script on a CPU
#   RIDGELINE_PROBE_ONLY="gemm step" tests/benchmarks/probe_gpu.sh OUTDIR   # some subcommands only
#
# Stderr (what people read, and the probe/bare ratios) goes to OUTDIR/log.txt and to this script's stderr.
set -u -o pipefail
out=${1:?usage: probe_gpu.sh OUTDIR}
mkdir -p "$out"
here=$(cd "$(dirname "$0")/../.." && pwd)
probe="python3 $here/app/probe/ridgeline-probe"
export PYTHONUNBUFFERED=1
log="$out/log.txt"
: >"$log"

if [ -n "${RIDGELINE_PROBE_SMALL:-}" ]; then
    gemmref=(--shapes 256x256x256 --dtypes fp32 --budget 0.05 --repeats 3)
    gemm=(--shapes 256x256x256 --square 128:256 --dtypes fp32 --budget 0.05 --repeats 3)
    membw=(--max 8M --budget 0.02 --repeats 2)
    attention=(--seq 128:256 --head-dims 64 --tokens 512 --hidden 256 --passes forward,backward --repeats 2)
    collectives=(-e 64K --time-per-size 0.01)
    step=(--model llama-3-8b --layers 2 --hidden 256 --ffn 512 --vocab 1024 --seq 128 --batch 1 --steps 3 --warmup 1)
else
    # 8192^3 first (the stated comparison), then a square sweep and the shapes of the model the step runs.
    gemmref=(--shapes 8192x8192x8192 --dtypes bf16 --budget 2 --repeats 20)
    gemm=(--shapes 8192x8192x8192,4096x14336x4096,4096x4096x14336,8192x4096x4096 --square 1024:16384
          --dtypes bf16,fp16,tf32,fp32,fp8 --budget 0.3)
    membw=()
    attention=()
    collectives=(-e 1G -d bfloat16)
    # Llama-3-8B's shape with 4 of its 32 layers fits one 80 GB GPU with AdamW (about 2 B parameters).
    step=(--model llama-3-8b --layers 4 --seq 4096 --batch 2 --steps 8 --warmup 3)
fi

run() { # name, then the probe's arguments
    local name=$1
    shift
    case " ${RIDGELINE_PROBE_ONLY:-$name} " in *" $name "*) ;; *) return ;; esac
    echo "=== $name: ridgeline-probe $*" | tee -a "$log" >&2
    local t0=$SECONDS
    $probe "$@" >"$out/$name.jsonl" 2> >(tee -a "$log" >&2)
    local rc=$?
    echo "=== $name: exit $rc after $((SECONDS - t0)) s" | tee -a "$log" >&2
}

$probe info 2>&1 | tee -a "$log" >&2 # versions and device facts (every session's header has them too)
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,power.limit --format=csv 2>&1 | tee -a "$log" >&2
# The harness against a bare loop on the same operands (--rotate 1: the bare loop does not rotate), then
# the sweep with operands rotated past the last-level cache, as GEMM benchmarks time them.
run gemm-ref gemm "${gemmref[@]}" --rotate 1 --reference
run gemm gemm "${gemm[@]}"
run membw membw "${membw[@]}" --reference
run step step "${step[@]}" --trace "$out/step_trace.json"
run attention attention "${attention[@]}"
run collectives collectives "${collectives[@]}"
# The files come back only under a size limit: compress a large trace (the importer reads .json.gz).
if [ -f "$out/step_trace.json" ] && [ "$(stat -c %s "$out/step_trace.json")" -gt 8000000 ]; then
    gzip -f "$out/step_trace.json"
fi
ls -l "$out" >&2
