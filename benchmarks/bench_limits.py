"""What the run's cgroup costs: null-engine iibench (the driver's own work, no storage) inside a
generous memory limit vs the same run without one, in interleaved pairs, medians of the driver's
insert rate, printed as a ratio (target: limited / unlimited >= 0.97).

    .venv/bin/python benchmarks/bench_limits.py [pairs] [max_rows]     (as root; runs go to a scratch area)
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ARGS = ["run", "iibench", "--engine", "null", "--set", "batch=1000", "--set", "length_char_fields=100",
        "--no-progress"]
LIMIT = ["--set", "run.memory_limit=4GB"]


def one(env, rows: int, limited: bool) -> float:
    out = subprocess.run([sys.executable, "-m", "engbench.cli", *ARGS, "--set", f"max_rows={rows}",
                          *(LIMIT if limited else [])], capture_output=True, text=True, env=env)
    if out.returncode != 0:
        raise SystemExit(f"run failed: {out.stderr}")
    run_dir = Path(out.stdout.strip().splitlines()[-1])
    summary = json.loads((run_dir / "driver" / "summary.json").read_text())
    manifest = json.loads((run_dir / "manifest.json").read_text())
    assert bool(manifest["run_limits"]["cgroup"]) == limited
    return summary["rates"]["insert"]["items_per_s"]


def main(pairs: int = 5, rows: int = 1_000_000) -> int:
    with tempfile.TemporaryDirectory(prefix="bench-limits-") as tmp:
        env = {**os.environ, "ENGBENCH_RAW_DIR": f"{tmp}/raw", "ENGBENCH_WORK_DIR": f"{tmp}/work"}
        rates = {True: [], False: []}
        for i in range(pairs):
            order = (True, False) if i % 2 == 0 else (False, True)  # alternate who goes first
            for limited in order:
                rates[limited].append(one(env, rows, limited))
        subprocess.run(["chmod", "-R", "u+w", tmp])
    med = {k: statistics.median(v) for k, v in rates.items()}
    ratio = med[True] / med[False]
    print(f"null iibench, {rows} rows, {pairs} interleaved pairs (inserts/s)")
    print(f"  without a limit:          median {med[False]:>12,.0f}   {[round(x) for x in rates[False]]}")
    print(f"  run.memory_limit=4GB:     median {med[True]:>12,.0f}   {[round(x) for x in rates[True]]}")
    print(f"  ratio limited/unlimited:  {ratio:.3f}   (target >= 0.97)")
    return 0 if ratio >= 0.97 else 1


if __name__ == "__main__":
    sys.exit(main(*(int(a) for a in sys.argv[1:3])))
