#!/usr/bin/env python3
"""Side-by-side speed check of engbench-driver against the engines' own load tools.

  (a) fillseq on rocksdb     vs  Debian db_bench --benchmarks=fillseq
  (b) fillseq on wiredtiger  vs  wtperf's populate phase (cursor inserts, 2 threads)
  (c) iibench on null        vs  iibench on the fastest real engine     (target >= 10x)
  (d) iibench on null, 2 loader threads vs 1                            (target >= 1.8x)

(a) and (b) are run in interleaved pairs (--reps), each pair's order (which side goes first) drawn
from a recorded seed (--seed, else drawn and printed: engbench.peers.verdict.pair_orders), so a
loaded machine moves both sides of a pair alike; the table shows each side's mean rate and the
ratio of the means engbench / tool with its 95 % interval over the pairs (Fieller's:
engbench.peers.verdict, which says why not the median's interval), read as "ahead" (interval
wholly above 1.05), "at parity" (inside [0.95, 1.05]), "behind" (wholly below 0.95) or
"inconclusive"; beside each pair, its ratio and the CPU the rest of the machine used meanwhile (%
of all CPUs, engbench.peers.cpu). (c) and (d) are single runs against a stated target (no pairs,
no interval). Exactly what each side does:

(a) both: 1 writer thread, --num sequential 16-byte keys (8-byte big-endian counter padded with '0',
    db_bench's layout), 100-byte values, 1000 keys per WriteBatch (db_bench --batch_size, RocksDB
    7.8 has it), WAL off (--disable_wal / rocksdb.wal=false), no sync, snappy for every level,
    values ~50% compressible (db_bench --compression_ratio=0.5: a random printable string repeated;
    fillseq compressible_pct=50: 50 random bytes then 50 zero bytes), 64 MiB write buffer, 2 write
    buffers, L0 triggers 4/20/36, target_file_size_base 64 MiB, max_bytes_for_level_base 256 MiB
    (RocksDB's defaults, which the engine keeps; passed to db_bench explicitly), 1 GiB LRU block
    cache, no bloom filter, 2 background jobs, statistics on (the engine always collects them for
    its stats snapshot; db_bench --statistics=1, same stats level), PerfContext off (db_bench
    --perf_level=1; the engine switches it off too), non-pipelined writes (db_bench defaults to
    --enable_pipelined_write=true; the engine uses RocksDB's default, false), the default column
    family (db_bench's; the engine's first table of a new database), no hashing of the stream by
    db_bench (the driver hashes each key's counter and value offset for op_stream_hash).
(b) both: 2 threads doing cursor inserts (not the bulk cursor), 1000 inserts per transaction
    (wtperf populate_ops_per_txn), keys taken from one shared counter so every thread appends at the
    end of the tree (one atomic counter, one increment per key: wtperf populate, fillseq key_order=shared),
    16-byte keys and 100-byte values (wtperf counts the trailing NUL of its 'S' strings in key_sz and
    value_sz, so both store 16 + 100 bytes), log off, 1 GiB cache, statistics=(fast), session_max=1000,
    table checksum=on, snappy block compression, and the engine's record-table settings
    memory_page_max=10m, split_pct=90, leaf_value_max=64MB given to wtperf's table too. Values: wtperf's
    are 99 'a's and a NUL, so fillseq uses compressible_pct=100 (all zero bytes): both compress to
    almost nothing. wtperf with 1 populate thread always uses the bulk cursor, which the engine
    never does, so there is no 1-thread comparison.
    Left different: key_format S (wtperf) vs u (engine), same bytes compared by memcmp either way.
    Rates: wtperf prints "load ops/sec" for the populate threads' run; the driver's rate covers its
    worker threads' run; neither includes open, the final checkpoint/flush or close.

Usage: driver_bench.py [path/to/engbench-driver] [--num N] [--rows N] [--reps N] [--seed S]
Every run gets a fresh temporary directory that is removed afterwards.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from driver_run import run_summary
from engbench.peers import verdict
from engbench.peers.cpu import CpuWindow

WTPERF = "/root/.cache/engbench/wiredtiger-11.3.1-b11e1830dd1d/bin/wtperf"


def run_driver(driver, workload, engine, params, knobs=None, seed=1):
    s = run_summary(driver, workload, engine, params, knobs, seed)
    return s["rates"]["insert"]["items_per_s"], s


def run_db_bench(num, key_size, value_size, batch):
    exe = shutil.which("db_bench") or shutil.which("rocksdb_db_bench")
    if not exe:
        return None, "db_bench not found"
    tmp = tempfile.mkdtemp(prefix="engbench-dbbench-")
    try:
        cmd = ["nice", exe, "--benchmarks=fillseq", f"--db={tmp}", f"--num={num}", f"--key_size={key_size}",
               f"--value_size={value_size}", f"--batch_size={batch}", "--disable_wal=1", "--sync=0",
               "--compression_type=snappy", "--compression_ratio=0.5", "--write_buffer_size=67108864",
               "--max_write_buffer_number=2", "--level0_file_num_compaction_trigger=4",
               "--level0_slowdown_writes_trigger=20", "--level0_stop_writes_trigger=36",
               "--target_file_size_base=67108864", "--max_bytes_for_level_base=268435456",
               "--cache_size=1073741824", "--bloom_bits=0", "--max_background_jobs=2",
               "--enable_pipelined_write=0", "--statistics=1", "--perf_level=1",
               "--threads=1"]
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
        opts = ('conn_config="create,cache_size=1G,statistics=(fast),session_max=1000,log=(enabled=false)",'
                'table_config="key_format=S,value_format=S,type=file,exclusive=true,checksum=on,'
                'block_compressor=snappy,memory_page_max=10m,split_pct=90,leaf_value_max=64MB",'
                f"icount={num},key_sz={key_size},value_sz={value_size},populate_threads={threads},"
                f"populate_ops_per_txn={batch},"
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
    ap.add_argument("--reps", type=int, default=5, help="interleaved pairs per fillseq comparison")
    ap.add_argument("--seed", type=int, default=None,
                    help="the seed each pair's order is drawn from (default: drawn and printed; give it to repeat an order)")
    a = ap.parse_args()
    driver = os.path.abspath(a.driver)
    if not os.path.exists(driver):
        sys.exit(f"no driver at {driver}; pass its path")
    seed = verdict.new_seed() if a.seed is None else a.seed
    print(f"driver_bench: order seed {seed} (each pair's order: engbench.peers.verdict.pair_orders)", file=sys.stderr)

    K, V, B = 16, 100, 1000
    rows = []  # (comparison, left label, left rate, right label, right rate, target)

    fs = {"num": a.num, "key_size": K, "value_size": V, "batch": B, "compressible_pct": 50}
    rk = {"rocksdb.wal": False, "rocksdb.sync": False, "rocksdb.compression": "snappy",
          "rocksdb.write_buffer_size": "64MB", "rocksdb.block_cache_size": "1GB", "rocksdb.max_background_jobs": 2}
    fw = dict(fs, threads=2, key_order="shared", compressible_pct=100)
    wk = {"wiredtiger.log": False, "wiredtiger.cache_size": "1GB", "wiredtiger.block_compressor": "snappy",
          "wiredtiger.statistics": "fast"}
    how = {}

    def side(fn, label):
        def run():
            r, h = fn()
            if isinstance(h, str):
                how[label] = h
            return r
        return run

    def pairs(left, right):
        """Interleaved pairs, each pair's order drawn from the seed (verdict.pair_orders): each side's
        mean, the ratio of the means with its interval (verdict.ratio_interval), the pairs' ratios,
        and the CPU the rest of the machine used during each pair (% of all CPUs:
        engbench.peers.cpu; the runs are this script's children, so their CPU is its own)."""
        ls, rs, ratios, others = [], [], [], []
        for i, order in enumerate(verdict.pair_orders(seed, a.reps, ("left", "right"))):
            window = CpuWindow()
            got = {who: (left if who == "left" else right)() for who in order}
            others.append(window.close()["other_pct"])
            lr, rr = got["left"], got["right"]
            ls.append(lr)
            rs.append(rr)
            if rr:
                ratios.append(lr / rr)
            print(f"  pair {i + 1} ({order[0]} first): {lr:12,.0f} {rr or float('nan'):12,.0f}  ratio "
                  f"{lr / rr if rr else float('nan'):.2f}  other CPU {others[-1]:.0f} %", file=sys.stderr, flush=True)
        mean = lambda v: sum(x for x in v if x) / len([x for x in v if x]) if any(v) else None  # noqa: E731
        return mean(ls), mean(rs), verdict.ratio_interval(ls, rs), ratios, others

    print("(a) fillseq rocksdb vs db_bench", file=sys.stderr)
    ra = pairs(side(lambda: run_driver(driver, "fillseq", "rocksdb", fs, rk), "engbench"),
               side(lambda: run_db_bench(a.num, K, V, B), "db_bench"))
    rows.append(("(a) fillseq rocksdb, 1 thread, WAL off", "engbench", ra[0], "db_bench", ra[1], None, ra[2], ra[3],
                 ra[4]))
    print("(b) fillseq wiredtiger vs wtperf populate", file=sys.stderr)
    rb = pairs(side(lambda: run_driver(driver, "fillseq", "wiredtiger", fw, wk), "engbench"),
               side(lambda: run_wtperf(a.num, K, V, B, 2), "wtperf"))
    rows.append(("(b) fillseq wiredtiger, 2 threads, cursor inserts, log off", "engbench", rb[0], "wtperf", rb[1],
                 None, rb[2], rb[3], rb[4]))

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
    rows.append((f"(c) iibench null ({a.rows * 10} docs) vs fastest real ({best})", "null", n1b, best, real[best], 10.0,
                 None, None, None))
    n2, s2 = run_driver(driver, "iibench", "null", dict(big, loader_threads=2))
    rows.append((f"(d) iibench null, 2 loaders vs 1 ({a.rows * 10} docs)", "2 loaders", n2, "1 loader", n1b, 1.8,
                 None, None, None))

    print(f"driver: {driver}   fillseq: {a.num} keys, key {K} B, value {V} B, batch {B}, {a.reps} interleaved pairs"
          f" in a seeded order (seed {seed}; means);   iibench: {a.rows} docs, 3 indexes, cf 100 chars")
    print(f"{'comparison':58} {'left':>14} {'rate/s':>12} {'right':>14} {'rate/s':>12} {'ratio':>7} "
          "reading (pairs: ratio of means [95 % interval]) or target (single runs)")
    for name, ll, lr, rl, rr, target, iv, ratios, others in rows:
        ratio = iv.effect if iv is not None else (lr / rr if lr and rr else float("nan"))
        t = verdict.row(iv) if iv is not None else (f">= {target:g}  " + ("met" if ratio >= target else "MISSED"))
        if ratios:
            t += "   pair ratios " + " ".join(f"{x:.2f}" for x in ratios)
        if others:
            t += "   other CPU % per pair " + " ".join(f"{x:.0f}" for x in others)
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
    print(f"engbench (a): fillseq {json.dumps(fs)} knobs {json.dumps(rk)}")
    print(f"db_bench (a): {how.get('db_bench')}")
    print(f"engbench (b): fillseq {json.dumps(fw)} knobs {json.dumps(wk)}")
    print(f"wtperf   (b): {how.get('wtperf')}")


if __name__ == "__main__":
    main()
