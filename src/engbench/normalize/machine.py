"""How busy the machine was with other work while a run measured: the CPU the run itself used
against what the whole machine used over the client window. A reproduction is measured on a quiet
machine; these figures show whether it was (runs.other_cpu_pct) and are the reviewer's check.

    machine_cpu_pct = mean over the window's vmstat samples of (us + sy)            [% of all CPUs]
    own_cpu_pct     = 100 × Δcpu / (seconds × ncpu)                                  [% of all CPUs]
    other_cpu_pct   = max(0, machine_cpu_pct − own_cpu_pct)
    steal_pct       = mean over the window's vmstat samples of st                   [% of all CPUs]

steal_pct is the CPU time the hypervisor gave to other guests of the host while this machine's
CPUs wanted to run (vmstat's st): work of other machines, which other_cpu_pct cannot see. On the
2026-11-27 reproduction (not shipped) the one YCSB run at 0.69 of its configuration's median had
13.5 % steal over its 6-s window, its repetitions 0.5-1 %.

Δcpu is the run's own CPU time over the window: its cgroup's counter (cgroup.csv cpu_ns / 1e9,
everything inside the group: the driver and a private server) when the run had a group that counted
CPU, else the driver process's user + system seconds (driver_process.csv; a server's CPU is then
counted as "other"). Counters are interpolated at the window's bounds (device.counter_increase).
vmstat's us and sy are whole percents of all CPUs, so other_cpu_pct resolves about 1 %; engbench's
own samplers (iostat, vmstat, psutil: < 0.2 % of a core, benchmarks/bench_samplers.py) count as
other. NaN when vmstat has no sample in the window or no own counter exists (steal_pct: or vmstat
printed no st column)."""

from __future__ import annotations

import math

import pandas as pd

from .device import counter_increase


def own_cpu_seconds(cg: pd.DataFrame | None, proc: pd.DataFrame | None, start: float, end: float) -> tuple:
    """(seconds of CPU the run used over [start, end], "cgroup" | "driver process" | None)."""
    if cg is not None and "cpu_ns" in cg and cg["cpu_ns"].notna().sum() >= 2:
        return counter_increase(cg.dropna(subset=["cpu_ns"]), "cpu_ns", start, end) / 1e9, "cgroup"
    if proc is not None and len(proc) >= 2 and {"cpu_user_s", "cpu_sys_s"} <= set(proc):
        p = proc.assign(cpu_s=proc["cpu_user_s"] + proc["cpu_sys_s"])
        return counter_increase(p, "cpu_s", start, end), "driver process"
    return float("nan"), None


def cpu_shares(vm_window: pd.DataFrame, cg: pd.DataFrame | None, proc: pd.DataFrame | None,
               start: float, end: float, ncpu: int) -> dict:
    """machine_cpu_pct, own_cpu_pct, other_cpu_pct, steal_pct and own_cpu_source of one run (module
    docstring)."""
    seconds = float(end) - float(start)
    machine = float((vm_window["us"] + vm_window["sy"]).mean()) if len(vm_window) else float("nan")
    own_s, source = own_cpu_seconds(cg, proc, start, end)
    own = 100.0 * own_s / (seconds * ncpu) if seconds > 0 and ncpu else float("nan")
    other = max(0.0, machine - own) if not (math.isnan(machine) or math.isnan(own)) else float("nan")
    steal = float(vm_window["st"].mean()) if len(vm_window) and "st" in vm_window else float("nan")
    return {"machine_cpu_pct": machine, "own_cpu_pct": own, "other_cpu_pct": other, "steal_pct": steal,
            "own_cpu_source": source}


def speed_before(manifest: dict) -> dict:
    """How fast the machine was just before the run (engbench.run.speed: fixed work timed after the
    wait for a quiet machine), from the manifest's machine_before.speed:

        speed_cpu_mb_s      = cpu_sha256_mb_s       [MiB/s: sha256, one core]
        speed_randread_iops = randread_qd1_iops     [4 KiB random reads/s, direct, queue depth 1]

    NaN for a run without the probe (no --wait-quiet, or recorded before it existed) or a figure
    the probe could not measure."""
    sp = (manifest.get("machine_before") or {}).get("speed") or {}

    def num(key):
        v = sp.get(key)
        return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else float("nan")
    return {"speed_cpu_mb_s": num("cpu_sha256_mb_s"), "speed_randread_iops": num("randread_qd1_iops")}
