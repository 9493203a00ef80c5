#!/usr/bin/env python3
"""engbench's sysbench-update against Debian `sysbench` 1.0.20 (`oltp_update_non_index`,
`oltp_update_index`) on the SAME private MariaDB instance: same table shape (sysbench's own
sbtest1), same table size, same client count, same uniform id choice (`--rand-type=uniform`;
sysbench's default "special" is skewed), both over the unix socket with autocommit and prepared
statements; runs interleaved (sysbench, engbench, sysbench, engbench, ...). Prints tps per run,
the medians and engbench / sysbench (target >= 0.9).

  .venv/bin/python benchmarks/bench_sysbench.py [--engine innodb|myrocks] [--table-size 100000]
      [--clients 2] [--seconds 10] [--reps 2] [--modes non-index,index] [--driver PATH]

sysbench uses database `sbtest` (prepared once); engbench database `engbench` (its table is
reloaded by every invocation, outside the measured window). Server: 256 MB cache,
flush_log_at_trx_commit=2 (so the client, not fsync, is what is compared), binlog off.
"""
import argparse
import json
import re
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from engbench.run import driver
from engbench.run.servers.mariadb import MariaDB

SB_TEST = {"non-index": "oltp_update_non_index", "index": "oltp_update_index"}


def child_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def sysbench(db, test, args, action):
    argv = ["sysbench", test, f"--mysql-socket={db.socket}", "--mysql-user=root", "--mysql-db=sbtest",
            "--db-driver=mysql", f"--tables=1", f"--table-size={args.table_size}", "--rand-type=uniform",
            f"--mysql-storage-engine={'rocksdb' if args.engine == 'myrocks' else 'innodb'}"]
    if action == "run":
        argv += [f"--threads={args.clients}", f"--time={args.seconds}", "--report-interval=0"]
    c0 = child_cpu()
    out = subprocess.run(argv + [action], capture_output=True, text=True)
    sysbench.cpu = child_cpu() - c0
    if out.returncode != 0:
        raise RuntimeError(f"sysbench {action} failed: {out.stderr}\n{out.stdout}")
    if action != "run":
        return None
    m = re.search(r"transactions:\s+(\d+)\s+\(([\d.]+) per sec", out.stdout)
    sysbench.events = int(m.group(1))
    return float(m.group(2))


def engbench(db, mode, args, tmp: Path):
    cfg = {"workload": "sysbench-update", "engine": f"mariadb-{args.engine}", "seed": 1,
           "params": {"tables": 1, "table_size": args.table_size, "mode": mode, "clients": [args.clients],
                      "seconds_per_step": args.seconds, "load_batch": 1000},
           "target": {"socket": str(db.socket), "user": "root", "password": ""},
           "data_dir": str(tmp / "d"), "output_dir": str(tmp / "o")}
    (tmp / "c.json").write_text(json.dumps(cfg))
    out = subprocess.run([args.driver, "run", str(tmp / "c.json")], capture_output=True, text=True)
    s = json.loads((tmp / "o" / "summary.json").read_text())
    if out.returncode != 0:
        raise RuntimeError(f"engbench-driver failed: {s.get('error')}\n{out.stderr[-2000:]}")
    step = s["steps"][0]
    # client CPU per update over the whole process (the load included: an upper bound)
    return step["requests"] / step["seconds"], s["driver_process"], step["requests"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", default="innodb", choices=["innodb", "myrocks"])
    ap.add_argument("--table-size", type=int, default=100000)
    ap.add_argument("--clients", type=int, default=2)
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--modes", default="non-index,index")
    ap.add_argument("--driver", default=str(driver.executable()))
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-sysbench-") as tmp, \
            MariaDB(Path(tmp) / "server", engine=args.engine,
                    settings={"cache_size": "256M", "flush_log_at_trx_commit": 2}) as db:
        with db.connect().cursor() as cur:
            cur.execute("CREATE DATABASE sbtest")
        sysbench(db, "oltp_update_non_index", args, "prepare")
        for mode in args.modes.split(","):
            sb, eb, cpu, sb_cpu = [], [], [], []
            for rep in range(args.reps):
                order = ["sysbench", "engbench"] if rep % 2 == 0 else ["engbench", "sysbench"]
                for who in order:
                    if who == "sysbench":
                        sb.append(sysbench(db, SB_TEST[mode], args, "run"))
                        sb_cpu.append(sysbench.cpu / sysbench.events * 1e6)
                    else:
                        tps, proc, n = engbench(db, mode, args, Path(tmp))
                        eb.append(tps)
                        cpu.append((proc["cpu_user_s"] + proc["cpu_sys_s"]) / n * 1e6)
                    print(f"  {mode:<9} rep {rep} {who:<8} {(sb if who == 'sysbench' else eb)[-1]:>9.0f} tps",
                          file=sys.stderr)
            rows.append((mode, statistics.median(sb), statistics.median(eb), statistics.median(sb_cpu),
                         statistics.median(cpu)))
    print(f"\nMariaDB {args.engine}, table_size {args.table_size}, {args.clients} clients, {args.seconds:g} s per run, "
          f"{args.reps} interleaved reps each (medians)")
    print("client cpu = user+sys CPU of the client process per update, in us (engbench's includes its load phase)")
    print(f"{'mode':<10} {'sysbench tps':>13} {'engbench tps':>13} {'engbench/sysbench':>18} "
          f"{'sysbench cpu':>13} {'engbench cpu':>13}")
    for mode, s, e, sc, c in rows:
        print(f"{mode:<10} {s:>13.0f} {e:>13.0f} {e / s:>18.2f} {sc:>13.1f} {c:>13.1f}")


if __name__ == "__main__":
    main()
