"""What a report is made from: the processed tables (data/processed) and the run manifests
(data/raw/<run_id>/manifest.json), grouped into comparisons (Comparison).

A comparison is one workload with one parameter set (every ``param.*`` column of the runs table
equal), on one machine (runs.machine, engbench.importer.machine_key: runs on different hardware are
never averaged) under one set of run limits (runs.limits: a memory-capped or throttled run is never
merged with an unlimited one); its rows are the engines. When the runs come from several machines,
or some have limits, the title says which (" — limits: …", " — machine …"). Its title is the ``experiment`` of its runs (the params file's
description) when they share one, else the workload and the params whose values differ from the
driver's defaults (all params when the driver is not there to say). An engine run with different knobs inside one comparison is a
separate configuration, labelled ``engine (knob=value …)``. Several runs of one configuration are
repeats: the tables show their mean and spread."""

from __future__ import annotations

import hashlib
import json
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from .. import registry
from ..run import driver
from ..tables.processed import ProcessedError
from . import roles

ENGINE_ORDER = ["wiredtiger", "sqlite", "wiredtiger-lsm", "rocksdb", "lmdb"]  # the column order of every table


def _is_na(v) -> bool:
    return v is None or (isinstance(v, float) and v != v)


def _plain(v):
    """A parquet scalar as a JSON-able Python value (numpy ints/floats → int/float)."""
    if _is_na(v):
        return None
    if hasattr(v, "item"):
        v = v.item()
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return v


def load_manifests(raw_dir, run_ids) -> dict:
    """run_id → manifest dict, for the run directories found under raw_dir. A run without a
    manifest there is left out with a warning naming it (the report then says its machine is
    unknown); a manifest that cannot be read as JSON is a ProcessedError naming its path."""
    out = {}
    if raw_dir is None:
        return out
    absent = []
    for rid in run_ids:
        path = Path(raw_dir) / rid / "manifest.json"
        if not path.is_file():
            absent.append(rid)
            continue
        try:
            out[rid] = json.loads(path.read_text())
        except (OSError, ValueError) as exc:
            raise ProcessedError(f"{path}: cannot be read as a manifest ({exc})") from None
    if absent:
        warnings.warn(f"{len(absent)} run(s) have no manifest under {raw_dir}, so their machine is unknown: "
                      f"{', '.join(map(str, absent[:5]))}{' …' if len(absent) > 5 else ''}", stacklevel=2)
    return out


@dataclass
class Comparison:
    """Runs the report compares with each other: one workload with one parameter set, on one
    machine under one set of run limits, its rows labelled by configuration (engine and knobs).
    What the paper counts as an experiment; not a workflow experiment file (engbench.matrix) nor
    engbench.run.experiments.run, which records the runs it groups."""
    key: str                    # stable slug: workload + hash of the params
    workload: str
    params: dict                # param name → value
    runs: pd.DataFrame          # its rows of the runs table, with a "config" column
    op_unit: str
    configs: list = field(default_factory=list)   # row labels, in table order
    name: str | None = None     # the short title (comparisons() sets it)
    machine: str = "unknown"    # runs.machine of every run
    limits: str = "none"        # runs.limits of every run

    @property
    def title(self) -> str:
        if self.name:
            return self.name
        ps = ", ".join(f"{k}={v}" for k, v in sorted(self.params.items()))
        return f"{self.workload} ({ps})" if ps else self.workload

    @property
    def spec(self) -> registry.Workload:
        """The workload's registry entry (unit, op name, tables): engbench.registry."""
        return registry.get(self.workload)

    @property
    def run_ids(self) -> list:
        return self.runs["run_id"].tolist()


def _param_cols(runs):
    return sorted(c for c in runs.columns if c.startswith("param."))


def _knob_cols(runs):
    return sorted(c for c in runs.columns if c.startswith("knob."))


def _canon(params: dict) -> str:
    return json.dumps(params, sort_keys=True, separators=(",", ":"), default=str)


def config_labels(runs: pd.DataFrame) -> pd.Series:
    """Row label per run: the engine when all its runs share their knobs, else its role
    (engbench.report.roles.label: "WT B-tree, small cache (16 MiB = 0.29× index), direct IO"), one
    label per distinct set of knobs. Every knob column an engine's runs set counts, whatever its
    prefix: WiredTiger's LSM sets knob.wiredtiger.* (its cache sizes were one row before)."""
    labels = runs["engine"].astype(str).copy()
    for engine, grp in runs.groupby("engine", sort=True):
        cols = [c for c in _knob_cols(grp) if grp[c].notna().any()]
        varying = [c for c in cols if grp[c].map(lambda v: _canon(_plain(v))).nunique() > 1]
        if varying:
            keys = grp[varying].apply(lambda r: _canon([_plain(v) for v in r]), axis=1)
            names = roles.label(engine, grp, varying, keys)
            for i in grp.index:
                labels.at[i] = names[keys.at[i]]
    return labels


def param_defaults(workload: str) -> dict | None:
    """param → default value of ``workload`` from `engbench-driver describe`; None when the
    driver (or the workload) is not there."""
    try:
        desc = driver.describe()
    except Exception:  # DriverMissing, a failed describe: titles then list every param
        return None
    for w in desc.get("workloads", []):
        if w.get("name") == workload:
            return {p["name"]: p.get("default") for p in w.get("params", [])}
    return None


def decoded(v):
    """A param as the runs table stores it (lists and booleans as JSON text) → its value."""
    if isinstance(v, str):
        try:
            return json.loads(v)
        except ValueError:
            return v
    return v


def _same(a, b) -> bool:
    a, b = decoded(a), decoded(b)
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return float(a) == float(b)
    return _canon(a) == _canon(b)


def _fmt_params(params: dict) -> str:
    return ", ".join(f"{k}={'/'.join(map(str, v)) if isinstance(v, list) else v}"
                     for k, v in sorted(params.items()))


# Params every title shows, defaults included: they say which work ran (iibench's variant).
ALWAYS_TITLED = ("variant",)


def _title(workload, params, names, defaults) -> str:
    always = {k: params[k] for k in ALWAYS_TITLED if k in params}
    if len(names) == 1:
        return f"{names[0]} ({_fmt_params(always)})" if always else names[0]
    shown = params if defaults is None else {k: v for k, v in params.items()
                                             if k not in defaults or not _same(v, defaults[k])}
    shown = {**shown, **always}
    return f"{workload} ({_fmt_params(shown)})" if shown else workload


def _titles(exps, defaults_of):
    """Set each experiment's name; experiments that would share a title get the params that
    tell them apart appended."""
    for e in exps:
        names = sorted({str(n) for n in e.runs.get("experiment", pd.Series(dtype=object)) if not _is_na(n)})
        e.name = _title(e.workload, e.params, names, defaults_of(e.workload))
    by_title = {}
    for e in exps:
        by_title.setdefault(e.name, []).append(e)
    for same in by_title.values():
        if len(same) < 2:
            continue
        keys = sorted({k for e in same for k in e.params})
        differ = [k for k in keys if len({_canon(e.params.get(k)) for e in same}) > 1]
        for e in same:
            e.name += " [" + _fmt_params({k: e.params.get(k) for k in differ}) + "]"


def comparisons(runs: pd.DataFrame, engine_order=None, defaults_of=param_defaults) -> list[Comparison]:
    """The comparisons of a runs table, ordered by workload then key."""
    if runs.empty:
        return []
    pcols = _param_cols(runs)
    several = "machine" in runs and runs["machine"].nunique() > 1
    out = []
    keyed = {}
    for i, row in runs.iterrows():
        params = {c[len("param."):]: _plain(row[c]) for c in pcols if not _is_na(row[c])}
        where = {"machine": _text(row, "machine", "unknown"), "limits": _text(row, "limits", "none")}
        # the machine and limits enter the key only when they tell experiments apart, so the key
        # (file names) of unlimited runs of one machine stays what it was before they existed; for
        # the same reason the key hashes the parameters under the names they had before any rename
        # (Workload.renamed), so a rename moves no file and no anchor of the paper
        then = registry.params_then(registry.get(row["workload"]), params)
        canon = _canon({"workload": row["workload"], "params": then,
                        **({"machine": where["machine"]} if several else {}),
                        **({"limits": where["limits"]} if where["limits"] != "none" else {})})
        keyed.setdefault(canon, (row["workload"], params, where, []))[3].append(i)
    for canon, (workload, params, where, idx) in keyed.items():
        sub = runs.loc[idx].copy()
        sub["config"] = config_labels(sub)
        key = f"{workload}-{hashlib.sha1(canon.encode()).hexdigest()[:6]}"
        order = _order(sub, engine_order)
        out.append(Comparison(key, workload, params, sub.reset_index(drop=True),
                              str(sub["op_unit"].iloc[0]), order, machine=where["machine"],
                              limits=where["limits"]))
    out = sorted(out, key=lambda e: (e.workload, e.key))
    cache = {}
    _titles(out, lambda w: cache[w] if w in cache else cache.setdefault(w, defaults_of(w)))
    for e in out:
        e.name += (f" — limits: {e.limits}" if e.limits != "none" else "") + (f" — machine {e.machine}" if several else "")
    return out


def _text(row, col, default) -> str:
    v = row[col] if col in row else None
    return default if _is_na(v) else str(v)


def _order(sub, engine_order):
    rank = {e: i for i, e in enumerate(engine_order or [])}
    pairs = sub[["engine", "config"]].drop_duplicates()
    pairs = sorted(pairs.itertuples(index=False), key=lambda p: (rank.get(p.engine, len(rank)), p.engine, p.config))
    return [p.config for p in pairs]


def machine_label(manifests: dict, runs: pd.DataFrame) -> str:
    """"<cpu model>, <n> CPUs" for the machine(s) the runs came from ("; "-joined if several)."""
    seen = []
    for rid in runs["run_id"]:
        hw = (manifests.get(rid) or {}).get("hardware") or {}
        ncpu = hw.get("ncpu")
        if ncpu is None and "ncpu" in runs:
            ncpu = _plain(runs.loc[runs["run_id"] == rid, "ncpu"].iloc[0])
        label = f"{hw.get('cpu_model') or 'unknown CPU'}, {ncpu} CPUs"
        if label not in seen:
            seen.append(label)
    return "; ".join(seen) if seen else "unknown machine"


def where_label(manifests: dict, runs: pd.DataFrame) -> str:
    """What a chart's or table's numbers were measured on: machine_label, the machine keys
    (runs.machine) and the run limits (runs.limits), e.g. "Xeon, 2 CPUs (2cpu-24g-ext4-…);
    run limits: memory 64 MiB, cgroup v1"."""
    keys = [str(k) for k in dict.fromkeys(runs["machine"]) if not _is_na(k)] if "machine" in runs else []
    lims = [str(k) for k in dict.fromkeys(runs["limits"]) if not _is_na(k)] if "limits" in runs else []
    label = machine_label(manifests, runs) + (f" ({', '.join(keys)})" if keys else "")
    return label + f"; run limits: {', '.join(lims) if len(lims) == 1 else ' | '.join(lims) or 'none'}"


def where(runs) -> str:
    """"machine …, run limits …" of a set of runs (one machine and one set of limits each)."""
    return f"machine {', '.join(map(str, dict.fromkeys(runs['machine'])))}, run limits: " \
           f"{'; '.join(map(str, dict.fromkeys(runs['limits'])))}"


def where_groups(runs) -> list:
    """[(tag, runs)]: one group per machine and run limits, so that nothing across experiments
    (sweeps, read_once) averages different hardware or limits; the tag (for file names and
    numbers.json keys) is "" when there is one group, else "." + 6 hex digits of the pair."""
    keys = [c for c in ("machine", "limits") if c in runs]
    groups = list(runs.groupby(keys, sort=True, dropna=False)) if keys and len(runs) else [((), runs)]
    return [("" if len(groups) == 1 else "." + hashlib.sha1(repr(k).encode()).hexdigest()[:6], g)
            for k, g in groups]
