#!/usr/bin/env python3
"""engbench beside the reference clients on ONE private MariaDB, in interleaved pairs (>= 3), each
pair's order (peer or engbench first) drawn from a recorded seed (--seed, else drawn and printed:
engbench.peers.verdict.pair_orders), fresh tables every run; prints each run and, per phase and
metric, each side's mean, the ratio of the means engbench / peer with its 95 % interval (Fieller's,
over the pairs: engbench.peers.verdict, which says why not the median's interval) and, for the
rates, the word it reads as: "ahead" (interval wholly above 1.05), "at parity" (inside
[0.95, 1.05]), "behind" (wholly below 0.95), else "inconclusive"; the client CPU and server work per
operation beside them (their interval, no word: lower is not "behind"), every pair's ratio of the
key rates, and the CPU the rest of the machine used meanwhile (a shared machine moves the rates).

- iibench (`--iibench PATH`): engbench's `variant=iibench-py` against mytools
  `bench/ibench/iibench.py` (MySQL mode): rows/s, client CPU per row and server work per row.
- linkbench (`--linkbench DIR`, or $ENGBENCH_LINKBENCH): engbench's linkbench on the
  mariadb-<engine> target against LinkBench's LinkStoreMysql (facebookarchive/linkbench), same
  maxid1, loaders, requesters, request mix and duration: load links/s (client CPU and server work
  per loaded link) and request requests/s (client CPU and server work per request);
  peers_linkbench.py.

The rates (engbench.peers.rates; the server's status counters polled every 20 ms on its own
connection, engbench.peers.timeline):
- whole run: the rate a user waits for, from the client's first statement to its last commit on
  the server's clock, the same rule for both clients: its setup statements (CREATE TABLE, engbench's
  snapshot of the server before its captures start), its own gaps between statements and its last
  INSERT included; what comes after the last commit (engbench's wait for its samplers' last
  report, iibench.py's wait for its next 1-s report) is not. The ratios to read.
  LinkBench's load: from its loaders' first statement to the last write of the load; engbench's
  load from its run's first statement to the load's end (summary load.end_unix_s); requests: each
  client's request phase (LinkBench: its JVM's first to last statement; engbench: the request
  window). The README quotes these.
- own: each client's own figure as it prints it (engbench: rows over the driver's client window;
  iibench.py: t_ips of its last report, inserted / (report time − start), which moves in steps of
  its 1-s reports; LinkBench: its LOAD PHASE Links/second, which includes the up to 2.2 s each
  loader sleeps before connecting, and the sum of its requesters' requests/second).
- server clock (iibench): the rows of all INSERTs but the last over the span from the first
  INSERT's start to the last one's (Com_insert), whatever a client does around them.
- whole command (iibench): rows over the command's wall time (engbench run: runs.execute in this
  process, i.e. `engbench run` without the interpreter's start-up; iibench.py: its process).
Client CPU: the client's processes (engbench: the driver process; iibench.py: its processes; the
JVM, JIT and GC included). Other CPU: % of all CPUs busy with anything but the clients, their
samplers, this script and the server (engbench.peers.cpu), over each client command.

Server work comes from SHOW GLOBAL STATUS around each phase (the polls' own statements taken out):
statements = Questions, Handler_read_next + Handler_read_prev; InnoDB: Innodb_data_written (page
writes: lazy, by the page cleaner), Innodb_os_log_written (redo), Innodb_buffer_pool_reads;
MyRocks: Rocksdb_flush_write_bytes + Rocksdb_compact_write_bytes, Rocksdb_wal_bytes,
Rocksdb_block_cache_miss. For iibench each run starts on a quiet server (both clients' databases
dropped, no dirty page, MyRocks' memtables flushed) and its window ends once what it wrote is
written (`quiesce`): without that, a run's data written counted whatever the previous run (the other
client's, in alternating order) had left dirty (measured: iibench.py's 468 B/row after five engbench
runs against engbench's 285-300 B/row). The read counters (rows read, pool misses) end with the
client's last commit: engbench's runs read back what they wrote after the driver exits (a COUNT(*)
through the primary key, one row read per row and the table's pages: 14.6x iibench.py's pool
misses per row when it was counted), so its reads end at the driver's own snapshot
(engine_stats_after.json); iibench.py reads nothing after its last INSERT.

  .venv/bin/python benchmarks/bench_peers.py [--iibench PATH/iibench.py] [--iibench-python PY]
      [--linkbench DIR] [--pairs 3] [--seed S] [--engine innodb|myrocks] [--rows 1000000]
      [--maxid1 100001] [--requesters 2] [--loaders 2] [--seconds 60]

iibench.py: one file of https://github.com/mdcallag/mytools (bench/ibench/iibench.py; `git clone`
it anywhere, nothing to build). It imports MySQLdb (mysqlclient), as its author runs it: give
--iibench-python a Python that has it (e.g. `uv venv /tmp/ibpy && uv pip install --python
/tmp/ibpy/bin/python mysqlclient`, which builds against Debian's libmariadb-dev); without
MySQLdb it runs through PyMySQL's MySQLdb shim, a slower client: the output says which.

LinkBench: a checkout of https://github.com/facebookarchive/linkbench built outside this
repository (`mvn -q -DskipTests package` with Maven and a JDK; Java 17 builds it), so that
DIR/target/FacebookLinkBench.jar and DIR/config/ exist; nothing of it is kept here. It runs as its
own bin/linkbench does (`java -Xmx1000m -cp target/FacebookLinkBench.jar
com.facebook.LinkBench.LinkBenchDriver -c config/LinkConfigMysql.properties`, LINKBENCH_HOME=DIR),
`-l` for the load and then `-r` for the requests (two JVMs, so each phase has its own CPU and
status figures), with `-D` overrides only for the server, the size and the concurrency (printed).
Its tables are LinkBench's README DDL without `PARTITION BY key(id1) PARTITIONS 16` (engbench's
tables are not partitioned; the layouts are held equal), in database `linkdb`; engbench's in
`ebdb`; both databases are dropped before every run. Both clients connect over TCP 127.0.0.1 as
one user with a password (JDBC cannot use the unix socket). The mix: LinkBench's
config/FBWorkload.properties as it ships, and engbench given the same values from that file: the
ten percentages, read_uncorr_blend / write_uncorr_blend and getlinklist_history.

Without any peer the script says what is missing and exits 0; a peer given but unusable (not a
file, LinkBench not built, no java) is refused with what to do, exit 2.

Server: engbench's own options for a private server (128 MiB buffer pool, flush at commit,
binlog off).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from engbench.peers import rates, verdict
from engbench.peers.cpu import CpuWindow
from engbench.peers.timeline import StatusClock
from engbench.run import params, runs
from engbench.run.servers.mariadb import MariaDB
from peers_common import child_cpu, driver_status, quiesce, status, work_per
import peers_linkbench as lb

# Runs iibench.py as __main__, through PyMySQL's MySQLdb shim when mysqlclient is missing.
SHIM = ("import sys, runpy\ntry:\n import MySQLdb\nexcept ImportError:\n import pymysql\n"
        " pymysql.install_as_MySQLdb()\nsys.argv = sys.argv[1:]\nrunpy.run_path(sys.argv[0], run_name='__main__')")
IIBENCH_DATABASES = ("ibpy", "ibeb")
READS = ("Handler_read_next", "Handler_read_prev", "Innodb_buffer_pool_reads", "Rocksdb_block_cache_miss")


# --- iibench ---

def measured(db, engine, run):
    """run() -> (rows, client CPU s or None, the client's own rows/s, the server's status at the
    client's end or None), rows possibly a function called once the server's counters are read (so that
    counting rows is not counted as work), the status (engbench: the driver's snapshot after its
    last commit) the end of the read counters (rows read, pool misses), so that reads made after
    the load (engbench's read-back, a COUNT(*) through the primary key: ~1 row read per row and
    the table's pages) are not counted as the load's; returns
    {"insert": {rates, client CPU us/row, server work per row, other CPU %}}. Both clients' server
    work is counted the same way: from a quiet server (both clients' databases dropped, nothing left
    to write) to the moment what the run wrote is written (quiesce), so it includes each one's
    CREATE TABLE and nothing of the other's run."""
    quiesce(db, drop=IIBENCH_DATABASES)
    with db.connect().cursor() as cur:
        for d in IIBENCH_DATABASES:
            cur.execute(f"CREATE DATABASE {d}")
    before, c0 = status(db), child_cpu()
    clock = StatusClock(db).start()
    window, t0 = CpuWindow([db.pid]), time.time()
    rows, cpu, own, client_end = run()
    wall = time.time() - t0
    cpu = cpu if cpu is not None else child_cpu() - c0
    other, samples = window.close()["other_pct"], clock.stop()
    sent = clock.polls + quiesce(db)
    after = status(db)
    after["Questions"] -= sent  # the script's own polls are not the client's statements
    if client_end:  # the read counters end with the client; what it wrote is written by now
        after.update({k: client_end[k] for k in READS if k in client_end})
    rows = rows() if callable(rows) else rows
    return {"insert": {"whole-run rows/s": rates.whole_run_rate(rows, samples), "own rows/s": own,
                       "server rows/s": rates.insert_clock(rows, samples), "command rows/s": rows / wall,
                       "client CPU us/row": cpu / rows * 1e6, **work_per(before, after, rows, engine),
                       "other CPU %": other}}


def iibench_py(db, args, tmp):
    argv = [args.iibench_python, "-c", SHIM, args.iibench, "--dbms=mysql", f"--db_socket={db.socket}",
            "--db_user=root", "--db_name=ibpy", f"--engine={'rocksdb' if args.engine == 'myrocks' else 'innodb'}",
            "--setup", "--secondary_at_start", "--num_secondary_indexes=3", f"--max_rows={args.rows}",
            "--query_threads=0", "--secs_per_report=1"]

    def run():
        out = subprocess.run(argv, capture_output=True, text=True)
        if out.returncode != 0:
            raise RuntimeError(f"iibench.py failed: {out.stderr[-2000:]}\n{out.stdout[-2000:]}")

        def rows():
            with db.connect().cursor() as cur:
                # through the primary key: MyRocks answers a bare COUNT(*) from a secondary index,
                # which counted rows a failed bulk load had lost (engbench's read-back does the same)
                cur.execute("SELECT COUNT(*) FROM ibpy.purchases_index FORCE INDEX (PRIMARY)")
                return cur.fetchone()[0]
        # its own figure: t_ips (inserted / seconds since its start) of its last report line
        reports = [ln.split("\t") for ln in out.stdout.splitlines() if ln.count("\t") == 16]
        own = [float(r[3]) for r in reports if r[3].replace(".", "", 1).isdigit()]
        return rows, None, own[-1] if own else float("nan"), None  # nothing read after its last INSERT
    return measured(db, args.engine, run)


def engbench_iibench(db, args, tmp: Path):
    """engbench's own path (engbench run: the driver with its samplers), as a user runs it."""
    sets = ["variant=iibench-py", f"max_rows={args.rows}", "query_threads=0", f"mariadb.socket={db.socket}",
            "mariadb.user=root", "mariadb.database=ibeb"]

    def run():
        res = runs.execute(params.resolve("iibench", f"mariadb-{args.engine}", sets), out_dir=tmp / "runs",
                           show_progress=False)
        if res.status != "ok":
            raise RuntimeError(f"engbench run failed: {res.error}")
        s = json.loads((res.run_dir / "driver" / "summary.json").read_text())
        proc = s["driver_process"]
        # the driver's whole process CPU (a fair match for iibench.py's processes); its own figure:
        # rows over the driver's client window (no samplers' start and stop)
        return (s["documents_inserted"], proc["cpu_user_s"] + proc["cpu_sys_s"],
                s["documents_inserted"] / s["client"]["seconds"],
                driver_status(res.run_dir / "driver" / "engine_stats_after.json"))
    return measured(db, args.engine, run)


def mysqldb_client(python: str) -> str:
    """Which MySQLdb iibench.py gets from `python`."""
    has = subprocess.run([python, "-c", "import MySQLdb"], capture_output=True).returncode == 0
    return "mysqlclient" if has else "PyMySQL's MySQLdb shim (slower than mysqlclient)"


# --- the comparison ---

def pairs(n, seed, peer_name, peer, ours, rate_key):
    """Interleaved pairs, each pair's order drawn from `seed` (verdict.pair_orders); {"peer": [...],
    "engbench": [...]}."""
    out = {"peer": [], "engbench": []}
    for p, order in enumerate(verdict.pair_orders(seed, n, ("peer", "engbench"))):
        for who in order:
            out[who].append(peer() if who == "peer" else ours())
            r = out[who][-1]
            shown = ", ".join(f"{ph} {r[ph][k]:,.0f} {k}" for ph, k in rate_key if ph in r)
            others = ", ".join(f"{r[ph]['other CPU %']:.0f}" for ph, _ in rate_key if ph in r)
            print(f"  pair {p} {peer_name if who == 'peer' else 'engbench':<10} {shown}; other CPU {others} %",
                  file=sys.stderr, flush=True)
    return out


def num(x) -> str:
    """A figure for the tables: thousands separated from 100 up, else 4 significant digits."""
    return f"{x:,.0f}" if abs(x) >= 100 else f"{x:.4g}"


def mean(xs) -> float:
    xs = [x for x in xs if x is not None and x == x]
    return sum(xs) / len(xs) if xs else float("nan")


def table(title, peer_name, res, phase, key_rows):
    """Each side's mean, the ratio of the means engbench / peer with its 95 % interval over the
    pairs (verdict.ratio_interval) and, for the rates (`key_rows`), its word and the pairs' ratios;
    client CPU and server work per operation with their interval and no word; the other CPU of
    every run."""
    print(f"\n{title}")
    print(f"{'metric':<24} {peer_name:>12} {'engbench':>12}  engbench/peer: ratio of means [95 % interval], reading; "
          "pair ratios")
    for k in res["engbench"][0][phase]:
        if k == "other CPU %":
            continue
        ours, theirs = [e[phase][k] for e in res["engbench"]], [q[phase][k] for q in res["peer"]]
        iv = verdict.ratio_interval(ours, theirs)
        ratios = rates.pair_ratios(ours, theirs)
        shown = ("; pairs " + " ".join(f"{x:.2f}" for x in ratios)) if k in key_rows else ""
        print(f"{k:<24} {num(mean(theirs)):>12} {num(mean(ours)):>12}  {verdict.row(iv, word=k in key_rows)}{shown}")
    other = [(round(q[phase]["other CPU %"]), round(e[phase]["other CPU %"])) for q, e in zip(res["peer"], res["engbench"])]
    print(f"other CPU % of all CPUs during each pair's runs ({peer_name}, engbench): "
          + " ".join(f"({a}, {b})" for a, b in other)
          + f"; median {rates.median([x for p in other for x in p]):.0f}, max {max(x for p in other for x in p)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--iibench", help="path of mytools' bench/ibench/iibench.py")
    ap.add_argument("--iibench-python", default=sys.executable,
                    help="the Python that runs iibench.py (one with mysqlclient's MySQLdb, as iibench.py expects; "
                         "default this one, through PyMySQL's shim when it has no MySQLdb)")
    ap.add_argument("--linkbench", default=os.environ.get("ENGBENCH_LINKBENCH"),
                    help="a LinkBench checkout built with `mvn -DskipTests package` (default $ENGBENCH_LINKBENCH)")
    ap.add_argument("--engine", default="innodb", choices=["innodb", "myrocks"])
    ap.add_argument("--pairs", type=int, default=3)
    ap.add_argument("--seed", type=int, default=None,
                    help="the seed each pair's order is drawn from (default: drawn and printed; give it to repeat an order)")
    ap.add_argument("--rows", type=int, default=1000000, help="iibench: rows per run")
    ap.add_argument("--maxid1", type=int, default=100001, help="linkbench: node ids 1..maxid1-1")
    ap.add_argument("--requesters", type=int, default=2, help="linkbench: requester threads (both clients)")
    ap.add_argument("--loaders", type=int, default=2, help="linkbench: link loader threads (both clients)")
    ap.add_argument("--seconds", type=int, default=60, help="linkbench: request phase seconds")
    args = ap.parse_args()
    if args.pairs < 3:
        ap.error("--pairs: at least 3")
    refused = []
    if args.iibench and not Path(args.iibench).is_file():
        refused.append(f"iibench.py: {args.iibench} is not a file (get it from https://github.com/mdcallag/mytools, "
                       "bench/ibench/iibench.py)")
    if args.linkbench and (why := lb.linkbench_problem(Path(args.linkbench))):
        refused.append(f"LinkBench: {why}")
    for r in refused:
        print(f"bench_peers: refused: {r}")
    if refused:
        return 2
    if not args.iibench:
        print("bench_peers: iibench.py: not given (--iibench PATH; https://github.com/mdcallag/mytools, "
              "bench/ibench/iibench.py)")
    if not args.linkbench:
        print("bench_peers: LinkBench: not given (--linkbench DIR or $ENGBENCH_LINKBENCH: a checkout of "
              "https://github.com/facebookarchive/linkbench built with `mvn -q -DskipTests package`)")
    if not args.iibench and not args.linkbench:
        print("bench_peers: nothing to compare; exiting")
        return 0
    seed = verdict.new_seed() if args.seed is None else args.seed
    print(f"bench_peers: order seed {seed} (each pair's order: engbench.peers.verdict.pair_orders)", flush=True)
    with tempfile.TemporaryDirectory(prefix="bench-peers-") as tmp, \
            MariaDB(Path(tmp) / "server", engine=args.engine,
                    settings={"cache_size": "128M", "flush_log_at_trx_commit": 1}) as db:
        tmp = Path(tmp)
        server = f"MariaDB {args.engine} (128 MiB cache, flush at commit, binlog off)"
        if args.iibench:
            client = mysqldb_client(args.iibench_python)
            res = pairs(args.pairs, seed, "iibench.py", lambda: iibench_py(db, args, tmp),
                        lambda: engbench_iibench(db, args, tmp), [("insert", "whole-run rows/s")])
            table(f"iibench: {server}, {args.rows} rows per run, {args.pairs} pairs in a seeded order (seed {seed}), "
                  "fresh tables; "
                  f"engbench variant=iibench-py, iibench.py through {client}", "iibench.py", res, "insert",
                  ("whole-run rows/s", "own rows/s", "server rows/s", "command rows/s"))
        if args.linkbench:
            with db.connect().cursor() as cur:
                cur.execute(f"CREATE USER '{lb.LB_USER}'@'127.0.0.1' IDENTIFIED BY '{lb.LB_PASSWORD}'")
                cur.execute(f"GRANT ALL ON *.* TO '{lb.LB_USER}'@'127.0.0.1'")
            # engbench's mariadb target reads the password from here (the iibench side is root, no password)
            os.environ["ENGBENCH_MYSQL_PASSWORD"] = lb.LB_PASSWORD
            try:
                res = pairs(args.pairs, seed, "LinkBench", lambda: lb.linkbench_java(db, args, tmp),
                            lambda: lb.engbench_linkbench(db, args, tmp),
                            [("load", "whole-run links/s"), ("request", "whole-run requests/s")])
            finally:
                os.environ.pop("ENGBENCH_MYSQL_PASSWORD", None)
            over = " ".join(f"-D {k}={v}" for k, v in lb.linkbench_overrides(db, args).items() if k != "password")
            head = (f"linkbench: {server}, maxid1={args.maxid1}, {args.loaders} loaders, {args.requesters} requesters, "
                    f"{args.seconds} s of requests, {args.pairs} pairs in a seeded order (seed {seed}), fresh tables, "
                    "both over TCP")
            table(f"{head}\nload (per loaded link)", "LinkBench", res, "load", ("whole-run links/s", "own links/s"))
            table("requests (per request)", "LinkBench", res, "request", ("whole-run requests/s", "own requests/s"))
            own = [r["own_requests_per_s"] for r in res["peer"]]
            print(f"\nLinkBench's own REQUEST PHASE Requests/second (its window includes connection sleeps): {own}")
            print(f"LinkBench's overrides: {over}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
