"""engbench's workloads as the reference clients run them (issue 19), on real servers: LinkBench's
SQL on a private MariaDB (InnoDB and MyRocks) — get_links_list through the covering id1_type index
without a sort, link writes in LinkBench's statements without a SELECT ... FOR UPDATE probe — read
from the server's own counters and general log.

Needs scripts/setup_servers.sh (MariaDB) and a driver built with the targets; skipped otherwise."""

import json
import shutil
import subprocess

import pytest

from engbench.run import driver, params, runs
from engbench.run.servers import mariadb as mariadb_mod
from engbench.run.servers.mariadb import MariaDB

PASSWORD = "Pw-r3fcl-engbench"
MIX = ["addlink", "deletelink", "updatelink", "countlink", "getlink", "getlinklist", "getnode", "addnode",
       "updatenode", "deletenode"]


def _targets() -> set:
    try:
        return {t["name"] for t in driver.describe().get("targets", [])}
    except Exception:  # noqa: BLE001 - no driver: skip
        return set()


no_mariadb = mariadb_mod.unavailable_reason() or (None if "mariadb-innodb" in _targets() else "driver built without targets")
needs_mariadb = pytest.mark.skipif(bool(no_mariadb), reason=str(no_mariadb))


@pytest.fixture(scope="module", params=["innodb", "myrocks"])
def server(request, tmp_path_factory):
    if no_mariadb:
        pytest.skip(str(no_mariadb))
    with MariaDB(tmp_path_factory.mktemp(f"ref-{request.param}"), engine=request.param,
                 settings={"cache_size": "64M"}) as db:
        with db.connect().cursor() as cur:
            cur.execute(f"CREATE USER 'bench'@'127.0.0.1' IDENTIFIED BY '{PASSWORD}'")
            cur.execute("GRANT ALL ON *.* TO 'bench'@'127.0.0.1'")
        yield db


def linkbench(db, out, only: dict, extra=()):
    """A linkbench run on `db` whose request mix is `only` (op param -> percent, the rest 0). The graph
    is the small log-normal one: what these tests assert (the statements per request, the index a read
    uses, counts kept without a client lock) does not depend on the out-degrees, and LinkBench's own
    degree data at maxid1=400 gives 2,400 links per node (a 960k-link load: 83 s of a 90-s test on
    MyRocks, measured 2026-11-26); the real graph is test_refclients_linkbench.py's."""
    mix = [f"{m}={only.get(m, 0)}" for m in MIX]
    conn = ["mariadb.host=127.0.0.1", f"mariadb.port={db.port}", "mariadb.user=bench", "mariadb.database=rc"]
    req = params.resolve("linkbench", f"mariadb-{db.engine}",
                         ["graph=lognormal", "maxid1=400", "load_batch=50", "threads=1", *mix, *conn, *extra])
    res = runs.execute(req, out_dir=out, show_progress=False)
    assert res.status == "ok", res.error
    return res


def status_delta(res) -> dict:
    """SHOW GLOBAL STATUS after the run minus before it (after the load), as ints."""
    d = res.run_dir / "driver"
    before, after = (json.loads((d / f"engine_stats_{w}.json").read_text())["global_status"] for w in ("before", "after"))
    return {k: int(after[k]) - int(before[k]) for k in after if k in before and str(after[k]).lstrip("-").isdigit()}


@needs_mariadb
def test_get_links_list_uses_the_covering_index_without_a_sort(server, scratch, monkeypatch):
    """The statement the driver sent (from the general log) EXPLAINs as LinkBench's: key id1_type,
    no filesort; and the server sorted nothing over the requests."""
    monkeypatch.setenv("ENGBENCH_MYSQL_PASSWORD", PASSWORD)
    with server.connect().cursor() as cur:
        cur.execute("SET GLOBAL log_output='TABLE'")
        cur.execute("TRUNCATE mysql.general_log")
        cur.execute("SET GLOBAL general_log=1")
    try:
        res = linkbench(server, scratch / "raw", {"getlinklist": 100}, ["requests=300"])
    finally:
        with server.connect().cursor() as cur:
            cur.execute("SET GLOBAL general_log=0")
    delta = status_delta(res)
    assert delta["Sort_range"] == 0 and delta["Sort_scan"] == 0 and delta["Sort_rows"] == 0
    with server.connect().cursor() as cur:
        cur.execute("SELECT CONVERT(argument USING utf8mb4) FROM mysql.general_log WHERE command_type='Query' "
                    "AND argument LIKE 'SELECT id1, id2%ORDER BY time DESC%' LIMIT 1")
        (sql,) = cur.fetchone()
        cur.execute("USE rc")
        cur.execute("EXPLAIN " + sql)
        cols = [c[0] for c in cur.description]
        plan = [dict(zip(cols, r)) for r in cur.fetchall()]
    assert len(plan) == 1 and plan[0]["key"] == "id1_type", plan
    assert "filesort" not in (plan[0]["Extra"] or ""), plan
    assert res.status == "ok" and json.loads((res.run_dir / "driver" / "summary.json").read_text())[
        "totals"]["get_links_list"]["requests"] == 300


@needs_mariadb
@pytest.mark.parametrize("op, mix", [("add_link", {"addlink": 100}), ("update_link", {"updatelink": 100}),
                                     ("delete_link", {"deletelink": 100})])
def test_link_writes_take_at_most_two_statements(server, scratch, monkeypatch, op, mix):
    """Per link write, at most 2 data statements (Com_insert + Com_update + Com_delete + Com_select)
    and no SELECT probe or BEGIN: LinkBench's INSERT ... ON DUPLICATE KEY UPDATE and count upsert."""
    monkeypatch.setenv("ENGBENCH_MYSQL_PASSWORD", PASSWORD)
    res = linkbench(server, scratch / "raw", mix, ["requests=400"])
    delta = status_delta(res)
    n = json.loads((res.run_dir / "driver" / "summary.json").read_text())["totals"][op]["requests"]
    assert n == 400
    assert delta["Com_select"] == 0 and delta["Com_begin"] == 0, delta
    statements = sum(delta[k] for k in ("Com_insert", "Com_update", "Com_delete", "Com_select", "Com_insert_select"))
    assert statements <= 2 * n, (statements, n)
    assert delta["Com_commit"] <= n


@needs_mariadb
def test_concurrent_link_writes_keep_counts_without_a_client_lock(server, scratch, monkeypatch):
    """4 writers on few hot ids, no client-side lock: every count row equals its visible links."""
    monkeypatch.setenv("ENGBENCH_MYSQL_PASSWORD", PASSWORD)
    # MyRocks serves these hot-row writes ~40x slower than InnoDB (4000 requests: 155 s against 3 s here,
    # no conflict retry: row-lock waits on the few count rows); 1000 requests on 4 writers still interleave
    # every writer's count upserts on the same 30 ids
    requests = 4000 if server.engine == "innodb" else 1000
    linkbench(server, scratch / "raw", {"addlink": 40, "updatelink": 20, "deletelink": 40},
              [f"requests={requests}", "threads=4", "maxid1=30", "link_write_shape=1.5"])
    with server.connect().cursor() as cur:
        cur.execute("SELECT c.id, c.link_type, c.count, (SELECT COUNT(*) FROM rc.lb_link l WHERE l.id1=c.id AND "
                    "l.link_type=c.link_type AND l.visibility=1) FROM rc.lb_count c")
        rows = cur.fetchall()
    assert rows and all(r[2] == r[3] for r in rows), [r for r in rows if r[2] != r[3]]


# --- sysbench-update: sysbench's table (Debian sysbench 1.0.20, oltp_common.lua) ---

SB_DEF = ("SELECT COLUMN_NAME, COLUMN_TYPE, IS_NULLABLE, COLUMN_DEFAULT, EXTRA, COLLATION_NAME FROM "
          "information_schema.COLUMNS WHERE TABLE_SCHEMA=%s AND TABLE_NAME='sbtest1' ORDER BY ORDINAL_POSITION",
          "SELECT INDEX_NAME, SEQ_IN_INDEX, COLUMN_NAME, NON_UNIQUE FROM information_schema.STATISTICS "
          "WHERE TABLE_SCHEMA=%s AND TABLE_NAME='sbtest1' ORDER BY INDEX_NAME, SEQ_IN_INDEX",
          "SELECT ENGINE, TABLE_COLLATION FROM information_schema.TABLES WHERE TABLE_SCHEMA=%s AND TABLE_NAME='sbtest1'")


@needs_mariadb
def test_sysbench_update_table_is_sysbenchs_and_writes_its_wal_per_update(server, scratch, monkeypatch):
    """engbench's sbtest1 has the columns (id AUTO_INCREMENT as sysbench's default --auto_inc=on),
    index and collation of the table `sysbench prepare` creates on the same server; on MyRocks an
    index-mode update writes sysbench's WAL bytes. The AUTO_INCREMENT is server work there: each
    UPDATE of such a table also merges the row's id + 1 into the table's auto-increment record in
    the data dictionary, 26 B in the same WAL batch (without it 238 against 264 B per update,
    measured 2026-11-26; with it 264.0 against 264.0-264.7: the bound is 5 B)."""
    sysbench = shutil.which("sysbench")
    if sysbench is None:
        pytest.skip("no sysbench (bash scripts/setup.sh tools)")
    monkeypatch.setenv("ENGBENCH_MYSQL_PASSWORD", PASSWORD)
    with server.connect().cursor() as cur:
        cur.execute("DROP DATABASE IF EXISTS sbref")
        cur.execute("CREATE DATABASE sbref")
    sb = [sysbench, "oltp_update_index", f"--mysql-socket={server.socket}", "--mysql-user=root", "--mysql-db=sbref",
          "--db-driver=mysql", "--tables=1", "--table-size=300", "--rand-type=uniform",
          f"--mysql-storage-engine={'rocksdb' if server.engine == 'myrocks' else 'innodb'}"]
    subprocess.run(sb + ["prepare"], check=True, capture_output=True)
    conn = ["mariadb.host=127.0.0.1", f"mariadb.port={server.port}", "mariadb.user=bench", "mariadb.database=rc"]
    req = params.resolve("sysbench-update", f"mariadb-{server.engine}",
                         ["table_size=300", "mode=index", "clients=1", "updates_per_step=300", "seconds_per_step=0",
                          *conn])
    res = runs.execute(req, out_dir=scratch / "raw", show_progress=False)
    assert res.status == "ok", res.error
    with server.connect().cursor() as cur:
        for q in SB_DEF:
            cur.execute(q, ("sbref",))
            want = cur.fetchall()
            cur.execute(q, ("rc",))
            assert cur.fetchall() == want and want, q
    if server.engine != "myrocks":
        return
    wal = lambda: int(server.global_status()["Rocksdb_wal_bytes"])  # noqa: E731
    w0 = wal()
    subprocess.run(sb + ["--threads=1", "--events=300", "--time=0", "run"], check=True, capture_output=True)
    sb_per = (wal() - w0) / 300
    eb_per = status_delta(res)["Rocksdb_wal_bytes"] / 300
    assert abs(eb_per - sb_per) <= 5, (eb_per, sb_per)


# --- iibench: variant iibench-py (mdcallag/mytools bench/ibench/iibench.py, MySQL mode) ---

PY_INDEXES = {"purchases_index_marketsegment": ["productid", "customerid", "price"],
              "purchases_index_registersegment": ["cashregisterid", "customerid", "price"],
              "purchases_index_pdc": ["price", "dateandtime", "customerid"]}


def iibench(db, out, sets):
    conn = ["mariadb.host=127.0.0.1", f"mariadb.port={db.port}", "mariadb.user=bench", "mariadb.database=rc"]
    return runs.execute(params.resolve("iibench", f"mariadb-{db.engine}", [*sets, *conn]), out_dir=out,
                        show_progress=False)


@needs_mariadb
def test_iibench_py_variant_has_iibench_py_schema_indexes_and_values(server, scratch, monkeypatch):
    """iibench.py's table (DATETIME, INT price, data VARCHAR(4000)), its three indexes by its names,
    its values (price in [0, 500), 10-character data of 'a's then base64, one timestamp per
    commit of 1000 rows), its covered queries; the summary says which variant ran."""
    monkeypatch.setenv("ENGBENCH_MYSQL_PASSWORD", PASSWORD)
    # a query thread beside a MyRocks bulk load is refused (test_myrocks_bulk_load_...): no bulk load here
    res = iibench(server, scratch / "raw", ["variant=iibench-py", "max_rows=5000", "query_threads=1",
                                            "query_begin_docs=1000", "bulk_load=false"])
    assert res.status == "ok", res.error
    s = json.loads((res.run_dir / "driver" / "summary.json").read_text())
    assert s["variant"] == "iibench-py" and s["documents_inserted"] == 5000 and s["totals"]["query"]["requests"] > 0
    with server.connect().cursor() as cur:
        cur.execute("SELECT COLUMN_NAME, DATA_TYPE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA='rc' "
                    "AND TABLE_NAME='purchases_index' ORDER BY ORDINAL_POSITION")
        assert cur.fetchall() == (("transactionid", "bigint"), ("dateandtime", "datetime"), ("cashregisterid", "int"),
                                  ("customerid", "int"), ("productid", "int"), ("price", "int"), ("data", "varchar"))
        cur.execute("SELECT INDEX_NAME, COLUMN_NAME FROM information_schema.STATISTICS WHERE TABLE_SCHEMA='rc' "
                    "AND TABLE_NAME='purchases_index' AND INDEX_NAME<>'PRIMARY' ORDER BY INDEX_NAME, SEQ_IN_INDEX")
        got = {}
        for name, col in cur.fetchall():
            got.setdefault(name, []).append(col)
        assert got == PY_INDEXES
        cur.execute("SELECT COUNT(*), MIN(price), MAX(price), MAX(cashregisterid), MAX(productid), MAX(customerid), "
                    "MIN(LENGTH(data)), MAX(LENGTH(data)), SUM(data LIKE 'aaaaaaa%'), COUNT(DISTINCT dateandtime) "
                    "FROM rc.purchases_index")
        n, pmin, pmax, cmax, prmax, cumax, lmin, lmax, prefixed, stamps = cur.fetchone()
    assert n == 5000 and 0 <= pmin and pmax < 500 and cmax < 1000 and prmax < 10000 and cumax < 100000
    assert lmin == lmax == 10 and prefixed == 5000
    assert 1 <= stamps <= 5  # one timestamp per 1000-row commit
    # the server was sent the stream an embedded engine is given
    kv = runs.execute(params.resolve("iibench", "sqlite", ["variant=iibench-py", "max_rows=5000", "query_threads=0"]),
                      out_dir=scratch / "raw", show_progress=False)
    assert kv.status == "ok" and json.loads((kv.run_dir / "driver" / "summary.json").read_text())["op_stream_hash"] \
        == s["op_stream_hash"]


@needs_mariadb
def test_myrocks_bulk_load_keeps_every_row_and_is_refused_beside_query_threads(server, scratch, monkeypatch):
    """iibench.py's bulk load (rocksdb_bulk_load=1 on each loader's connection, its default on RocksDB):
    every row is in the table, read through its primary key, after the run. With query threads it
    or a second loader it is refused before anything is written: MariaDB's MyRocks cannot end a bulk
    load on a table other sessions used, and the rows were lost (0 of 5,000 in 3 of 4 runs with a
    query thread before the refusal; one loader's half with two loaders)."""
    if server.engine != "myrocks":
        pytest.skip("bulk load is MyRocks'")
    monkeypatch.setenv("ENGBENCH_MYSQL_PASSWORD", PASSWORD)
    with pytest.raises(Exception, match="bulk_load"):
        iibench(server, scratch / "refused", ["variant=iibench-py", "max_rows=3000", "query_threads=1"])
    with pytest.raises(Exception, match="bulk_load"):
        iibench(server, scratch / "refused", ["variant=iibench-py", "max_rows=3000", "loader_threads=2"])
    assert not (scratch / "refused").exists()
    res = iibench(server, scratch / "raw", ["variant=iibench-py", "max_rows=3000", "batch=500"])
    assert res.status == "ok", res.error
    with server.connect().cursor() as cur:
        cur.execute("SELECT COUNT(*), COUNT(DISTINCT transactionid) FROM rc.purchases_index FORCE INDEX (PRIMARY)")
        assert cur.fetchone() == (3000, 3000)


@needs_mariadb
def test_unknown_iibench_variant_is_refused_before_anything_is_written(server, scratch, monkeypatch):
    monkeypatch.setenv("ENGBENCH_MYSQL_PASSWORD", PASSWORD)
    with server.connect().cursor() as cur:
        cur.execute("DROP DATABASE IF EXISTS rc")
    with pytest.raises(Exception, match="variant"):
        iibench(server, scratch / "refused", ["variant=iibench-java", "max_rows=100"])
    assert not (scratch / "refused").exists()
    with server.connect().cursor() as cur:
        cur.execute("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME='rc'")
        assert cur.fetchone()[0] == 0


def test_variants_are_separate_experiments_titled_by_variant(scratch):
    """Two real sqlite runs, one per variant: two experiments (never one row), each title naming
    its variant, the default one too."""
    from engbench.tables import build_tables
    from engbench.report import data
    if "sqlite" not in {e["name"] for e in driver.describe().get("engines", [])}:
        pytest.skip("driver without sqlite")
    dirs = []
    for v in ("mongodb", "iibench-py"):
        res = runs.execute(params.resolve("iibench", "sqlite", [f"variant={v}", "max_rows=3000", "batch=500",
                                                                "length_char_fields=20"]),
                           out_dir=scratch / "raw", show_progress=False)
        assert res.status == "ok", res.error
        dirs.append(res.run_dir)
    tables = build_tables(dirs)
    exps = data.comparisons(tables["runs"])
    assert len(exps) == 2
    assert sorted("variant=mongodb" in e.name for e in exps) == [False, True]
    assert sorted("variant=iibench-py" in e.name for e in exps) == [False, True]


# --- linkbench: LinkBench's graph (its real out-degree distribution, coupled to popularity) ---

@pytest.mark.parametrize("engine", ["null", "sqlite"])
def test_linkbench_graph_is_linkbenchs_at_100k_nodes(scratch, engine):
    """maxid1=100001 loads LinkBench's 1,368,899 links (±10%) and ~77k count rows, and the hot ids
    (the requests' most popular) have the high degree: get_links_list returns far more than the
    stand-in's handful of rows; graph=lognormal is the earlier stand-in (4.7 links per node). Link
    reads follow out-degree here (read_uncorr_blend=0; FBWorkload's 99.5, the default, decouples them)."""
    got = {}
    for graph in ("linkbench", "lognormal"):
        req = params.resolve("linkbench", engine, [f"graph={graph}", "maxid1=100001", "requests=3000",
                                                   "loaders=1", "load_batch=4096", "read_uncorr_blend=0"])
        res = runs.execute(req, out_dir=scratch / "raw", show_progress=False)
        assert res.status == "ok", res.error
        got[graph] = json.loads((res.run_dir / "driver" / "summary.json").read_text())
    load = got["linkbench"]["load"]
    assert load["graph"] == "linkbench" and abs(load["links"] - 1_368_899) <= 0.1 * 1_368_899
    assert abs(load["counts"] - 77_207) <= 0.05 * 77_207
    assert got["lognormal"]["load"]["graph"] == "lognormal" and got["lognormal"]["load"]["links"] < 600_000
    if engine != "null":  # null stores nothing: nothing to list
        rows = {g: s["totals"]["get_links_list"]["items"] / s["totals"]["get_links_list"]["requests"]
                for g, s in got.items()}
        assert rows["linkbench"] > 3 * rows["lognormal"], rows
