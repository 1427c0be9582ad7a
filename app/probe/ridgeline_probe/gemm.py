"""`gemm`: torch.matmul over shapes and dtypes, as "gemm" records (GemmPoint, records/kernelpoints.h).

Random normal operands (zeros let the tensor cores idle at a higher clock), rotated through enough
sets that no call finds its inputs in the last-level cache, warm-up calls first, then timed
samples of several calls each: the point's time is the median per call, its spread in "stats"."""
import math
import time

import torch

from . import device as devmod
from .session import note, summary

DTYPES = ("bf16", "fp16", "fp32", "tf32", "fp8")
WIRE_DTYPE = {"bf16": "bfloat16", "fp16": "float16", "fp32": "float32", "tf32": "tf32", "fp8": "float8_e4m3"}
ELEMENT_BYTES = {"bf16": 2, "fp16": 2, "fp32": 4, "tf32": 4, "fp8": 1}
MAX_SETS = 64


def add_arguments(p):
    p.add_argument("--dtypes", default=None, help="comma list of %s (default: bf16 on a GPU, fp32 on the CPU)" % ", ".join(DTYPES))
    p.add_argument("--warmup", type=int, default=5, help="untimed calls before each shape's samples")
    p.add_argument("--repeats", type=int, default=10, help="timed samples per point (the median is reported)")
    p.add_argument("--budget", type=float, default=0.5, help="seconds of timed calls per point (sets calls per sample)")
    p.add_argument("--rotate", default="auto", help="operand sets to rotate through: auto (past the last-level cache) or a count")
    devmod.add_launch_argument(p)
    p.add_argument("--reference", action="store_true",
                   help="also time a bare torch.matmul loop on one operand set in the same process and print the ratio")


def skip_reason(dtype, dev):
    """Why this build or device cannot run dtype; empty when it can."""
    if dtype == "tf32" and dev.type != "cuda":
        return "tf32 is a GPU tensor-core mode; on the CPU fp32 is what runs"
    if dtype == "fp8":
        if not hasattr(torch, "float8_e4m3fn"):
            return "PyTorch %s has no float8 dtypes (added in 2.1)" % torch.__version__
        if dev.type != "cuda" or not hasattr(torch, "_scaled_mm"):
            return "fp8 GEMM needs torch._scaled_mm on a GPU with FP8 tensor cores"
    return ""


class Operands:
    """sets x (A[M,K], B[K,N], C[M,N]), random normal, for one dtype and shape."""

    def __init__(self, dtype, shape, dev, sets):
        m, n, k = shape
        self.dtype, self.dev = dtype, dev
        storage = {"bf16": torch.bfloat16, "fp16": torch.float16}.get(dtype, torch.float32)
        self.a, self.b, self.c, self.scale = [], [], [], None
        for _ in range(sets):
            a = torch.randn(m, k, device=dev, dtype=storage)
            b = torch.randn(k, n, device=dev, dtype=storage)
            if dtype == "fp8":
                a = a.to(torch.float8_e4m3fn)
                b = b.t().contiguous().to(torch.float8_e4m3fn).t()  # column-major B, as _scaled_mm wants
                self.scale = torch.ones((), device=dev, dtype=torch.float32)
                self.c.append(None)
            else:
                self.c.append(torch.empty(m, n, device=dev, dtype=storage))
            self.a.append(a)
            self.b.append(b)

    def call(self, i):
        i %= len(self.a)
        if self.dtype == "fp8":
            try:
                return torch._scaled_mm(self.a[i], self.b[i], scale_a=self.scale, scale_b=self.scale,
                                        out_dtype=torch.bfloat16)
            except TypeError:  # 2.1-2.3: scales optional, returns (out, amax)
                return torch._scaled_mm(self.a[i], self.b[i], out_dtype=torch.bfloat16)
        return torch.matmul(self.a[i], self.b[i], out=self.c[i])


def operand_sets(shape, dtype, dev, rotate):
    m, n, k = shape
    one = (m * k + k * n) * ELEMENT_BYTES[dtype] + m * n * (2 if dtype == "fp8" else ELEMENT_BYTES[dtype])
    if rotate != "auto":
        return max(1, int(rotate)), one
    sets = math.ceil(2 * devmod.last_level_cache_bytes(dev) / one) + 1
    if dev.type == "cuda":
        free, _ = torch.cuda.mem_get_info(dev)
        sets = min(sets, max(1, int(0.5 * free // one)))
    else:
        sets = min(sets, max(1, (2 << 30) // one))
    return max(1, min(sets, MAX_SETS)), one


def measure(ops, dev, args, stop):
    """Median-ready samples (seconds per call), the calls per sample and how they were timed."""
    return devmod.timed_samples(ops.call, dev, args.warmup, args.repeats, args.budget, 10000,
                                args.launch == "graph", stop)


def bare_loop(ops, dev, calls):
    """What a user writes to time a matmul: one operand set, a loop, a synchronised clock."""
    a, b = ops.a[0], ops.b[0]
    fn = (lambda: ops.call(0)) if ops.dtype == "fp8" else (lambda: torch.matmul(a, b))
    for _ in range(3):
        fn()
    devmod.synchronize(dev)
    t0 = time.perf_counter()
    for _ in range(calls):
        fn()
    devmod.synchronize(dev)
    return (time.perf_counter() - t0) / calls


def run(ctx, args, dev, shapes, dtypes):
    label = devmod.device_label(dev)
    threads = torch.get_num_threads() if dev.type == "cpu" else 0
    measured = skipped = 0
    for dtype in dtypes:
        reason = skip_reason(dtype, dev)
        if reason:
            skipped += 1
            ctx.output.emit({"record": "skipped", "what": "gemm", "dtype": WIRE_DTYPE[dtype], "reason": reason})
            note("gemm %s skipped: %s" % (dtype, reason))
            continue
        if dev.type == "cuda":
            torch.backends.cuda.matmul.allow_tf32 = dtype == "tf32"
            torch.backends.cudnn.allow_tf32 = dtype == "tf32"
        for shape in shapes:
            if ctx.stop.stopped:
                return "%d points" % measured
            m, n, k = shape
            ctx.watchdog.arm("gemm %s %dx%dx%d" % (dtype, m, n, k))
            sets, one = operand_sets(shape, dtype, dev, args.rotate)
            ops = Operands(dtype, shape, dev, sets)  # out of memory: RuntimeError, the session fails
            samples, calls, how = measure(ops, dev, args, ctx.stop)
            if not samples:
                break
            s = summary(samples)
            t = s["median_us"]
            flops = 2.0 * m * n * k
            record = {"record": "gemm", "dtype": WIRE_DTYPE[dtype], "m": m, "n": n, "k": k, "batch": 1,
                      "trans_a": "N", "trans_b": "N", "time_us": t, "gflops": flops / (t * 1e-6) / 1e9,
                      "intensity": flops / ((m * k + k * n + m * n) * ELEMENT_BYTES[dtype]), "efficiency": 0.0,
                      "threads": threads, "device": label,
                      "stats": dict(s, calls_per_sample=calls, warmup=args.warmup, operand_sets=sets,
                                    operand_bytes=sets * one, timing=how)}
            if dtype in ("tf32", "fp8"):
                record["compute_type"] = "float32"
            c = devmod.clock(dev)
            if c:
                record["clock"] = c
            ctx.output.point(record)
            measured += 1
            note("gemm %-5s %6dx%dx%d  %9.1f us  %9.1f GFLOP/s  (cv %.3f, %d sets)"
                 % (dtype, m, n, k, t, record["gflops"], s["cv"], sets))
            if args.reference:
                bare = bare_loop(ops, dev, calls * len(samples))
                ctx.output.emit({"record": "reference", "what": "gemm", "dtype": WIRE_DTYPE[dtype], "m": m, "n": n,
                                 "k": k, "probe_gflops": record["gflops"], "bare_gflops": flops / bare / 1e9,
                                 "ratio": (flops / (t * 1e-6)) / (flops / bare),
                                 "bare": "torch.matmul(a, b) loop on one operand set, synchronised perf_counter"})
                note("  reference: bare torch.matmul loop %.1f GFLOP/s, probe / bare = %.3f"
                     % (flops / bare / 1e9, bare / (t * 1e-6)))
            del ops
            ctx.watchdog.disarm()
    msg = "%d points" % measured
    if skipped:
        msg += ", %d dtype(s) skipped (see the skipped records)" % skipped
    return msg
