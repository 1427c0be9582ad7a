"""The device a probe measures: which one, its facts for the session header, how to time on it."""
import glob
import os
import platform
import shutil
import subprocess
import time

import torch


def pick(name):
    """--device auto|cpu|cuda|cuda:N (ROCm builds call their GPUs cuda too)."""
    if name == "auto":
        name = "cuda" if torch.cuda.is_available() else "cpu"
    dev = torch.device(name)
    if dev.type == "cuda":
        if not torch.cuda.is_available():
            raise ValueError("--device %s: this PyTorch sees no GPU (built for CPU, or no driver)" % name)
        if dev.index is None:  # PyTorch 2.11 refuses set_device("cuda") and device queries without an index
            dev = torch.device("cuda", torch.cuda.current_device())
        torch.cuda.set_device(dev)
    elif dev.type != "cpu":
        raise ValueError("--device %s: cpu or cuda[:N]" % name)
    return dev


def synchronize(dev):
    if dev.type == "cuda":
        torch.cuda.synchronize(dev)


def timed_samples(one, dev, warmup, repeats, budget, max_calls, graph, stop):
    """Seconds per call of each of `repeats` samples (fewer when stopped), the calls per sample and
    how they were timed. Untimed warm-up calls one(0..warmup-1) first; their pace sets the calls per
    sample so that all samples take about `budget` seconds (at most max_calls each)."""
    t0 = time.perf_counter()
    for i in range(max(1, warmup)):
        one(i)
    synchronize(dev)
    per_call = max((time.perf_counter() - t0) / max(1, warmup), 1e-8)
    calls = max(1, min(max_calls, int(budget / max(1, repeats) / per_call)))
    batch, how, calls = call_batch(one, calls, dev, graph)
    timer = Timer(dev)
    samples = []
    for _ in range(max(1, repeats)):
        if stop.stopped:
            break
        timer.start()
        batch()
        samples.append(timer.stop() / calls)
    return samples, calls, how


def add_launch_argument(p):
    p.add_argument("--launch", choices=("graph", "loop"), default="graph",
                   help="on a GPU: replay each sample's calls as a CUDA/HIP graph (the kernels' time; default) or "
                        "launch them from a Python loop (adds the launch overhead a plain PyTorch loop sees)")


MAX_GRAPH_CALLS = 4096  # capture time and graph memory grow with the calls; a sample of 4096 is long enough


def call_batch(one, calls, dev, graph=True):
    """A function that runs one(i) for i in 0..calls-1, the timing method in words, and the calls it runs.

    On a GPU the calls are captured once into a CUDA (HIP) graph and replayed: Python's launch
    overhead (10-30 us a call) is longer than a 1024^3 GEMM or a 1 MB copy takes, so a Python loop
    times the launches there, not the kernels, and no cache plateau shows. C-level tools launch back
    to back from C; the graph does the same from Python. Elsewhere (the CPU, or capture refused) a
    plain loop."""
    if dev.type == "cuda" and graph:
        calls = max(1, min(calls, MAX_GRAPH_CALLS))
        try:
            side = torch.cuda.Stream()
            side.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(side):  # warm up on a side stream, as capture wants
                one(0)
            torch.cuda.current_stream().wait_stream(side)
            g = torch.cuda.CUDAGraph()
            with torch.cuda.graph(g):
                for i in range(calls):
                    one(i)
            return g.replay, "graph of %d calls" % calls, calls
        except RuntimeError as e:  # an op that cannot be captured: time the loop, and say so
            torch.cuda.synchronize(dev)
            how = "python loop (graph capture refused: %s)" % str(e).splitlines()[0][:120]
    else:
        how = "python loop"

    def loop():
        for i in range(calls):
            one(i)
    return loop, how, calls


class Timer:
    """Elapsed seconds of a stretch of device work: CUDA/HIP events on a GPU (no host sync inside),
    time.perf_counter around the synchronous work on the CPU."""

    def __init__(self, dev):
        self.dev = dev

    def start(self):
        if self.dev.type == "cuda":
            self._a = torch.cuda.Event(enable_timing=True)
            self._b = torch.cuda.Event(enable_timing=True)
            self._a.record()
        else:
            self._t = time.perf_counter()

    def stop(self):
        if self.dev.type == "cuda":
            self._b.record()
            self._b.synchronize()
            return self._a.elapsed_time(self._b) / 1e3
        return time.perf_counter() - self._t


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def last_level_cache_bytes(dev):
    """Bytes the operand rotation must exceed so no call finds its inputs in cache."""
    if dev.type == "cuda":
        props = torch.cuda.get_device_properties(dev)
        l2 = getattr(props, "L2_cache_size", 0) or 0
        # MI300-class Infinity Cache (256 MiB) is not in the properties: assume it when ROCm.
        return max(l2, 256 << 20 if torch.version.hip else 0, 64 << 20)
    best = 0
    for path in glob.glob("/sys/devices/system/cpu/cpu0/cache/index*/size"):
        try:
            text = open(path).read().strip()
        except OSError:
            continue
        mult = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(text[-1:], 1)
        try:
            best = max(best, int(text.rstrip("KMG")) * mult)
        except ValueError:
            pass
    return best or (32 << 20)


def _smi(argv):
    if not shutil.which(argv[0]):
        return ""
    try:
        out = subprocess.run(argv, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return out.stdout.strip() if out.returncode == 0 else ""


def clock(dev):
    """The GPU clock right now where a vendor tool reports it: {"sm_mhz", "max_mhz", "source"}."""
    if dev.type != "cuda":
        return None
    index = str(dev.index or 0)
    text = _smi(["nvidia-smi", "-i", index, "--query-gpu=clocks.sm,clocks.max.sm", "--format=csv,noheader,nounits"])
    if text:
        parts = [p.strip() for p in text.splitlines()[0].split(",")]
        try:
            return {"sm_mhz": float(parts[0]), "max_mhz": float(parts[1]), "source": "nvidia-smi"}
        except (ValueError, IndexError):
            pass
    for tool in (["amd-smi", "metric", "-g", index, "--clock"], ["rocm-smi", "-d", index, "--showclocks"]):
        text = _smi(tool)
        if text:
            return {"text": text[:400], "source": tool[0]}
    return None


def facts(dev):
    """Device name, count, driver, PyTorch, CUDA/HIP and NCCL/RCCL versions: the session header's."""
    f = {"device": dev.type, "pytorch": torch.__version__, "torch_threads": torch.get_num_threads(),
         "kineto": bool(torch.autograd.kineto_available()), "python": platform.python_version()}
    if torch.version.cuda:
        f["cuda"] = torch.version.cuda
    if getattr(torch.version, "hip", None):
        f["hip"] = torch.version.hip
    if dev.type == "cuda":
        f["device_name"] = torch.cuda.get_device_name(dev)
        f["device_count"] = torch.cuda.device_count()
        props = torch.cuda.get_device_properties(dev)
        f["device_memory_bytes"] = props.total_memory
        f["multiprocessors"] = props.multi_processor_count
        try:
            v = torch.cuda.nccl.version()
            f["rccl" if torch.version.hip else "nccl"] = ".".join(map(str, v)) if isinstance(v, tuple) else str(v)
        except (AttributeError, RuntimeError):
            pass
        if torch.backends.cudnn.is_available():
            f["cudnn"] = torch.backends.cudnn.version()
        driver = _smi(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"])
        if driver:
            f["driver"] = driver.splitlines()[0]
        elif os.path.exists("/sys/module/amdgpu/version"):
            f["driver"] = "amdgpu " + open("/sys/module/amdgpu/version").read().strip()
        c = clock(dev)
        if c:
            f["clock_at_start"] = c
    else:
        f["device_name"] = cpu_model()
        f["device_count"] = 1
        f["logical_cpus"] = os.cpu_count()
    return f


def device_label(dev):
    return torch.cuda.get_device_name(dev) if dev.type == "cuda" else "cpu"
