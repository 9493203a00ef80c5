"""Waiting for a quiet machine before a run (`engbench run --wait-quiet SECONDS`, which `engbench
reproduce` passes to every run): shipped runs are measured with nothing else running, and a
benchmark that starts while a build or a test suite still holds the CPUs measures them too.

    busy_pct(seconds)  the machine's busy CPU over `seconds`, % of all CPUs, from /proc/stat:
                       100 × Δ(user + nice + system + irq + softirq + steal) / Δ(all fields but guest)
    wait(max_wait_s)   samples busy_pct 1 s at a time until SETTLE consecutive samples are at most
                       QUIET_PCT, or max_wait_s has passed; returns what it saw (the manifest's
                       `machine_before`), with quiet=False when it gave up

The threshold matches the findings' quiet gate (engbench.rulebook.regime.QUIET: the rest of the
machine at most 10 % of all CPUs over a run's window); the window's own figure is computed later
from the run's captures (runs.other_cpu_pct), this is only the wait before it."""

from __future__ import annotations

import time
from pathlib import Path

QUIET_PCT = 10.0
SETTLE = 3  # consecutive quiet seconds
STAT = Path("/proc/stat")


def _times() -> tuple[int, int]:
    """(busy, total) jiffies of all CPUs."""
    f = STAT.read_text().splitlines()[0].split()
    user, nice, system, idle, iowait, irq, softirq, steal = (int(x) for x in f[1:9])
    busy = user + nice + system + irq + softirq + steal
    return busy, busy + idle + iowait


def busy_pct(seconds: float = 1.0) -> float:
    b0, t0 = _times()
    time.sleep(seconds)
    b1, t1 = _times()
    return 100.0 * (b1 - b0) / (t1 - t0) if t1 > t0 else 0.0


def wait(max_wait_s: float, quiet_pct: float = QUIET_PCT, sample=busy_pct) -> dict:
    """Wait for SETTLE quiet seconds in a row (module docstring); never longer than max_wait_s."""
    start, seen, streak = time.monotonic(), [], 0
    while True:
        seen.append(round(sample(1.0), 1))
        streak = streak + 1 if seen[-1] <= quiet_pct else 0
        waited = time.monotonic() - start
        if streak >= SETTLE or waited >= max_wait_s:
            return {"quiet": streak >= SETTLE, "quiet_pct": quiet_pct, "waited_s": round(waited, 1),
                    "busy_pct_last": seen[-SETTLE:], "max_wait_s": max_wait_s}
