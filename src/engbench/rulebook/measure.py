"""What a finding measures: one value per run, from the processed tables, for the runs of one
workflow experiment file (the trial key `<file stem>.<engine>.r<n>`, runs.trial) and engine.

A `Pick` names the value; `samples(tables, picks)` returns {label: [value per repetition]} in
repetition order. Values come from the processed tables only (data/processed), never from the
raw captures, so the findings table is a function of the same tables the paper prints."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import pandas as pd

# The WiredTiger files of one collection: "<collection>.wt" holds the documents, every other
# "<collection>.<index>.wt" an index (the driver's naming: docs/driver.md).
_WT_FILE = re.compile(r"^(?P<coll>[^.]+)(?:\.(?P<index>.+))?\.wt$")


@dataclass(frozen=True)
class Pick:
    """One configuration's values. `value` is a runs column, or "<table>:<column>" with `where`
    selecting the row(s) of that table for a run (e.g. steps:q with clients=32, latency:p99_us with
    op=update_node, engine_stats:value with snapshot/stat), or a derived value named in DERIVED."""
    label: str
    experiment: str          # the experiment file's stem (notebooks/params/<stem>.yaml)
    engine: str
    value: str
    where: dict = field(default_factory=dict)

    def __hash__(self):
        return hash((self.label, self.experiment, self.engine, self.value, tuple(sorted(self.where.items()))))


def experiment_of(trial) -> str | None:
    """The experiment file stem of a trial key ("repro_x.rocksdb.r2" → "repro_x")."""
    return trial.split(".")[0] if isinstance(trial, str) and trial.count(".") >= 2 else None


def runs_of(runs: pd.DataFrame, experiment: str, engine: str) -> pd.DataFrame:
    """The ok runs of one experiment file on one engine, by repetition (then run id)."""
    if "trial" not in runs:
        return runs.iloc[0:0]
    sel = runs[(runs["trial"].map(experiment_of) == experiment) & (runs["engine"] == engine)
               & (runs["status"] == "ok")]
    return sel.sort_values(["repetition", "run_id"], kind="stable")


def wt_file_bytes(files: pd.DataFrame, run_id: str, kind: str) -> float:
    """Allocated bytes of a run's WiredTiger collection files: kind "data" sums "<coll>.wt",
    "index" sums "<coll>.<index>.wt" (WiredTiger's own files, WiredTiger*.wt, are neither)."""
    total, seen = 0.0, False
    for path, size in files.loc[files["run_id"] == run_id, ["path", "allocated_bytes"]].itertuples(index=False):
        m = _WT_FILE.match(str(path))
        if not m or str(path).startswith("WiredTiger"):
            continue
        if (kind == "index") == (m.group("index") is not None):
            total += float(size)
            seen = True
    return total if seen else math.nan


PER_200K = 200_000  # the source's "per 200k inserts"


def _count(frame, rid) -> float:
    n = int((frame["run_id"] == rid).sum()) if frame is not None and len(frame) else 0
    return float(n) if n else math.nan


def _runs_value(t, rid, column, times=1.0):
    sel = t["runs"].loc[t["runs"]["run_id"] == rid, column] if column in t["runs"] else []
    return float(sel.iloc[0]) * times if len(sel) else math.nan


def cp_latency_during(t, rid, op="get") -> float:
    """The mean latency (us) of `op` requests during the cache-pollution cold pass: over the measured
    intervals of `op` wholly inside [cold_start_unix_s, cold_end_unix_s] (the run's cache_pollution row),
    sum(latency_us_mean x requests) / sum(requests); NaN without such a row or request."""
    cp, iv = t.get("cache_pollution"), t.get("intervals")
    if cp is None or iv is None or not len(cp) or not len(iv):
        return math.nan
    row = cp[cp["run_id"] == rid]
    if len(row) != 1:
        return math.nan
    cs, ce = float(row["cold_start_unix_s"].iloc[0]), float(row["cold_end_unix_s"].iloc[0])
    sel = iv[(iv["run_id"] == rid) & (iv["op"] == op) & (iv["warmup"] == 0)
             & (iv["t_start_unix_s"] >= cs) & (iv["t_end_unix_s"] <= ce)]
    n = float(sel["requests"].sum())
    return float((sel["latency_us_mean"] * sel["requests"]).sum()) / n if n else math.nan


def _ratio(a: float, b: float) -> float:
    """a / b, NaN where b is 0 (or either is NaN)."""
    return a / b if b else math.nan


DERIVED = {
    "wt_data_bytes": lambda t, rid: wt_file_bytes(t["disk_files"], rid, "data"),
    "wt_index_bytes": lambda t, rid: wt_file_bytes(t["disk_files"], rid, "index"),
    # the run's own device reads (its cgroup's) per 200k operations: the source's io.r
    "cg_r_per_200k": lambda t, rid: _runs_value(t, rid, "cg_r_per_op", PER_200K),
    # KB per device read request of the run's own reads (its cgroup's bytes ÷ requests; NaN for a run
    # that read nothing from the device: no request to divide by)
    "cg_kb_per_read": lambda t, rid: _ratio(_runs_value(t, rid, "cg_rkb_per_op"), _runs_value(t, rid, "cg_r_per_op")),
    # files in the data directory at the end (summary.json disk.files)
    "files": lambda t, rid: _count(t.get("disk_files"), rid),
    # the driver process's CPU seconds per second of the run: its CPU µs per operation × operations/s ÷ 1e6
    "driver_cpu_s_per_s": lambda t, rid: _runs_value(t, rid, "driver_cpu_us_per_op") * _runs_value(t, rid, "q") / 1e6,
    # the run's own device requests (reads + writes, its cgroup's) per 200k operations, and KB per request:
    # (cg_rkb_per_op + cg_wkb_per_op) ÷ (cg_r_per_op + cg_w_per_op)
    "cg_requests_per_200k": lambda t, rid: (_runs_value(t, rid, "cg_r_per_op") + _runs_value(t, rid, "cg_w_per_op"))
    * PER_200K,
    "cg_kb_per_request": lambda t, rid: _ratio(_runs_value(t, rid, "cg_rkb_per_op") + _runs_value(t, rid, "cg_wkb_per_op"),
                                               _runs_value(t, rid, "cg_r_per_op") + _runs_value(t, rid, "cg_w_per_op")),
    # 004: the hot reads' mean latency during the cold pass (paced readers: their reads/s is set, their
    # latency is the service they get)
    "cp_get_latency_us_during": lambda t, rid: cp_latency_during(t, rid, "get"),
    # data + index bytes at the end per logical byte stored (runs of a fixed time insert different amounts)
    "table_bytes_per_logical": lambda t, rid: _ratio(_runs_value(t, rid, "table_bytes"),
                                                     _runs_value(t, rid, "logical_bytes_stored")),
}
# the driver process's own device I/O per 200k operations (task I/O accounting, which no other user
# of a shared device adds to, unlike iostat) are runs columns, proc_wkb_per_200k and
# proc_rkb_per_200k (engbench.tables.rows: normalize.per_n of proc_*kb_per_op, the one definition)


def stat_per_200k(tables: dict, run: pd.Series, stat: str) -> float:
    """An engine statistic's increase over the run (engine_stats: after − before) per 200k operations,
    e.g. a WiredTiger table's "cache: pages read into cache" (its cache misses) per 200k inserts."""
    st = tables.get("engine_stats")
    if st is None or not len(st):
        return math.nan
    sel = st[(st["run_id"] == run["run_id"]) & (st["stat"] == stat)].set_index("snapshot")["value"]
    ops = float(run.get("ops") or 0)
    if "after" not in sel or "before" not in sel or not ops:
        return math.nan
    return (float(sel["after"]) - float(sel["before"])) / ops * PER_200K


def value(tables: dict, run: pd.Series, pick: Pick) -> float:
    """The value `pick` names for one run (NaN when the run has none): a runs column, a DERIVED value,
    "stat_per_200k:<engine statistic>" (stat_per_200k), or "<table>:<column>" with `where`."""
    if pick.value in DERIVED:
        return DERIVED[pick.value](tables, run["run_id"])
    if pick.value.startswith("stat_per_200k:"):
        return stat_per_200k(tables, run, pick.value.split(":", 1)[1])
    if ":" not in pick.value:
        v = run.get(pick.value)
        return float(v) if v is not None and v == v else math.nan
    table, column = pick.value.split(":", 1)
    frame = tables.get(table)
    if frame is None or column not in frame:
        return math.nan
    sel = frame[frame["run_id"] == run["run_id"]]
    for k, want in pick.where.items():
        sel = sel[sel[k].astype(str) == str(want)]
    if len(sel) != 1:
        return math.nan
    return float(sel[column].iloc[0])


def samples(tables: dict, picks: list) -> dict:
    """{label: [value per repetition]} (a run without the value is left out, so n says so). Two picks
    with one label are refused (ValueError): the second would replace the first's values."""
    out = {}
    for p in picks:
        if p.label in out:
            raise ValueError(f"two picks share the label {p.label!r} ({p.experiment}, {p.engine}, {p.value}): "
                             "give each pick its own label")
        vals = [value(tables, run, p) for _, run in runs_of(tables["runs"], p.experiment, p.engine).iterrows()]
        out[p.label] = [v for v in vals if v == v]
    return out


def per_run(tables: dict, picks: list) -> list[dict]:
    """The long form behind a finding's chart: (label, run_id, repetition, value)."""
    rows = []
    for p in picks:
        for _, run in runs_of(tables["runs"], p.experiment, p.engine).iterrows():
            v = value(tables, run, p)
            if v == v:
                rows.append({"label": p.label, "run_id": run["run_id"], "repetition": int(run["repetition"]),
                             "value": v})
    return rows
