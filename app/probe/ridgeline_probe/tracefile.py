"""The step's profiler trace, in the Kineto schema `ridgeline-cli import` reads (analysis/trace/).

PyTorch built with Kineto (every pip and conda build) writes that schema itself. A build without
Kineto (Debian's python3-torch 1.13) has only the legacy autograd profiler, whose chrome trace is a
bare array of events without categories: torch.profiler then writes "[]". Its events are
rewritten here with Kineto's categories (cpu_op, and user_annotation for the ProfilerStep#N
ranges the step loop records) under "traceEvents", so the same importer finds the steps and ops."""
import json
import os

import torch

from . import device as devmod

LEGACY_NOTE = "torch.autograd.profiler (legacy): this PyTorch has no Kineto; categories added by ridgeline-probe"


def kineto_available():
    return bool(torch.autograd.kineto_available())


def profile_steps(path, step, count, dev):
    """Runs step() count times under the profiler, each in a ProfilerStep#N range, and writes the
    trace to path. Returns which profiler wrote it."""
    if kineto_available():
        from torch.profiler import ProfilerActivity, profile, schedule

        activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if dev.type == "cuda" else [])
        with profile(activities=activities, schedule=schedule(wait=0, warmup=1, active=count),
                     on_trace_ready=lambda p: p.export_chrome_trace(path)) as prof:
            for _ in range(count + 1):
                step()
                # The step's window is its CPU-side ProfilerStep range: without a sync the CPU runs
                # ahead (fused AdamW never waits for the GPU) and a step's kernels land in the next
                # window. Training loops sync once a step too, logging the loss.
                devmod.synchronize(dev)
                prof.step()
        return "torch.profiler (kineto)"
    from torch.autograd import profiler

    with profiler.profile(use_cuda=dev.type == "cuda") as prof:
        for i in range(count):
            with profiler.record_function("ProfilerStep#%d" % i):
                step()
                devmod.synchronize(dev)
    raw = path + ".legacy.json"
    prof.export_chrome_trace(raw)
    try:
        with open(raw) as f:
            events = json.load(f)
    finally:
        os.remove(raw)
    write_kineto_schema(events, path)
    return LEGACY_NOTE


def write_kineto_schema(events, path):
    pid = os.getpid()
    out = []
    for e in events:
        if e.get("ph") != "X":
            continue
        name = e.get("name", "")
        cat = "user_annotation" if name.startswith("ProfilerStep#") else "cpu_op"
        # Kineto's key order: the importer reads "cat" before "name" to tell steps from ops.
        out.append({"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": e.get("tid", 0), "ts": e.get("ts", 0),
                    "dur": e.get("dur", 0), "args": e.get("args", {})})
    doc = {"schemaVersion": 1, "deviceProperties": [], "traceEvents": out, "traceName": path,
           "ridgeline_probe": {"profiler": LEGACY_NOTE}}
    with open(path, "w") as f:
        json.dump(doc, f)


def op_counts(path):
    """(ops, steps, counts by name) of a written trace: what its import should find."""
    with open(path) as f:
        doc = json.load(f)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    counts, steps = {}, 0
    for e in events:
        if e.get("ph") != "X":
            continue
        name = e.get("name", "")
        if e.get("cat") in ("user_annotation", "cpu_op") and name.startswith("ProfilerStep#"):
            steps += 1
        elif e.get("cat") == "cpu_op":
            counts[name] = counts.get(name, 0) + 1
    return sum(counts.values()), steps, counts
