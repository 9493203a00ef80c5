"""Time `engbench report` and `engbench verify` on the shipped runs (data/raw + data/processed),
or, when none are shipped, on N generated run directories (tests/test_report.py's make_runs: the
real burst captures relabelled per engine, sealed). Target: both under a minute here.

Usage: .venv/bin/python benchmarks/bench_report.py [--runs-per-engine 3] [--generated]"""

import argparse
import sys
import tempfile
import time
import warnings
from pathlib import Path

from engbench import paths
from engbench.cli import main
from engbench.tables import build_tables, runs_in, write_tables

REPO = Path(__file__).resolve().parents[1]
ENGINES = {"wiredtiger": (1.0, 1, 3 * 2**28), "sqlite": (0.8, 1, 3 * 2**28),
           "wiredtiger-lsm": (1.5, 2, 2**28), "rocksdb": (2.0, 2, 2**28), "lmdb": (0.5, 4, 4 * 2**28)}


def timed(label, argv):
    t = time.perf_counter()
    rc = main(argv)
    dt = time.perf_counter() - t
    print(f"{label:<28} {dt:7.2f} s   exit {rc}", flush=True)
    return dt, rc


def main_(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs-per-engine", type=int, default=3)
    ap.add_argument("--generated", action="store_true", help="ignore shipped runs")
    args = ap.parse_args(argv)
    warnings.simplefilter("ignore")
    with tempfile.TemporaryDirectory(prefix="engbench-bench-") as tmp:
        tmp = Path(tmp)
        raw, processed = paths.raw_dir(), paths.processed_dir()
        if args.generated or not runs_in(raw):
            sys.path.insert(0, str(REPO / "tests"))
            from test_report import make_runs
            raw, processed = tmp / "raw", tmp / "processed"
            t = time.perf_counter()
            make_runs(raw, repeats=args.runs_per_engine, engines=ENGINES, sweep={"loader_threads": [2]})
            print(f"generated {len(runs_in(raw))} sealed run directories in {time.perf_counter() - t:.2f} s")
            t = time.perf_counter()
            write_tables(build_tables(runs_in(raw)), processed)
            print(f"{'process (library call)':<28} {time.perf_counter() - t:7.2f} s")
        else:
            print(f"shipped runs: {len(runs_in(raw))} in {raw}")
        out = tmp / "paper"
        r, rc1 = timed("engbench report", ["report", "--processed", str(processed), "--raw", str(raw),
                                           "--out", str(out)])
        v, rc2 = timed("engbench verify", ["verify", "--raw", str(raw), "--paper", str(out)])
        files = [p for p in (out / "build").rglob("*") if p.is_file()]
        size = sum(p.stat().st_size for p in files)
        print(f"paper/build: {len(files)} files, {size / 1e6:.1f} MB "
              f"(paper.html {(out / 'build' / 'paper.html').stat().st_size / 1e6:.1f} MB)")
        print(f"report + verify: {r + v:.2f} s (target < 60 s): {'OK' if r + v < 60 else 'SLOW'}")
        return 0 if rc1 == rc2 == 0 else 1


if __name__ == "__main__":
    sys.exit(main_())
