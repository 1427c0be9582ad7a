"""`step`: real training steps (forward, backward, AdamW) of a Ridgeline model config built in plain
PyTorch and scaled to fit, timed over warm steps ("step" records, then a "step_summary"), then
traced with the profiler into --trace: that file imports with `ridgeline-cli import` as a trace
session (Kineto schema; see tracefile.py for PyTorch builds without Kineto)."""
import statistics
import time

import torch
import torch.nn.functional as F

from . import device as devmod
from . import tracefile
from .session import note
from .transformer import Transformer, load_config, scale, step_flops


def add_arguments(p):
    p.add_argument("--model", default="llama-3-8b", help="preset name (resources/models) or a config.json path "
                   "(`ridgeline-cli config show NAME > cfg.json` gives a saved one)")
    p.add_argument("--layers", type=int, default=0, help="layers (default: the config's)")
    p.add_argument("--hidden", type=int, default=0, help="hidden size; heads and FFN width follow the config's ratios")
    p.add_argument("--heads", type=int, default=0)
    p.add_argument("--kv-heads", dest="kv_heads", type=int, default=0)
    p.add_argument("--ffn", type=int, default=0, help="MLP width")
    p.add_argument("--vocab", type=int, default=0)
    p.add_argument("--seq", type=int, default=1024, help="sequence length")
    p.add_argument("--batch", type=int, default=1, help="micro-batch (sequences per step)")
    p.add_argument("--steps", type=int, default=5, help="timed steps")
    p.add_argument("--warmup", type=int, default=2, help="untimed steps first")
    p.add_argument("--trace", default="", help="write the profiler trace of --profile-steps more steps here")
    p.add_argument("--profile-steps", type=int, default=2)
    p.add_argument("--dtype", default=None, choices=("bf16", "fp32"),
                   help="bf16 autocast (default on a GPU) or fp32 (default on the CPU)")


def shape_of(args):
    return scale(load_config(args.model), args)


def optimizer(model, dev):
    """AdamW as training frameworks run it on a GPU: one fused kernel over all parameters (Megatron-Core
    and torchtitan use fused Adam), not PyTorch's default multi-tensor passes, which read and write
    each parameter's state several times (about 3x the memory traffic the sizing model assumes).
    Fused AdamW needs PyTorch 2.0+ on a GPU; elsewhere the default, and the session says which."""
    if dev.type == "cuda":
        try:
            return torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True), "AdamW (fused)"
        except (TypeError, RuntimeError, ValueError):
            pass
    return torch.optim.AdamW(model.parameters(), lr=1e-4), "AdamW (PyTorch default: foreach or per-tensor)"


def build(shape, args, dev):
    torch.manual_seed(0)
    model = Transformer(shape).to(dev)
    opt, how = optimizer(model, dev)
    model.optimizer_kind = how
    tokens = torch.randint(0, shape["vocab"], (args.batch, args.seq + 1), device=dev)
    autocast = args.dtype == "bf16"

    def one_step():
        with torch.autocast(device_type=dev.type, dtype=torch.bfloat16, enabled=autocast):
            logits = model(tokens[:, :-1])
            loss = F.cross_entropy(logits.reshape(-1, shape["vocab"]).float(), tokens[:, 1:].reshape(-1))
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)

    return model, one_step


def memory_of(dev, params):
    """What the GPU held over the timed steps, in bytes, for the sizing model's memory parts: the
    caching allocator's peak (what tensors needed) and its reserve (what it took from the device),
    the tensors alive between steps (fp32 weights and AdamW's two moments with zero_grad's
    set_to_none: 12 B a parameter) and the device memory outside the allocator (CUDA/HIP context,
    cuBLAS and cuDNN workspaces, NCCL). None on the CPU, which has no such counters."""
    if dev.type != "cuda":
        return None
    free, total = torch.cuda.mem_get_info(dev)
    reserved = torch.cuda.memory_reserved(dev)
    return {"peak_allocated": torch.cuda.max_memory_allocated(dev),
            "peak_reserved": torch.cuda.max_memory_reserved(dev),
            "between_steps": torch.cuda.memory_allocated(dev),
            "reserved": reserved, "device_used": total - free, "device_total": total,
            "outside_allocator": total - free - reserved, "parameters": params,
            "source": "torch.cuda.max_memory_allocated/max_memory_reserved over the timed steps; "
                      "mem_get_info after them"}


def run(ctx, args, dev, shape, model, one_step):
    params = sum(p.numel() for p in model.parameters())
    flops = step_flops(shape, params, args.batch, args.seq)
    tokens = args.batch * args.seq
    for _ in range(max(0, args.warmup)):
        ctx.watchdog.arm("warm-up step")
        one_step()
        devmod.synchronize(dev)
    if dev.type == "cuda":  # the peak of the timed steps, not of building the model
        torch.cuda.reset_peak_memory_stats(dev)
    times = []
    for i in range(args.steps):
        if ctx.stop.stopped:
            return "%d steps" % len(times)
        ctx.watchdog.arm("step %d" % i)
        devmod.synchronize(dev)
        t0 = time.perf_counter()
        one_step()
        devmod.synchronize(dev)
        t = time.perf_counter() - t0
        times.append(t)
        ctx.output.point({"record": "step", "step": i, "time_ms": t * 1e3, "tokens_per_s": tokens / t,
                          "tflops": flops / t / 1e12})
        note("step %3d  %9.2f ms  %10.0f tokens/s" % (i, t * 1e3, tokens / t))
    ctx.watchdog.disarm()
    if not times:
        return "no steps"
    med = statistics.median(times)
    summary = {"record": "step_summary", "steps": len(times), "median_ms": med * 1e3, "min_ms": min(times) * 1e3,
               "max_ms": max(times) * 1e3, "tokens_per_step": tokens, "tokens_per_s": tokens / med,
               "parameters": params, "model_flops_per_step": flops, "tflops": flops / med / 1e12}
    memory = memory_of(dev, params)
    if memory:
        summary["memory_bytes"] = memory
        gib = 1024.0 ** 3
        note("memory: peak %.2f GiB allocated, %.2f GiB reserved, %.2f GiB between steps (%.1f B a parameter), "
             "%.2f GiB outside the allocator" % (memory["peak_allocated"] / gib, memory["peak_reserved"] / gib,
                                                  memory["between_steps"] / gib, memory["between_steps"] / params,
                                                  memory["outside_allocator"] / gib))
    if args.trace and not ctx.stop.stopped:
        ctx.watchdog.arm("profiled steps")
        profiler = tracefile.profile_steps(args.trace, one_step, max(1, args.profile_steps), dev)
        ctx.watchdog.disarm()
        ops, steps, counts = tracefile.op_counts(args.trace)
        top = dict(sorted(counts.items(), key=lambda kv: -kv[1])[:20])
        summary.update(trace=args.trace, profiler=profiler, trace_steps=steps, trace_ops=ops, top_ops=top)
        note("trace: %s (%d steps, %d ops; %s)" % (args.trace, steps, ops, profiler))
    ctx.output.emit(summary)
    return "%d steps, median %.2f ms" % (len(times), med * 1e3)
