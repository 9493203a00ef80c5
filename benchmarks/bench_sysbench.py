#!/usr/bin/env python3
"""engbench's sysbench-update against Debian `sysbench` 1.0.20 (`oltp_update_non_index`,
`oltp_update_index`) on the SAME private MariaDB instance: same table shape (sysbench's own
sbtest1), same table size, same client count, same uniform id choice (`--rand-type=uniform`;
sysbench's default "special" is skewed), both over the unix socket with autocommit and prepared
statements; runs interleaved in pairs, each pair's order (sysbench or engbench first) drawn from a
recorded seed (--seed, else drawn and printed: engbench.peers.verdict.pair_orders), for every mode
and client count. Prints every run and, per metric, each side's mean and the ratio of the means
engbench / sysbench with its 95 % interval over the pairs (Fieller's: engbench.peers.verdict, which
says why not the median's interval); a rate reads "ahead" (interval wholly above 1.05), "at
parity" (inside [0.95, 1.05]), "behind" (wholly below 0.95) or "inconclusive", with each pair's
ratio; the client and server CPU and the server work per update beside it (their interval, no
word); and the CPU the rest of the machine used meanwhile.

  .venv/bin/python benchmarks/bench_sysbench.py [--engine innodb|myrocks] [--table-size 100000]
      [--clients 1,2] [--seconds 10] [--reps 3] [--seed S] [--modes non-index,index] [--driver PATH]

Rates (engbench.peers.rates):
- whole run: each client's own rate over its whole update phase, first update to last commit, as
  each prints it: sysbench's "transactions: N (X per sec.)" (its events over its run's total time),
  engbench's step requests / step seconds (the driver's window from the step's start to its last
  update's end). The ratios to read; the README quotes them.
- server clock: updates / the span from the first UPDATE's start to the last one's on the
  server's Com_update counter, polled every 20 ms (engbench.peers.timeline); the same clock for both.
Client CPU per update: user + system CPU of the client process (sysbench: its whole run; engbench:
the driver process over the step window, summary steps[].cpu_s, without its load). Server work per
update from SHOW GLOBAL STATUS (sysbench: around its run; engbench: the driver's own reads after
its load and after the step; the polls' statements taken out): statements (Questions), rows
updated (Handler_update), redo bytes (Innodb_os_log_written; MyRocks: Rocksdb_wal_bytes). Other
CPU: % of all CPUs busy with anything but the client, this script and the server, over each run
(engbench.peers.cpu).

Server CPU per update: the server process's CPU (every thread) over the updates' own span on
the server (polled with Com_update; engbench.peers.rates.per_op).

Both clients update a freshly loaded table, in the same order of events: the client's previous
table is dropped (sysbench cleanup; engbench's sbtest1), the server is let go quiet (no dirty page,
InnoDB's purge caught up, MyRocks' memtables flushed), the table is loaded and its k index built
(sysbench prepare; engbench's load phase) and the updates start at once (sysbench run; engbench's
update step), the load outside the measured window on both. An index-mode table that earlier runs
had updated wrote 1.4x the redo per update of a fresh one, and a table let go quiet after its load
ran its updates faster than one updated straight after it (sysbench quiesced after prepare against
engbench not: index updates at 2 clients 0.74x; both straight after: pairs 0.84 1.19 1.28 0.91):
the comparison must be of the clients, not of the tables' ages or states. Server: 256 MB cache,
flush_log_at_trx_commit=2 (so the client, not fsync, is what is compared), binlog off.
"""
import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from engbench.peers import rates, verdict
from engbench.peers.cpu import CpuWindow
from engbench.peers.timeline import StatusClock
from engbench.run import driver
from engbench.run.servers.mariadb import MariaDB
from peers_common import child_cpu, driver_status, quiesce, status

SB_TEST = {"non-index": "oltp_update_non_index", "index": "oltp_update_index"}


def work_per(before: dict, after: dict, n: int, engine: str) -> dict:
    redo = "Rocksdb_wal_bytes" if engine == "myrocks" else "Innodb_os_log_written"
    return {k: (after[c] - before[c]) / n for k, c in
            (("statements", "Questions"), ("rows updated", "Handler_update"), ("redo B", redo))}


def figures(tps, updates, cpu_s, samples, before, after, window, engine) -> dict:
    after = dict(after, Questions=after["Questions"] - sum(1 for t, _ in samples if t <= window[1]))
    t_a, t_b = rates.first_move(samples, "Com_update"), rates.settled(samples, "Com_update")
    return {"whole-run tps": tps, "server-clock tps": updates / (t_b - t_a) if t_b > t_a else float("nan"),
            "client CPU us/update": cpu_s / updates * 1e6,
            "server CPU us/update": rates.per_op(samples, "server_cpu_us", "Com_update"),
            **work_per(before, after, updates, engine)}


def sysbench(db, test, args, action, clients=1):
    argv = ["sysbench", test, f"--mysql-socket={db.socket}", "--mysql-user=root", "--mysql-db=sbtest",
            "--db-driver=mysql", "--tables=1", f"--table-size={args.table_size}", "--rand-type=uniform",
            f"--mysql-storage-engine={'rocksdb' if args.engine == 'myrocks' else 'innodb'}"]
    if action == "run":
        argv += [f"--threads={clients}", f"--time={args.seconds}", "--report-interval=0"]
    before, c0 = status(db), child_cpu()
    clock = StatusClock(db, pids=[db.pid]).start() if action == "run" else None
    out = subprocess.run(argv + [action], capture_output=True, text=True)
    cpu = child_cpu() - c0
    samples = clock.stop() if clock else []
    if out.returncode != 0:
        raise RuntimeError(f"sysbench {action} failed: {out.stderr}\n{out.stdout}")
    if action != "run":
        return None
    after = status(db)
    m = re.search(r"transactions:\s+(\d+)\s+\(([\d.]+) per sec", out.stdout)
    return figures(float(m.group(2)), int(m.group(1)), cpu, samples, before, after, (0, float("inf")), args.engine)


def engbench(db, mode, clients, args, tmp: Path):
    cfg = {"workload": "sysbench-update", "engine": f"mariadb-{args.engine}", "seed": 1,
           "params": {"tables": 1, "table_size": args.table_size, "mode": mode, "clients": [clients],
                      "seconds_per_step": args.seconds, "load_batch": 1000},
           "target": {"socket": str(db.socket), "user": "root", "password": ""},
           "data_dir": str(tmp / "d"), "output_dir": str(tmp / "o")}
    (tmp / "c.json").write_text(json.dumps(cfg))
    clock = StatusClock(db, pids=[db.pid]).start()
    out = subprocess.run([args.driver, "run", str(tmp / "c.json")], capture_output=True, text=True)
    samples = clock.stop()
    s = json.loads((tmp / "o" / "summary.json").read_text())
    if out.returncode != 0:
        raise RuntimeError(f"engbench-driver failed: {s.get('error')}\n{out.stderr[-2000:]}")
    step = s["steps"][0]
    if "cpu_s" not in step:
        raise RuntimeError(f"{args.driver} does not report a step's CPU (summary steps[].cpu_s): rebuild it "
                           "(bash scripts/setup.sh)")
    st = [driver_status(tmp / "o" / f) for f in ("engine_stats_before.json", "engine_stats_after.json")]
    # the updates' server clock: only the polls after the load (its INSERTs are not updates)
    samples = [x for x in samples if x[0] >= s["load"]["end_unix_s"]]
    return figures(step["requests_per_s"], step["requests"], step["cpu_s"], samples, st[0], st[1],
                   (step["start_unix_s"], s["client"]["end_unix_s"]), args.engine)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", default="innodb", choices=["innodb", "myrocks"])
    ap.add_argument("--table-size", type=int, default=100000)
    ap.add_argument("--clients", default="1,2", help="client counts, each compared on its own")
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--reps", type=int, default=3, help="interleaved pairs per mode and client count")
    ap.add_argument("--seed", type=int, default=None,
                    help="the seed each pair's order is drawn from (default: drawn and printed; give it to repeat an order)")
    ap.add_argument("--modes", default="non-index,index")
    ap.add_argument("--driver", default=str(driver.executable()))
    args = ap.parse_args()
    if args.reps < 3:
        ap.error("--reps: at least 3 pairs")
    seed = verdict.new_seed() if args.seed is None else args.seed
    print(f"bench_sysbench: order seed {seed} (each pair's order: engbench.peers.verdict.pair_orders)", flush=True)
    orders = verdict.pair_orders(seed, args.reps, ("sysbench", "engbench"))  # the same pairs' orders in every row
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-sysbench-") as tmp, \
            MariaDB(Path(tmp) / "server", engine=args.engine,
                    settings={"cache_size": "256M", "flush_log_at_trx_commit": 2}) as db:
        with db.connect().cursor() as cur:
            cur.execute("CREATE DATABASE sbtest")
        for mode in args.modes.split(","):
            for clients in (int(c) for c in args.clients.split(",")):
                res = {"sysbench": [], "engbench": []}
                for rep, order in enumerate(orders):
                    for who in order:
                        # Each client's previous table dropped, then a quiet server, then a
                        # freshly loaded table updated at once: sysbench prepare, then run (as a
                        # user runs them); engbench loads its table and updates it in one run.
                        if who == "sysbench":
                            sysbench(db, "oltp_update_non_index", args, "cleanup")
                        else:
                            with db.connect().cursor() as cur:
                                cur.execute("DROP TABLE IF EXISTS engbench.sbtest1")
                        quiesce(db, purged=True)  # nothing of the previous run left to write or purge
                        if who == "sysbench":
                            sysbench(db, "oltp_update_non_index", args, "prepare")
                        window = CpuWindow([db.pid])
                        r = (sysbench(db, SB_TEST[mode], args, "run", clients) if who == "sysbench"
                             else engbench(db, mode, clients, args, Path(tmp)))
                        r["other CPU %"] = window.close()["other_pct"]
                        res[who].append(r)
                        print(f"  {mode:<9} {clients} clients pair {rep} {who:<8} {r['whole-run tps']:>9,.0f} tps "
                              f"(server clock {r['server-clock tps']:,.0f}); other CPU {r['other CPU %']:.0f} %",
                              file=sys.stderr, flush=True)
                rows.append((mode, clients, res))
    print(f"\nMariaDB {args.engine}, table_size {args.table_size}, {args.seconds:g} s per run, {args.reps} interleaved "
          f"pairs per row in a seeded order (seed {seed}); each side's mean, engbench/sysbench: the ratio of the means "
          "[95 % interval], its reading for the rates, and each pair's ratio")
    print(f"{'mode':<10} {'clients':>7} {'metric':<22} {'sysbench':>10} {'engbench':>10}  ratio [interval], reading")
    for mode, clients, res in rows:
        for k in res["engbench"][0]:
            if k == "other CPU %":
                continue
            ours, theirs = [r[k] for r in res["engbench"]], [r[k] for r in res["sysbench"]]
            sb, eb = (sum(v) / len(v) for v in (theirs, ours))
            iv = verdict.ratio_interval(ours, theirs)
            pairs = ("; pairs " + " ".join(f"{x:.2f}" for x in rates.pair_ratios(ours, theirs))) if k.endswith("tps") \
                else ""
            fmt = (lambda v: f"{v:>10,.0f}") if sb >= 100 else (lambda v: f"{v:>10.3g}")
            print(f"{mode:<10} {clients:>7} {k:<22} {fmt(sb)} {fmt(eb)}  {verdict.row(iv, word=k.endswith('tps'))}{pairs}")
        other = [(round(s["other CPU %"]), round(e["other CPU %"])) for s, e in zip(res["sysbench"], res["engbench"])]
        print(f"{mode:<10} {clients:>7} {'other CPU % (sb, eb)':<22} " + " ".join(f"({a}, {b})" for a, b in other))


if __name__ == "__main__":
    main()
