"""`collectives`: torch.distributed all_reduce, all_gather, reduce_scatter, broadcast, all_to_all over
message sizes, as "collective" records (CollectivePoint, records/collectivepoint.h).

nccl-tests' conventions (PERFORMANCE.md), as ridgeline-bench collectives: size is the full buffer
(the gathered one for all_gather, the scattered one for reduce_scatter, all of one rank's for
all_to_all); algbw = size / time (GB/s, 1e9); busbw = algbw x 2(n-1)/n for all_reduce, (n-1)/n for
all_gather, reduce_scatter and all_to_all, 1 for broadcast; time is the maximum over ranks of the
mean per call. Each point first runs once on rank-dependent values and checks every element:
"wrong" counts the mismatches over all ranks. Rank 0 prints."""
import argparse
import os
import shutil
import subprocess
import socket
from datetime import timedelta

import torch
import torch.distributed as dist

from . import device as devmod
from .session import Failure, note, summary

OPS = ("all_reduce", "all_gather", "reduce_scatter", "broadcast", "all_to_all")
DTYPES = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16, "float64": torch.float64}
LAUNCHERS = (  # rank, size, local rank variables of each launcher
    ("torchrun", "RANK", "WORLD_SIZE", "LOCAL_RANK"),
    ("open-mpi", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK"),
    ("pmi", "PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID"),
    ("slurm", "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID"),
)


def add_arguments(p):
    p.add_argument("--ops", default="all", help="comma list of %s, or all" % ", ".join(OPS))
    p.add_argument("-b", "--minbytes", default="8", help="smallest message size (K/M/G binary)")
    p.add_argument("-e", "--maxbytes", default="64M", help="largest message size (K/M/G binary)")
    p.add_argument("-f", "--stepfactor", type=int, default=2, help="multiply the size by this between points")
    p.add_argument("-d", "--dtype", default="float32", choices=sorted(DTYPES))
    p.add_argument("-w", "--warmup", type=int, default=5, help="untimed calls before each point")
    p.add_argument("-n", "--iters", type=int, default=0, help="timed calls per point (default: from --time-per-size)")
    p.add_argument("--time-per-size", type=float, default=0.2, help="seconds of timed calls per point")
    p.add_argument("--max-iters", type=int, default=1000)
    p.add_argument("--backend", default="auto", help="nccl (rccl on ROCm), gloo or auto (nccl on GPUs, gloo on the CPU)")
    p.add_argument("--timeout", type=float, default=120, help="seconds a rank waits for the others (rendezvous, each call)")
    # Testing: this rank alters one received element before the check (a stand-in for a bad link).
    p.add_argument("--corrupt-rank", type=int, default=-1, help=argparse.SUPPRESS)


def busbw_factor(op, n):
    if op == "all_reduce":
        return 2.0 * (n - 1) / n
    if op == "broadcast":
        return 1.0
    return (n - 1) / n


def launch_env():
    """(launcher, rank, world size, local rank) from whichever launcher started us; one process alone
    is a world of 1."""
    for name, r, s, l in LAUNCHERS:
        if r in os.environ and s in os.environ:
            return name, int(os.environ[r]), int(os.environ[s]), int(os.environ.get(l, "0"))
    return "none", 0, 1, 0


def master_address(launcher):
    if "MASTER_ADDR" in os.environ:
        return os.environ["MASTER_ADDR"]
    nodes = os.environ.get("SLURM_JOB_NODELIST")
    if launcher == "slurm" and nodes and shutil.which("scontrol"):
        out = subprocess.run(["scontrol", "show", "hostnames", nodes], capture_output=True, text=True, timeout=30)
        if out.returncode == 0 and out.stdout.strip():
            return out.stdout.split()[0]
    return "127.0.0.1"


def init(args):
    """Joins the process group; returns the facts for the session header."""
    launcher, rank, world, local = launch_env()
    dev = devmod.pick(args.device if args.device != "auto" or not torch.cuda.is_available() else "cuda:%d" % local)
    backend = args.backend if args.backend != "auto" else ("nccl" if dev.type == "cuda" else "gloo")
    os.environ.setdefault("MASTER_ADDR", master_address(launcher))
    os.environ.setdefault("MASTER_PORT", "29500")
    dist.init_process_group(backend, init_method="env://", rank=rank, world_size=world,
                            timeout=timedelta(seconds=args.timeout))
    hosts = [None] * world
    dist.all_gather_object(hosts, socket.gethostname())
    return dev, backend, {"launcher": launcher, "nranks": world, "backend": backend,
                          "hosts": sorted(set(hosts)), "nodes": len(set(hosts)),
                          "master": "%s:%s" % (os.environ["MASTER_ADDR"], os.environ["MASTER_PORT"])}


def sizes(args, world, elem):
    out, v = [], args.minbytes
    while v <= args.maxbytes:
        out.append(v)
        if args.stepfactor < 2:
            break
        v *= args.stepfactor
    return out


class Point:
    """Buffers of one op at one size and the call that runs it."""

    def __init__(self, op, nbytes, n, rank, dtype, dev):
        self.op, self.n, self.rank, self.dtype, self.dev = op, n, rank, dtype, dev
        self.gloo = dist.get_backend() == "gloo"
        elem = torch.tensor([], dtype=dtype).element_size()
        per = n if op in ("all_gather", "reduce_scatter", "all_to_all") else 1
        self.count = nbytes // elem // per * per  # whole chunks per rank
        self.bytes = self.count * elem
        chunk = self.count // per
        in_n, out_n = {"all_gather": (chunk, self.count), "reduce_scatter": (self.count, chunk)}.get(op, (self.count, self.count))
        self.inp = torch.empty(in_n, dtype=dtype, device=dev)
        self.out = torch.empty(out_n, dtype=dtype, device=dev)

    def call(self):
        if self.op == "all_reduce":
            dist.all_reduce(self.inp)
        elif self.op == "broadcast":
            dist.broadcast(self.inp, src=0)
        elif self.op == "all_gather":
            if self.gloo:  # gloo has no single-tensor all_gather: the list form into views of one buffer
                dist.all_gather(list(self.out.chunk(self.n)), self.inp)
            else:
                (getattr(dist, "all_gather_into_tensor", None) or dist._all_gather_base)(self.out, self.inp)
        elif self.op == "reduce_scatter":
            if self.gloo:
                dist.reduce_scatter(self.out, list(self.inp.chunk(self.n)))
            else:
                (getattr(dist, "reduce_scatter_tensor", None) or dist._reduce_scatter_base)(self.out, self.inp)
        else:
            dist.all_to_all_single(self.out, self.inp)

    def check(self, corrupt=False):
        """One call on rank-dependent values; mismatched elements on this rank."""
        n, r = self.n, self.rank
        i = torch.arange(self.inp.numel(), device=self.dev)
        pattern = (i % 5 + 1).to(self.dtype)
        tri = n * (n + 1) // 2
        if self.op == "all_to_all":  # chunk j of rank r carries r*n + j + 1
            chunk = max(1, self.inp.numel() // n)
            self.inp.copy_((r * n + i // chunk + 1).to(self.dtype))
        elif self.op == "broadcast":
            self.inp.copy_(pattern if r == 0 else torch.full_like(self.inp, -1))
        else:
            self.inp.copy_(pattern * (r + 1))
        self.call()
        if self.op == "all_reduce":
            got, want = self.inp, pattern * tri
        elif self.op == "broadcast":
            got, want = self.inp, pattern
        elif self.op == "all_gather":  # chunk s came from rank s
            j = torch.arange(self.out.numel(), device=self.dev)
            chunk = self.inp.numel()
            got, want = self.out, ((j % chunk) % 5 + 1) * (j // chunk + 1)
        elif self.op == "reduce_scatter":  # this rank's chunk of the sum
            j = torch.arange(self.out.numel(), device=self.dev) + r * self.out.numel()
            got, want = self.out, (j % 5 + 1) * tri
        else:  # chunk s came from rank s, which sent chunk r = s*n + r + 1
            chunk = max(1, self.out.numel() // n)
            j = torch.arange(self.out.numel(), device=self.dev)
            got, want = self.out, j // chunk * n + r + 1
        if corrupt:
            got.view(-1)[0] += 1
        return int((got.to(torch.float64) != want.to(torch.float64)).sum().item())


def agree(values, dev, op=dist.ReduceOp.MAX):
    t = torch.tensor(values, dtype=torch.float64, device=dev)
    dist.all_reduce(t, op=op)
    return t.tolist()


def run_point(p, args, dev, world):
    timer = devmod.Timer(dev)
    wrong = p.check(corrupt=args.corrupt_rank == p.rank)
    for _ in range(max(1, args.warmup)):
        p.call()
    devmod.synchronize(dev)
    timer.start()
    p.call()
    per_call = agree([timer.stop()], dev)[0]
    iters = args.iters or max(1, min(args.max_iters, int(args.time_per_size / max(per_call, 1e-7))))
    dist.barrier()
    samples = []
    for _ in range(iters):
        timer.start()
        p.call()
        samples.append(timer.stop())
    s = summary(samples)
    stats = agree([s["mean_us"], s["min_us"], s["max_us"], s["median_us"], s["p99_us"], s["cv"]], dev)
    wrong = int(agree([wrong], dev, dist.ReduceOp.SUM)[0])
    t = stats[0]
    algbw = p.bytes / (t * 1e-6) / 1e9 if t > 0 else 0.0
    return {"record": "collective", "op": p.op, "nranks": world, "dtype": args.dtype,
            "redop": "sum" if p.op in ("all_reduce", "reduce_scatter") else "", "bytes": p.bytes,
            "count": p.count, "in_place": p.op in ("all_reduce", "broadcast"),
            "root": 0 if p.op == "broadcast" else -1, "time_us": t, "algbw_gbs": algbw,
            "busbw_gbs": algbw * busbw_factor(p.op, world), "wrong": wrong,
            "stats": {"iters": iters, "warmup": args.warmup, "calls_per_sample": 1, "mean_us": t, "min_us": stats[1],
                      "max_us": stats[2], "p50_us": stats[3], "p99_us": stats[4], "cv": stats[5]}}


def run(ctx, args, dev, ops):
    rank, world = dist.get_rank(), dist.get_world_size()
    dtype = DTYPES[args.dtype]
    elem = torch.tensor([], dtype=dtype).element_size()
    points = wrong = 0
    for op in ops:
        for nbytes in sizes(args, world, elem):
            if agree([ctx.stop.signal], dev)[0]:  # a signal on any rank stops them all between points
                ctx.stop.signal = ctx.stop.signal or 15
                return "%d points" % points
            p = Point(op, nbytes, world, rank, dtype, dev)
            if p.count == 0:
                continue
            ctx.watchdog.arm("%s %d B" % (op, p.bytes))
            try:
                record = run_point(p, args, dev, world)
            except RuntimeError as e:
                # Every rank refuses an op its backend lacks (gloo has no reduce_scatter) alike.
                text = str(e).lower()
                if not any(w in text for w in ("not supported", "unsupported", "no support", "does not support")):
                    raise Failure("%s %d B: %s" % (op, p.bytes, str(e).splitlines()[0]))
                reason = "%s backend: %s" % (dist.get_backend(), str(e).splitlines()[0][:300])
                ctx.output.emit({"record": "skipped", "what": "collective", "op": op, "reason": reason})
                note("%s skipped: %s" % (op, reason))
                ctx.watchdog.disarm()
                break
            ctx.watchdog.disarm()
            ctx.output.point(record)
            points += 1
            wrong += record["wrong"]
            if rank == 0:
                note("%-14s %12d B  %10.2f us  algbw %8.3f  busbw %8.3f GB/s  wrong %d"
                     % (op, p.bytes, record["time_us"], record["algbw_gbs"], record["busbw_gbs"], record["wrong"]))
    if wrong:
        raise Failure("%d wrong elements over %d points: the collectives returned bad data" % (wrong, points))
    return "%d points, all checked" % points
