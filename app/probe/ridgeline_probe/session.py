"""One run's output: the session header, points as they finish, the end record; stop signals and
the point watchdog. stdout carries JSON lines only; people read stderr."""
import json
import os
import signal
import socket
import statistics
import sys
import threading
import time
from datetime import datetime, timezone

from . import VERSION

TOOL = "ridgeline-probe"


class Failure(Exception):
    """A run that cannot go on: ends the session "failed" with this message, exit 1."""


class Output:
    """Writes records; rank 0 of a distributed run prints, the others stay quiet."""

    def __init__(self, printing=True):
        self.printing = printing
        self.lock = threading.Lock()
        self.points = 0
        self.ended = False

    def emit(self, record):
        if not self.printing:
            return
        line = json.dumps(record, separators=(",", ":"), allow_nan=False)
        with self.lock:
            if self.ended:
                return
            sys.stdout.write(line + "\n")
            sys.stdout.flush()  # one line per point, visible at once to a reader

    def point(self, record):
        self.points += 1
        self.emit(record)

    def end(self, status, message=""):
        record = {"record": "end", "status": status}
        if message:
            record["message"] = message
        self.emit(record)
        with self.lock:
            self.ended = True


def note(text):
    print(text, file=sys.stderr, flush=True)


def iso_now():
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def session_header(kind, title, command_line, params):
    return {"record": "session", "kind": kind, "title": title, "created": iso_now(), "host": socket.gethostname(),
            "tool": TOOL, "version": VERSION, "command_line": command_line, "params": params, "notes": ""}


class StopFlag:
    """SIGTERM / SIGINT end the run between points, "cancelled"."""

    def __init__(self):
        self.signal = 0

    def install(self):
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, self._on_signal)

    def _on_signal(self, sig, _frame):
        self.signal = sig

    @property
    def stopped(self):
        return self.signal != 0

    def name(self):
        return signal.Signals(self.signal).name if self.signal else ""


class Watchdog:
    """No point may run longer than --point-timeout: a hung kernel or a peer that never answers ends
    the session "failed" and the process, instead of hanging its reader."""

    def __init__(self, output, seconds):
        self.output = output
        self.seconds = seconds
        self.deadline = None
        self.what = ""
        self.cond = threading.Condition()
        if seconds > 0:
            threading.Thread(target=self._run, daemon=True).start()

    def arm(self, what):
        with self.cond:
            self.what = what
            self.deadline = time.monotonic() + self.seconds
            self.cond.notify()

    def disarm(self):
        with self.cond:
            self.deadline = None

    def _run(self):
        with self.cond:
            while True:
                if self.deadline is None:
                    self.cond.wait()
                    continue
                left = self.deadline - time.monotonic()
                if left > 0:
                    self.cond.wait(left)
                    continue
                message = "point timeout: %s ran longer than %g s" % (self.what, self.seconds)
                note("ridgeline-probe: " + message)
                self.output.end("failed", message)
                os._exit(1)


def summary(samples):
    """Median and spread of per-call times (seconds in, microseconds out)."""
    us = sorted(s * 1e6 for s in samples)
    mean = statistics.fmean(us)
    p99 = us[min(len(us) - 1, int(round(0.99 * (len(us) - 1))))]
    return {"samples": len(us), "median_us": statistics.median(us), "mean_us": mean, "min_us": us[0],
            "max_us": us[-1], "p99_us": p99, "cv": statistics.pstdev(us) / mean if mean > 0 else 0.0}


def run_session(args, kind, title, params, body, printing=True):
    """Prints the header, runs body(ctx) and the end record. body returns the end message; a
    Failure or any other exception ends the session "failed" (exit 1)."""
    output = Output(printing)
    stop = StopFlag()
    stop.install()
    watchdog = Watchdog(output, args.point_timeout)
    output.emit(session_header(kind, title, " ".join(args.argv), params))
    ctx = Context(output, stop, watchdog)
    try:
        message = body(ctx) or ""
    except (Failure, RuntimeError, ValueError, OSError) as e:
        note("ridgeline-probe %s: %s" % (args.command, e))
        output.end("failed", str(e))
        return 1
    if stop.stopped:
        output.end("cancelled", "cancelled by %s after %d points" % (stop.name(), output.points))
    else:
        output.end("complete", message)
    return 0


class Context:
    def __init__(self, output, stop, watchdog):
        self.output = output
        self.stop = stop
        self.watchdog = watchdog
