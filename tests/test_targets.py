"""Server targets end to end (engbench run → driver → a real server → read back what was written):
private MariaDB InnoDB and MyRocks, an existing MariaDB reached by host/port with a password from
ENGBENCH_MYSQL_PASSWORD, FerretDB (MongoDB wire protocol) by URI; start/stop leave nothing running;
no secret in any file of a run directory; a server killed mid-run fails the run.

Needs scripts/setup_servers.sh (MariaDB, FerretDB) and a driver built with the targets; what is
missing is skipped with the reason."""

import json
import threading
import time
from pathlib import Path

import psutil
import pytest

from engbench.run import driver, params, runs
from engbench.run.servers import ferretdb as ferret_mod
from engbench.run.servers import mariadb as mariadb_mod
from engbench.run.servers.mariadb import MariaDB

PASSWORD = "Pw-9f3kQz-engbench-secret"


def _targets() -> set:
    try:
        return {t["name"] for t in driver.describe().get("targets", [])}
    except Exception:  # noqa: BLE001 - no driver: skip
        return set()


TARGETS = _targets()
no_mariadb = mariadb_mod.unavailable_reason() or (None if "mariadb-innodb" in TARGETS else "driver built without targets")
no_ferret = ferret_mod.unavailable_reason() or (None if "mongodb" in TARGETS else "driver built without the mongodb target")
needs_mariadb = pytest.mark.skipif(bool(no_mariadb), reason=str(no_mariadb))
needs_ferret = pytest.mark.skipif(bool(no_ferret), reason=str(no_ferret))

SYSBENCH = ["table_size=1500", "tables=2", "clients=1,2", "updates_per_step=400", "seconds_per_step=0",
            "load_batch=500"]
IIBENCH = ["max_rows=3000", "batch=250", "length_char_fields=40", "query_threads=1", "query_begin_docs=500",
           "query_limit=4"]


def run(workload, engine, sets, out):
    req = params.resolve(workload, engine, sets)
    return runs.execute(req, out_dir=out, show_progress=False)


def manifest_of(res):
    return json.loads((res.run_dir / "manifest.json").read_text())


def summary_of(res):
    return json.loads((res.run_dir / "driver" / "summary.json").read_text())


def our_servers(under: Path):
    """mariadbd/ferretdb processes whose command line mentions `under`."""
    out = []
    for p in psutil.process_iter(["pid", "name", "cmdline", "status"]):
        if p.info["name"] in ("mariadbd", "ferretdb") and str(under) in " ".join(p.info["cmdline"] or []):
            out.append(p.info)
    return out


def files_with(run_dir: Path, secret: str):
    hits = []
    for p in Path(run_dir).rglob("*"):
        if p.is_file() and secret.encode() in p.read_bytes():
            hits.append(p)
    return hits


@pytest.fixture(scope="module", params=["innodb", "myrocks"])
def existing(request, tmp_path_factory):
    """A MariaDB started by the test, with a user `bench` identified by PASSWORD (reached by
    engbench as an existing server: it stays up so the test can read back)."""
    if no_mariadb:
        pytest.skip(str(no_mariadb))
    with MariaDB(tmp_path_factory.mktemp(f"existing-{request.param}"), engine=request.param,
                 settings={"cache_size": "64M"}) as db:
        with db.connect().cursor() as cur:
            cur.execute(f"CREATE USER 'bench'@'127.0.0.1' IDENTIFIED BY '{PASSWORD}'")
            cur.execute("GRANT ALL ON *.* TO 'bench'@'127.0.0.1'")
        yield db


def conn_sets(db):
    return [f"mariadb.host=127.0.0.1", f"mariadb.port={db.port}", "mariadb.user=bench", "mariadb.database=bt"]


@needs_mariadb
def test_sysbench_update_index_reads_back(existing, scratch, monkeypatch):
    """k = k + 1 on an existing server: every update lands once (SUM(k) = loaded + updates);
    the password (env only) is in no file of the run directory."""
    monkeypatch.setenv("ENGBENCH_MYSQL_PASSWORD", PASSWORD)
    res = run("sysbench-update", f"mariadb-{existing.engine}", SYSBENCH + ["mode=index"] + conn_sets(existing),
              scratch / "raw")
    assert res.status == "ok", res.error
    s = summary_of(res)
    assert s["target"]["storage_engine"] == {"innodb": "InnoDB", "myrocks": "ROCKSDB"}[existing.engine]
    updates = s["totals"]["update"]["items"]
    assert updates == s["totals"]["update"]["requests"] == 800
    with existing.connect().cursor() as cur:
        total_rows, total_k = 0, 0
        for t in (1, 2):
            cur.execute(f"SELECT COUNT(*), SUM(k) FROM bt.sbtest{t}")
            n, k = cur.fetchone()
            total_rows += n
            total_k += int(k)
            cur.execute(f"SELECT ENGINE FROM information_schema.TABLES WHERE TABLE_SCHEMA='bt' AND TABLE_NAME='sbtest{t}'")
            assert cur.fetchone()[0] == {"innodb": "InnoDB", "myrocks": "ROCKSDB"}[existing.engine]
    assert total_rows == 3000
    assert total_k == s["load"]["k_sum"] + updates
    m = manifest_of(res)
    assert m["server"]["private"] is False and (res.run_dir / "server" / "status_after.json").exists()
    assert files_with(res.run_dir, PASSWORD) == []
    assert existing.alive(), "an existing server is not ours to stop"


@needs_mariadb
def test_sysbench_update_non_index_and_iibench_read_back(existing, scratch, monkeypatch):
    monkeypatch.setenv("ENGBENCH_MYSQL_PASSWORD", PASSWORD)
    res = run("sysbench-update", f"mariadb-{existing.engine}",
              SYSBENCH + ["mode=non-index", "verify=true"] + conn_sets(existing), scratch / "raw")
    assert res.status == "ok", res.error
    s = summary_of(res)
    assert s["verify"]["checks"] == 800 and s["verify"]["mismatches"] == 0
    with existing.connect().cursor() as cur:
        # c no longer only as loaded: rows whose c differs from every loaded pattern cannot be told
        # apart, but updated rows keep c's sysbench shape (120 chars, 10 groups)
        cur.execute("SELECT COUNT(*) FROM bt.sbtest1 WHERE LENGTH(c) = 120 AND c LIKE '%-%-%-%-%-%-%-%-%-%-'")
        assert cur.fetchone()[0] == 1500

    res = run("iibench", f"mariadb-{existing.engine}", IIBENCH + conn_sets(existing), scratch / "raw")
    assert res.status == "ok", res.error
    s = summary_of(res)
    assert s["totals"]["insert"]["items"] == 3000 and s["totals"]["insert"]["requests"] == 12
    with existing.connect().cursor() as cur:
        cur.execute("SELECT COUNT(*), MIN(transactionid), MAX(transactionid), MAX(LENGTH(cf1)) FROM bt.purchases_index")
        assert cur.fetchone() == (3000, 1, 3000, 40)
        cur.execute("SELECT DISTINCT INDEX_NAME FROM information_schema.STATISTICS WHERE TABLE_SCHEMA='bt' "
                    "AND TABLE_NAME='purchases_index'")
        assert {r[0] for r in cur.fetchall()} == {"PRIMARY", "pc", "ptc", "rpc"}
        cur.execute("SELECT COUNT(*) FROM bt.purchases_index WHERE price >= 0 AND cashregisterid < 1000")
        assert cur.fetchone()[0] == 3000
    # the same documents in the same order reached the server as an embedded engine is given
    kv = run("iibench", "sqlite", IIBENCH, scratch / "raw")
    assert kv.status == "ok" and summary_of(kv)["op_stream_hash"] == s["op_stream_hash"]
    assert files_with(res.run_dir, PASSWORD) == []


@needs_mariadb
def test_iibench_docs_per_txn_sends_one_insert_per_group(existing, scratch, monkeypatch):
    """docs_per_txn on MariaDB: each request of 250 documents goes as multi-row INSERTs of at most 100
    rows (autocommit: a transaction each), 3 per request, as the KV engines commit per group; the
    documents and the op stream are the default's."""
    monkeypatch.setenv("ENGBENCH_MYSQL_PASSWORD", PASSWORD)
    sets = ["max_rows=1000", "batch=250", "length_char_fields=20"] + conn_sets(existing)
    inserts, hashes = {}, {}
    for per in (0, 100):
        res = run("iibench", f"mariadb-{existing.engine}", sets + [f"docs_per_txn={per}"], scratch / "raw")
        assert res.status == "ok", res.error
        stats = [json.loads((res.run_dir / "driver" / f"engine_stats_{w}.json").read_text())["global_status"]
                 for w in ("before", "after")]
        inserts[per] = int(stats[1]["Com_insert"]) - int(stats[0]["Com_insert"])
        hashes[per] = summary_of(res)["op_stream_hash"]
        with existing.connect().cursor() as cur:
            cur.execute("SELECT COUNT(*) FROM bt.purchases_index")
            assert cur.fetchone()[0] == 1000
    assert inserts == {0: 4, 100: 12}
    assert hashes[0] == hashes[100]


# graph=lognormal: a small graph (LinkBench's own gives its hottest node 961,964 links at any size)
LINKBENCH = ["maxid1=1500", "requests=2000", "threads=2", "loaders=2", "load_batch=40", "verify=true",
             "graph=lognormal"]


@needs_mariadb
def test_linkbench_reads_back_and_matches_the_kv_stream(existing, scratch, monkeypatch):
    """LinkBench's tables: counts = visible links, nodes = loaded + added - deleted, and the same
    op_stream_hash as on a KV engine (the same requests reached the server)."""
    monkeypatch.setenv("ENGBENCH_MYSQL_PASSWORD", PASSWORD)
    res = run("linkbench", f"mariadb-{existing.engine}", LINKBENCH + conn_sets(existing), scratch / "raw")
    assert res.status == "ok", res.error
    s = summary_of(res)
    assert s["verify"]["mismatches"] == 0 and s["verify"]["checks"] > 0
    t = s["totals"]
    with existing.connect().cursor() as cur:
        cur.execute("SELECT (SELECT SUM(count) FROM bt.lb_count), (SELECT COUNT(*) FROM bt.lb_link WHERE visibility=1), "
                    "(SELECT COUNT(*) FROM bt.lb_node), (SELECT COUNT(*) FROM bt.lb_link)")
        counts, visible, nodes, links = cur.fetchone()
    assert int(counts) == visible
    assert nodes == s["load"]["nodes"] + t["add_node"]["items"] - t["delete_node"]["items"]
    assert links >= s["load"]["links"]
    # the run read back what it wrote, per workload (before: MariaDB runs read nothing back)
    back = json.loads((res.run_dir / "server" / "read_back.json").read_text())
    assert back["workload"] == "linkbench" and back["database"] == "bt"
    assert back["collections"]["lb_node"]["count"] == back["collections"]["lb_node"]["expected_at_least"] == nodes
    assert back["collections"]["lb_link"]["count"] == links and back["collections"]["lb_count"]["count"] > 0
    assert "warnings" not in manifest_of(res)
    kv = run("linkbench", "sqlite", LINKBENCH, scratch / "raw")
    assert kv.status == "ok" and summary_of(kv)["op_stream_hash"] == s["op_stream_hash"]
    assert files_with(res.run_dir, PASSWORD) == []


@needs_mariadb
def test_private_server_started_snapshotted_and_stopped(scratch):
    res = run("sysbench-update", "mariadb-myrocks",
              ["table_size=1000", "clients=2", "updates_per_step=500", "seconds_per_step=0",
               "mariadb.cache_size=32MB", "mariadb.flush_log_at_trx_commit=2"], scratch / "raw")
    assert res.status == "ok", res.error
    sdir = res.run_dir / "server"
    before = json.loads((sdir / "status_before.json").read_text())
    after = json.loads((sdir / "status_after.json").read_text())
    assert before["variables"]["rocksdb_block_cache_size"] == str(32 << 20)
    assert after["variables"]["rocksdb_flush_log_at_trx_commit"] == "2"
    # the updates reached the server: MyRocks counted them between the snapshots
    assert int(after["status"]["Rocksdb_rows_updated"]) - int(before["status"]["Rocksdb_rows_updated"]) == 500
    assert {"error.log", "server.json"} <= {p.name for p in sdir.iterdir()}
    m = manifest_of(res)
    assert m["server"]["private"] and m["server"]["server"]["stopped"] == "shutdown"
    assert our_servers(scratch) == []
    assert not (scratch / "work" / res.run_dir.name).exists(), "a good run's server files are removed"


@needs_mariadb
def test_server_killed_mid_run_fails_the_run(scratch):
    result = {}
    t = threading.Thread(target=lambda: result.update(
        res=run("sysbench-update", "mariadb-innodb",
                ["table_size=500", "clients=1", "seconds_per_step=60"], scratch / "raw")))
    t.start()
    try:
        deadline = time.monotonic() + 60
        victim = None
        while time.monotonic() < deadline and victim is None:
            raws = list((scratch / "raw").glob("*/driver/stdout.jsonl"))
            if raws and '"progress"' in raws[0].read_text():
                procs = our_servers(scratch / "work")
                victim = procs[0]["pid"] if procs else None
            time.sleep(0.1)
        assert victim, "the run's server did not start"
        psutil.Process(victim).kill()
    finally:
        t.join(120)
    res = result["res"]
    assert res.status == "failed"
    assert "died" in res.error and "error.log" in res.error
    assert our_servers(scratch) == []
    assert (res.run_dir / "server" / "error.log").exists()
    kept = scratch / "work" / res.run_dir.name / "server"
    assert (kept / "data").is_dir(), "a failed run keeps the server directory"
    m = manifest_of(res)
    # the manifest names the machine's paths by placeholder (rundir.shown): <work> is ENGBENCH_WORK_DIR
    assert m["status"] == "failed" and m["server"]["server_dir_kept"] == f"<work>/{res.run_dir.name}/server"


@pytest.fixture(scope="module")
def ferret(tmp_path_factory):
    """FerretDB v1.24.2 over SQLite on loopback, started by the test (write commands <= 40 ops)."""
    if no_ferret:
        pytest.skip(str(no_ferret))
    from engbench.run.servers.ferretdb import FerretDB
    with FerretDB(tmp_path_factory.mktemp("ferret")) as f:
        yield f


def secret_uri(f):
    """FerretDB over SQLite accepts any PLAIN credentials: enough to prove the password never lands
    in a file."""
    return f.uri.replace("mongodb://", f"mongodb://bench:{PASSWORD}@") + "?authMechanism=PLAIN"


@needs_ferret
def test_mongodb_sysbench_update_reads_back(ferret, scratch, monkeypatch):
    monkeypatch.setenv("ENGBENCH_MONGO_URI", secret_uri(ferret))
    # one client: FerretDB v1.24.2 loses concurrent $inc of one document (its update is a
    # read-modify-write; measured: 8 of 800 lost with 4 clients on 300 documents)
    res = run("sysbench-update", "mongodb",
              ["table_size=300", "tables=2", "clients=1", "updates_per_step=300", "seconds_per_step=0",
               "load_batch=40", "mode=index", "mongodb.database=sb", "mongodb.journal=true"], scratch / "raw")
    assert res.status == "ok", res.error
    s = summary_of(res)
    assert s["target"]["server_flavor"].startswith("FerretDB") and "***" in s["target"]["uri"]
    db = ferret.client().sb
    assert sorted(db.list_collection_names()) == ["sbtest1", "sbtest2"]
    assert sorted(db.sbtest1.index_information()) == ["_id_", "k_1"]
    docs = [d for n in ("sbtest1", "sbtest2") for d in db[n].find({}, {"k": 1})]
    assert len(docs) == 600 and {d["_id"] for d in docs} == set(range(1, 301))
    assert sum(d["k"] for d in docs) == s["load"]["k_sum"] + s["totals"]["update"]["items"] == s["load"]["k_sum"] + 300
    sdir = res.run_dir / "server"
    assert (sdir / "mongo_before.serverStatus.json").exists() and (sdir / "mongo_after.collStats.json").exists()
    back = json.loads((sdir / "read_back.json").read_text())
    assert back["collections"]["sbtest1"]["count"] == back["collections"]["sbtest1"]["expected_at_least"] == 300
    assert back["collections"]["sbtest2"]["count"] == 300 and len(back["collections"]["sbtest1"]["sample"]) == 3
    assert json.loads((res.run_dir / "driver" / "config.json").read_text())["target"] == {"uri_env": "ENGBENCH_MONGO_URI", "database": "sb"}
    assert files_with(res.run_dir, PASSWORD) == []


@needs_ferret
def test_mongodb_non_index_and_iibench_read_back(ferret, scratch):
    res = run("sysbench-update", "mongodb",
              ["table_size=200", "clients=2", "updates_per_step=200", "seconds_per_step=0", "load_batch=40",
               "verify=true", f"mongodb.uri={ferret.uri}"], scratch / "raw")
    assert res.status == "ok", res.error
    s = summary_of(res)
    assert s["verify"] == {"checks": 200, "mismatches": 0} and s["totals"]["update"]["items"] == 200
    res = run("iibench", "mongodb", ["max_rows=600", "batch=40", "length_char_fields=30", "query_threads=1",
                                     "query_begin_docs=40", f"mongodb.uri={ferret.uri}"], scratch / "raw")
    assert res.status == "ok", res.error
    s = summary_of(res)
    assert s["documents_inserted"] == 600 and s["totals"]["insert"]["requests"] == 15
    coll = ferret.client().engbench.purchases_index
    assert coll.count_documents({}) == 600
    assert sorted(coll.index_information()) == ["_id_", "pc", "ptc", "rpc"]
    one = coll.find_one({}, {"_id": 0})
    assert set(one) == {"dateandtime", "cashregisterid", "customerid", "productid", "price", "cf1"}
    assert len(one["cf1"]) == 30


@needs_ferret
def test_mongodb_linkbench_reads_back(ferret, scratch):
    """LinkbenchX's collections on FerretDB (small: its SQLite backend scans for non-_id filters)."""
    res = run("linkbench", "mongodb", ["maxid1=150", "requests=300", "threads=2", "load_batch=40", "verify=true", "graph=lognormal",
                                       f"mongodb.uri={ferret.uri}", "mongodb.database=lb"], scratch / "raw")
    assert res.status == "ok", res.error
    s = summary_of(res)
    assert s["verify"]["mismatches"] == 0
    db = ferret.client().lb
    assert sum(d["count"] for d in db.lb_count.find()) == db.lb_link.count_documents({"visibility": 1})
    t = s["totals"]
    assert db.lb_node.count_documents({}) == s["load"]["nodes"] + t["add_node"]["items"] - t["delete_node"]["items"]
    assert sorted(db.lb_link.index_information()) == ["_id_", "id1_type", "pk"]
    kv = run("linkbench", "null", ["maxid1=150", "requests=300", "threads=2", "load_batch=40", "graph=lognormal"],
             scratch / "raw")
    assert summary_of(kv)["op_stream_hash"] == s["op_stream_hash"]


YCSB = ["recordcount=300", "operationcount=200", "load_batch=40", "threads=1"]


@needs_ferret
def test_mongodb_ycsb_reads_back_its_records_and_a_shortfall_is_a_warning(ferret, scratch):
    """YCSB on MongoDB reads back its usertable (before: the read-back assumed iibench and recorded
    0 documents of purchases_index for every ycsb or linkbench run); a collection that holds less
    than the workload wrote — here dropped after the run — is a warning, not a pass."""
    from engbench.run import readback
    res = run("ycsb", "mongodb", YCSB + ["letter=a", f"mongodb.uri={ferret.uri}", "mongodb.database=yc"],
              scratch / "raw")
    assert res.status == "ok", res.error
    back = json.loads((res.run_dir / "server" / "read_back.json").read_text())
    table = back["collections"]["usertable"]
    assert back["workload"] == "ycsb" and table["count"] == table["expected_at_least"] == 300
    assert set(table["sample"][0]) >= {"field0"} and "warnings" not in manifest_of(res)
    db = ferret.client().yc
    db.usertable.drop()
    s = summary_of(res)
    doc, warns = readback.report("ycsb", s["params"], s, readback.mongo(db, ["usertable"]), {"db": "yc"})
    assert doc["collections"]["usertable"]["count"] == 0
    assert warns == ["read-back: usertable holds 0 documents after the run, fewer than the 300 the workload wrote"]


@needs_mariadb
def test_mariadb_ycsb_reads_back_its_records(existing, scratch, monkeypatch):
    monkeypatch.setenv("ENGBENCH_MYSQL_PASSWORD", PASSWORD)
    res = run("ycsb", f"mariadb-{existing.engine}", YCSB + ["letter=d"] + conn_sets(existing), scratch / "raw")
    assert res.status == "ok", res.error
    s = summary_of(res)
    inserted = s["totals"]["insert"]["items"]
    back = json.loads((res.run_dir / "server" / "read_back.json").read_text())
    table = back["collections"]["usertable"]
    assert table["expected_at_least"] == 300 + inserted and table["count"] == 300 + inserted
    assert "warnings" not in manifest_of(res) and files_with(res.run_dir, PASSWORD) == []


def test_what_each_workload_must_have_written():
    from engbench.run import readback
    summ = {"documents_inserted": 600, "load": {"records": 100, "nodes": 50},
            "totals": {"insert": {"items": 7}, "add_node": {"items": 3}, "delete_node": {"items": 1}}}
    assert readback.expected("iibench", {"collection": "p"}, summ) == {"p": 600}
    assert readback.expected("sysbench-update", {"tables": 2, "table_size": 10}, summ) == {"sbtest1": 10, "sbtest2": 10}
    assert readback.expected("ycsb", {}, summ) == {"usertable": 107}
    assert readback.expected("linkbench", {}, summ) == {"lb_node": 52, "lb_link": None, "lb_count": None}
    with pytest.raises(ValueError):
        readback.expected("fillseq", {}, summ)
    assert readback.shortfalls({"a": 5, "b": None, "c": 1}, {"a": {"count": 5}, "b": {"count": 0},
                                                           "c": {"error": "gone"}}) == [
        "read-back: b holds 0 documents after the run; the workload wrote to it", "read-back: c could not be read (gone)"]
