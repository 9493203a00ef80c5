#!/usr/bin/env python3
"""Driver overhead on the workloads of the source documents: for each of iibench, sysbench-update,
bulk-insert, linkbench and cache-pollution, the `null` engine (no storage work: the driver's own
cost of generating, encoding, locking and recording) side by side with every real engine, in one
run. Target: null sustains >= 10x the fastest real engine, so the driver is never what a result
measures. Prints, per workload, each engine's median rate of the main unit and null / engine, then
null / fastest real engine.

  iibench           documents/s, 1 loader, batches of 1000, 3 secondary indexes + _id
  sysbench-update   update requests/s, 1 client, count-bounded step (load excluded)
  bulk-insert       documents/s, 1 loader, batches of 1000
  linkbench         requests/s, 1 requester, 2011 mix (load excluded)
  cache-pollution   hot gets/s over the run, 1 reader, while the cold pass runs

The machine is shared and noisy: each workload runs `--reps` rounds, and each round runs null and
every engine back to back (interleaved), so a slow minute hits all of them; the table shows
medians over the rounds. With `--baseline OLD_DRIVER`, every run is paired with the same run of
OLD_DRIVER right next to it, and the table adds the median of new / old per engine (a driver
change's effect on each engine's own rate, noise cancelled pairwise).

Null runs do `scale` times the work of real runs (a short null run measures start-up, not rate).
Usage: bench_workloads.py [path/to/engbench-driver] [--scale 10] [--reps 3] [--engines a,b]
       [--workloads a,b] [--baseline path/to/old/engbench-driver]
Stdlib only; every run gets a fresh temporary directory that is removed afterwards.
Exit 1 when a workload's null / fastest real engine is below 10.
"""
import argparse
import os
import statistics
import sys

from driver_run import run_summary

REAL = ["wiredtiger", "wiredtiger-lsm", "rocksdb", "lmdb", "sqlite"]
WORKLOADS = ["iibench", "sysbench-update", "bulk-insert", "linkbench", "cache-pollution"]
KNOBS = {"wiredtiger": {"wiredtiger.cache_size": "256MB"}, "wiredtiger-lsm": {"wiredtiger.cache_size": "256MB"},
         "rocksdb": {"rocksdb.block_cache_size": "256MB"}, "sqlite": {"sqlite.cache_size": "256MB"},
         "lmdb": {}, "null": {}}


def workloads(scale):
    """name → (params for a real engine, params for null, how to read the rate from summary.json)."""
    def iibench(n):
        return {"max_rows": n, "loader_threads": 1, "batch": 1000}

    def sysbench(n):
        return {"table_size": 20000, "clients": [1], "seconds_per_step": 0, "updates_per_step": n}

    def linkbench(n):
        return {"maxid1": 5001, "requests": n, "threads": 1}

    cache = {"hot_docs": 10000, "cold_docs": 50000, "threads": 1, "cold_delay_seconds": 1, "after_seconds": 1}
    return {
        "iibench": (iibench(60000), iibench(60000 * scale), lambda s: s["rates"]["insert"]["items_per_s"]),
        "sysbench-update": (sysbench(60000), sysbench(60000 * scale),
                            lambda s: s["rates"]["update"]["requests_per_s"]),
        "bulk-insert": ({"num": 300000, "threads": 1}, {"num": 300000 * scale, "threads": 1},
                        lambda s: s["rates"]["insert"]["items_per_s"]),
        "linkbench": (linkbench(40000), linkbench(40000 * scale),
                      lambda s: s["rates"]["request"]["requests_per_s"]),
        "cache-pollution": (cache, cache, lambda s: s["rates"]["get"]["items_per_s"]),
    }


def rate(driver, workload, engine, params, rate_of, seed=1):
    return rate_of(run_summary(driver, workload, engine, params, KNOBS.get(engine, {}), seed))


def measure(a, name, spec):
    """{engine: [rates]} and, with a baseline, {engine: [new/old]}: `reps` interleaved rounds."""
    real_p, null_p, rate_of = spec
    engines = ["null"] + a.engines.split(",")
    rates = {e: [] for e in engines}
    vs_old = {e: [] for e in engines}
    for _ in range(a.reps):
        for e in engines:
            p = null_p if e == "null" else real_p
            r = rate(a.driver, name, e, p, rate_of)
            rates[e].append(r)
            if a.baseline:
                vs_old[e].append(r / rate(a.baseline, name, e, p, rate_of))
    return rates, vs_old


def report(a, name, rates, vs_old):
    """Prints one workload's rows; returns null / fastest real engine (medians)."""
    med = {e: statistics.median(v) for e, v in rates.items()}
    best = max(v for e, v in med.items() if e != "null")
    for e, r in med.items():
        ratio = "" if e == "null" else f"{med['null'] / r:.1f}"
        old = f"{statistics.median(vs_old[e]):.2f}" if vs_old[e] else ""
        spread = f"{min(rates[e]):.0f}..{max(rates[e]):.0f}"
        print(f"{name:16} {e:15} {r:12.0f} {ratio:>11} {old:>9}  {spread}")
    ratio = med["null"] / best
    print(f"{name:16} {'=> null / fastest real':27} {ratio:11.1f}  {'ok' if ratio >= 10 else 'BELOW 10x'}")
    sys.stdout.flush()
    return ratio


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("driver", nargs="?", default=os.environ.get("ENGBENCH_DRIVER", "build/engbench-driver"))
    ap.add_argument("--scale", type=int, default=10)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--engines", default=",".join(REAL))
    ap.add_argument("--workloads", default=",".join(WORKLOADS))
    ap.add_argument("--baseline", help="an older engbench-driver: each run is paired with its run")
    a = ap.parse_args()
    wls = workloads(a.scale)
    print(f"medians of {a.reps} interleaved rounds" + (f"; new/old vs {a.baseline}" if a.baseline else ""))
    print(f"{'workload':16} {'engine':15} {'rate/s':>12} {'null/engine':>11} {'new/old':>9}  min..max")
    ok = True
    for name in a.workloads.split(","):
        ok = report(a, name, *measure(a, name, wls[name])) >= 10 and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
