#!/usr/bin/env python3
"""engbench beside the reference clients on ONE private MariaDB, in alternating runs (peer, engbench,
engbench, peer, ...; >= 3 pairs), fresh tables every run; prints each run and, per phase, the
medians and the median of the per-pair ratios engbench / peer.

- iibench (`--iibench PATH`): engbench's `variant=iibench-py` against mytools
  `bench/ibench/iibench.py` (MySQL mode): rows/s, client CPU per row and server work per row.
- linkbench (`--linkbench DIR`, or $ENGBENCH_LINKBENCH): engbench's linkbench on the
  mariadb-<engine> target against LinkBench's LinkStoreMysql (facebookarchive/linkbench), same
  maxid1, loaders, requesters, request mix and duration: load links/s (client CPU and server work
  per loaded link) and request requests/s (client CPU and server work per request).

Server work comes from SHOW GLOBAL STATUS around each phase: statements = Questions,
Handler_read_next + Handler_read_prev, Innodb_data_written (page writes: lazy, by the page
cleaner), Innodb_os_log_written (redo), Innodb_buffer_pool_reads = buffer-pool misses. For iibench
each run starts on a quiet server (both clients' databases dropped, no dirty page) and its window
ends once the pages it dirtied are written (`quiesce`): without that, a run's data written counted
whatever the previous run (the other client's, in alternating order) had left dirty, and the pages
a client left dirty at its end depended on its speed (measured: iibench.py's 468 B/row after five
engbench runs against engbench's 285-300 B/row, the opposite of the 1.50x alternating pairs had
shown).

  .venv/bin/python benchmarks/bench_peers.py [--iibench PATH/iibench.py] [--linkbench DIR]
      [--pairs 3] [--engine innodb|myrocks] [--rows 1000000]
      [--maxid1 100001] [--requesters 2] [--loaders 2] [--seconds 60]

iibench.py: one file of https://github.com/mdcallag/mytools (bench/ibench/iibench.py; `git clone`
it anywhere, nothing to build). It imports MySQLdb (mysqlclient); where that is not installed it
runs through PyMySQL's MySQLdb shim, a slower client: the output says which. rows/s is over each
client's whole command (engbench run with its samplers and manifest: its fixed cost, mostly waiting
for iostat's and vmstat's report after the client's end, is ~1.3 s, ~10% of a 1M-row run here; iibench.py with its
start-up and a reporter that notices the end within 1 s); "own rows/s" is each client's own figure
(engbench: rows over the driver's client window; iibench.py: t_ips of its last report line, which
moves in steps of its 1-s reports); "server rows/s" is the same clock for both, the server's: rows
over the span from the first INSERT to the last one as its Com_insert counter shows them, polled
every 20 ms (InsertClock).

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
one user with a password (JDBC cannot use the unix socket). Rates are each client's own figures:
LinkBench's `Links/second` of its LOAD PHASE line (its load includes the up to 2.2 s each loader
sleeps before connecting) and the sum of its requesters' `requests/second` (each over its own
window of --seconds); engbench's load.links / load.seconds and rates.request.requests_per_s. Client
CPU: the JVM's whole process (JIT and GC included) per phase; engbench's driver process (load.cpu_s,
and the rest for the requests). The mix: LinkBench's config/FBWorkload.properties as it ships, and engbench
given the same values from that file: the ten percentages, read_uncorr_blend / write_uncorr_blend
and getlinklist_history.

Without any peer the script says what is missing and exits 0; a peer given but unusable (not a
file, LinkBench not built, no java) is refused with what to do, exit 2.

Server: engbench's own options for a private server (128 MiB buffer pool, flush at commit,
binlog off).
"""
import argparse
import importlib.util
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from engbench.run import params, runs
from engbench.run.servers.mariadb import MariaDB

WORK = {"statements": ("Questions",), "rows read next/prev": ("Handler_read_next", "Handler_read_prev"),
        "data written B": ("Innodb_data_written",), "redo written B": ("Innodb_os_log_written",),
        "pool misses": ("Innodb_buffer_pool_reads",)}
# Runs iibench.py as __main__, through PyMySQL's MySQLdb shim when mysqlclient is missing.
SHIM = ("import sys, runpy\ntry:\n import MySQLdb\nexcept ImportError:\n import pymysql\n"
        " pymysql.install_as_MySQLdb()\nsys.argv = sys.argv[1:]\nrunpy.run_path(sys.argv[0], run_name='__main__')")

# Put ahead of LinkBench's jar: the Connector/J 5.1.22 it bundles fails to connect to MariaDB 10.11
# (a NullPointerException building its collation map: 10.11 lists collations without an id); 5.1.49
# is the last 5.1 release, same driver class, same URL options.
CONNECTOR_J = "mysql-connector-java-5.1.49.jar"
# Both linkbench clients log in as this user over TCP (JDBC has no unix socket).
LB_USER, LB_PASSWORD = "peers", "Pw-peers-engbench"
# LinkBench's README DDL (facebookarchive/linkbench README.md, "MySQL Setup") without its
# `PARTITION BY key(id1) PARTITIONS 16`; ENGINE as the run's.
LB_DDL = [
    "CREATE TABLE linkdb.linktable (id1 bigint(20) unsigned NOT NULL DEFAULT '0', "
    "id2 bigint(20) unsigned NOT NULL DEFAULT '0', link_type bigint(20) unsigned NOT NULL DEFAULT '0', "
    "visibility tinyint(3) NOT NULL DEFAULT '0', data varchar(255) NOT NULL DEFAULT '', "
    "time bigint(20) unsigned NOT NULL DEFAULT '0', version int(11) unsigned NOT NULL DEFAULT '0', "
    "PRIMARY KEY (link_type, id1, id2), KEY id1_type (id1, link_type, visibility, time, id2, version, data)) "
    "ENGINE={engine} DEFAULT CHARSET=latin1",
    "CREATE TABLE linkdb.counttable (id bigint(20) unsigned NOT NULL DEFAULT '0', "
    "link_type bigint(20) unsigned NOT NULL DEFAULT '0', count int(10) unsigned NOT NULL DEFAULT '0', "
    "time bigint(20) unsigned NOT NULL DEFAULT '0', version bigint(20) unsigned NOT NULL DEFAULT '0', "
    "PRIMARY KEY (id, link_type)) ENGINE={engine} DEFAULT CHARSET=latin1",
    "CREATE TABLE linkdb.nodetable (id bigint(20) unsigned NOT NULL AUTO_INCREMENT, type int(10) unsigned NOT NULL, "
    "version bigint(20) unsigned NOT NULL, time int(10) unsigned NOT NULL, data mediumtext NOT NULL, "
    "PRIMARY KEY(id)) ENGINE={engine} DEFAULT CHARSET=latin1",
]
def child_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def numeric(st: dict) -> dict:
    """The integer counters of a SHOW GLOBAL STATUS result."""
    return {k: int(v) for k, v in st.items() if str(v).lstrip("-").isdigit()}


def status(db) -> dict:
    return numeric(db.global_status())


def driver_status(path: Path) -> dict:
    """SHOW GLOBAL STATUS as the driver recorded it (engine_stats_*.json of a server target)."""
    return numeric(json.loads(path.read_text())["global_status"])


def work_per(before: dict, after: dict, n: float) -> dict:
    return {name: sum(after.get(k, 0) - before.get(k, 0) for k in keys) / n for name, keys in WORK.items()}


# --- iibench ---

def quiesce(db, drop=(), timeout=180.0) -> int:
    """Drop the databases ``drop`` and wait until InnoDB's buffer pool holds no dirty page (its page
    cleaner told to flush everything: innodb_max_dirty_pages_pct 0 while waiting, then as it was).
    Before a run: no earlier run's pages are flushed inside its window.
    After a run: the pages it dirtied are written inside its window, whenever the cleaner gets to
    them, so data written per row does not depend on how much was still dirty when the client
    stopped (a faster client leaves more). Returns the statements it sent (they count in Questions)."""
    t0, sent = time.monotonic(), len(drop) + 5
    with db.connect().cursor() as cur:
        for d in drop:
            cur.execute(f"DROP DATABASE IF EXISTS {d}")
        cur.execute("SELECT @@GLOBAL.innodb_max_dirty_pages_pct, @@GLOBAL.innodb_max_dirty_pages_pct_lwm")
        pct, lwm = cur.fetchone()
        cur.execute("SET GLOBAL innodb_max_dirty_pages_pct_lwm = 0")
        cur.execute("SET GLOBAL innodb_max_dirty_pages_pct = 0")
        try:
            while time.monotonic() - t0 < timeout:
                cur.execute("SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_pages_dirty'")
                sent += 1
                if int(cur.fetchone()[1]) == 0:
                    break
                time.sleep(0.2)
            else:
                raise RuntimeError(f"InnoDB still has dirty pages after {timeout:.0f} s")
        finally:
            cur.execute(f"SET GLOBAL innodb_max_dirty_pages_pct = {pct}")
            cur.execute(f"SET GLOBAL innodb_max_dirty_pages_pct_lwm = {lwm}")
    return sent


class InsertClock:
    """The server's own clock on a load: a thread polls its INSERT statement counter (Com_insert,
    SHOW GLOBAL STATUS on its own connection; MariaDB 10.11 has no Innodb_rows_inserted) every
    ``every`` seconds. `stop()` gives (t_b - t_a, statements), t_a the last poll before the counter
    first moved and t_b the first poll at its final value: the span from the first INSERT's start
    to the last one's (a statement counts when it starts), in which all statements but the last ran
    (server_rate), whatever either client does before its first INSERT or after its last (start-up,
    reporting, a sampler's wait), to within one poll. Its own statements (`sent`) are subtracted
    from the clients'."""

    def __init__(self, db, every: float = 0.02):
        self.db, self.every = db, every
        self.samples, self.sent, self.error = [], 0, None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._poll, daemon=True)

    def _poll(self):
        try:
            self._loop()
        except Exception as exc:  # noqa: BLE001 - handed to stop() (and start() does not wait forever)
            self.error = exc
            self._stop.set()

    def _loop(self):
        with self.db.connect().cursor() as cur:
            while True:
                cur.execute("SHOW GLOBAL STATUS LIKE 'Com_insert'")
                self.samples.append((time.monotonic(), int(cur.fetchone()[1])))
                self.sent += 1
                if self._stop.wait(self.every):
                    return

    def start(self):
        self._thread.start()
        while not self.samples and not self._stop.is_set():
            time.sleep(0.005)
        if self.error:
            raise self.error
        return self

    def stop(self) -> tuple[float, int]:
        """Stop polling; (t_b - t_a in seconds, INSERT statements counted), (nan, 0) without any."""
        self._stop.set()
        self._thread.join()
        if self.error:
            raise self.error
        base, final = self.samples[0][1], self.samples[-1][1]
        moved = [i for i, (_, v) in enumerate(self.samples) if v > base]
        if not moved:
            return float("nan"), 0
        t_a = self.samples[moved[0] - 1][0]
        t_b = next(t for t, v in self.samples if v == final)
        return t_b - t_a, final - base


def server_rate(rows: int, statements: int, span: float) -> float:
    """rows/s on the server's clock: the rows of all INSERTs but the last over the span from the
    first's start to the last's (InsertClock), rows · (statements − 1) / statements / span (every
    INSERT carries the same rows but maybe the last; nan with fewer than 2 statements)."""
    return rows * (statements - 1) / statements / span if statements >= 2 and span > 0 else float("nan")


IIBENCH_DATABASES = ("ibpy", "ibeb")


def measured(db, run):
    """run() -> (rows, client CPU s, wall s, the client's own rows/s), rows possibly a function called
    once the server's counters are read (so that counting rows is not counted as work); returns
    {"insert": rows/s over the whole command, the client's own rows/s, CPU us/row and server work
    per row}. Both clients' server work is counted the same way: from a quiet server (both clients'
    databases dropped, no dirty page) to the moment the pages the run dirtied are written
    (quiesce), so it includes each one's CREATE TABLE and nothing of the other's run."""
    quiesce(db, drop=IIBENCH_DATABASES)
    with db.connect().cursor() as cur:
        for d in IIBENCH_DATABASES:
            cur.execute(f"CREATE DATABASE {d}")
    before, c0, t0 = status(db), child_cpu(), time.monotonic()
    clock = InsertClock(db).start()
    rows, cpu, wall, own = run()
    wall = wall if wall is not None else time.monotonic() - t0
    cpu = cpu if cpu is not None else child_cpu() - c0
    span, statements = clock.stop()
    sent = clock.sent + quiesce(db)
    after = status(db)
    after["Questions"] -= sent  # the script's own polls are not the client's statements
    rows = rows() if callable(rows) else rows
    return {"insert": {"rows/s": rows / wall, "own rows/s": own, "server rows/s": server_rate(rows, statements, span),
                       "client CPU us/row": cpu / rows * 1e6, **work_per(before, after, rows)}}


def iibench_py(db, args, tmp):
    argv = [sys.executable, "-c", SHIM, args.iibench, "--dbms=mysql", f"--db_socket={db.socket}", "--db_user=root",
            "--db_name=ibpy", f"--engine={'rocksdb' if args.engine == 'myrocks' else 'innodb'}", "--setup",
            "--secondary_at_start", "--num_secondary_indexes=3", f"--max_rows={args.rows}", "--query_threads=0",
            "--secs_per_report=1"]

    def run():
        out = subprocess.run(argv, capture_output=True, text=True)
        if out.returncode != 0:
            raise RuntimeError(f"iibench.py failed: {out.stderr[-2000:]}\n{out.stdout[-2000:]}")

        def rows():
            with db.connect().cursor() as cur:
                cur.execute("SELECT COUNT(*) FROM ibpy.purchases_index")
                return cur.fetchone()[0]
        # its own figure: t_ips (inserted / seconds since its start) of its last report line
        reports = [ln.split("\t") for ln in out.stdout.splitlines() if ln.count("\t") == 16]
        own = [float(r[3]) for r in reports if r[3].replace(".", "", 1).isdigit()]
        return rows, None, None, own[-1] if own else float("nan")
    return measured(db, run)


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
        # the driver's whole process CPU (a fair match for iibench.py's whole process)
        # its own figure: rows over the driver's client window (no samplers' start and stop)
        return (s["documents_inserted"], proc["cpu_user_s"] + proc["cpu_sys_s"], None,
                s["documents_inserted"] / s["client"]["seconds"])
    return measured(db, run)


# --- linkbench ---

def linkbench_problem(home: Path):
    """Why LinkBench at `home` cannot run (None: it can)."""
    if not home.is_dir():
        return f"{home} is not a directory"
    if not (home / "target" / "FacebookLinkBench.jar").is_file():
        return (f"{home} has no target/FacebookLinkBench.jar: build it there with `mvn -q -DskipTests package` "
                "(Maven and a JDK; Java 17 works)")
    if not (home / "target" / CONNECTOR_J).is_file():
        return (f"{home} has no target/{CONNECTOR_J} (the Connector/J 5.1.22 LinkBench bundles cannot connect to "
                f"MariaDB 10.11): `mvn -q dependency:copy -Dartifact=mysql:mysql-connector-java:5.1.49 "
                f"-DoutputDirectory={home / 'target'}`")
    for f in ("LinkConfigMysql.properties", "FBWorkload.properties", "Distribution.dat"):
        if not (home / "config" / f).is_file():
            return f"{home} has no config/{f}: is it a LinkBench checkout?"
    if not shutil.which("java"):
        return "no `java` on PATH (LinkBench needs a JRE)"
    return None


# LinkBench's workload settings engbench takes from the peer's own config/FBWorkload.properties (so
# that both run the same mix): the ten percentages, the uncorrelated blends and getlinklist_history.
MIX_KEYS = ["addlink", "deletelink", "updatelink", "countlink", "getlink", "getlinklist", "getnode", "addnode",
            "updatenode", "deletenode", "read_uncorr_blend", "write_uncorr_blend", "getlinklist_history"]


def workload_settings(home: Path) -> dict:
    """{key: value} of MIX_KEYS from LinkBench's config/FBWorkload.properties."""
    props = {}
    for line in (home / "config" / "FBWorkload.properties").read_text().splitlines():
        if "=" in line and not line.lstrip().startswith("#"):
            k, v = line.split("=", 1)
            props[k.strip()] = v.strip()
    missing = [k for k in MIX_KEYS if k not in props]
    if missing:
        raise RuntimeError(f"{home}/config/FBWorkload.properties has no {', '.join(missing)}")
    return {k: float(props[k]) for k in MIX_KEYS}


def fresh_linkbench_databases(db, engine):
    """Drop both clients' databases (fresh tables and an emptier buffer pool for every run), wait for
    the previous run's dirty pages to be written, and make LinkBench's tables."""
    eng = "ROCKSDB" if engine == "myrocks" else "InnoDB"
    quiesce(db, drop=("linkdb", "ebdb"))  # and no page of the previous run left to flush in this one
    with db.connect().cursor() as cur:
        cur.execute("CREATE DATABASE linkdb")
        for ddl in LB_DDL:
            cur.execute(ddl.format(engine=eng))


def linkbench_overrides(db, args) -> dict:
    """LinkBench's -D overrides: the server, the size, the concurrency and duration; the rest of its
    config as it ships (config/LinkConfigMysql.properties, config/FBWorkload.properties)."""
    return {"host": "127.0.0.1", "port": str(db.port), "user": LB_USER, "password": LB_PASSWORD, "dbid": "linkdb",
            "maxid1": str(args.maxid1), "loaders": str(args.loaders), "requesters": str(args.requesters),
            "requests": str(10**12), "maxtime": str(args.seconds), "warmup_time": "0",
            # fewer progress lines; no effect on the work
            "progressfreq": "100000", "displayfreq": "100000", "load_progress_interval": str(10**9),
            "req_progress_interval": str(10**9)}


def linkbench_java(db, args, tmp: Path):
    """LinkBench's load (-l) then requests (-r), each its own JVM; {"load": ..., "request": ...}."""
    home = Path(args.linkbench)
    fresh_linkbench_databases(db, args.engine)
    base = ["java", "-Xmx1000m", "-cp", f"{home / 'target' / CONNECTOR_J}:{home / 'target' / 'FacebookLinkBench.jar'}",
            "com.facebook.LinkBench.LinkBenchDriver", "-c", str(home / "config" / "LinkConfigMysql.properties")]
    for k, v in linkbench_overrides(db, args).items():
        base += ["-D", f"{k}={v}"]
    env = {**os.environ, "LINKBENCH_HOME": str(home)}
    out = {}
    for phase, flag in (("load", "-l"), ("request", "-r")):
        before, c0 = status(db), child_cpu()
        p = subprocess.run(base + [flag], capture_output=True, text=True, cwd=home, env=env)
        cpu = child_cpu() - c0
        after = status(db)
        text = p.stdout + p.stderr
        (tmp / f"linkbench-{phase}.log").write_text(text)
        if p.returncode != 0 or "Benchmark did not complete cleanly" in text:
            raise RuntimeError(f"LinkBench {phase} failed (exit {p.returncode}):\n{text[-3000:]}")
        if phase == "load":
            m = re.search(r"LOAD PHASE COMPLETED\.\s+Loaded (\d+) nodes.*?Loaded (\d+) links.*?"
                          r"Took ([\d.]+) seconds\.\s+Links/second = (\d+)", text, re.S)
            if not m:
                raise RuntimeError(f"LinkBench load: no LOAD PHASE COMPLETED line in\n{text[-3000:]}")
            links = int(m.group(2))
            out["load"] = {"links": links, "links/s": float(m.group(4)), "client CPU us/link": cpu / links * 1e6,
                           **work_per(before, after, links)}
        else:
            per_thread = re.findall(r"ThreadID = \d+ total requests = (\d+) requests/second = (\d+)", text)
            total = re.search(r"REQUEST PHASE COMPLETED\. (\d+) requests done in (\d+) seconds\. "
                              r"Requests/second = (\d+)", text)
            if len(per_thread) != args.requesters or not total:
                raise RuntimeError(f"LinkBench requests: expected {args.requesters} requester summaries and the "
                                   f"REQUEST PHASE COMPLETED line in\n{text[-3000:]}")
            n = sum(int(r) for r, _ in per_thread)
            out["request"] = {"requests": n, "requests/s": float(sum(int(s) for _, s in per_thread)),
                              "client CPU us/request": cpu / n * 1e6, **work_per(before, after, n)}
            out["own_requests_per_s"] = int(total.group(3))
    return out


def engbench_linkbench(db, args, tmp: Path):
    """engbench run of linkbench on mariadb-<engine> (the driver with its samplers), as a user runs it;
    {"load": ..., "request": ...} from its summary and the server status it captured after the load."""
    fresh_linkbench_databases(db, args.engine)
    sets = [f"maxid1={args.maxid1}", f"threads={args.requesters}", f"loaders={args.loaders}",
            # rows per load INSERT as LinkStoreMysql's default mysql_bulk_insert_batch (1024)
            "load_batch=1024", *(f"{k}={v}" for k, v in workload_settings(Path(args.linkbench)).items()), "requests=0", f"max_seconds={args.seconds}", "warmup_seconds=0",
            "mariadb.host=127.0.0.1", f"mariadb.port={db.port}", f"mariadb.user={LB_USER}", "mariadb.database=ebdb"]
    before = status(db)
    res = runs.execute(params.resolve("linkbench", f"mariadb-{args.engine}", sets), out_dir=tmp / "runs",
                       show_progress=False)
    after = status(db)
    if res.status != "ok":
        raise RuntimeError(f"engbench run failed: {res.error}")
    d = res.run_dir / "driver"
    s = json.loads((d / "summary.json").read_text())
    loaded, ran = driver_status(d / "engine_stats_before.json"), driver_status(d / "engine_stats_after.json")
    links, n = s["load"]["links"], s["totals"]["request"]["requests"]
    cpu = s["driver_process"]["cpu_user_s"] + s["driver_process"]["cpu_sys_s"]
    del after  # the run's own captures bound the phases; `after` would add engbench's post-run queries
    return {"load": {"links": links, "links/s": links / s["load"]["seconds"],
                     "client CPU us/link": s["load"]["cpu_s"] / links * 1e6, **work_per(before, loaded, links)},
            "request": {"requests": n, "requests/s": s["rates"]["request"]["requests_per_s"],
                        "client CPU us/request": (cpu - s["load"]["cpu_s"]) / n * 1e6, **work_per(loaded, ran, n)}}


# --- the comparison ---

def pairs(n, peer_name, peer, ours, rate_key):
    """Alternating runs (peer first in even pairs); {"peer": [...], "engbench": [...]}."""
    out = {"peer": [], "engbench": []}
    for p in range(n):
        for who in (["peer", "engbench"] if p % 2 == 0 else ["engbench", "peer"]):
            out[who].append(peer() if who == "peer" else ours())
            r = out[who][-1]
            shown = ", ".join(f"{ph} {r[ph][k]:.0f} {k}" for ph, k in rate_key if ph in r)
            print(f"  pair {p} {peer_name if who == 'peer' else 'engbench':<10} {shown}", file=sys.stderr, flush=True)
    return out


def table(title, peer_name, res, phase):
    print(f"\n{title}")
    print(f"{'metric':<24} {peer_name:>12} {'engbench':>12} {'median ratio engbench/peer':>28}")
    for k in res["engbench"][0][phase]:
        peer = statistics.median(r[phase][k] for r in res["peer"])
        eb = statistics.median(r[phase][k] for r in res["engbench"])
        ratios = [e[phase][k] / q[phase][k] for e, q in zip(res["engbench"], res["peer"]) if q[phase][k]]
        ratio = f"{statistics.median(ratios):.2f}" if ratios else "-"
        print(f"{k:<24} {peer:>12.4g} {eb:>12.4g} {ratio:>28}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--iibench", help="path of mytools' bench/ibench/iibench.py")
    ap.add_argument("--linkbench", default=os.environ.get("ENGBENCH_LINKBENCH"),
                    help="a LinkBench checkout built with `mvn -DskipTests package` (default $ENGBENCH_LINKBENCH)")
    ap.add_argument("--engine", default="innodb", choices=["innodb", "myrocks"])
    ap.add_argument("--pairs", type=int, default=3)
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
    if args.linkbench and (why := linkbench_problem(Path(args.linkbench))):
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
    with tempfile.TemporaryDirectory(prefix="bench-peers-") as tmp, \
            MariaDB(Path(tmp) / "server", engine=args.engine,
                    settings={"cache_size": "128M", "flush_log_at_trx_commit": 1}) as db:
        tmp = Path(tmp)
        server = f"MariaDB {args.engine} (128 MiB cache, flush at commit, binlog off)"
        if args.iibench:
            client = ("mysqlclient" if importlib.util.find_spec("MySQLdb")
                      else "PyMySQL's MySQLdb shim (slower than mysqlclient)")
            res = pairs(args.pairs, "iibench.py", lambda: iibench_py(db, args, tmp),
                        lambda: engbench_iibench(db, args, tmp), [("insert", "rows/s")])
            table(f"iibench: {server}, {args.rows} rows per run, {args.pairs} alternating pairs, fresh tables; "
                  f"engbench variant=iibench-py, iibench.py through {client}", "iibench.py", res, "insert")
        if args.linkbench:
            with db.connect().cursor() as cur:
                cur.execute(f"CREATE USER '{LB_USER}'@'127.0.0.1' IDENTIFIED BY '{LB_PASSWORD}'")
                cur.execute(f"GRANT ALL ON *.* TO '{LB_USER}'@'127.0.0.1'")
            # engbench's mariadb target reads the password from here (the iibench side is root, no password)
            os.environ["ENGBENCH_MYSQL_PASSWORD"] = LB_PASSWORD
            try:
                res = pairs(args.pairs, "LinkBench", lambda: linkbench_java(db, args, tmp),
                            lambda: engbench_linkbench(db, args, tmp), [("load", "links/s"), ("request", "requests/s")])
            finally:
                os.environ.pop("ENGBENCH_MYSQL_PASSWORD", None)
            over = " ".join(f"-D {k}={v}" for k, v in linkbench_overrides(db, args).items() if k != "password")
            head = (f"linkbench: {server}, maxid1={args.maxid1}, {args.loaders} loaders, {args.requesters} requesters, "
                    f"{args.seconds} s of requests, {args.pairs} alternating pairs, fresh tables, both over TCP")
            table(f"{head}\nload (per loaded link)", "LinkBench", res, "load")
            table("requests (per request)", "LinkBench", res, "request")
            own = [r["own_requests_per_s"] for r in res["peer"]]
            print(f"\nLinkBench's own REQUEST PHASE Requests/second (its window includes connection sleeps): {own}")
            print(f"LinkBench's overrides: {over}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
