"""The CPU the rest of the machine used while a benchmark measured: a benchmark on a shared machine
prints it beside every ratio, so a reader can tell a quiet measurement from a busy one.

    machine_s  = Δ(user + nice + system + irq + softirq + steal) of /proc/stat's cpu line   [CPU-s]
    total_s    = Δ(those + idle + iowait)                                       [CPU-s, all CPUs]
    own_s      = Δ CPU of the measured processes: this process (RUSAGE_SELF), its waited-for
                 children (RUSAGE_CHILDREN: the clients it ran, their samplers and helpers) and
                 the servers it started (/proc/<pid>/stat utime + stime, every thread)
    other_pct  = 100 × max(0, machine_s − own_s) / total_s                          [% of all CPUs]
    steal_pct  = 100 × Δsteal / total_s: CPU the hypervisor gave other guests     [% of all CPUs]

as engbench.run.quiet and engbench.normalize.machine count "busy" and "other". A child still
running when the window closes is not in own_s (RUSAGE_CHILDREN counts it once waited for): the
windows here end after the clients they measure have exited."""

from __future__ import annotations

import os
import resource
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")


def _cpu_line(text: str | None) -> list[int]:
    """/proc/stat's first line, user nice system idle iowait irq softirq steal, in ticks."""
    f = (text if text is not None else Path("/proc/stat").read_text()).splitlines()[0].split()
    if f[0] != "cpu":
        raise ValueError(f"/proc/stat: expected the 'cpu' line first, got {f[0]!r}")
    return [int(x) for x in f[1:9]]


def stat_times(text: str | None = None) -> tuple[float, float]:
    """(busy, total) CPU-seconds of all CPUs since boot, from /proc/stat's first line."""
    user, nice, system, idle, iowait, irq, softirq, steal = _cpu_line(text)
    busy = user + nice + system + irq + softirq + steal
    return busy / TICK, (busy + idle + iowait) / TICK


def steal_time(text: str | None = None) -> float:
    """Steal CPU-seconds of all CPUs since boot, from the same line."""
    return _cpu_line(text)[7] / TICK


def process_cpu(pid: int, text: str | None = None) -> float:
    """utime + stime of process `pid` (all its threads) in seconds; 0 for a process that is gone."""
    try:
        line = text if text is not None else Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    f = line.rsplit(")", 1)[1].split()  # after the command name, which may hold spaces
    return (int(f[11]) + int(f[12])) / TICK


def own_cpu() -> float:
    """CPU seconds of this process and of its waited-for children."""
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime


def other_pct(machine_s: float, total_s: float, own_s: float) -> float:
    """100 × max(0, machine_s − own_s) / total_s (module docstring); nan without a window."""
    return 100.0 * max(0.0, machine_s - own_s) / total_s if total_s > 0 else float("nan")


class CpuWindow:
    """Open with the servers' pids (their CPU is the measured work's), close after the clients
    exited: {"machine_pct", "own_pct", "other_pct", "steal_pct"} of the window (% of all CPUs)."""

    def __init__(self, server_pids=()):
        self.pids = [p for p in server_pids if p]
        stat = Path("/proc/stat").read_text()
        (self.busy0, self.total0), self.steal0 = stat_times(stat), steal_time(stat)
        self.own0 = own_cpu() + sum(process_cpu(p) for p in self.pids)

    def close(self) -> dict:
        stat = Path("/proc/stat").read_text()
        (busy1, total1), steal1 = stat_times(stat), steal_time(stat)
        own1 = own_cpu() + sum(process_cpu(p) for p in self.pids)
        machine, total, own = busy1 - self.busy0, total1 - self.total0, own1 - self.own0
        pct = (lambda x: 100.0 * x / total) if total > 0 else (lambda x: float("nan"))
        return {"machine_pct": pct(machine), "own_pct": pct(own), "other_pct": other_pct(machine, total, own),
                "steal_pct": pct(steal1 - self.steal0)}
