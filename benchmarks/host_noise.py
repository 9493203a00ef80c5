"""How far this machine alone spreads the repetitions of one configuration (issue 26), and how long a
run's measured window must be for three repetitions to land within ±15 % of their median.

The same fixed work, timed back to back for --minutes: the driver's fillseq on WiredTiger in memory
(/dev/shm, one thread, log off, --keys keys: CPU and memory only, no device; with --parallel 2, two
such processes at once, each its own database, so that both CPUs are busy as in a run whose threads
fill the machine, with nothing shared between them), and between two of them
the speed probe's sha256 of 32 MiB (engbench.run.speed, taken once, not the best of 3). Each series
is cut into windows as long as a run's measured window, and for each length it prints the windows'
coefficient of variation, their range against the median, and the fraction of every three distinct
windows that lie within ±15 % of their median (engbench.rulebook.noise: the windows stand in for
three repetitions of one configuration). Then the A/A view of a side-by-side benchmark (issue 30's
"median of the pair ratios >= 1.0x"): windows of --pair-windows seconds, each over the one before
(the same work on both sides of a pair), and where the median of --pairs such ratios falls (5th-95th
percentile over 20,000 draws of distinct pairs, seed 1) and how often it is >= 1.0. Beside it, the shipped reproduction's own figure
(regime.reproduction_summary over data/processed/runs.parquet) and its runs' measured windows.

Nothing else may run meanwhile (the other CPU of every unit is printed).

    .venv/bin/python benchmarks/host_noise.py [--minutes 20] [--keys 500000] [--parallel 1]
                                              [--windows 10,30,60,120,240] [--pair-windows 2,5,10]
                                              [--pairs 5] [--samples FILE.jsonl]
    .venv/bin/python benchmarks/host_noise.py --from FILE.jsonl [--windows ...]   # the same figures from
                                              a --samples file, nothing measured
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from driver_run import run_summary

from engbench.peers.cpu import CpuWindow
from engbench.rulebook import noise, regime
from engbench.run import speed

ROOT = Path(__file__).resolve().parents[1]


def sha_unit() -> tuple[float, float, float]:
    """(t, MiB, seconds) of one sha256 of the speed probe's CPU_MIB (its cpu_mb_s, one try)."""
    t = time.time()
    return t, speed.CPU_MIB, speed.CPU_MIB / speed.cpu_mb_s(tries=1)


def shipped() -> str:
    import pandas as pd

    path = ROOT / "data" / "processed" / "runs.parquet"
    if not path.exists():
        return "shipped reproduction: no data/processed/runs.parquet"
    runs = pd.read_parquet(path)
    s = regime.reproduction_summary(runs)
    if not s:
        return "shipped reproduction: no reproduction runs"
    secs = pd.to_numeric(regime.reproduction_runs(runs)["seconds"], errors="coerce").dropna()
    return (f"shipped reproduction: {s['within']} of {s['configurations']} configurations within "
            f"±{regime.SPREAD * 100:g} % ({s['within'] / s['configurations']:.0%}); their runs' measured windows "
            f"{secs.min():.0f}-{secs.max():.0f} s, median {secs.median():.0f} s")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--driver", default=str(ROOT / "build" / "engbench-driver"))
    ap.add_argument("--minutes", type=float, default=20.0)
    ap.add_argument("--keys", type=int, default=500_000)
    ap.add_argument("--parallel", type=int, default=1, help="fillseq processes at once (each one thread)")
    ap.add_argument("--windows", default="10,30,60,120,240", help="window lengths, seconds")
    ap.add_argument("--pair-windows", default="2,5,10", help="A/A pair run lengths, seconds")
    ap.add_argument("--pairs", type=int, default=5, help="pairs per median, as driver_bench.py --reps")
    ap.add_argument("--samples", help="also write every unit as a JSON line here")
    ap.add_argument("--from", dest="source", help="read the units from this --samples file instead of measuring")
    a = ap.parse_args()
    windows = [float(w) for w in a.windows.split(",")]
    if a.source:
        drv, sha, other = load(a.source, a.keys)
        print(f"{len(drv)} fillseq units from {a.source}; other CPU per unit: median {statistics.median(other):.1f} %, "
              f"max {max(other):.1f} %")
        return report(a, windows, drv, sha)
    if not Path(a.driver).exists():
        print(f"no driver at {a.driver} (scripts/setup.sh core builds it)", file=sys.stderr)
        return 2
    tempfile.tempdir = "/dev/shm" if os.path.isdir("/dev/shm") else None
    params = {"num": a.keys, "key_size": 16, "value_size": 100, "batch": 1000, "compressible_pct": 100}
    knobs = {"wiredtiger.log": False, "wiredtiger.cache_size": "1GB", "wiredtiger.block_compressor": "none"}
    drv, sha, other, steal = [], [], [], []
    out = open(a.samples, "w") if a.samples else None  # noqa: SIM115 - open for the whole loop
    end = time.time() + a.minutes * 60
    print(f"{a.minutes:g} min of fillseq wiredtiger ({a.keys:,} keys, 1 thread, in /dev/shm; {a.parallel} at once) "
          "and sha256 (32 MiB), back to back", file=sys.stderr)
    pool = ThreadPoolExecutor(a.parallel)
    while time.time() < end:
        cpu = CpuWindow()
        t = time.time()
        runs = list(pool.map(lambda _: run_summary(a.driver, "fillseq", "wiredtiger", params, knobs), range(a.parallel)))
        rates = [s["rates"]["insert"]["items_per_s"] for s in runs]
        drv.extend((t, a.keys, a.keys / rate) for rate in rates)
        sha.append(sha_unit())
        window = cpu.close()
        other.append(window["other_pct"])
        steal.append(window["steal_pct"])
        if out:
            out.write(json.dumps({"t": t, "keys": a.keys, "fillseq_per_s": rates, "sha_mib_s": sha[-1][1] / sha[-1][2],
                                  "other_cpu_pct": other[-1], "steal_pct": steal[-1]}) + "\n")
        if len(drv) % 50 == 0:
            print(f"  {len(drv)} units, {(end - time.time()) / 60:.1f} min left", file=sys.stderr, flush=True)
    if out:
        out.close()
    print(f"{len(drv)} fillseq units ({a.parallel} at once) in {a.minutes:g} min; other CPU per unit: median "
          f"{statistics.median(other):.1f} %, max {max(other):.1f} %; steal per unit: median "
          f"{statistics.median(steal):.2f} %, max {max(steal):.2f} % of the CPUs")
    return report(a, windows, drv, sha)


def load(path: str, keys: int):
    """The units of a --samples file: (drv, sha, other) as main() collects them."""
    drv, sha, other = [], [], []
    with open(path) as f:
        for line in f:
            u = json.loads(line)
            n = u.get("keys", keys)
            rates = u["fillseq_per_s"] if isinstance(u["fillseq_per_s"], list) else [u["fillseq_per_s"]]
            drv.extend((u["t"], n, n / r) for r in rates)
            sha.append((u["t"], 32.0, 32.0 / u["sha_mib_s"]))
            other.append(u["other_cpu_pct"])
    return drv, sha, other


def pct(xs: list, p: float) -> float:
    """The p-th quantile of sorted xs, the nearest rank below."""
    return xs[int(p * (len(xs) - 1))]


def report(a, windows, drv, sha) -> int:
    print(f"{'series':10} {'window':>7} {'windows':>8} {'CV':>6} {'min/med':>8} {'max/med':>8} "
          f"{'3 within ±' + format(regime.SPREAD * 100, 'g') + ' %':>16}")
    for name, series in (("fillseq", drv), ("sha256", sha)):
        for w in windows:
            r = noise.window_rates(series, w)
            if len(r) < 3:
                print(f"{name:10} {w:6.0f}s {len(r):8d}   (fewer than 3 windows)")
                continue
            med = statistics.median(r)
            print(f"{name:10} {w:6.0f}s {len(r):8d} {noise.variation(r):6.1%} {min(r) / med:8.2f} {max(r) / med:8.2f} "
                  f"{noise.within_fraction(r, 3, regime.SPREAD):16.0%}")
    rng = random.Random(1)
    for w in (float(x) for x in a.pair_windows.split(",")):
        ratios = noise.adjacent_ratios(noise.window_rates(drv, w))
        if len(ratios) < max(a.pairs, 20):
            print(f"A/A pairs of {w:g} s: {len(ratios)} ratios, too few")
            continue
        meds = sorted(statistics.median(rng.sample(ratios, a.pairs)) for _ in range(20_000))
        ratios.sort()
        print(f"A/A pairs of {w:g} s ({len(ratios)} ratios): one pair {pct(ratios, 0.05):.2f}-{pct(ratios, 0.95):.2f}; "
              f"the median of {a.pairs} pairs {pct(meds, 0.05):.2f}-{pct(meds, 0.95):.2f} "
              f"(5th-95th percentile), >= 1.0 in {sum(m >= 1.0 for m in meds) / len(meds):.0%} of draws")
    print(shipped())
    return 0


if __name__ == "__main__":
    sys.exit(main())
