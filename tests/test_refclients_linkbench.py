"""LinkBench's uncorrelated blends in engbench's linkbench, and benchmarks/bench_peers.py's handling of
a LinkBench build (issue 19). Real driver runs on sqlite; the script run as a user runs it."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engbench.run import driver, params, runs

ROOT = Path(__file__).resolve().parents[1]


def _lb(scratch, sets):
    req = params.resolve("linkbench", "sqlite", ["maxid1=2001", "requests=2000", "loaders=1", "load_batch=4096",
                                                  "getlinklist=100", *(f"{m}=0" for m in (
                                                      "addlink", "deletelink", "updatelink", "countlink", "getlink",
                                                      "getnode", "addnode", "updatenode", "deletenode")), *sets])
    res = runs.execute(req, out_dir=scratch / "raw", show_progress=False)
    assert res.status == "ok", res.error
    return json.loads((res.run_dir / "driver" / "summary.json").read_text())


def test_uncorrelated_read_blend_takes_popularity_away_from_degree(scratch):
    """read_uncorr_blend=99.5 (LinkBench's FBWorkload value, the default since issue 26): the lists
    read are about the graph's typical ones, far shorter than when the most popular ids are the
    highest-degree ones (blend 0, the default before)."""
    if "sqlite" not in {e["name"] for e in driver.describe().get("engines", [])}:
        pytest.skip("driver without sqlite")
    corr, default, uncorr = (_lb(scratch, s) for s in (["read_uncorr_blend=0"], [], ["read_uncorr_blend=99.5"]))
    rows = {k: s["totals"]["get_links_list"]["items"] / s["totals"]["get_links_list"]["requests"]
            for k, s in (("corr", corr), ("uncorr", uncorr))}
    assert rows["uncorr"] * 5 < rows["corr"], rows
    assert uncorr["op_stream_hash"] == default["op_stream_hash"] != corr["op_stream_hash"]
    assert corr["load"]["cpu_s"] > 0  # the load's own CPU, which bench_peers reports per link


def test_blend_outside_a_percentage_is_refused(scratch):
    with pytest.raises(Exception, match="write_uncorr_blend"):
        runs.execute(params.resolve("linkbench", "sqlite", ["write_uncorr_blend=101"]), out_dir=scratch / "refused",
                     show_progress=False)
    assert not (scratch / "refused").exists() or not any((scratch / "refused").iterdir())


def _peers(*argv):
    return subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_peers.py"), *argv], capture_output=True,
                          text=True, env={k: v for k, v in os.environ.items() if k != "ENGBENCH_LINKBENCH"},
                          timeout=120)


def test_bench_peers_refuses_a_linkbench_that_is_not_built(tmp_path):
    """A directory without target/FacebookLinkBench.jar is refused (exit 2) saying how to build it;
    with no peer at all the script says what is missing and exits 0."""
    (tmp_path / "config").mkdir()
    out = _peers("--linkbench", str(tmp_path))
    assert out.returncode == 2, out
    assert "refused" in out.stdout and "FacebookLinkBench.jar" in out.stdout and "mvn" in out.stdout
    out = _peers("--linkbench", str(tmp_path / "absent"))
    assert out.returncode == 2 and "is not a directory" in out.stdout, out
    out = _peers()
    assert out.returncode == 0 and "nothing to compare" in out.stdout, out


# --- getlinklist_history (LinkBench's GET_LINKS_LIST paging past a full first page) ---

def test_getlinklist_history_pages_past_full_lists_and_counts_as_get_links_list(scratch):
    """With a page of 100 links, hot lists fill their first page; getlinklist_history=50 then sends
    history pages (counted as get_links_list, as LinkBench counts them, and in the summary's
    getlinklist_history.queries), each a full page of older links here (the hottest lists are far
    longer than 2 pages); at 0 none; the default is FBWorkload's 0.3 (a few, and its own stream).
    Reads follow out-degree here (read_uncorr_blend=0) so that the hot lists are long ones."""
    if "sqlite" not in {e["name"] for e in driver.describe().get("engines", [])}:
        pytest.skip("driver without sqlite")
    off, default, on = (_lb(scratch, ["getlinklist_limit=100", "read_uncorr_blend=0", *s]) for s in
                        (["getlinklist_history=0"], [], ["getlinklist_history=50"]))
    assert len({off["op_stream_hash"], default["op_stream_hash"], on["op_stream_hash"]}) == 3
    assert off["getlinklist_history"]["queries"] == 0
    assert default["getlinklist_history"]["percent_of_get_links_list"] == pytest.approx(0.3)
    assert default["getlinklist_history"]["queries"] < 30  # 0.3% of 2000 get_links_list
    q = on["getlinklist_history"]["queries"]
    assert 100 < q < 2000 and on["totals"]["get_links_list"]["requests"] == 2000
    # first pages: at most 100 rows each; history pages of the hot lists: 100 each
    assert on["totals"]["get_links_list"]["items"] > off["totals"]["get_links_list"]["items"]


def test_getlinklist_history_sql_is_linkbenchs_through_the_covering_index(scratch, tmp_path, monkeypatch):
    """On a private MariaDB the history statement is LinkBench's getLinkList with the time range's
    upper end and offset 1, through id1_type with no filesort, and its pages are older than the
    first page's last link."""
    from engbench.run.servers import mariadb as mariadb_mod
    from engbench.run.servers.mariadb import MariaDB
    if mariadb_mod.unavailable_reason() or "mariadb-innodb" not in {t["name"] for t in driver.describe().get("targets", [])}:
        pytest.skip("no MariaDB or driver without targets")
    monkeypatch.setenv("ENGBENCH_MYSQL_PASSWORD", "Pw-hist-engbench")
    with MariaDB(tmp_path / "server", engine="innodb", settings={"cache_size": "64M"}) as db:
        with db.connect().cursor() as cur:
            cur.execute("CREATE USER 'bench'@'127.0.0.1' IDENTIFIED BY 'Pw-hist-engbench'")
            cur.execute("GRANT ALL ON *.* TO 'bench'@'127.0.0.1'")
            cur.execute("SET GLOBAL log_output='TABLE'")
            cur.execute("SET GLOBAL general_log=1")
        req = params.resolve("linkbench", "mariadb-innodb", [
            "maxid1=400", "load_batch=1024", "requests=400", "getlinklist_limit=100", "getlinklist_history=50",
            *(f"{m}=0" for m in ("addlink", "deletelink", "updatelink", "countlink", "getlink", "getnode", "addnode",
                                 "updatenode", "deletenode")), "getlinklist=100",
            "mariadb.host=127.0.0.1", f"mariadb.port={db.port}", "mariadb.user=bench", "mariadb.database=rc"])
        res = runs.execute(req, out_dir=scratch / "raw", show_progress=False)
        assert res.status == "ok", res.error
        s = json.loads((res.run_dir / "driver" / "summary.json").read_text())
        assert s["getlinklist_history"]["queries"] > 0
        with db.connect().cursor() as cur:
            cur.execute("SET GLOBAL general_log=0")
            cur.execute("SELECT CONVERT(argument USING utf8mb4) FROM mysql.general_log WHERE command_type='Query' "
                        "AND argument LIKE 'SELECT id1, id2%ORDER BY time DESC LIMIT 1,100' LIMIT 1")
            (sql,) = cur.fetchone()
            assert "FORCE INDEX(id1_type)" in sql and "time>=0 AND time<=" in sql
            cur.execute("USE rc")
            cur.execute("EXPLAIN " + sql)
            cols = [c[0] for c in cur.description]
            plan = [dict(zip(cols, r)) for r in cur.fetchall()]
            assert len(plan) == 1 and plan[0]["key"] == "id1_type" and "filesort" not in (plan[0]["Extra"] or "")
            cur.execute(sql)
            older = cur.fetchall()
            first = sql.split(" AND time>=0")[0] + " AND visibility=1 ORDER BY time DESC LIMIT 0,100"
            cur.execute(first)
            newest = cur.fetchall()
            # the load's times: shuffled among a list's links (LinkBench stamps each loaded link with a
            # random time), not descending in id2 as they were (every list was then monotone)
            table = re.search(r"FROM (\S+)", sql).group(1)
            cur.execute(f"SELECT id1, link_type, id2, time FROM {table} ORDER BY id1, link_type, id2")
            lists = {}
            for id1, lt, _id2, t in cur.fetchall():
                lists.setdefault((id1, lt), []).append(t)
    assert len(older) == 100 and len(newest) == 100
    long = [ts for ts in lists.values() if len(ts) >= 4]
    monotone = sum(all(a > b for a, b in zip(ts, ts[1:])) for ts in long)
    assert len(long) >= 20 and monotone < len(long) / 2, (monotone, len(long))
    assert all(len(set(ts)) == len(ts) for ts in lists.values())  # a list's times stay distinct
    assert max(r[5] for r in older) < min(r[5] for r in newest)  # time column: older than the first page
