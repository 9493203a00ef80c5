#!/usr/bin/env python3
"""Side-by-side speed check of engbench-driver against the engines' own load tools.

  (a) fillseq on rocksdb     vs  Debian db_bench --benchmarks=fillseq (same key/value size, batch, WAL off)
  (b) fillseq on wiredtiger  vs  wtperf populate (cursor inserts: populate_threads=2, so not bulk;
                                 the bulk load is printed as a reference line)
  (c) iibench on null        vs  iibench on the fastest real engine     (target >= 10x)
  (d) iibench on null, 2 loader threads vs 1                            (target >= 1.8x)

Usage: driver_bench.py [path/to/engbench-driver] [--num N] [--rows N]
Stdlib only. Every run gets a fresh temporary directory that is removed afterwards.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

WTPERF = "/root/.cache/engbench/wiredtiger-11.3.1-b11e1830dd1d/bin/wtperf"


def run_driver(driver, workload, engine, params, knobs=None, seed=1):
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
            s = json.load(f)
        return s["rates"]["insert"]["items_per_s"], s
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def run_db_bench(num, key_size, value_size, batch):
    exe = shutil.which("db_bench") or shutil.which("rocksdb_db_bench")
    if not exe:
        return None, "db_bench not found"
    tmp = tempfile.mkdtemp(prefix="engbench-dbbench-")
    try:
        cmd = ["nice", exe, "--benchmarks=fillseq", f"--db={tmp}", f"--num={num}", f"--key_size={key_size}",
               f"--value_size={value_size}", f"--batch_size={batch}", "--disable_wal=1", "--sync=0",
               "--compression_type=snappy", "--compression_ratio=0.5", "--write_buffer_size=67108864",
               "--threads=1", "--statistics=0"]
        p = subprocess.run(cmd, capture_output=True, text=True)
        m = re.search(r"fillseq\s*:\s*([\d.]+) micros/op (\d+) ops/sec", p.stdout)
        if not m:
            return None, p.stdout[-500:] + p.stderr[-500:]
        return float(m.group(2)), " ".join(cmd[1:])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def run_wtperf(num, key_size, value_size, batch, threads):
    if not os.path.exists(WTPERF):
        return None, "wtperf not found"
    tmp = tempfile.mkdtemp(prefix="engbench-wtperf-")
    try:
        opts = ('conn_config="create,cache_size=1G,statistics=(fast)",'
                'table_config="key_format=S,value_format=S,type=file,exclusive=true,checksum=on,'
                'block_compressor=snappy",'
                f"icount={num},key_sz={key_size},value_sz={value_size},populate_threads={threads},"
                f"populate_ops_per_txn={batch if threads > 1 else 0},"
                "run_time=0,report_interval=0,sample_interval=0,create=true")
        cmd = ["nice", WTPERF, "-h", tmp, "-o", opts]
        p = subprocess.run(cmd, capture_output=True, text=True)
        stat = os.path.join(tmp, "test.stat")
        text = open(stat).read() if os.path.exists(stat) else p.stdout + p.stderr
        m = re.search(r"load ops/sec:\s*(\d+)", text)
        if not m:
            return None, text[-800:]
        return float(m.group(1)), " ".join(cmd[1:])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("driver", nargs="?", default=os.path.join(here, "..", "build", "engbench-driver"))
    ap.add_argument("--num", type=int, default=1_000_000, help="fillseq keys")
    ap.add_argument("--rows", type=int, default=200_000, help="iibench documents")
    a = ap.parse_args()
    driver = os.path.abspath(a.driver)
    if not os.path.exists(driver):
        sys.exit(f"no driver at {driver}; pass its path")

    K, V, B = 16, 100, 1000
    rows = []  # (comparison, left label, left rate, right label, right rate, target)

    fs = {"num": a.num, "key_size": K, "value_size": V, "batch": B, "compressible_pct": 50}
    r_eb, _ = run_driver(driver, "fillseq", "rocksdb", fs,
                         {"rocksdb.wal": False, "rocksdb.compression": "snappy", "rocksdb.write_buffer_size": "64MB"})
    r_db, how_db = run_db_bench(a.num, K, V, B)
    rows.append(("(a) fillseq rocksdb, WAL off", "engbench", r_eb, "db_bench", r_db, None))

    w_eb2, _ = run_driver(driver, "fillseq", "wiredtiger", dict(fs, threads=2),
                          {"wiredtiger.log": False, "wiredtiger.cache_size": "1GB"})
    w_pf2, how_wt = run_wtperf(a.num, K, V, B, 2)
    rows.append(("(b) fillseq wiredtiger, 2 threads, cursor inserts, log off", "engbench", w_eb2, "wtperf", w_pf2, None))
    w_eb1, _ = run_driver(driver, "fillseq", "wiredtiger", fs, {"wiredtiger.log": False, "wiredtiger.cache_size": "1GB"})
    w_bulk, _ = run_wtperf(a.num, K, V, B, 1)
    rows.append(("    (ref) 1 thread: engbench cursor vs wtperf bulk", "engbench", w_eb1, "wtperf bulk", w_bulk, None))

    ii = {"max_rows": a.rows, "batch": 1000, "length_char_fields": 100, "num_secondary_indexes": 3}
    real = {}
    for e in ("wiredtiger", "wiredtiger-lsm", "rocksdb", "lmdb", "sqlite"):
        try:
            real[e], _ = run_driver(driver, "iibench", e, ii)
        except RuntimeError as ex:
            print(f"  (skipped {e}: {str(ex)[:200]})", file=sys.stderr)
    best = max(real, key=real.get)
    # null runs 10x the rows: at ~2M docs/s, 200k documents take 0.1 s, mostly thread start-up and
    # scheduler noise. The real engines keep a.rows (they only get slower as their indexes grow).
    big = dict(ii, max_rows=a.rows * 10)
    n1b, s1 = run_driver(driver, "iibench", "null", big)
    rows.append((f"(c) iibench null ({a.rows * 10} docs) vs fastest real ({best})", "null", n1b, best, real[best], 10.0))
    n2, s2 = run_driver(driver, "iibench", "null", dict(big, loader_threads=2))
    rows.append((f"(d) iibench null, 2 loaders vs 1 ({a.rows * 10} docs)", "2 loaders", n2, "1 loader", n1b, 1.8))

    print(f"driver: {driver}   fillseq: {a.num} keys, key {K} B, value {V} B, batch {B};"
          f"   iibench: {a.rows} docs, 3 indexes, cf 100 chars")
    print(f"{'comparison':58} {'left':>14} {'rate/s':>12} {'right':>14} {'rate/s':>12} {'ratio':>7} target")
    for name, ll, lr, rl, rr, target in rows:
        ratio = lr / rr if lr and rr else float("nan")
        t = "" if target is None else (f">= {target:g}  " + ("met" if ratio >= target else "MISSED"))
        fmt = lambda v: f"{v:12,.0f}" if v else f"{'n/a':>12}"
        print(f"{name:58} {ll:>14} {fmt(lr)} {rl:>14} {fmt(rr)} {ratio:7.2f} {t}")
    print("iibench per engine (docs/s): " + ", ".join(f"{e} {r:,.0f}" for e, r in sorted(real.items(), key=lambda x: -x[1])))
    print(f"load average at the end: {open('/proc/loadavg').read().split()[0]} on {os.cpu_count()} CPUs"
          " (other processes on the machine cap what 2 loaders can get)")
    cpu = lambda s: s["driver_process"]["cpu_user_s"] + s["driver_process"]["cpu_sys_s"]
    docs = a.rows * 10
    print(f"(d) driver CPU: 1 loader {cpu(s1):.2f} s ({docs / cpu(s1):,.0f} docs per CPU-second, "
          f"{cpu(s1) / s1['client']['seconds']:.2f} cores), 2 loaders {cpu(s2):.2f} s "
          f"({docs / cpu(s2):,.0f} docs per CPU-second, {cpu(s2) / s2['client']['seconds']:.2f} cores)")
    print(f"db_bench: {how_db}\nwtperf:   {how_wt}")


if __name__ == "__main__":
    main()
