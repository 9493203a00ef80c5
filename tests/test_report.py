"""engbench report: tables in the source documents' shapes, charts, the paper; on run directories
generated from the real burst captures (tests/test_process.py's make_run) with per-engine numbers
that make the expected values easy to state."""

import json
from pathlib import Path

import pandas as pd
import pytest

from engbench import rundir
from engbench.process import build_tables, find_runs, write_tables
from test_process import T0, make_run

# engine → (items/s factor against make_run's, latency factor, allocated bytes)
ENGINES = {"wiredtiger": (1.0, 1, 3 * 2**28), "rocksdb": (2.0, 2, 2**28), "lmdb": (0.5, 4, 4 * 2**28)}
MACHINE = {"cpu_model": "Test CPU @ 2.0GHz", "ncpu": 2, "memory_bytes": 2**32,
           "data_device": {"name": "vda", "model": "virtio", "scheduler": "none", "rotational": False},
           "filesystem": {"mount_point": "/", "fstype": "ext4", "options": "rw"}}


def _patch_json(path: Path, fn):
    doc = json.loads(path.read_text())
    fn(doc)
    path.write_text(json.dumps(doc))


def make_engine_run(root, engine, factor=1.0, lat=1, allocated=3 * 2**28, seed=7, when=0,
                    params=None, knobs=None, workload="iibench", seal=True):
    """make_run's iibench run re-labelled as `engine`: `factor` × the documents per second (and so
    1/factor × every per-insert cost), `lat` × the latency buckets, `allocated` bytes on disk."""
    name = f"20261121T{54532 + when:06d}Z_{workload}_{engine}_vm"
    d = make_run(root, name=name)
    items = round(262144 * factor)
    extra_params = params or {}
    kn = knobs if knobs is not None else {f"{engine}.cache_size": "64MB"}

    def man(m):
        m.update(engine=engine, seed=seed, workload=workload, knobs=kn)
        m["params"].update(extra_params)
        m["hardware"] = MACHINE
        m["software"] = {"kernel": "6.1.0-test", "os": "Debian 12", "python": "3.11.2",
                         "driver_version": "0.1.0", "engine_library": engine,
                         "engine_version": "1.0", "sysstat": "12.6.1", "engbench": "0.1.0"}
        m["git"] = {"commit": "0123456789abcdef0123456789abcdef01234567", "dirty": False}
        m["started_utc"], m["ended_utc"] = "2026-11-21T05:45:32.000Z", "2026-11-21T05:45:44.000Z"

    def summ(s):
        s.update(engine=engine, seed=seed, workload=workload, knobs=kn)
        s["params"].update(extra_params)
        t = s["totals"]["insert"]
        t.update(items=items, requests=round(256 * factor), logical_bytes_written=items * 1024)
        s["logical_bytes_stored"] = items * 1024
        s["disk"]["allocated_bytes"] = allocated

    _patch_json(d / "manifest.json", man)
    _patch_json(d / "driver" / "summary.json", summ)
    ivl = pd.read_csv(d / "driver" / "intervals.csv")
    ivl["items"] = (ivl["items"] * factor).round().astype(int)
    ivl["latency_us_max"] = ivl["latency_us_max"] * lat
    ivl.to_csv(d / "driver" / "intervals.csv", index=False, lineterminator="\n")
    hist = pd.read_csv(d / "driver" / "histograms.csv")
    hist[["lo_us", "hi_us"]] = hist[["lo_us", "hi_us"]] * lat
    hist.to_csv(d / "driver" / "histograms.csv", index=False, lineterminator="\n")
    if seal:
        rundir.seal(d)
    return d


def make_runs(root, repeats=1, engines=ENGINES, sweep=None):
    """One iibench experiment on every engine of `engines`, `repeats` runs each (the repeats
    differ by seed and by ±10 % in speed). `sweep`: {param: [values]} adds one experiment per
    value."""
    dirs, when = [], 0
    values = [(None, None)] + [(k, v) for k, vs in (sweep or {}).items() for v in vs]
    for key, val in values:
        for engine, (factor, lat, alloc) in engines.items():
            for r in range(repeats):
                f = factor * (1 + 0.1 * r) * (1 if key is None else 1 + 0.5 * values.index((key, val)))
                params = {key: val} if key else None
                dirs.append(make_engine_run(root, engine, f, lat, alloc, seed=7 + r, when=when,
                                            params=params))
                when += 1
    return dirs


@pytest.fixture
def processed(tmp_path):
    raw = tmp_path / "raw"
    make_runs(raw, repeats=1)
    tables = build_tables(find_runs(raw))
    write_tables(tables, tmp_path / "processed")
    return tmp_path
