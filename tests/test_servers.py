"""Real servers on loopback: private MariaDB (InnoDB, MyRocks) and FerretDB v1.24.2 (SQLite),
their statistics captures, and faults (killed server, taken port, server that cannot start).

Needs scripts/setup_servers.sh (Debian mariadb-server mariadb-plugin-rocksdb; FerretDB built into
the cache); what is missing is skipped with the reason."""

import json
import os
import shutil
import signal
import socket
import time
from concurrent.futures import ThreadPoolExecutor

import psutil
import pytest

from engbench.run.servers import ServerError, ports
from engbench.run.servers import ferretdb as ferret_mod
from engbench.run.servers._proc import with_log
from engbench.run.servers import mariadb as mariadb_mod
from engbench.run.servers.ferretdb import FerretDB
from engbench.run.servers.mariadb import MariaDB, MariaDBExisting, parse_size, server_options
from engbench.run.servers.mongodb import MongoTarget

no_mariadb = mariadb_mod.unavailable_reason()
no_ferretdb = ferret_mod.unavailable_reason()
needs_mariadb = pytest.mark.skipif(bool(no_mariadb), reason=str(no_mariadb))
needs_ferretdb = pytest.mark.skipif(bool(no_ferretdb), reason=str(no_ferretdb))


def gone(pid: int, names=("mariadbd", "ferretdb")) -> bool:
    """The process we started is gone (and not a zombie); a reused pid of another program counts as gone."""
    try:
        p = psutil.Process(pid)
        return p.name() not in names  # a zombie of ours still has its name: not gone
    except psutil.NoSuchProcess:
        return True


def wait_for(cond, timeout=10.0):
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


# --- settings (no server) ---

def test_parse_size():
    assert parse_size(1024) == 1024
    assert parse_size("256M") == parse_size("256MB") == parse_size("256MiB") == 256 << 20
    assert parse_size("1.5G") == 3 << 29
    with pytest.raises(ValueError):
        parse_size("lots")


def test_server_options_mapping(tmp_path):
    inno = server_options("innodb", {"cache_size": "64M", "flush_log_at_trx_commit": 2, "compression": "zlib",
                                     "options": {"innodb-log-file-size": "48M", "skip-innodb-doublewrite": None}})
    assert "--innodb-buffer-pool-size=67108864" in inno
    assert "--innodb-flush-log-at-trx-commit=2" in inno and "--sync-binlog=0" in inno
    assert "--innodb-compression-default=ON" in inno and "--innodb-compression-algorithm=zlib" in inno
    assert "--innodb-log-file-size=48M" in inno and "--skip-innodb-doublewrite" in inno
    assert not any("rocksdb" in o for o in inno)
    rocks = server_options("myrocks", {"myrocks.cache_size": "1GB", "flush_log_at_trx_commit": 0,
                                       "compression": "lz4"})
    assert "--plugin-load-add=ha_rocksdb" in rocks and "--default-storage-engine=ROCKSDB" in rocks
    assert "--rocksdb-block-cache-size=1073741824" in rocks and "--rocksdb-flush-log-at-trx-commit=0" in rocks
    assert "--rocksdb-default-cf-options=compression=kLZ4Compression" in rocks
    with pytest.raises(ValueError, match="unknown MariaDB setting"):
        server_options("innodb", {"buffer_pool": "1G"})
    with pytest.raises(ValueError, match="compression"):
        server_options("innodb", {"compression": "brotli"})
    with pytest.raises(ValueError, match="mariadb-plugin-provider-lz4"):
        server_options("innodb", {"compression": "lz4"}, plugin_dir=tmp_path)
    with pytest.raises(ValueError, match="engine"):
        server_options("aria")


def test_mongo_target_never_shows_the_password():
    t = MongoTarget("mongodb://bench:TopSecret1@127.0.0.1:1/?authSource=admin", serverSelectionTimeoutMS=100)
    try:
        assert "TopSecret1" not in t.uri and "TopSecret1" not in repr(t)
    finally:
        t.close()


# --- MariaDB ---

@pytest.fixture(scope="module")
def installed_datadir(tmp_path_factory):
    """One mariadb-install-db per test module, copied into each server's base_dir (saves ~1 s each)."""
    if no_mariadb:
        pytest.skip(no_mariadb)
    base = tmp_path_factory.mktemp("mariadb-template")
    m = MariaDB(base, "innodb")
    m.install()
    return m.data_dir


def make(base, engine="innodb", template=None, **kw):
    if template is not None:
        shutil.copytree(template, base / "data")
    return MariaDB(base, engine, **kw)


@pytest.fixture(scope="module", params=["innodb", "myrocks"])
def server(request, tmp_path_factory, installed_datadir):
    base = tmp_path_factory.mktemp(f"mariadb-{request.param}")
    settings = {"cache_size": "64M", "flush_log_at_trx_commit": 2,
                "compression": "zlib" if request.param == "innodb" else "snappy"}
    with make(base, request.param, installed_datadir, settings=settings) as db:
        yield db
    assert gone(db.pid)


@needs_mariadb
def test_mariadb_installs_side_by_side(tmp_path):
    """Private servers installed at the same moment do not meet in /tmp (CI's fast tier failed
    so: "Unknown table 'mysql.tmp_user_sys'" after another bootstrap's temporary table went). With
    a shared tmpdir, 13 of 36 concurrent installs failed; 16 installs here would all pass by chance
    less than once in a thousand."""
    for rnd in range(2):
        servers = [MariaDB(tmp_path / f"r{rnd}" / f"s{i}", "innodb") for i in range(8)]
        with ThreadPoolExecutor(len(servers)) as pool:
            errors = [f.exception() for f in [pool.submit(m.install) for m in servers]]
        assert errors == [None] * len(servers), [str(e)[:400] for e in errors if e]
        assert all((m.data_dir / "mysql" / "global_priv.frm").exists() for m in servers)
        assert all(m.tmp_dir.is_dir() and m.tmp_dir.parent == m.base_dir for m in servers)


def test_a_failed_install_quotes_the_reason_not_the_advice(tmp_path):
    log = tmp_path / "install.log"
    log.write_text("Installing MariaDB/MySQL system tables in '/x' ...\n"
                   "ERROR: 1051  Unknown table 'mysql.tmp_user_sys'\n"
                   + "".join(f"advice line {i}\n" for i in range(40)))
    msg = with_log("mariadb-install-db failed (exit 1)", log, first=True)
    assert "Unknown table 'mysql.tmp_user_sys'" in msg and "(first 25 lines)" in msg
    assert "Unknown table" not in with_log("x", log)


@needs_mariadb
def test_mariadb_write_read_and_snapshot(server, tmp_path):
    conn = server.connect()
    with conn.cursor() as cur:
        cur.execute("CREATE DATABASE IF NOT EXISTS bench")
        cur.execute("CREATE TABLE bench.t (id INT PRIMARY KEY, v VARCHAR(32), k INT, KEY (k))")
        cur.executemany("INSERT INTO bench.t VALUES (%s, %s, %s)", [(i, f"row{i}", i % 7) for i in range(50)])
        cur.execute("SELECT id, v FROM bench.t WHERE id IN (3, 42) ORDER BY id")
        assert cur.fetchall() == ((3, "row3"), (42, "row42"))
        cur.execute("SELECT ENGINE FROM information_schema.TABLES WHERE TABLE_SCHEMA='bench' AND TABLE_NAME='t'")
        assert cur.fetchone()[0].lower() == {"innodb": "innodb", "myrocks": "rocksdb"}[server.engine]
    conn.close()

    path = server.snapshot(tmp_path / "server" / "status_after.json", label="after")
    snap = json.loads(path.read_text())
    status, variables = snap["status"], snap["variables"]
    assert snap["engine"] == server.engine and snap["label"] == "after"
    assert "Innodb_buffer_pool_reads" in status and "Com_insert" in status
    assert variables["sync_binlog"] == "0" and variables["log_bin"] == "OFF"
    assert variables["innodb_flush_log_at_trx_commit"] == "2"
    assert snap["engine_status"]
    if server.engine == "innodb":
        assert variables["innodb_buffer_pool_size"] == str(64 << 20)
        assert variables["innodb_compression_default"] == "ON"
    else:
        assert int(status["Rocksdb_rows_inserted"]) >= 50
        assert "Rocksdb_block_cache_hit" in status
        assert variables["rocksdb_block_cache_size"] == str(64 << 20)
        assert variables["rocksdb_flush_log_at_trx_commit"] == "2"
        assert "kSnappyCompression" in variables["rocksdb_default_cf_options"]
    info = json.loads((server.base_dir / "server.json").read_text())
    assert info["port"] == server.port and info["pid"] == server.pid


@needs_mariadb
def test_mariadb_existing_by_tcp_with_password_from_env(server, tmp_path, monkeypatch):
    pw = "Ex1sting-pw"
    conn = server.connect()
    with conn.cursor() as cur:
        cur.execute("CREATE USER IF NOT EXISTS 'bench'@'127.0.0.1' IDENTIFIED BY %s", (pw,))
        cur.execute("GRANT ALL ON *.* TO 'bench'@'127.0.0.1'")
    conn.close()
    monkeypatch.setenv("ENGBENCH_MYSQL_PASSWORD", pw)
    ext = MariaDBExisting("127.0.0.1", server.port, user="bench", engine=server.engine)
    assert ext.alive()
    assert ext.variables()["port"] == str(server.port)
    path = ext.snapshot(tmp_path / "existing.json")
    text = path.read_text()
    assert pw not in text and pw not in repr(ext)
    assert "Innodb_buffer_pool_reads" in json.loads(text)["status"]
    assert "password" not in ext.connection() and ext.connection()["password_env"] == "ENGBENCH_MYSQL_PASSWORD"
    assert ext.connection(include_password=True)["password"] == pw
    ext.stop()  # no-op
    assert server.alive()


@needs_mariadb
def test_mariadb_start_stop_leaves_nothing(tmp_path, installed_datadir):
    db = make(tmp_path / "m", template=installed_datadir)
    with db:
        pid = db.pid
        assert db.alive() and psutil.Process(pid).name() == "mariadbd"
        assert ports.accepts(db.port)
    assert not db.alive() and db.stopped_how == "shutdown"
    assert gone(pid)
    assert db.stop() == "shutdown"  # idempotent
    assert (tmp_path / "m" / "data").is_dir() and (tmp_path / "m" / "error.log").is_file()
    kept = {p.name for p in db.collect(tmp_path / "run" / "server")}
    assert {"error.log", "stdout.log", "server.json"} <= kept  # install.log: none, the data dir was copied
    assert "shutdown" in (tmp_path / "run" / "server" / "server.json").read_text()


@needs_mariadb
def test_mariadb_killed_mid_use(tmp_path, installed_datadir):
    db = make(tmp_path / "m", template=installed_datadir)
    with db:
        conn = db.connect()
        with conn.cursor() as cur:
            cur.execute("SELECT 1")
        os.kill(db.pid, signal.SIGKILL)
        assert wait_for(lambda: not db.alive(), 10)
        with pytest.raises(Exception):
            db.global_status()
    assert db.stopped_how == "had exited (status -9)"
    assert gone(db.pid)
    assert (tmp_path / "m" / "data" / "mysql").is_dir()
    assert "ready for connections" in (tmp_path / "m" / "error.log").read_text()
    assert json.loads((tmp_path / "m" / "server.json").read_text())["exit_status"] == -9


@needs_mariadb
def test_mariadb_explicit_port_taken_is_a_clear_error(tmp_path, installed_datadir):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        taken = s.getsockname()[1]
        with pytest.raises(ServerError, match=f"port {taken} .*already in use"):
            make(tmp_path / "m", template=installed_datadir, port=taken).start()


@needs_mariadb
def test_mariadb_port_taken_meanwhile_moves_to_another(tmp_path, installed_datadir, monkeypatch):
    """The chosen port is taken between the choice and mariadbd's bind: it retries on another."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        taken = s.getsockname()[1]
        real_free = ports.free_port
        choices = iter([taken])
        monkeypatch.setattr(ports, "free_port", lambda *a: next(choices, None) or real_free())
        monkeypatch.setattr(ports, "port_is_free", lambda *a: True)  # the race: looked free
        with make(tmp_path / "m", template=installed_datadir) as db:
            assert db.port != taken and db.alive()
        log = (tmp_path / "m" / "error.log").read_text()
        assert f"starting mariadbd on 127.0.0.1:{taken}" in log
        assert f"starting mariadbd on 127.0.0.1:{db.port}" in log


@needs_mariadb
def test_mariadb_that_cannot_start_quotes_its_error_log(tmp_path, installed_datadir):
    db = make(tmp_path / "m", template=installed_datadir, settings={"options": {"no-such-option": 1}})
    with pytest.raises(ServerError) as err:
        db.start()
    msg = str(err.value)
    assert "did not start" in msg and "error.log" in msg
    assert "unknown variable 'no-such-option=1'" in msg
    assert not db.alive() and gone(db.pid)


# --- FerretDB and MongoDB by URI ---

@needs_ferretdb
def test_ferretdb_documents_and_captures(tmp_path):
    with FerretDB(tmp_path / "ferret") as f:
        pid = f.pid
        coll = f.client().engbench.purchases
        docs = [{"_id": i, "customer": i % 5, "price": i * 1.5, "note": "x" * 20} for i in range(100)]
        for i in range(0, len(docs), ferret_mod.MAX_BATCH):  # > ~50 ops per command hangs FerretDB
            coll.insert_many(docs[i:i + ferret_mod.MAX_BATCH])
        coll.create_index("customer")
        with MongoTarget(f.uri, db="engbench") as target:
            assert target.alive()
            back = target.read_back_sample("engbench", "purchases", [7, 99, 1000, 0])
            assert [d["_id"] for d in back] == [7, 99, 0] and back[0]["price"] == 10.5
            files = target.capture(tmp_path / "server" / "mongo_after")
        ss = json.loads(files["serverStatus"].read_text())
        assert ss["serverStatus"]["ok"] == 1 and "version" in ss["serverStatus"]
        assert ss["wiredTiger_cache"] is None and "no wiredTiger section" in ss["wiredTiger_note"]
        cs = json.loads(files["collStats"].read_text())["collections"]["purchases"]
        assert cs["count"] == 100 and cs["size"] > 0
        assert set(cs["indexSizes"]) == {"_id_", "customer_1"}
        dbs = json.loads(files["dbStats"].read_text())["dbStats"]
        assert dbs["collections"] == 1 and dbs["objects"] == 100 and "indexSize" in dbs
    assert not f.alive() and f.stopped_how == "terminated" and gone(pid)
    assert "Listening on TCP 127.0.0.1" in (tmp_path / "ferret" / "ferretdb.log").read_text()
    assert (tmp_path / "ferret" / "data" / "engbench.sqlite").is_file()
    assert {p.name for p in f.collect(tmp_path / "run" / "server")} == {"ferretdb.log", "server.json"}


@needs_ferretdb
def test_ferretdb_killed_and_port_taken(tmp_path):
    f = FerretDB(tmp_path / "ferret")
    with f:
        os.kill(f.pid, signal.SIGKILL)
        assert wait_for(lambda: not f.alive(), 10)
    assert f.stopped_how == "had exited (status -9)" and gone(f.pid)
    assert (tmp_path / "ferret" / "ferretdb.log").is_file()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        with pytest.raises(ServerError, match="already in use"):
            FerretDB(tmp_path / "ferret2", port=s.getsockname()[1]).start()
