"""iibench's loaders generate ahead on a server target (issue 30): with the helper thread making the
next batch while the current one is in flight, a private MariaDB receives the same INSERT
statements, in the same order, as without it (its general log; the clock's values aside: one
DATETIME per batch in variant iibench-py, the documents' milliseconds in variant mongodb), and the
op stream is the same. Needs scripts/setup_servers.sh (MariaDB) and a driver built with the
targets; skipped otherwise."""

import json
import re

import pytest

from engbench.run import driver, params, runs
from engbench.run.servers import mariadb as mariadb_mod
from engbench.run.servers.mariadb import MariaDB


def _targets() -> set:
    try:
        return {t["name"] for t in driver.describe().get("targets", [])}
    except Exception:  # noqa: BLE001 - no driver: skip
        return set()


no_mariadb = mariadb_mod.unavailable_reason() or (None if "mariadb-innodb" in _targets() else "driver built without targets")
CLOCK = {"iibench-py": re.compile(r"'\d{4}-\d\d-\d\d \d\d:\d\d:\d\d'"),  # dateandtime DATETIME, per batch
         "mongodb": re.compile(r"\((\d{12,14}),")}                         # dateandtime BIGINT ms, per row


@pytest.mark.skipif(bool(no_mariadb), reason=str(no_mariadb))
@pytest.mark.parametrize("variant", ["iibench-py", "mongodb"])
def test_generating_ahead_sends_the_server_the_same_statements(variant, scratch, tmp_path):
    with MariaDB(tmp_path / "server", engine="innodb", settings={"cache_size": "64M"}) as db:
        with db.connect().cursor() as cur:
            cur.execute("SET GLOBAL log_output='TABLE'")
            cur.execute("SET GLOBAL general_log=1")
        sent, hashes = {}, {}
        for mode in ("never", "server"):
            req = params.resolve("iibench", "mariadb-innodb", [
                f"variant={variant}", "max_rows=2600", "batch=500", "query_threads=0", "length_char_fields=20",
                f"generate_ahead={mode}", f"mariadb.socket={db.socket}", "mariadb.user=root", f"mariadb.database=ia_{mode}"])
            res = runs.execute(req, out_dir=scratch / "raw", show_progress=False)
            assert res.status == "ok", res.error
            hashes[mode] = json.loads((res.run_dir / "driver" / "summary.json").read_text())["op_stream_hash"]
            with db.connect().cursor() as cur:
                cur.execute("SELECT CONVERT(argument USING utf8mb4) FROM mysql.general_log WHERE command_type='Query' "
                            "AND argument LIKE 'INSERT INTO purchases_index %'")
                sent[mode] = [r[0] for r in cur.fetchall()]
                cur.execute("TRUNCATE mysql.general_log")
        with db.connect().cursor() as cur:
            cur.execute("SET GLOBAL general_log=0")
    assert hashes["never"] == hashes["server"]
    assert len(sent["never"]) == len(sent["server"]) == 6  # 5 batches of 500 and one of 100
    masked = {m: [CLOCK[variant].sub("<clock>", s) for s in v] for m, v in sent.items()}
    assert [s.count("<clock>") for s in masked["server"]] == [500] * 5 + [100]  # one per row
    assert masked["never"] == masked["server"]
