"""The runs and the paper shipped with the repository: every run is sealed and intact, and the
committed paper recomputes from them exactly (the reviewer's path, `engbench verify`)."""

import json
import subprocess
import sys

import pytest

from engbench import paths, rundir

RAW = paths.REPO / "data" / "raw"
SHIPPED = sorted(p for p in RAW.glob("*") if (p / "manifest.json").exists())


@pytest.mark.skipif(not SHIPPED, reason="no shipped runs in data/raw")
def test_shipped_runs_are_complete_and_intact():
    engines = set()
    for run_dir in SHIPPED:
        m = rundir.read_manifest(run_dir)
        assert m["status"] == "ok", run_dir.name
        assert rundir.check(run_dir) == [], run_dir.name
        assert (run_dir / "notebook.ipynb").exists(), "main-job runs keep their executed notebook"
        engines.add(m["engine"])
    assert engines >= {"wiredtiger", "wiredtiger-lsm", "rocksdb", "lmdb", "sqlite"}


@pytest.mark.skipif(not SHIPPED, reason="no shipped runs in data/raw")
def test_the_committed_paper_recomputes_from_the_shipped_runs(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "ENGBENCH_RAW_DIR": str(RAW),
           "ENGBENCH_PROCESSED_DIR": str(tmp_path / "processed")}
    out = subprocess.run([sys.executable, "-m", "engbench.cli", "verify"], capture_output=True, text=True,
                         env=env, cwd=paths.REPO, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    numbers = json.loads((paths.REPO / "paper" / "build" / "numbers.json").read_text())
    assert numbers, "the paper's inline numbers are recorded"
