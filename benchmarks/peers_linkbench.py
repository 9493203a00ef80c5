"""LinkBench beside engbench's linkbench for bench_peers.py (run from this folder, so a plain import
works): LinkBench's LinkStoreMysql (facebookarchive/linkbench, built outside this repository) and
engbench's linkbench on one private MariaDB, each run on fresh databases; per phase the rates,
client CPU and server work per loaded link and per request. bench_peers.py's docstring says what
each figure is."""
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

from engbench.peers import rates
from engbench.peers.cpu import CpuWindow
from engbench.peers.timeline import StatusClock
from engbench.run import params, runs
from peers_common import child_cpu, driver_status, quiesce, status, work_per

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
        clock, window = StatusClock(db).start(), CpuWindow([db.pid])
        p = subprocess.run(base + [flag], capture_output=True, text=True, cwd=home, env=env)
        cpu = child_cpu() - c0
        other, samples = window.close()["other_pct"], clock.stop()
        after = status(db)
        after["Questions"] -= clock.polls
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
            out["load"] = {"links": links, "whole-run links/s": rates.whole_run_rate(links, samples),
                           "own links/s": float(m.group(4)), "client CPU us/link": cpu / links * 1e6,
                           **work_per(before, after, links, args.engine), "other CPU %": other}
        else:
            per_thread = re.findall(r"ThreadID = \d+ total requests = (\d+) requests/second = (\d+)", text)
            total = re.search(r"REQUEST PHASE COMPLETED\. (\d+) requests done in (\d+) seconds\. "
                              r"Requests/second = (\d+)", text)
            if len(per_thread) != args.requesters or not total:
                raise RuntimeError(f"LinkBench requests: expected {args.requesters} requester summaries and the "
                                   f"REQUEST PHASE COMPLETED line in\n{text[-3000:]}")
            n = sum(int(r) for r, _ in per_thread)
            out["request"] = {"requests": n, "whole-run requests/s": rates.whole_run_rate(n, samples, "Questions"),
                              "own requests/s": float(sum(int(s) for _, s in per_thread)),
                              "client CPU us/request": cpu / n * 1e6, **work_per(before, after, n, args.engine), "other CPU %": other}
            out["own_requests_per_s"] = int(total.group(3))
    return out


def engbench_linkbench(db, args, tmp: Path):
    """engbench run of linkbench on mariadb-<engine> (the driver with its samplers), as a user runs it;
    {"load": ..., "request": ...} from its summary and the server status it captured after the load.
    Whole run, on the server's clock: the load from the run's first statement (engbench's snapshot
    of the server) to the load's end (its last commit, summary load.end_unix_s); the requests from
    the request window's start to the client's end (after them, the run's own status reads)."""
    fresh_linkbench_databases(db, args.engine)
    sets = [f"maxid1={args.maxid1}", f"threads={args.requesters}", f"loaders={args.loaders}",
            # rows per load INSERT as LinkStoreMysql's default mysql_bulk_insert_batch (1024)
            "load_batch=1024", *(f"{k}={v}" for k, v in workload_settings(Path(args.linkbench)).items()), "requests=0",
            f"max_seconds={args.seconds}", "warmup_seconds=0",
            "mariadb.host=127.0.0.1", f"mariadb.port={db.port}", f"mariadb.user={LB_USER}", "mariadb.database=ebdb"]
    before = status(db)
    clock, window = StatusClock(db).start(), CpuWindow([db.pid])
    res = runs.execute(params.resolve("linkbench", f"mariadb-{args.engine}", sets), out_dir=tmp / "runs",
                       show_progress=False)
    other, samples = window.close()["other_pct"], clock.stop()
    if res.status != "ok":
        raise RuntimeError(f"engbench run failed: {res.error}")
    d = res.run_dir / "driver"
    s = json.loads((d / "summary.json").read_text())
    loaded, ran = driver_status(d / "engine_stats_before.json"), driver_status(d / "engine_stats_after.json")
    links, n = s["load"]["links"], s["totals"]["request"]["requests"]
    cpu = s["driver_process"]["cpu_user_s"] + s["driver_process"]["cpu_sys_s"]
    t0, load_end = rates.first_statement(samples), s["load"]["end_unix_s"]
    req_start, req_end = s["client"]["measured_start_unix_s"], s["client"]["end_unix_s"]
    # the clock's own polls are not the client's statements (the driver read its status after the
    # load and after the requests)
    loaded["Questions"] -= sum(1 for t, _ in samples if t <= load_end)
    ran["Questions"] -= sum(1 for t, _ in samples if t <= req_end)
    return {"load": {"links": links, "whole-run links/s": links / (load_end - t0),
                     "own links/s": links / s["load"]["seconds"],
                     "client CPU us/link": s["load"]["cpu_s"] / links * 1e6, **work_per(before, loaded, links, args.engine),
                     "other CPU %": other},
            "request": {"requests": n, "whole-run requests/s": n / (req_end - req_start),
                        "own requests/s": s["rates"]["request"]["requests_per_s"],
                        "client CPU us/request": (cpu - s["load"]["cpu_s"]) / n * 1e6, **work_per(loaded, ran, n, args.engine),
                        "other CPU %": other}}
