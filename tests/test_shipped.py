"""The runs and the paper shipped with the repository: every run is sealed and intact, and the
committed paper recomputes from them exactly (the reviewer's path, `engbench verify`).

What is checked is the shipped set as committed (HEAD's data/raw, data/processed and paper/build,
exported into a scratch directory), not whatever the working tree holds: the main job adds its runs
to data/raw and rebuilds data/processed and paper/build from all of them, and the tests must pass
however often it ran. The code under test is the working tree's. The
export is made once per test run (conftest.py `shipped`); that an extra run beside the committed ones
is named by verify is tested on a small set in test_verify.py."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engbench.run import rundir


def shipped_runs(root: Path) -> list[Path]:
    return sorted(p for p in (root / "data" / "raw").glob("*") if (p / "manifest.json").exists())


@pytest.mark.smoke
def test_shipped_runs_are_complete_and_intact(shipped):
    runs = shipped_runs(shipped)
    assert runs, "the repository ships the main job's runs"
    engines = set()
    for run_dir in runs:
        m = rundir.read_manifest(run_dir)
        assert m["status"] == "ok", run_dir.name
        assert rundir.check(run_dir) == [], run_dir.name
        # a main-job run keeps its executed notebook; a reproduction run (engbench reproduce, the
        # workflow) its trial record
        if m["workload"] == "calibrate":  # the device calibrations reproduce ran the runs against
            assert m["engine"] == "fio" and (run_dir / "fio").is_dir(), run_dir.name
            continue
        assert (run_dir / "notebook.ipynb").exists() or (run_dir / "workflow.json").exists(), run_dir.name
        engines.add(m["engine"])
    assert engines >= {"wiredtiger", "wiredtiger-lsm", "rocksdb", "lmdb", "sqlite"}


def test_the_runs_table_names_each_runs_trial(shipped):
    """The runs table's `trial` column is the workflow key a run's workflow.json records (one
    experiment file x engine x repetition; empty for a run outside the workflow), read from runs
    recorded before the workflow's `target` became `trial` (issue 29): `target` is no column."""
    import csv
    with open(shipped / "data" / "processed" / "runs.csv") as f:
        rows = {r["run_id"]: r for r in csv.DictReader(f)}
    assert "trial" in next(iter(rows.values())) and "target" not in next(iter(rows.values()))
    keyed = 0
    for run_id, row in rows.items():
        record = shipped / "data" / "raw" / run_id / "workflow.json"
        want = json.loads(record.read_text())["key"] if record.is_file() else ""
        assert row["trial"] == want, run_id
        keyed += bool(want)
    assert keyed >= 130


def test_processed_tables_and_findings_regenerate_byte_identically_from_the_shipped_runs(shipped, tmp_path):
    out_dir = tmp_path / "processed"
    env = {"PATH": "/usr/bin:/bin", "ENGBENCH_WORK_DIR": str(tmp_path / "work")}
    out = subprocess.run([sys.executable, "-m", "engbench.cli", "process", "--raw", str(shipped / "data" / "raw"),
                          "--out", str(out_dir)], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=900)
    assert out.returncode == 0, out.stderr[-3000:]
    committed = shipped / "data" / "processed"
    names = sorted(p.name for p in committed.glob("*.csv"))
    assert "findings.csv" in names and "findings_values.csv" in names
    assert sorted(p.name for p in out_dir.glob("*.csv")) == names
    for name in names:
        assert (out_dir / name).read_bytes() == (committed / name).read_bytes(), name


@pytest.mark.smoke
def test_the_shipped_reproduction_tests_every_finding_it_can(shipped):
    """The shipped runs hold the whole reproduction: every claim with a stand-in here has 3 or more
    repetitions of every configuration it compares, and is judged — holds, does not hold,
    inconclusive here (its interval straddles the threshold: why gives the rounds), or not in the
    source's regime (its gates, with the measured figure) — or is not testable for a stated minimum
    count (too few device reads), or refused for unequal caching memory only where every experiment
    it names is one awaiting re-measurement (RESIZED) for an engine it compares. A claim without a
    stand-in is not testable outright; one whose quantity was not captured is "not tested", saying
    what it needs."""
    import re

    import pandas as pd

    from engbench.findings import catalog as claims
    from engbench.rulebook import rules

    f = pd.read_csv(shipped / "data" / "processed" / "findings.csv").set_index("id")
    assert list(f.index) == [c.id for c in claims.FINDINGS]
    judged = {rules.HOLDS, rules.FAILS, rules.INCONCLUSIVE, rules.NOT_IN_REGIME}
    for c in claims.FINDINGS:
        verdict, why = f.loc[c.id, "verdict"], f.loc[c.id, "why"]
        if verdict == rules.NOT_TESTED:
            assert "needs" in why, (c.id, why)
            continue
        if not c.picks:
            assert verdict == rules.NOT_TESTABLE, c.id
            continue
        assert "too few repeats" not in why and "no run" not in f.loc[c.id, "measured"], (c.id, why)
        if verdict == rules.INCONCLUSIVE:
            assert "rounds would decide it" in why or "no number of rounds" in why, (c.id, why)
        refused = re.match(r"refused: the engines compared got unequal caching memory \((.*?)\); ", why)
        if verdict == rules.NOT_TESTABLE and refused:
            for part in refused.group(1).split("; "):
                exp, got = part.split(": ", 1)
                engines = [e.rsplit(" ", 2)[0] for e in got.split(", ")]
                assert any(f"{exp}.{e}" in RESIZED or exp in RESIZED for e in engines), \
                    (c.id, f"refused for unequal memory in {exp}, which is not awaiting re-measurement (RESIZED)")
            continue
        assert verdict in judged or (verdict == rules.NOT_TESTABLE and ", needs " in why), (c.id, verdict, why)
        assert "n=1," not in f.loc[c.id, "measured"] and "n=2," not in f.loc[c.id, "measured"], c.id


def test_the_committed_paper_recomputes_from_the_shipped_runs(shipped, tmp_path):
    env = {"PATH": "/usr/bin:/bin", "ENGBENCH_PROCESSED_DIR": str(tmp_path / "processed")}
    out = subprocess.run([sys.executable, "-m", "engbench.cli", "verify", "--raw", str(shipped / "data" / "raw"),
                          "--paper", str(shipped / "paper")], capture_output=True, text=True,
                         env=env, cwd=tmp_path, timeout=1800)
    assert out.returncode == 0, out.stdout + out.stderr
    numbers = json.loads((shipped / "paper" / "build" / "numbers.json").read_text())
    assert numbers, "the paper's inline numbers are recorded"


# Experiment files changed after the shipped runs were measured, whose trials are still to measure
# (their fingerprints changed): bulk-insert's and YCSB RUM's were re-measured with longer windows
# (2026-11-27 04:21-05:04 UTC; the other groups' runs are of 2026-11-26 16:41-20:14 UTC); then on
# 2026-11-29 the files whose RocksDB cached more than WiredTiger got equal memory for caching
# (docs/experiments.md; issue 43 class 4): their RocksDB (and YCSB's SQLite) configurations changed,
# WiredTiger's did not; and 004's two files were resized until the hot set loses >= 25 % of its bytes
# without read_once (6 GiB cache, hot readers paced at 2,500 reads/s; issue 43 class 2).
# An entry is a file stem (every engine) or "<stem>.<engine>".
RESIZED: set[str] = {f"repro_ycsb_rum_{x}.{e}" for x in "ace" for e in ("rocksdb", "sqlite")} \
    | {f"repro_iibench_cache_{x}.rocksdb" for x in ("small", "medium", "large")} \
    | {f"repro_linkbench_{x}_{c}.rocksdb" for x in ("cached", "iobound") for c in ("snappy", "zlib")} \
    | {f"repro_cache_pollution_read_once_{x}" for x in ("false", "true")}


def resized(t) -> bool:
    return t.experiment in RESIZED or f"{t.experiment}.{t.engine}" in RESIZED


@pytest.mark.smoke
def test_the_shipped_runs_seal_every_reproduction_trial(shipped):
    """Every trial of every notebooks/params/repro_*.yaml file has its sealed, verified run in
    the shipped data/raw (so `engbench reproduce` on a clone runs nothing), but those of the files
    changed after the shipped runs (RESIZED: their fingerprints changed; they are re-measured
    next): 93 trials of the 19 files of the source documents' findings, and 45 of the YCSB RUM
    files (repro_ycsb_rum_{a,c,e}.yaml: 5 engines x 3 repetitions each), with the device
    calibrations they were run against (one per set of device limits)."""
    from engbench import reproduce

    files = reproduce.experiment_files()
    plan = reproduce.plan(files, shipped / "data" / "raw")
    assert [t.key for t in plan["todo"]] == [t.key for t in plan["trials"] if resized(t)]
    assert len(plan["trials"]) == 138 and plan["done"] == 138 - len([t for t in plan["trials"] if resized(t)])
    rum = [t for t in plan["trials"] if t.experiment.startswith("repro_ycsb_rum_")]
    assert len(rum) == 45 and {t.engine for t in rum} == {"rocksdb", "wiredtiger", "wiredtiger-lsm", "lmdb", "sqlite"}
    # the runs that are not workflow trials: the main job's, with their executed notebooks, and the
    # calibrations of each machine the runs were measured on (no limits, and each memory cap of its
    # files): 4 of the machine of 2026-11-26, 2 of that of 2026-11-27 (no limits, YCSB's 112 MiB)
    calibrations = [r for r in shipped_runs(shipped) if r.name.split("_")[1] == "calibrate"]
    assert len(calibrations) == 6
    assert len(shipped_runs(shipped)) == 138 + 5 + 6
