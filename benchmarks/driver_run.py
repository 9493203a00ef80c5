"""One driver run from a benchmark script: a throwaway config and data directory, the summary back.
Shared by driver_bench.py and bench_workloads.py (run from this folder, so a plain import works)."""

import json
import os
import shutil
import subprocess
import tempfile


def run_summary(driver, workload, engine, params, knobs=None, seed=1) -> dict:
    """Run `driver run` niced on a fresh temp directory and return its summary.json."""
    tmp = tempfile.mkdtemp(prefix="engbench-bench-")
    try:
        cfg = {"workload": workload, "engine": engine, "knobs": knobs or {}, "params": params,
               "seed": seed, "data_dir": os.path.join(tmp, "data"), "output_dir": os.path.join(tmp, "out")}
        path = os.path.join(tmp, "config.json")
        with open(path, "w") as f:
            json.dump(cfg, f)
        p = subprocess.run(["nice", driver, "run", path], capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError(f"driver {workload}/{engine} exit {p.returncode}: {p.stderr[-2000:]}")
        with open(os.path.join(tmp, "out", "summary.json")) as f:
            return json.load(f)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
