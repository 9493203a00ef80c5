#!/usr/bin/env python3
"""LinkBench's load beside engbench's linkbench load on ONE private MariaDB InnoDB (issue 30: why
the server writes a different amount per loaded link): each client loads alone into fresh tables
(LinkBench: `LinkBenchDriver -l` only; engbench: `engbench run linkbench` with one read request
after its load), then the databases are compared.

Per run, per loaded link: the server's status deltas over the load (the window bench_peers.py
reads: to the client's end; engbench: its engine_stats_before.json, taken right after its load)
and to a quiet server (`quiesce`: every page the load dirtied written, so page writes no longer
depend on when the client stopped). Per table: COUNT(*), SUM/AVG(LENGTH(data)), information_schema
data_length / index_length, and each index's leaf pages and size after ANALYZE TABLE
(mysql.innodb_index_stats): how full the load left the pages.

    .venv/bin/python benchmarks/peers_linkbench_load.py --linkbench DIR [--maxid1 100001]
        [--loaders 2] [--order lb,eb] [--json OUT]

Server as bench_peers.py's (128 MiB buffer pool, flush at commit, binlog off); LinkBench built as
bench_peers.py says. Bytes and counts are what to read here; the load times are noisy on a shared
machine."""
import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from engbench.run import params, runs
from engbench.run.servers.mariadb import MariaDB
from peers_common import driver_status, quiesce, status
import peers_linkbench as lb

COUNTERS = ["Questions", "Com_insert", "Com_replace", "Com_commit", "Bytes_received", "Handler_write",
            "Innodb_os_log_written", "Innodb_data_written", "Innodb_pages_written", "Innodb_dblwr_pages_written",
            "Innodb_buffer_pool_reads", "Innodb_buffer_pool_write_requests"]
TABLES = {"lb": ("linkdb", {"link": "linktable", "count": "counttable", "node": "nodetable"}),
          "eb": ("ebdb", {"link": "lb_link", "count": "lb_count", "node": "lb_node"})}
# engbench's one request after its load: a get_node (a read), so that nothing but the load writes
READ_ONLY_MIX = {**{k: 0 for k in lb.MIX_KEYS[:10]}, "getnode": 100}


def table_figures(db, who) -> dict:
    """{table: {rows, data_sum, data_avg, data_length, index_length, <index> leaf pages / size}}."""
    schema, names = TABLES[who]
    out = {}
    with db.connect().cursor() as cur:
        for short, t in names.items():
            cur.execute(f"ANALYZE TABLE {schema}.{t} PERSISTENT FOR ALL")
            cur.fetchall()
            data = "SUM(LENGTH(data)), AVG(LENGTH(data))" if short != "count" else "0, 0"
            cur.execute(f"SELECT COUNT(*), {data} FROM {schema}.{t}")
            n, total, avg = cur.fetchone()
            cur.execute("SELECT data_length, index_length FROM information_schema.TABLES "
                        "WHERE table_schema=%s AND table_name=%s", (schema, t))
            dl, il = cur.fetchone()
            f = {"rows": n, "data_sum": int(total or 0), "data_avg": float(avg or 0), "data_length": dl,
                 "index_length": il}
            cur.execute("SELECT index_name, stat_name, stat_value FROM mysql.innodb_index_stats WHERE database_name=%s "
                        "AND table_name=%s AND stat_name IN ('n_leaf_pages', 'size')", (schema, t))
            for index, stat, v in sorted(cur.fetchall()):
                f[f"{index} {'leaf pages' if stat == 'n_leaf_pages' else 'pages'}"] = int(v)
            out[short] = f
    return out


def load_linkbench(db, args, tmp):
    home = Path(args.linkbench)
    lb.fresh_linkbench_databases(db, "innodb")
    argv = ["java", "-Xmx1000m", "-cp", f"{home / 'target' / lb.CONNECTOR_J}:{home / 'target' / 'FacebookLinkBench.jar'}",
            "com.facebook.LinkBench.LinkBenchDriver", "-c", str(home / "config" / "LinkConfigMysql.properties")]
    ov = lb.linkbench_overrides(db, argparse.Namespace(maxid1=args.maxid1, loaders=args.loaders, requesters=1, seconds=1))
    for k, v in ov.items():
        argv += ["-D", f"{k}={v}"]
    before = status(db)
    p = subprocess.run(argv + ["-l"], capture_output=True, text=True, cwd=home, env={**os.environ, "LINKBENCH_HOME": str(home)})
    (tmp / "linkbench-load.log").write_text(p.stdout + p.stderr)
    if p.returncode != 0 or "LOAD PHASE COMPLETED" not in p.stdout + p.stderr:
        raise RuntimeError(f"LinkBench load failed (exit {p.returncode}):\n{(p.stdout + p.stderr)[-3000:]}")
    return before, status(db)


def load_engbench(db, args, tmp):
    lb.fresh_linkbench_databases(db, "innodb")
    sets = [f"maxid1={args.maxid1}", f"loaders={args.loaders}", "load_batch=1024", "threads=1", "requests=1",
            *(f"{k}={v}" for k, v in {**lb.workload_settings(Path(args.linkbench)), **READ_ONLY_MIX}.items()),
            "warmup_seconds=0", "mariadb.host=127.0.0.1", f"mariadb.port={db.port}", f"mariadb.user={lb.LB_USER}",
            "mariadb.database=ebdb"]
    before = status(db)
    res = runs.execute(params.resolve("linkbench", "mariadb-innodb", sets), out_dir=tmp / "runs", show_progress=False)
    if res.status != "ok":
        raise RuntimeError(f"engbench run failed: {res.error}")
    return before, driver_status(res.run_dir / "driver" / "engine_stats_before.json")


def measure(db, who, args, tmp) -> dict:
    before, loaded = (load_linkbench if who == "lb" else load_engbench)(db, args, tmp)
    quiesce(db)
    quiet = status(db)
    tables = table_figures(db, who)
    links = tables["link"]["rows"]
    per = {f"{k} (load)": (loaded.get(k, 0) - before.get(k, 0)) / links for k in COUNTERS}
    per.update({f"{k} (to quiet)": (quiet.get(k, 0) - before.get(k, 0)) / links
                for k in ("Innodb_os_log_written", "Innodb_data_written", "Innodb_pages_written")})
    return {"who": who, "links": links, "per_link": per, "tables": tables}


def fmt(x) -> str:
    return f"{x:,.0f}" if abs(x) >= 1000 else f"{x:.4g}"


def show(results):
    """A column per run; with one run of each client, also engbench / LinkBench."""
    names = [("LinkBench" if r["who"] == "lb" else "engbench") for r in results]
    pair = sorted(names) == ["LinkBench", "engbench"]
    eb, peer = (results[names.index("engbench")], results[names.index("LinkBench")]) if pair else (None, None)

    def row(label, values, e=None, p=None):
        ratio = f"{e / p:>16.2f}" if pair and p else ""
        print(f"{label:<44}" + "".join(f"{fmt(v):>14}" for v in values) + ratio)
    print(f"\nper loaded link ({results[0]['links']:,} links)")
    print(f"{'':<44}" + "".join(f"{n:>14}" for n in names) + (f"{'eb / LinkBench':>16}" if pair else ""))
    for k in results[0]["per_link"]:
        row(k, [r["per_link"][k] for r in results], *((eb["per_link"][k], peer["per_link"][k]) if pair else ()))
    for t in ("link", "count", "node"):
        print(f"\n{t} table")
        for k in dict.fromkeys(k for r in results for k in r["tables"][t]):
            get = lambda r: r["tables"][t].get(k, float("nan"))  # noqa: E731
            row(k, [get(r) for r in results], *((get(eb), get(peer)) if pair else ()))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--linkbench", default=os.environ.get("ENGBENCH_LINKBENCH"), required="ENGBENCH_LINKBENCH" not in os.environ)
    ap.add_argument("--maxid1", type=int, default=100001)
    ap.add_argument("--loaders", type=int, default=2)
    ap.add_argument("--order", default="lb,eb", help="runs in this order, comma-separated lb / eb (default lb,eb)")
    ap.add_argument("--json", help="write the figures here too")
    args = ap.parse_args()
    order = args.order.split(",")
    if not order or any(w not in ("lb", "eb") for w in order):
        ap.error("--order: lb and eb, comma-separated")
    if why := lb.linkbench_problem(Path(args.linkbench)):
        print(f"peers_linkbench_load: refused: LinkBench: {why}")
        return 2
    with tempfile.TemporaryDirectory(prefix="peers-lb-load-") as tmp, \
            MariaDB(Path(tmp) / "server", engine="innodb", settings={"cache_size": "128M", "flush_log_at_trx_commit": 1}) as db:
        with db.connect().cursor() as cur:
            cur.execute(f"CREATE USER '{lb.LB_USER}'@'127.0.0.1' IDENTIFIED BY '{lb.LB_PASSWORD}'")
            cur.execute(f"GRANT ALL ON *.* TO '{lb.LB_USER}'@'127.0.0.1'")
        os.environ["ENGBENCH_MYSQL_PASSWORD"] = lb.LB_PASSWORD
        try:
            results = []
            for who in order:
                results.append(measure(db, who, args, Path(tmp)))
                print(f"  {who}: {results[-1]['links']:,} links", file=sys.stderr, flush=True)
        finally:
            os.environ.pop("ENGBENCH_MYSQL_PASSWORD", None)
    show(results)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1, default=float))
    return 0


if __name__ == "__main__":
    sys.exit(main())
