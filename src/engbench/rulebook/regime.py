"""The physical regime a claim was measured in, and the gate its runs must pass before a verdict.

A source document's claim is evidence of an engine's behaviour in the regime its author measured
(data against cache, device reads per operation, checkpoints in the window, how busy the machine
was). A run here that is not in that regime says nothing about the claim, whichever way its numbers
fall. So every reproduction experiment states its regime as gates — measured quantities with bounds,
each with what the source document measured — and every run reports those quantities from its own
counters (quantities(): SHARED, then the workload folders' own, their regime.py read through
engbench.registry.quantities; the processed tables only). A configuration whose runs miss a gate is
left out of the claims that compare it: a claim is judged on the configurations inside their gates when
those decide it whatever the left-out ones measure, and is otherwise "not in the source's regime"
(rules.NOT_IN_REGIME), with the measured figures either way (engbench.findings.judge). A gate judges
every engine whose design has its quantity (Quantity.engines; applies): no engine is exempt.

    quantity(tables, run) -> [values]     one value per run (per step for per-step quantities)
    Gate(quantity, lo, hi, engines, source)
        passes for a configuration iff every value of every run satisfies lo <= v <= hi
    check(tables, experiment, engine) -> [GateResult]     the gates of one configuration

The gates of each experiment file stem live with the findings that compare it (GATES of each
module of findings, collected by engbench.findings.catalog);
QUIET applies to every reproduction run.
The bounds are chosen from the source documents and fixed before the runs they judge (rules.py,
engbench.findings.history: a change after the data keeps its history)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

from .. import registry
from . import measure
from .quantity import Quantity


def _col(column):
    def f(t, run):
        v = run.get(column)
        return [float(v) if v is not None and v == v else math.nan]
    return f


def _stat_delta(stat: str, per_op: bool):
    """after − before of an engine statistic (engine_stats), optionally per operation of the run."""
    def f(t, run):
        st = t.get("engine_stats")
        if st is None or not len(st):
            return [math.nan]
        sel = st[(st["run_id"] == run["run_id"]) & (st["stat"] == stat)].set_index("snapshot")["value"]
        if "after" not in sel or "before" not in sel:
            return [math.nan]
        d = float(sel["after"]) - float(sel["before"])
        ops = float(run.get("ops") or math.nan)
        return [d / ops if per_op else d]
    return f


def _ratio(num, den):
    def f(t, run):
        a, b = num(t, run), den(t, run)
        return [x / y if y and y == y and x == x else math.nan for x, y in zip(a, b)]
    return f


def _steps(column):
    def f(t, run):
        st = t.get("steps")
        if st is None or column not in st:
            return [math.nan]
        vals = st.loc[st["run_id"] == run["run_id"], column].astype(float).tolist()
        return vals or [math.nan]
    return f


def _device_reads(t, run):
    r, ops = run.get("cg_r_per_op"), run.get("ops")
    return [float(r) * float(ops) if r is not None and r == r and ops else math.nan]


_PAGES_READ = "cache: pages read into cache"
_WT = ("wiredtiger", "wiredtiger-lsm")                      # WiredTiger's own statistics
_OWN_CACHE = ("wiredtiger", "wiredtiger-lsm", "rocksdb", "sqlite")   # engines with a cache of their own
SHARED = [  # every run's; a workload's own are its folder's regime.py (quantities())
    Quantity("other_cpu_pct", "% of all CPUs", "CPU the rest of the machine used over the client window: vmstat "
             "us+sy minus the run's own (runs.other_cpu_pct, normalize.machine)", _col("other_cpu_pct")),
    Quantity("device_reads_per_op", "reads / op", "device reads by the run's own cgroup over the client window "
             "÷ operations (runs.cg_r_per_op)", _col("cg_r_per_op")),
    Quantity("device_reads", "reads", "device reads by the run's own cgroup over the client window "
             "(cg_r_per_op × ops)", _device_reads),
    Quantity("step_device_reads_per_op", "reads / update", "each step's device reads by the run's cgroup ÷ "
             "its updates (steps.cg_r_per_op)", _steps("cg_r_per_op")),
    Quantity("engine_misses_per_op", "pages / op", "WiredTiger's \"cache: pages read into cache\", after − "
             "before the measured phase, ÷ operations", _stat_delta(_PAGES_READ, per_op=True)),
    Quantity("engine_misses_per_device_read", "ratio", "WiredTiger's pages read into cache ÷ the cgroup's "
             "device reads (≈ 1 when every cache miss goes to the device, not the page cache)",
             _ratio(_stat_delta(_PAGES_READ, per_op=True), _col("cg_r_per_op")), engines=_WT),
    Quantity("secondary_index_per_cache", "×", "allocated bytes of the secondary index files at the end ÷ the "
             "engine cache (runs.secondary_index_bytes / engine_cache_bytes; an engine with a cache of its own: "
             "one that does not report its secondary indexes' bytes is not measured)",
             _ratio(_col("secondary_index_bytes"), _col("engine_cache_bytes")), engines=_OWN_CACHE),
    Quantity("tables_per_cache", "×", "data + index bytes at the end ÷ the engine cache "
             "(runs.table_bytes / engine_cache_bytes)", _ratio(_col("table_bytes"), _col("engine_cache_bytes")),
             engines=_OWN_CACHE),
    Quantity("requests_per_node", "requests / node", "the measured window's requests ÷ the graph's node ids "
             "(runs.ops / param.maxid1: how many times over the graph was worked on)",
             _ratio(_col("ops"), _col("param.maxid1"))),
    Quantity("checkpoints_in_window", "checkpoints", "checkpoints the engine began inside the client window "
             "(runs.checkpoints, from the driver's engine_events)", _col("checkpoints"), engines=("wiredtiger",)),
    Quantity("flushes_in_window", "flushes", "memtable flushes RocksDB began inside the client window: its "
             "periodic writes of what it holds in memory, as WiredTiger's checkpoints (runs.flushes, from the "
             "driver's engine_events)", _col("flushes"), engines=("rocksdb",)),
    Quantity("log_slot_wait_fraction", "fraction", "WiredTiger's log slot joins that yielded ÷ all slot joins "
             "over the run (runs.log_slot_wait_fraction, normalize.workloads.log_slot_figures)",
             _col("log_slot_wait_fraction")),
    Quantity("tables_per_memory_limit", "×", "data + index bytes at the end ÷ the run's memory limit "
             "(runs.table_bytes / limit.memory_bytes)", _ratio(_col("table_bytes"), _col("limit.memory_bytes"))),
]


def quantities() -> dict:
    """{name: Quantity}: the shared quantities, then the workload folders' own
    (workloads/<name>/regime.py, through engbench.registry)."""
    return {q.name: q for q in [*SHARED, *registry.quantities()]}


@dataclass(frozen=True)
class Gate:
    quantity: str
    lo: float | None = None
    hi: float | None = None
    engines: tuple | None = None   # None: every engine of the experiment
    source: str = ""               # what the source document measured, that the bound comes from

    def bound(self) -> str:
        q = quantities()[self.quantity]
        if self.lo is not None and self.hi is not None:
            b = f"{_g(self.lo)}–{_g(self.hi)}"
        else:
            b = f">= {_g(self.lo)}" if self.lo is not None else f"<= {_g(self.hi)}"
        return f"{self.quantity} {b} {q.unit}".strip()

    def admits(self, v: float) -> bool:
        return v == v and (self.lo is None or v >= self.lo) and (self.hi is None or v <= self.hi)


@dataclass(frozen=True)
class GateResult:
    gate: Gate
    values: tuple                  # every value of every run of the configuration
    passed: bool

    def measured(self) -> str:
        vals = [v for v in self.values if v == v]
        if not vals:
            return f"{self.gate.quantity}: not measured"
        lo, hi = min(vals), max(vals)
        span = _g(lo) if lo == hi else f"{_g(lo)}–{_g(hi)}"
        return f"{self.gate.quantity} {span} (n={len(vals)})"


def _g(x: float) -> str:
    if x == 0 or not math.isfinite(x):
        return f"{x:g}"
    digits = max(0, 2 - int(math.floor(math.log10(abs(x)))))
    return f"{x:,.{digits}f}"


# The machine is quiet while a shipped run measures: the rest of the machine used at most this share
# of all CPUs over the window. The main job on this machine with nothing else running: 1.1 % median,
# 6.2 % at most (5 runs, 2026-11-25); the first shipped reproduction, measured beside builds and
# tests: 40-70 % (medians per experiment).
QUIET = Gate("other_cpu_pct", hi=10, source="a quiet machine: the source documents' servers ran the benchmark alone")

def applies(gate: Gate, engine: str) -> bool:
    """Whether `gate` judges `engine`: every engine whose design has the gate's quantity
    (Quantity.engines), unless the gate names the engines its bound is for (a bound that differs by
    engine, from the source's figure for each: every engine of the experiment then has its own)."""
    q = quantities()[gate.quantity]
    return (q.engines is None or engine in q.engines) and (gate.engines is None or engine in gate.engines)


def gates_for(gates: dict, experiment: str, engine: str) -> list[Gate]:
    """The gates of one configuration: QUIET for a reproduction experiment, then its own."""
    own = [g for g in gates.get(experiment, ()) if applies(g, engine)]
    return [QUIET, *own] if experiment.startswith("repro_") else own


def check(tables: dict, experiment: str, engine: str, gates: dict, only: list | None = None) -> list[GateResult]:
    """Every gate of one configuration (or the `only` gates) against every ok run of it."""
    runs, qs = measure.runs_of(tables["runs"], experiment, engine), quantities()
    out = []
    for g in (only if only is not None else gates_for(gates, experiment, engine)):
        vals = tuple(v for _, run in runs.iterrows() for v in qs[g.quantity].fn(tables, run))
        out.append(GateResult(g, vals, bool(vals) and all(g.admits(v) for v in vals)))
    return out


def run_quantities(tables: dict) -> pd.DataFrame:
    """The long table of every quantity of every run (regime.csv): run_id, quantity, step, value."""
    rows, qs = [], quantities()
    for _, run in tables["runs"].iterrows():
        for q in qs.values():
            for i, v in enumerate(q.fn(tables, run)):
                if v == v:
                    rows.append({"run_id": run["run_id"], "quantity": q.name, "step": i, "value": v})
    return pd.DataFrame(rows, columns=["run_id", "quantity", "step", "value"])


def _numbers(frame: pd.DataFrame, column: str) -> pd.Series:
    """A column as numbers (NaN where it is not one); all NaN when the table has no such column
    (tables made before it existed)."""
    if column not in frame:
        return pd.Series(math.nan, index=frame.index, dtype=float)
    return pd.to_numeric(frame[column], errors="coerce")


# Issue 26: the repetitions of one configuration lie within ±15 % of their median throughput.
SPREAD = 0.15


def reproduction_runs(runs: pd.DataFrame) -> pd.DataFrame:
    """The ok runs whose trial is of a repro_* experiment file, with that file's stem as `exp`."""
    if "trial" not in runs or runs.empty:
        return runs.iloc[0:0].assign(exp=pd.Series(dtype=object))
    exp = runs["trial"].map(measure.experiment_of)
    return runs[exp.fillna("").str.startswith("repro_") & (runs["status"] == "ok")].assign(exp=exp)


def reproduction_summary(runs: pd.DataFrame) -> dict:
    """How quiet the machine was and how far repetitions spread, over the ok reproduction runs
    (runs whose trial is of a repro_* experiment file):

        other_cpu_median, other_cpu_max   the runs' other_cpu_pct (the machine's CPU minus the run's
                                          own, % of all CPUs, over the run's window)
        busy_runs                         runs above QUIET's bound
        spread(c) = max_i |q_i / median_i(q_i) - 1|   over the repetitions i of configuration c
                                          (experiment file, engine; q: the run's throughput)
        configurations, within            configurations with >= 2 repetitions, those with spread <= SPREAD
        worst, worst_configuration        the largest spread and its "experiment, engine"
        speed_runs                        runs with the machine-speed probe taken before them
                                          (run.speed: speed_cpu_mb_s, speed_randread_iops)
        speed_cpu_min/median/max,         those probes' figures over the runs
        speed_iops_min/median/max
        speed_q_rho                       Spearman's rank correlation (Pearson's of the ranks), over the runs of configurations
                                          with >= 2 repetitions, of q / median(q) with the probe's
                                          speed_randread_iops / its median over the same configuration:
                                          how far the device's speed before a run goes with its rate
        steal_median, steal_max           the runs' steal_pct (CPU the hypervisor gave to other guests
                                          of the host over the run's window, % of all CPUs)
        steal_q_rho                       as speed_q_rho, of q / median(q) with steal_pct (not relative:
                                          a quiet host steals ~0)

    An empty dict when there is no reproduction run."""
    rep = reproduction_runs(runs)
    if rep.empty:
        return {}
    other = pd.to_numeric(rep["other_cpu_pct"], errors="coerce").dropna()
    spreads, rel = {}, []
    for (e, eng), g in rep.groupby(["exp", "engine"]):
        q = pd.to_numeric(g["q"], errors="coerce")
        q = q[q > 0].dropna()
        if len(q) >= 2:
            spreads[f"{e}, {eng}"] = float((q / q.median() - 1).abs().max())
            iops = _numbers(g.loc[q.index], "speed_randread_iops")
            rel.append(pd.DataFrame({"q": q / q.median(), "iops": iops / iops.median(),
                                     "steal": _numbers(g.loc[q.index], "steal_pct")}))
    worst = max(spreads, key=spreads.get) if spreads else None
    out = {"runs": len(rep), "other_cpu_median": float(other.median()) if len(other) else math.nan,
           "other_cpu_max": float(other.max()) if len(other) else math.nan,
           "busy_runs": int((other > QUIET.hi).sum()), "configurations": len(spreads),
           "within": sum(v <= SPREAD for v in spreads.values()),
           "worst": spreads[worst] if worst else math.nan, "worst_configuration": worst or ""}
    cpu, iops = _numbers(rep, "speed_cpu_mb_s").dropna(), _numbers(rep, "speed_randread_iops").dropna()
    out["speed_runs"] = int(min(len(cpu), len(iops)))
    for key, s in (("speed_cpu", cpu), ("speed_iops", iops)):
        out.update({f"{key}_min": float(s.min()) if len(s) else math.nan,
                    f"{key}_median": float(s.median()) if len(s) else math.nan,
                    f"{key}_max": float(s.max()) if len(s) else math.nan})
    rel = pd.concat(rel) if rel else pd.DataFrame(columns=["q", "iops", "steal"])
    for key, col in (("speed_q_rho", "iops"), ("steal_q_rho", "steal")):
        both = rel[["q", col]].astype(float).dropna()
        out[key] = float(both["q"].rank().corr(both[col].rank())) if len(both) >= 3 else math.nan
    steal = _numbers(rep, "steal_pct").dropna()
    out.update({"steal_median": float(steal.median()) if len(steal) else math.nan,
                "steal_max": float(steal.max()) if len(steal) else math.nan})
    return out
