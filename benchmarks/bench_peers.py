#!/usr/bin/env python3
"""engbench beside the reference clients on ONE private MariaDB: iibench (variant=iibench-py)
against mytools `bench/ibench/iibench.py` (MySQL mode); alternating runs (peer, engbench,
engbench, peer, ...; >= 3 pairs), a fresh table every run; prints each run and the medians of the
per-pair ratios engbench / peer: rows/s, client CPU per row, and server work per row from SHOW
GLOBAL STATUS (statements = Questions, Handler_read_next + Handler_read_prev,
Innodb_data_written (pages: lazy, flushed in the background, so noisy at small sizes),
Innodb_os_log_written (redo), Innodb_buffer_pool_reads = buffer-pool misses). rows/s is over each
client's whole command (engbench run with its samplers and manifest; iibench.py with its start-up and
a reporter that notices the end within 1 s), so use enough rows (default 1M) that these seconds
do not matter.

  .venv/bin/python benchmarks/bench_peers.py --iibench PATH/iibench.py [--rows 1000000] [--pairs 3]
      [--engine innodb|myrocks]

Getting the peer: iibench.py is one file of https://github.com/mdcallag/mytools
(bench/ibench/iibench.py; `git clone` it anywhere, nothing to build). It imports MySQLdb
(mysqlclient); where that is not installed it runs through PyMySQL's MySQLdb shim, which is a
slower client: the output says which. LinkBench (`--linkbench`) is not compared yet: the option is
accepted and reported as not implemented. Without a peer the script says what is missing and
exits 0.

Server: engbench's own options for a private server (128 MiB buffer pool, flush at commit,
binlog off), both clients over the unix socket as root.
"""
import argparse
import importlib.util
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from engbench import params, runs
from engbench.servers.mariadb import MariaDB

WORK = {"statements": ("Questions",), "rows read next/prev": ("Handler_read_next", "Handler_read_prev"),
        "data written B": ("Innodb_data_written",), "redo written B": ("Innodb_os_log_written",),
        "pool misses": ("Innodb_buffer_pool_reads",)}
# Runs iibench.py as __main__, through PyMySQL's MySQLdb shim when mysqlclient is missing.
SHIM = ("import sys, runpy\ntry:\n import MySQLdb\nexcept ImportError:\n import pymysql\n"
        " pymysql.install_as_MySQLdb()\nsys.argv = sys.argv[1:]\nrunpy.run_path(sys.argv[0], run_name='__main__')")


def child_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def status(db) -> dict:
    return {k: int(v) for k, v in db.global_status().items() if str(v).isdigit()}


def measured(db, run):
    """run() -> (rows, client CPU s, wall s), rows possibly a function called once the server's
    counters are read (so that counting rows is not counted as work); returns rows/s, CPU us/row
    and server work per row."""
    before, c0, t0 = status(db), child_cpu(), time.monotonic()
    rows, cpu, wall = run()
    after = status(db)
    rows = rows() if callable(rows) else rows
    cpu = cpu if cpu is not None else child_cpu() - c0
    wall = wall if wall is not None else time.monotonic() - t0
    work = {name: sum(after.get(k, 0) - before.get(k, 0) for k in keys) / rows for name, keys in WORK.items()}
    return {"rows/s": rows / wall, "client CPU us/row": cpu / rows * 1e6, **work}


def iibench_py(db, args):
    argv = [sys.executable, "-c", SHIM, args.iibench, "--dbms=mysql", f"--db_socket={db.socket}", "--db_user=root",
            "--db_name=ibpy", f"--engine={'rocksdb' if args.engine == 'myrocks' else 'innodb'}", "--setup",
            "--secondary_at_start", "--num_secondary_indexes=3", f"--max_rows={args.rows}", "--query_threads=0",
            "--secs_per_report=1"]
    out = subprocess.run(argv, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"iibench.py failed: {out.stderr[-2000:]}\n{out.stdout[-2000:]}")

    def rows():
        with db.connect().cursor() as cur:
            cur.execute("SELECT COUNT(*) FROM ibpy.purchases_index")
            return cur.fetchone()[0]
    return rows, None, None


def engbench_iibench(db, args, tmp: Path):
    """engbench's own path (engbench run: the driver with its samplers), as a user runs it."""
    sets = ["variant=iibench-py", f"max_rows={args.rows}", "query_threads=0", f"mariadb.socket={db.socket}",
            "mariadb.user=root", "mariadb.database=ibeb"]
    res = runs.execute(params.resolve("iibench", f"mariadb-{args.engine}", sets), out_dir=tmp / "runs",
                       show_progress=False)
    if res.status != "ok":
        raise RuntimeError(f"engbench run failed: {res.error}")
    s = json.loads((res.run_dir / "driver" / "summary.json").read_text())
    proc = s["driver_process"]
    # the driver's whole process CPU (a fair match for iibench.py's whole process)
    return s["documents_inserted"], proc["cpu_user_s"] + proc["cpu_sys_s"], None


def missing(args) -> list:
    out = []
    if not args.iibench:
        out.append("iibench.py: not given (--iibench PATH; get it from https://github.com/mdcallag/mytools, "
                   "bench/ibench/iibench.py)")
    elif not Path(args.iibench).is_file():
        out.append(f"iibench.py: {args.iibench} is not a file")
    if args.linkbench:
        out.append(f"LinkBench ({args.linkbench}): the LinkBench comparison is not implemented yet")
    return out


def pairs(db, args, tmp):
    runs = {"iibench.py": [], "engbench": []}
    for p in range(args.pairs):
        order = ["iibench.py", "engbench"] if p % 2 == 0 else ["engbench", "iibench.py"]
        for who in order:
            run = (lambda: iibench_py(db, args)) if who == "iibench.py" else (lambda: engbench_iibench(db, args, tmp))
            runs[who].append(measured(db, run))
            print(f"  pair {p} {who:<10} {runs[who][-1]['rows/s']:>10.0f} rows/s", file=sys.stderr)
    return runs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--iibench", help="path of mytools' bench/ibench/iibench.py")
    ap.add_argument("--linkbench", help="a LinkBench build directory (not compared yet)")
    ap.add_argument("--engine", default="innodb", choices=["innodb", "myrocks"])
    ap.add_argument("--rows", type=int, default=1000000)
    ap.add_argument("--pairs", type=int, default=3)
    args = ap.parse_args()
    if args.pairs < 3:
        ap.error("--pairs: at least 3")
    gaps = missing(args)
    for g in gaps:
        print(f"bench_peers: {g}")
    if not args.iibench or not Path(args.iibench).is_file():
        print("bench_peers: nothing to compare; exiting")
        return 0
    client = "mysqlclient" if importlib.util.find_spec("MySQLdb") else "PyMySQL's MySQLdb shim (slower than mysqlclient)"
    with tempfile.TemporaryDirectory(prefix="bench-peers-") as tmp, \
            MariaDB(Path(tmp) / "server", engine=args.engine,
                    settings={"cache_size": "128M", "flush_log_at_trx_commit": 1}) as db:
        with db.connect().cursor() as cur:
            cur.execute("CREATE DATABASE ibpy")
        runs = pairs(db, args, Path(tmp))
    print(f"\nMariaDB {args.engine} (128 MiB cache, flush at commit), {args.rows} rows per run, {args.pairs} "
          f"alternating pairs, fresh tables; iibench.py through {client}")
    print(f"{'metric':<22} {'iibench.py':>12} {'engbench':>12} {'median ratio engbench/peer':>28}")
    for k in runs["engbench"][0]:
        peer = statistics.median(r[k] for r in runs["iibench.py"])
        eb = statistics.median(r[k] for r in runs["engbench"])
        ratios = [e[k] / q[k] for e, q in zip(runs["engbench"], runs["iibench.py"]) if q[k]]
        ratio = f"{statistics.median(ratios):.2f}" if ratios else "-"
        print(f"{k:<22} {peer:>12.4g} {eb:>12.4g} {ratio:>28}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
