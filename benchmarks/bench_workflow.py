"""What the Snakemake workflow costs per run, next to the same matrix run by `experiments.run`.

The matrix: iibench at the tests' size (tests/workflow_run.py) on ENGINES × REPEAT, N runs. In
rounds, alternating which goes first, each in a fresh scratch area and a fresh process:
  experiments.run      python -c "experiments.run(...)": the runs one after another, nothing else
  workflow (runs)      snakemake --profile workflow/profiles/local asked for the runs' markers only:
                       DAG, scheduling, a python per run, workflow.json, sealing, markers
  workflow (no-op)     the same invocation again: everything sealed and verified, nothing runs
  workflow (+paper)    the whole workflow, process and report included (printed, not compared)
Prints medians of wall time, the overhead per run ((workflow - experiments.run) / N; target:
under 2 s here) and the time outside the runs per run for each (wall time minus the runs' own
manifest durations, / N).

Usage: .venv/bin/python benchmarks/bench_workflow.py [--reps 2] [--engines sqlite,lmdb] [--repeat 2]"""

import argparse
import datetime as dt
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import workflow_run as wf  # noqa: E402

from engbench import matrix  # noqa: E402

EXPERIMENTS_RUN = """\
import sys, yaml
from engbench.run import experiments
d = yaml.safe_load(open(sys.argv[1]))
experiments.run(d["workload"], d["engines"], d["params"], d["knobs"], d["seed"], show_progress=False,
                repeat=d["repeat"], description=d["description"])
"""


def _run_seconds(raw: Path) -> float:
    total = 0.0
    for m in (raw.iterdir() if raw.is_dir() else []):
        man = json.loads((m / "manifest.json").read_text())
        t0, t1 = (dt.datetime.fromisoformat(man[k].replace("Z", "+00:00")) for k in ("started_utc", "ended_utc"))
        total += (t1 - t0).total_seconds()
    return total


def _timed(argv, root: Path) -> float:
    t0 = time.perf_counter()
    out = subprocess.run(argv, cwd=root, env=wf.env(root), capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"{argv[:4]} failed:\n{out.stderr[-3000:]}")
    return time.perf_counter() - t0


def _remove(root: Path) -> None:
    for d, _dirs, _files in os.walk(root):  # sealed runs are read-only
        os.chmod(d, 0o755)
    shutil.rmtree(root)


def one_round(scratch: Path, exp: Path, markers_of, reverse: bool) -> dict:
    out = {}
    names = ["experiments.run", "workflow (runs)", "workflow (+paper)"]
    for name in names[::-1] if reverse else names:
        root = scratch / name.replace(" ", "_")
        root.mkdir()
        if name == "experiments.run":
            out[name] = _timed([sys.executable, "-c", EXPERIMENTS_RUN, str(exp)], root)
        elif name == "workflow (runs)":
            out[name] = _timed(wf.command(root, exp, outputs=markers_of(root)), root)
            out["workflow (no-op)"] = _timed(wf.command(root, exp, outputs=markers_of(root)), root)
        else:
            out[name] = _timed(wf.command(root, exp), root)
        out[name + " outside runs"] = out[name] - _run_seconds(root / "raw")
    for root in scratch.iterdir():
        _remove(root)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--engines", default="sqlite,lmdb")
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="engbench-bench-wf-") as tmp:
        tmp = Path(tmp)
        exp = wf.write_experiment(tmp / "tiny.yaml", args.engines.split(","), args.repeat)
        keys = [t.key for t in matrix.trials([exp])]
        n = len(keys)

        def markers_of(root):
            return [matrix.marker_path(root / "state", k) for k in keys]

        scratch = tmp / "scratch"
        scratch.mkdir()
        rounds = [one_round(scratch, exp, markers_of, i % 2 == 1) for i in range(args.reps)]
    med = {k: statistics.median(r[k] for r in rounds) for k in rounds[0]}
    print(f"matrix: {n} runs ({args.engines} x {args.repeat}), {args.reps} round(s), median wall seconds")
    print(f"{'':<22} {'total s':>9} {'per run s':>10} {'outside runs, per run s':>24}")
    for name in ("experiments.run", "workflow (runs)", "workflow (+paper)"):
        print(f"{name:<22} {med[name]:>9.2f} {med[name] / n:>10.2f} {med[name + ' outside runs'] / n:>24.2f}")
    print(f"{'workflow (no-op)':<22} {med['workflow (no-op)']:>9.2f}")
    over = (med["workflow (runs)"] - med["experiments.run"]) / n
    print(f"workflow overhead per run vs experiments.run: {over:.2f} s (target < 2 s: {'met' if over < 2 else 'NOT met'})")


if __name__ == "__main__":
    main()
