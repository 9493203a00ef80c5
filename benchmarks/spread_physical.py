"""The spread of the physical effects the limit tests assert (tests/test_limits.py, test_drop_caches.py),
so that their margins are chosen from measurements, not tuned until a run passes: each experiment of
the tests, capped and its control, repeated, printed as min / median / max of the run's own figures
(its cgroup's counters: tests/physical.py), with the machine's other CPU use over the repetitions.

    .venv/bin/python benchmarks/spread_physical.py [--reps 5] [--only rocksdb,wiredtiger,lmdb,drop,throttle]
    stress-ng --cpu 1 &  .venv/bin/python benchmarks/spread_physical.py ...   # the same beside a CPU hog

(as root; runs go to a scratch area and are removed). Each test file names the figures it chose its
margins from."""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import physical  # noqa: E402
from engbench.run import quiet  # noqa: E402

COUNT = ["run.cgroup=true"]
EXPERIMENTS = {
    # name: (function, {variant: kwargs})
    "rocksdb": (physical.sysbench_reads, {
        "capped 48MB": dict(engine="rocksdb", rows=1_000_000, knobs=[*physical.ROCKS, "run.memory_limit=48MB"]),
        "control": dict(engine="rocksdb", rows=1_000_000, knobs=[*physical.ROCKS, *COUNT])}),
    "wiredtiger": (physical.sysbench_reads, {
        "capped 128MB": dict(engine="wiredtiger", rows=400_000,
                             knobs=["wiredtiger.cache_size=32MB", "load_batch=100", "run.memory_limit=128MB"]),
        "control": dict(engine="wiredtiger", rows=400_000,
                        knobs=["wiredtiger.cache_size=32MB", "load_batch=100", *COUNT])}),
    "lmdb": (physical.sysbench_reads, {
        "capped 16MB": dict(engine="lmdb", rows=230_000, seconds=2,
                            knobs=["lmdb.readahead=false", "run.memory_limit=16MB"]),
        "control": dict(engine="lmdb", rows=230_000, seconds=2, knobs=["lmdb.readahead=false", *COUNT])}),
    "drop": (physical.sysbench_reads, {
        "between": dict(engine="rocksdb", rows=300_000, knobs=[*physical.ROCKS, *COUNT, "run.drop_caches=between"]),
        "none": dict(engine="rocksdb", rows=300_000, knobs=[*physical.ROCKS, *COUNT])}),
    "throttle": (physical.sysbench_reads, {
        "read_iops=150": dict(engine="rocksdb", rows=1_000_000, seconds=4,
                              knobs=[*physical.ROCKS, "run.memory_limit=48MB", "run.read_iops=150"]),
        "unthrottled": dict(engine="rocksdb", rows=1_000_000, seconds=4,
                            knobs=[*physical.ROCKS, "run.memory_limit=48MB"])}),
}


def _fmt(xs):
    return f"{min(xs):.4g} / {statistics.median(xs):.4g} / {max(xs):.4g}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--only", default=",".join(EXPERIMENTS))
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="spread-physical-") as tmp:
        for var, sub in (("ENGBENCH_RAW_DIR", "raw"), ("ENGBENCH_WORK_DIR", "work"), ("ENGBENCH_PROCESSED_DIR", "p")):
            os.environ[var] = f"{tmp}/{sub}"
        for name in args.only.split(","):
            fn, variants = EXPERIMENTS[name]
            got = {v: [] for v in variants}
            busy = []
            t0 = time.monotonic()
            for rep in range(args.reps):
                order = list(variants) if rep % 2 == 0 else list(reversed(variants))  # interleaved
                for v in order:
                    b0 = quiet._times()
                    r = fn(**variants[v])
                    b1 = quiet._times()
                    busy.append(100.0 * (b1[0] - b0[0]) / max(1, b1[1] - b0[1]))
                    dur = r["summary"]["steps"][0]["end_unix_s"] - r["summary"]["steps"][0]["start_unix_s"]
                    got[v].append({"reads/update": r["reads_per_update"], "MB read": r["bytes_read"] / 1e6,
                                   "read/table": r["bytes_read"] / r["disk_bytes"],
                                   "reads/s": r["reads_per_update"] * r["updates"] / dur,
                                   "table MB": r["disk_bytes"] / 1e6})
            print(f"\n{name}: {args.reps} interleaved repetitions, {time.monotonic() - t0:.0f} s, machine busy "
                  f"{_fmt(busy)} % of all CPUs over the runs (min / median / max)")
            for v, rows in got.items():
                for k in rows[0]:
                    print(f"  {v:<16} {k:<14} {_fmt([r[k] for r in rows])}   {[round(r[k], 4) for r in rows]}")
            ctl = list(variants)[1]
            for v in list(variants)[:1]:
                ratios = [a["reads/update"] / max(b["reads/update"], 1e-9) for a, b in zip(got[v], got[ctl])]
                print(f"  {v} / {ctl} reads per update, per pair: {_fmt(ratios)}")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
