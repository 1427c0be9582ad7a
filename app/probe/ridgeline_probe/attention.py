"""`attention`: torch.nn.functional.scaled_dot_product_attention per backend (flash, cuDNN,
efficient, math), forward and backward, causal or not, over sequence lengths and head dims.

"attention" records carry rates in the hardware profiles' convention (model/hardwareprofile.h,
AttentionKernelRates; resources/hardware/*.json "attention_kernels"): forward FLOPs
4·batch·heads·seq²·head_dim, half of it with a causal mask, backward 2.5x the forward's; TFLOP/s
= those FLOPs / time. A case this build or device cannot run is a "skipped" record with the reason,
not a failure."""

import torch
import torch.nn.functional as F

from . import device as devmod
from .session import note, summary

BACKENDS = ("flash", "cudnn", "efficient", "math")
DTYPES = {"bf16": (torch.bfloat16, "bfloat16"), "fp16": (torch.float16, "float16"), "fp32": (torch.float32, "float32")}

def add_arguments(p):
    p.add_argument("--backends", default="flash,cudnn,efficient,math", help="comma list of " + ", ".join(BACKENDS))
    p.add_argument("--seq", default="512:8192", help="sequence lengths: list or FROM:TO (doubling)")
    p.add_argument("--head-dims", default="64,128", help="head dims")
    p.add_argument("--tokens", type=int, default=16384,
                   help="batch x seq per case (the FlashAttention papers' 16k tokens): batch = tokens / seq")
    p.add_argument("--hidden", type=int, default=2048, help="heads = hidden / head dim (the papers' 2048)")
    p.add_argument("--causal", default="both", choices=("yes", "no", "both"))
    p.add_argument("--passes", default="forward,backward", help="forward, backward or both")
    p.add_argument("--dtype", default=None, choices=sorted(DTYPES), help="default: bf16 on a GPU, fp32 on the CPU")
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--repeats", type=int, default=10)

def have_sdpa():
    return hasattr(F, "scaled_dot_product_attention")

def unavailable_reason():
    if not have_sdpa():
        return "PyTorch %s has no torch.nn.functional.scaled_dot_product_attention (added in 2.0)" % torch.__version__
    return ""

def backend_context(name):
    """A context that allows only this backend, or a reason it cannot be chosen in this build."""
    try:
        from torch.nn.attention import SDPBackend, sdpa_kernel  # 2.3+
        member = {"flash": "FLASH_ATTENTION", "cudnn": "CUDNN_ATTENTION", "efficient": "EFFICIENT_ATTENTION",
                  "math": "MATH"}[name]
        if not hasattr(SDPBackend, member):
            return None, "PyTorch %s has no %s backend for scaled_dot_product_attention" % (torch.__version__, name)
        return sdpa_kernel(getattr(SDPBackend, member)), ""
    except ImportError:
        pass
    if name == "cudnn":
        return None, "PyTorch %s cannot select the cuDNN attention backend (torch.nn.attention, 2.3+)" % torch.__version__
    flags = {"enable_flash": name == "flash", "enable_mem_efficient": name == "efficient", "enable_math": name == "math"}
    return torch.backends.cuda.sdp_kernel(**flags), ""

def flops(batch, heads, seq, head_dim, causal, backward):
    f = 4.0 * batch * heads * seq * seq * head_dim * (0.5 if causal else 1.0)
    return f * 2.5 if backward else f

def cases(args):
    for head_dim in args.head_dims:
        for seq in args.seq:
            for causal in {"yes": [True], "no": [False], "both": [False, True]}[args.causal]:
                for pass_ in args.passes:
                    yield head_dim, seq, causal, pass_

def time_case(dev, dtype, batch, heads, seq, head_dim, causal, pass_, args, ctx_factory):
    q, k, v = (torch.randn(batch, heads, seq, head_dim, device=dev, dtype=dtype, requires_grad=pass_ == "backward")
               for _ in range(3))
    timer = devmod.Timer(dev)
    samples = []
    with ctx_factory():
        out = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
        grad = torch.randn_like(out)
        for i in range(args.warmup + args.repeats):
            if pass_ == "forward":
                timer.start()
                F.scaled_dot_product_attention(q, k, v, is_causal=causal)
                t = timer.stop()
            else:
                out = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
                timer.start()
                out.backward(grad)
                t = timer.stop()
                q.grad = k.grad = v.grad = None
            if i >= args.warmup:
                samples.append(t)
    return samples

def run(ctx, args, dev):
    dtype, wire_dtype = DTYPES[args.dtype]
    base = unavailable_reason()
    measured = skipped = 0
    reasons = {}
    for backend in args.backends:
        reason = base
        factory = None
        if not reason:
            cm, reason = backend_context(backend)
            factory = (lambda b=backend: backend_context(b)[0]) if cm is not None else None
        for head_dim, seq, causal, pass_ in cases(args):
            if ctx.stop.stopped:
                return "%d cases measured" % measured
            heads = max(1, args.hidden // head_dim)
            batch = max(1, args.tokens // seq)
            record = {"record": "attention", "backend": backend, "dtype": wire_dtype, "pass": pass_, "causal": causal,
                      "batch": batch, "heads": heads, "seq": seq, "head_dim": head_dim}
            why = reason
            if not why:
                ctx.watchdog.arm("attention %s %s seq %d" % (backend, pass_, seq))
                try:
                    samples = time_case(dev, dtype, batch, heads, seq, head_dim, causal, pass_, args, factory)
                except RuntimeError as e:  # "No available kernel": this backend refuses the case
                    samples, why = [], "%s backend cannot run this case: %s" % (backend, str(e).splitlines()[0][:300])
                ctx.watchdog.disarm()
                if not samples and not why:
                    break  # stopped
            if why:
                skipped += 1
                reasons[why] = reasons.get(why, 0) + 1
                ctx.output.emit({"record": "skipped", "what": "attention", **{k: v for k, v in record.items() if k != "record"},
                                 "reason": why})
                continue
            s = summary(samples)
            f = flops(batch, heads, seq, head_dim, causal, pass_ == "backward")
            record.update(time_us=s["median_us"], flops=f, tflops=f / (s["median_us"] * 1e-6) / 1e12, stats=s)
            ctx.output.point(record)
            measured += 1
            note("attention %-9s %-8s %-6s seq %6d d %3d  %9.1f us  %7.2f TFLOP/s"
                 % (backend, pass_, "causal" if causal else "full", seq, head_dim, s["median_us"], record["tflops"]))
    for why, count in reasons.items():
        note("attention: %d case(s) skipped: %s" % (count, why))
    msg = "%d cases measured, %d skipped" % (measured, skipped)
    if skipped and not measured and base:
        msg += ": " + base
    return msg
