"""OS captures around a run: iostat and vmstat as raw text, and a psutil sampler of the driver.

iostat and vmstat run in their own sessions, write straight into their files (their text exactly
as printed), and are stopped by the pids engbench started, with SIGINT (iostat then finishes its
output cleanly), escalating to SIGKILL only if they do not exit."""

from __future__ import annotations

import csv
import os
import shutil
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import psutil

from .cgroups import SAMPLE_COLUMNS
from .children import die_with_parent

# Timestamps in ISO form and UTC, numbers in the C locale: one format for the parsers to expect.
CAPTURE_ENV = {"S_TIME_FORMAT": "ISO", "TZ": "UTC", "LC_ALL": "C"}

TOOLS = {
    "iostat": ["iostat", "-x", "-k", "-t", "1"],
    "vmstat": ["vmstat", "-n", "-t", "-w", "1"],
}
# What shows a tool has taken its first reading: both print their since-boot report at once, right
# after reading the counters, and their first interval report covers from that reading on (the
# processing drops the since-boot report: tables/read.py reads the argv). iostat's report is its
# "Device" header; vmstat's is its third line (two header lines, then the since-boot row). Until
# 2026-11-23 iostat ran with -y (no since-boot report) and each run waited for both tools' first
# interval report before starting the driver: a second of every run's fixed cost.
FIRST_REPORT = {"iostat": (b"Device", 1), "vmstat": (b"\n", 3)}


@dataclass
class ToolCapture:
    name: str
    argv: list[str]
    path: Path
    proc: subprocess.Popen | None = None
    available: bool = True
    note: str | None = None

    def start(self) -> None:
        if shutil.which(self.argv[0]) is None:
            self.available = False
            self.note = f"{self.argv[0]} not installed (Debian package sysstat/procps): no {self.name} capture"
            return
        env = {**os.environ, **CAPTURE_ENV}
        with open(self.path, "wb") as out:
            self.proc = subprocess.Popen(self.argv, stdout=out, stderr=subprocess.STDOUT,
                                         env=env, start_new_session=True, preexec_fn=die_with_parent)

    def _size(self) -> int:
        try:
            return self.path.stat().st_size
        except OSError:
            return 0

    def wait_for_first_report(self, timeout: float = 3.0) -> bool:
        """Block until the capture has printed its first (since-boot) report: it has read its
        counters, so its first interval report covers the workload from its first second."""
        marker, count = FIRST_REPORT.get(self.name, (b"\n", 1))
        end = time.monotonic() + timeout
        while self.proc is not None and time.monotonic() < end and self.proc.poll() is None:
            if self.path.read_bytes().count(marker) >= count:
                return True
            time.sleep(0.005)  # the report is there within milliseconds; every run waits for it
        return False

    def stop(self, timeout: float = 5.0) -> None:
        proc = self.proc
        if proc is None or proc.poll() is not None:
            return
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            self.note = f"{self.name} did not exit on SIGINT within {timeout} s and was killed"

    def describe(self) -> dict:
        return {"argv": self.argv, "env": CAPTURE_ENV, "available": self.available,
                "pid": self.proc.pid if self.proc else None, "note": self.note,
                "file": self.path.name if self.available else None}


def wait_for_next_reports(tools, timeout: float = 2.5, since: float | None = None) -> bool:
    """Block until every running capture of ``tools`` has printed again since this call, or since
    the unix time ``since`` (the end of the client window) when given: each one's report covering
    the workload's last second. A capture that has printed since then (its file modified at or after
    ``since``: a report is written as soon as its counters are read) is not waited for, so the
    driver's own closing work (statistics, disk usage, its summary) overlaps the wait. The captures
    tick on their own 1-s clocks, so they are waited for together, from one starting moment: at most
    one interval in all, not one per capture in turn. Tools without a report of their own (the
    cgroup sampler) and captures that have exited are not waited for. False when one of them did not
    report within ``timeout``."""
    waiting = [(t, t._size()) for t in tools if isinstance(t, ToolCapture) and t.proc is not None
               and not (since is not None and _modified(t.path) >= since)]
    any_waited, end = bool(waiting), time.monotonic() + timeout
    while waiting and time.monotonic() < end:
        waiting = [(t, size) for t, size in waiting if t.proc.poll() is None and t._size() <= size]
        if waiting:
            time.sleep(0.005)
    if any_waited:
        # let the rest of the last report land: a report is one flush of the tool's stdout (two
        # writes microseconds apart when it is over a pipe buffer), so this is ample
        time.sleep(0.02)
    return not waiting


def _modified(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return float("-inf")


PROCESS_COLUMNS = ["t_unix_s", "rss_bytes", "vms_bytes", "cpu_user_s", "cpu_sys_s", "read_bytes",
                   "write_bytes", "read_count", "write_count", "num_threads", "ctx_voluntary",
                   "ctx_involuntary"]


class _Sampler:
    """A thread writing one CSV row of `_row(source)` every `interval_s` (the first row at once)
    until stopped or the source is gone (`_row` raises LookupError). A counter that cannot be
    read is not a gone source: `_row` records why in `warnings` (the run's manifest keeps them as
    capture_warnings) before it stops the sampling."""

    columns: list = []
    row_at_stop = False  # one more row when stopped (cumulative counters: the run's last second)

    def __init__(self, path: Path, interval_s: float = 1.0):
        self.path, self.interval_s = Path(path), interval_s
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.samples = 0
        self.cpu_s = 0.0  # CPU time the sampler thread itself used (for the overhead benchmark)
        self.warnings: list[str] = []  # counters that could not be read, and what that cost

    def start(self) -> None:
        self._thread = threading.Thread(target=self._loop, name=type(self).__name__, daemon=True)
        self._thread.start()

    def _source(self):
        return None

    def _row(self, source) -> list:  # pragma: no cover - abstract
        raise NotImplementedError

    def _loop(self) -> None:
        try:
            source = self._source()
        except LookupError:
            return
        with open(self.path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(self.columns)
            next_t = time.monotonic()
            while True:
                try:
                    row = self._row(source)
                except LookupError:
                    break
                w.writerow(row)
                f.flush()
                self.samples += 1
                next_t += self.interval_s
                if self._stop.wait(max(0.0, next_t - time.monotonic())):
                    if self.row_at_stop:
                        try:
                            w.writerow(self._row(source))
                            self.samples += 1
                        except LookupError:
                            pass
                    break
        self.cpu_s = time.thread_time()

    def stop(self) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join(timeout=5)


class ProcessSampler(_Sampler):
    """Samples one process (the driver) every `interval_s` into a CSV of cumulative counters."""

    columns = PROCESS_COLUMNS

    def __init__(self, pid: int, path: Path, interval_s: float = 1.0):
        super().__init__(path, interval_s)
        self.pid = pid

    def _source(self):
        try:
            return psutil.Process(self.pid)
        except psutil.NoSuchProcess:
            raise LookupError(self.pid) from None

    def _row(self, proc: psutil.Process) -> list:
        try:
            with proc.oneshot():
                mem = proc.memory_info()
                cpu = proc.cpu_times()
                io = proc.io_counters()
                ctx = proc.num_ctx_switches()
                threads = proc.num_threads()
        except (psutil.NoSuchProcess, psutil.ZombieProcess):  # the driver has exited: sampling ends
            raise LookupError(self.pid) from None
        except psutil.AccessDenied as exc:  # it is there, but its counters cannot be read: say so
            self.warnings.append(
                f"driver process sampler: access denied reading pid {self.pid}'s counters (psutil.AccessDenied"
                f"{': ' + exc.msg if exc.msg else ''}); "
                f"sampling stopped after {self.samples} sample(s), so {self.path.name} misses the rest of the run")
            raise LookupError(self.pid) from None
        return [f"{time.time():.3f}", mem.rss, mem.vms, f"{cpu.user:.2f}", f"{cpu.system:.2f}",
                io.read_bytes, io.write_bytes, io.read_count, io.write_count, threads,
                ctx.voluntary, ctx.involuntary]


class CgroupSampler(_Sampler):
    """Samples the run's cgroup (cgroups.RunGroup.sample) into cgroup.csv: the memory it holds
    and the I/O its members issued to the data device, whoever else uses the device."""

    columns = ["t_unix_s", *SAMPLE_COLUMNS]
    # the counters' last values when the run stops: a run shorter than the interval had only its first
    # row, and any run lost the I/O and CPU of its last partial second (tests/test_regime.py)
    row_at_stop = True

    def __init__(self, group, path: Path, interval_s: float = 1.0):
        super().__init__(path, interval_s)
        self.group = group

    def _row(self, _source) -> list:
        values = self.group.sample()
        return [f"{time.time():.3f}", *(values.get(c) for c in self.columns[1:])]
