"""An experiment: one workload with one parameter set, run on several engines in turn. This is
what the notebooks call; each engine's run is an ordinary `engbench run`. Engines that one
experiment compares get the same memory for caching (`caching_memory`; docs/experiments.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from .. import registry
from . import driver, params, runs, units
from .rounds import interleave


def available_engines(include_null: bool = False) -> list[str]:
    """Engines this driver can run here, in the driver's order (`null` only when asked: it
    stores nothing and measures the driver itself)."""
    return [e["name"] for e in driver.describe()["engines"]
            if e.get("available", True) and (include_null or e["name"] != "null")]


def run(workload: str, engines: list[str], params_: dict | None = None, knobs: dict | None = None,
        seed: int = 1, out_dir: Path | None = None, show_progress: bool = True,
        repeat: int = 1, description: str | None = None) -> pd.DataFrame:
    """Run `workload` on each engine, `repeat` times (rounds interleave the engines, so slow drift
    of a shared machine spreads over all of them rather than landing on one); one row per run:
    engine, repetition, status, run_dir, the driver's headline rates. All parameters are checked
    for every engine before the first run starts, so a typo does not surface after an hour of
    runs. Every repetition uses the same seed: the spread is the machine's, not the data's.
    `description` names the experiment in each run's manifest (and so in the report)."""
    requests = [params.RunRequest(workload, e, dict(params_ or {}), params.knobs_for(e, dict(knobs or {})),
                                  seed) for e in engines]
    params.refuse_old_names(workload, dict(params_ or {}))  # before any run
    for req in requests:
        driver.validate(req.config(Path("/nonexistent/data"), Path("/nonexistent/out")))
    rows = []
    for rep, req in interleave(requests, repeat):  # the workflow's order too
        result = runs.execute(req, out_dir=out_dir, show_progress=show_progress, experiment=description,
                              argv=["engbench.run.experiments.run", workload, req.engine, f"repetition={rep}"])
        rows.append({"engine": req.engine, "repetition": rep, "status": result.status,
                     "run_dir": str(result.run_dir), **_headline(result.run_dir)})
    return pd.DataFrame(rows)


MAX_WRITE_BUFFER_NUMBER = 2  # RocksDB's default memtables per column family (the driver does not set it)


def caching_memory(engine: str, knobs: dict, workload: str, params_: dict) -> int | None:
    """The bytes an engine may cache of its own, from the driver's resolved knobs (the rule of
    docs/experiments.md: engines one experiment compares get the same):

        wiredtiger, wiredtiger-lsm  cache_size (clean and dirty pages, LSM chunks: all of it)
        rocksdb                     block_cache_size + CF × MAX_WRITE_BUFFER_NUMBER × write_buffer_size,
                                    CF the column families the workload writes (its registry
                                    entry's column_families of the resolved parameters)
        sqlite                      cache_size
        lmdb, anything else         None: no cache of its own (LMDB's is the page cache, under the
                                    run's memory cap like everyone's)"""
    k = {key.split(".", 1)[1]: v for key, v in (knobs or {}).items() if "." in key}
    size = lambda name: units.parse_size(k.get(name) or 0)  # noqa: E731
    if engine.startswith("wiredtiger") or engine == "sqlite":
        return size("cache_size")
    if engine == "rocksdb":
        families = registry.get(workload).column_families
        if families is None:
            raise ValueError(f"caching_memory: how many column families {workload} writes is not known "
                             "(column_families in its registry entry, engbench/workloads/<folder>/__init__.py)")
        return size("block_cache_size") + families(params_ or {}) * MAX_WRITE_BUFFER_NUMBER \
            * size("write_buffer_size")
    return None


def _headline(run_dir: Path) -> dict:
    try:
        summary = json.loads((Path(run_dir) / "driver" / "summary.json").read_text())
    except (OSError, ValueError):
        return {}
    out = {"client_s": round(summary.get("client", {}).get("seconds") or 0, 2)}
    for op, r in sorted((summary.get("rates") or {}).items()):
        out[f"{op}_items_per_s"] = round(r.get("items_per_s") or 0)
    return out
