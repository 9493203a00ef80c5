"""Running the real workflow (workflow/Snakefile) on a tiny matrix in a scratch area: shared by
tests/test_workflow.py, tests/test_slurm.py and benchmarks/bench_workflow.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SNAKEFILE = REPO / "workflow" / "Snakefile"
PROFILES = REPO / "workflow" / "profiles"

# Seconds per run on sqlite/lmdb: small enough for 2 shared cores, real enough to write pages.
TINY = """\
description: iibench, workflow test size
workload: iibench
engines: [{engines}]
seed: 1
repeat: {repeat}
params:
  max_rows: {rows}{rate}
  batch: 500
  loader_threads: 1
  num_secondary_indexes: 1
  length_char_fields: 10
knobs:
  sqlite.cache_size: 16MB
"""


def write_experiment(path: Path, engines=("sqlite", "lmdb"), repeat=2, rows=2000, rate=None) -> Path:
    """The tiny iibench experiment; `rate` (inserts/s) paces its loader, so that a run lasts rows / rate s."""
    path.write_text(TINY.format(engines=", ".join(engines), repeat=repeat, rows=rows,
                                rate=f"\n  target_rate: {rate}" if rate else ""))
    return path


def command(root: Path, experiment: Path, profile: str = "local", *extra: str, outputs=()) -> list[str]:
    """snakemake on `experiment`, state and paper under `root` (raw/processed from the environment);
    `outputs`: the files to make (Snakemake's own targets), default `rule all`."""
    return [sys.executable, "-m", "snakemake", "-s", str(SNAKEFILE), *map(str, outputs),
            "--profile", str(PROFILES / profile),
            "--config", f"experiments={experiment}", f"paper={root / 'paper'}", f"state={root / 'state'}",
            "baseline=sqlite", *extra]


def env(root: Path, base: dict | None = None) -> dict:
    """`base` (default: this process's environment) with the data directories under `root`."""
    return {**(os.environ if base is None else base), "ENGBENCH_RAW_DIR": str(root / "raw"),
            "ENGBENCH_PROCESSED_DIR": str(root / "processed"), "ENGBENCH_WORK_DIR": str(root / "work"),
            "ENGBENCH_WAIT_QUIET": "0"}  # the suite's own runs share the machine: no wait for a quiet one


def snakemake(root: Path, experiment: Path, profile: str = "local", *extra: str,
              timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run(command(root, experiment, profile, *extra), cwd=root, env=env(root),
                          capture_output=True, text=True, timeout=timeout)


def workflow_runs(raw: Path) -> dict[str, list[dict]]:
    """key → the manifests (with `run_id`, `key`) of the workflow's run directories, oldest first."""
    out: dict[str, list[dict]] = {}
    for d in sorted(raw.iterdir()) if raw.is_dir() else []:
        if (d / "workflow.json").is_file():
            m = json.loads((d / "manifest.json").read_text())
            m["key"] = json.loads((d / "workflow.json").read_text())["key"]
            out.setdefault(m["key"], []).append(m)
    return out
