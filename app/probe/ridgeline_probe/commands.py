"""Each subcommand: its arguments checked (bad ones exit 2 before any output), the device picked,
the session header's params, then the sweep inside run_session."""
import json
import sys

import torch

from . import attention, collectives, gemm, membw, sizes, step
from . import device as devmod
from .session import note, run_session, session_header


def usage(args, message):
    print("ridgeline-probe %s: %s" % (args.command, message), file=sys.stderr)
    sys.exit(2)


def parse_list(args, text, choices, option):
    try:
        return sizes.names(choices)(text)
    except Exception as e:  # argparse.ArgumentTypeError
        usage(args, "%s: %s" % (option, e))


def parse_size(args, text, option):
    try:
        return sizes.size(text)
    except Exception as e:
        usage(args, "%s: %s" % (option, e))


def positive(args, **values):
    for name, v in values.items():
        if v is None or v < 1:
            usage(args, "--%s must be at least 1" % name.replace("_", "-"))


def run_info(args):
    dev = devmod.pick(args.device)
    print(json.dumps(dict(devmod.facts(dev), sdpa=attention.have_sdpa(), kineto=bool(torch.autograd.kineto_available()))))
    return 0


def run_gemm(args):
    positive(args, repeats=args.repeats)
    dev = devmod.pick(args.device)
    dtypes = parse_list(args, args.dtypes or ("bf16" if dev.type == "cuda" else "fp32"), gemm.DTYPES, "--dtypes")
    square = args.square if args.square is not None else (
        [] if args.shapes else sizes.int_range("1024:8192" if dev.type == "cuda" else "256:1024"))
    shapes = [(s, s, s) for s in square] + args.shapes
    if args.rotate != "auto" and not args.rotate.isdigit():
        usage(args, "--rotate: auto or a count")
    params = dict(devmod.facts(dev), dtypes=dtypes, shapes=[list(s) for s in shapes], warmup=args.warmup,
                  repeats=args.repeats, budget_seconds_per_point=args.budget, rotate=args.rotate,
                  last_level_cache_bytes=devmod.last_level_cache_bytes(dev),
                  expected_points=len(shapes) * len(dtypes), timing="device events" if dev.type == "cuda"
                  else "time.perf_counter around synchronous calls")
    title = "PyTorch gemm on " + params["device_name"]
    return run_session(args, "gemm", title, params, lambda ctx: gemm.run(ctx, args, dev, shapes, dtypes))


def run_membw(args):
    positive(args, repeats=args.repeats, steps_per_octave=args.steps_per_octave)
    dev = devmod.pick(args.device)
    kernels = parse_list(args, args.kernels, membw.KERNELS, "--kernels")
    lo = parse_size(args, args.min_bytes, "--min")
    llc = devmod.last_level_cache_bytes(dev)
    hi = parse_size(args, args.max_bytes, "--max") if args.max_bytes else max(4 * llc, (2 << 30) if dev.type == "cuda" else 64 << 20)
    if hi < lo:
        usage(args, "--max is below --min")
    ws = membw.sweep_sizes(lo, hi, args.steps_per_octave)
    params = dict(devmod.facts(dev), sizes_bytes=ws, kernels=kernels, dtype=args.dtype, repeats=args.repeats,
                  last_level_cache_bytes=llc, expected_points=len(ws) * len(kernels),
                  byte_counting="STREAM: copy/scale 2 arrays, add/triad 3 arrays of the element type; GB = 1e9 B")
    title = "PyTorch membw on " + params["device_name"]
    return run_session(args, "membw", title, params, lambda ctx: membw.run(ctx, args, dev, ws, kernels))


def run_attention(args):
    positive(args, repeats=args.repeats, tokens=args.tokens, hidden=args.hidden)
    dev = devmod.pick(args.device)
    args.backends = parse_list(args, args.backends, attention.BACKENDS, "--backends")
    args.passes = parse_list(args, args.passes, ("forward", "backward"), "--passes")
    try:
        args.seq = sizes.int_range(args.seq)
        args.head_dims = sizes.int_range(args.head_dims)
    except Exception as e:
        usage(args, str(e))
    args.dtype = args.dtype or ("bf16" if dev.type == "cuda" else "fp32")
    n = len(list(attention.cases(args))) * len(args.backends)
    params = dict(devmod.facts(dev), backends=args.backends, seq=args.seq, head_dims=args.head_dims, tokens=args.tokens,
                  hidden=args.hidden, causal=args.causal, passes=args.passes, dtype=args.dtype, expected_points=n,
                  sdpa=attention.have_sdpa(),
                  flops_convention="forward 4*batch*heads*seq^2*head_dim (half with a causal mask), backward 2.5x "
                                   "forward; TFLOP/s = FLOPs / median time (FlashAttention papers; hardware profiles' "
                                   "attention_kernels)")
    reason = attention.unavailable_reason()
    if reason:
        note("attention: every case is skipped: " + reason)
    title = "PyTorch attention on " + params["device_name"]
    return run_session(args, "attention", title, params, lambda ctx: attention.run(ctx, args, dev))


def run_collectives(args):
    ops = collectives.OPS if args.ops == "all" else parse_list(args, args.ops, collectives.OPS, "--ops")
    args.minbytes = parse_size(args, args.minbytes, "--minbytes")
    args.maxbytes = parse_size(args, args.maxbytes, "--maxbytes")
    positive(args, stepfactor=args.stepfactor)
    if args.maxbytes < args.minbytes:
        usage(args, "--maxbytes is below --minbytes")
    _, rank, _, _ = collectives.launch_env()
    try:
        dev, backend, facts = collectives.init(args)
    except (RuntimeError, ValueError, OSError) as e:  # rendezvous timed out, bad backend, no GPU
        message = "joining the process group failed: %s" % str(e).splitlines()[0]
        note("ridgeline-probe collectives (rank %d): %s" % (rank, message))
        if rank == 0:
            print(json.dumps(session_header("collectives", "PyTorch collectives", " ".join(args.argv), {})))
            print(json.dumps({"record": "end", "status": "failed", "message": message}), flush=True)
        return 1
    params = dict(devmod.facts(dev), **facts, ops=list(ops), dtype=args.dtype, minbytes=args.minbytes,
                  maxbytes=args.maxbytes, stepfactor=args.stepfactor, warmup=args.warmup,
                  conventions="nccl-tests PERFORMANCE.md: size is the full buffer; busbw = algbw x 2(n-1)/n "
                              "(all_reduce), (n-1)/n (all_gather, reduce_scatter, all_to_all), 1 (broadcast)")
    title = "PyTorch collectives (%s), %d ranks on %d %s" % (backend, facts["nranks"], facts["nodes"],
                                                             "host" if facts["nodes"] == 1 else "hosts")
    try:
        return run_session(args, "collectives", title, params, lambda ctx: collectives.run(ctx, args, dev, ops),
                           printing=rank == 0)
    finally:
        try:
            collectives.dist.destroy_process_group()
        except RuntimeError:
            pass


def run_step(args):
    positive(args, seq=args.seq, batch=args.batch, steps=args.steps)
    dev = devmod.pick(args.device)
    args.dtype = args.dtype or ("bf16" if dev.type == "cuda" else "fp32")
    shape = step.shape_of(args)  # Failure: unknown model, MoE, bad head split
    model, one_step = step.build(shape, args, dev)
    params = dict(devmod.facts(dev), model={k: v for k, v in shape.items() if k != "experts"}, seq=args.seq,
                  batch=args.batch, steps=args.steps, warmup=args.warmup, dtype=args.dtype,
                  parameters=sum(p.numel() for p in model.parameters()), expected_points=args.steps,
                  optimizer=model.optimizer_kind)
    if args.trace:
        params["trace"] = args.trace
    title = "PyTorch training step of %s (%d layers, hidden %d) on %s" % (
        shape["name"], shape["layers"], shape["hidden"], params["device_name"])
    return run_session(args, "step", title, params, lambda ctx: step.run(ctx, args, dev, shape, model, one_step))


def run(args):
    try:
        return {"info": run_info, "gemm": run_gemm, "membw": run_membw, "attention": run_attention,
                "collectives": run_collectives, "step": run_step}[args.command](args)
    except ValueError as e:  # --device names a device this PyTorch lacks
        usage(args, str(e))
