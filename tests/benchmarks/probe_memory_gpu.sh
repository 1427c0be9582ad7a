#!/usr/bin/env bash
# What a training step holds on one GPU, for the sizing model's framework reserve (issue 27): the
# probe's `step` at Llama-3-8B's width (4 of its 32 layers) over micro-batches and sequence lengths,
# each a fresh process, its step_summary's memory_bytes (allocator peak and reserve, the state between
# steps, the device memory outside the allocator). About 2 minutes on an H100/H200.
#
#   tests/benchmarks/probe_memory_gpu.sh OUTDIR
#   RIDGELINE_PROBE_SMALL=1 tests/benchmarks/probe_memory_gpu.sh OUTDIR   # tiny shapes: checks the script on a CPU
set -u -o pipefail
out=${1:?usage: probe_memory_gpu.sh OUTDIR}
mkdir -p "$out"
here=$(cd "$(dirname "$0")/../.." && pwd)
log="$out/log.txt"
: >"$log"
export PYTHONUNBUFFERED=1
if [ -n "${RIDGELINE_PROBE_SMALL:-}" ]; then
    shape=(--layers 2 --hidden 256 --ffn 512 --vocab 1024)
    cases=("1 128" "2 128" "1 256")
else
    shape=(--layers 4)
    cases=("1 4096" "2 4096" "4 4096" "1 8192" "2 8192")
fi
for c in "${cases[@]}"; do
    read -r b s <<<"$c"
    echo "=== step batch $b seq $s" | tee -a "$log" >&2
    python3 "$here/app/probe/ridgeline-probe" step --model llama-3-8b "${shape[@]}" --seq "$s" --batch "$b" \
        --steps 3 --warmup 2 >"$out/step-memory-b${b}-s${s}.jsonl" 2> >(tee -a "$log" >&2)
    echo "=== exit $?" | tee -a "$log" >&2
done
nvidia-smi 2>&1 | tee -a "$log" >&2
