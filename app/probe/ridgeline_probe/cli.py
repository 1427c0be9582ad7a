"""Command line: subcommands, common options, exit codes (0 done or cancelled, 1 failed, 2 bad usage).
PyTorch is imported only once the arguments are known to be good."""
import argparse
import json
import os
import sys

from . import VERSION, sizes
from .session import Failure, note, run_session, session_header

KINDS = {"gemm": "gemm", "membw": "membw", "attention": "attention", "collectives": "collectives", "step": "step"}
PYTHON_ENV = "RIDGELINE_PROBE_PYTHON"


def common(p):
    p.add_argument("--device", default="auto", help="auto (the first GPU, else the CPU), cpu, cuda or cuda:N")
    p.add_argument("--point-timeout", type=float, default=600,
                   help="end the session failed when one point runs longer than this many seconds (0: no limit)")
    p.add_argument("--json", action="store_true", help="JSON lines on stdout (the only stdout format; accepted for symmetry "
                   "with ridgeline-cli)")


def parser():
    top = argparse.ArgumentParser(
        prog="ridgeline-probe",
        description="GEMM, memory bandwidth, attention, collectives and a training step measured through PyTorch, "
                    "printed as the JSON lines of ridgeline-bench: a session header, one line per point, an end "
                    "record. Store them with `ridgeline-cli import FILE`. People read stderr.",
        epilog="Exit codes: 0 done (or cancelled by SIGTERM/SIGINT: the end record says so), 1 failed, 2 bad usage. "
               "The Python that runs it needs PyTorch; %s=/path/to/python picks another." % PYTHON_ENV)
    top.add_argument("--version", action="version", version="ridgeline-probe " + VERSION)
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    info = sub.add_parser("info", help="PyTorch, device and library versions as one JSON object")
    common(info)

    g = sub.add_parser("gemm", help="torch.matmul over shapes and dtypes (gemm records)")
    common(g)
    g.add_argument("--square", type=sizes.int_range, default=None,
                   help="square sizes: list, FROM:TO (doubling) or FROM:TO:STEP (default 1024:8192 on a GPU, 256:1024 on the CPU)")
    g.add_argument("--shapes", type=sizes.shapes, default=[], help="MxNxK list, e.g. 8192x8192x8192,4096x14336x4096")
    from_module("gemm", g)

    m = sub.add_parser("membw", help="STREAM copy/scale/add/triad from cache to HBM/DRAM (membw records)")
    common(m)
    from_module("membw", m)

    a = sub.add_parser("attention", help="scaled_dot_product_attention per backend (attention records)")
    common(a)
    from_module("attention", a)

    c = sub.add_parser("collectives", help="torch.distributed collectives over sizes (collective records); launch "
                       "with torchrun, mpirun or srun")
    common(c)
    from_module("collectives", c)

    s = sub.add_parser("step", help="a real training step of a model config, timed and traced")
    common(s)
    from_module("step", s)
    return top


def from_module(name, p):
    """Each subcommand's options live with its code; these modules import torch, so the options are
    declared through a torch-free shim when PyTorch is missing (usage errors still exit 2)."""
    try:
        module = __import__("ridgeline_probe." + name, fromlist=["add_arguments"])
    except ImportError:
        p.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
        return
    module.add_arguments(p)


def torch_or_reexec(argv):
    try:
        import torch  # noqa: F401
        return None
    except ImportError as e:
        missing = str(e)
    # A venv or pyenv Python often shadows the system one that has PyTorch (Debian's python3-torch).
    other = os.environ.get(PYTHON_ENV) or "/usr/bin/python3"
    if not os.environ.get("RIDGELINE_PROBE_REEXEC") and os.path.realpath(other) != os.path.realpath(sys.executable) \
            and os.access(other, os.X_OK):
        os.environ["RIDGELINE_PROBE_REEXEC"] = "1"
        script = os.path.realpath(sys.argv[0])
        os.execv(other, [other, script] + argv[1:])
    return "PyTorch not found (%s) for %s: install it (Debian: apt install python3-torch; else pip install torch) " \
           "or set %s to a Python that has it" % (missing, sys.executable, PYTHON_ENV)


def main(argv):
    problem = torch_or_reexec(argv)
    if problem:
        if len(argv) > 1 and argv[1] in ("-h", "--help", "--version"):
            parser().parse_args(argv[1:])
        note("ridgeline-probe: " + problem)
        kind = KINDS.get(argv[1] if len(argv) > 1 else "", "")
        if kind:
            print(json.dumps(session_header(kind, "ridgeline-probe " + argv[1], " ".join(argv), {})))
            print(json.dumps({"record": "end", "status": "failed", "message": problem}))
        return 1
    args = parser().parse_args(argv[1:])
    args.argv = argv
    from . import commands

    try:
        return commands.run(args)
    except (Failure, RuntimeError, OSError) as e:  # before the session header: model, memory, files
        note("ridgeline-probe %s: %s" % (args.command, e))
        return 1
