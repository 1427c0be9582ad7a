"""`membw`: STREAM copy/scale/add/triad as tensor ops over working sets from cache to HBM / DRAM,
as "membw" records (MemBwPoint, records/kernelpoints.h). Bytes are counted as STREAM counts them:
copy and scale move 2 arrays, add and triad 3, no write-allocate traffic; GB = 1e9 B; the best
sample per call is kept, as STREAM reports."""
import math
import time

import torch

from . import device as devmod
from .session import note

KERNELS = ("copy", "scale", "add", "triad")
ARRAYS = {"copy": 2, "scale": 2, "add": 3, "triad": 3}
DTYPE = {"fp32": torch.float32, "fp64": torch.float64, "bf16": torch.bfloat16, "fp16": torch.float16}
SCALAR = 3.0


def add_arguments(p):
    p.add_argument("--min", dest="min_bytes", default="4K", help="smallest triad working set (3 arrays), e.g. 4K")
    p.add_argument("--max", dest="max_bytes", default=None,
                   help="largest working set (default: 4 x the last-level cache, at least 64M on the CPU and 2G on a GPU)")
    p.add_argument("--steps-per-octave", type=int, default=2, help="log steps per doubling")
    p.add_argument("--kernels", default="copy,scale,add,triad", help="STREAM kernels")
    p.add_argument("--dtype", default="fp32", choices=sorted(DTYPE), help="element type")
    p.add_argument("--repeats", type=int, default=10, help="timed samples per point (the best is kept)")
    p.add_argument("--budget", type=float, default=0.2, help="seconds of timed calls per point (sets calls per sample)")
    devmod.add_launch_argument(p)
    p.add_argument("--reference", action="store_true",
                   help="also time a bare dst.copy_(src) loop at each size in the same process and print the ratio")


def sweep_sizes(lo, hi, steps):
    out, i = [], 0
    while True:
        v = int(round(lo * 2 ** (i / steps)))
        if v > hi:
            break
        if not out or v != out[-1]:
            out.append(v)
        i += 1
    return out


def kernel_fn(name, a, b, c, graph=False):
    if name == "copy":
        # In a CUDA graph copy_ becomes a memcpy node that the copy engine runs (about 2.8 TB/s on an
        # H200 against 4.2 TB/s for a kernel, and no L2 plateau); STREAM and BabelStream time a copy
        # kernel, c[i] = a[i]: an element-wise kernel that reads a and writes c moves the same bytes.
        return (lambda: torch.mul(a, 1, out=c)) if graph else (lambda: c.copy_(a))
    if name == "scale":
        return lambda: torch.mul(c, SCALAR, out=b)
    if name == "add":
        return lambda: torch.add(a, b, out=c)
    return lambda: torch.add(b, c, alpha=SCALAR, out=a)


def best_per_call(fn, dev, args, stop):
    """The best sample's seconds per call, the calls per sample and how they were timed."""
    fn()  # the first call allocates and faults pages in: not part of the pace
    devmod.synchronize(dev)
    samples, calls, how = devmod.timed_samples(lambda i: fn(), dev, 3, args.repeats, args.budget, 100000,
                                               args.launch == "graph", stop)
    return min(samples, default=math.inf), calls, how


def bare_copy(src, dst, dev, calls):
    """What a user writes to time a copy: a loop of dst.copy_(src) and a synchronised clock."""
    dst.copy_(src)
    devmod.synchronize(dev)
    t0 = time.perf_counter()
    for _ in range(calls):
        dst.copy_(src)
    devmod.synchronize(dev)
    return (time.perf_counter() - t0) / calls


def run(ctx, args, dev, sizes, kernels):
    dtype = DTYPE[args.dtype]
    elem = torch.tensor([], dtype=dtype).element_size()
    threads = torch.get_num_threads() if dev.type == "cpu" else 0
    points = 0
    for ws in sizes:
        n = max(1, ws // (3 * elem))
        ctx.watchdog.arm("membw %d B" % ws)
        a = torch.randn(n, device=dev).to(dtype)
        b = torch.randn(n, device=dev).to(dtype)
        c = torch.randn(n, device=dev).to(dtype)
        for name in kernels:
            if ctx.stop.stopped:
                return "%d points" % points
            graph = dev.type == "cuda" and args.launch == "graph"
            best, calls, how = best_per_call(kernel_fn(name, a, b, c, graph), dev, args, ctx.stop)
            if math.isinf(best):
                break
            counted = ARRAYS[name] * n * elem
            gbs = counted / best / 1e9
            ctx.output.point({"record": "membw", "kernel": name, "bytes": counted, "threads": threads,
                              "best_time_us": best * 1e6, "bandwidth_gbs": gbs, "timing": how})
            points += 1
            note("membw %-5s %12d B  %10.2f GB/s" % (name, counted, gbs))
            if args.reference and name == "copy":
                bare = bare_copy(a, c, dev, calls * max(1, args.repeats))
                ctx.output.emit({"record": "reference", "what": "membw", "kernel": "copy", "bytes": counted,
                                 "probe_gbs": gbs, "bare_gbs": counted / bare / 1e9, "ratio": bare / best,
                                 "bare": "dst.copy_(src) loop, synchronised perf_counter, mean per call"})
                note("  reference: bare copy_ loop %.2f GB/s, probe / bare = %.3f" % (counted / bare / 1e9, bare / best))
        del a, b, c
        ctx.watchdog.disarm()
    return "%d points" % points
