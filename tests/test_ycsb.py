"""YCSB end to end through `engbench run` with the real driver, iostat and vmstat: every letter
A–F on sqlite and rocksdb ends ok with the letter's ops, an unknown letter is refused with nothing
written, and a ycsb run is processed per request (engbench.registry "ycsb") and reported."""

import contextlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from engbench import matrix, paths, registry
from engbench.registry import params_now, params_then
from engbench.tables import build_tables, runs_in, write_tables
from engbench.tables.processed import load_processed
from sealed import unlock

LETTER_OPS = {"a": {"read", "update"}, "b": {"read", "update"}, "c": {"read"}, "d": {"read", "insert"},
              "e": {"scan", "insert"}, "f": {"read", "read_modify_write"}}


def _env(root):
    return {**os.environ, "ENGBENCH_RAW_DIR": str(root / "raw"), "ENGBENCH_WORK_DIR": str(root / "work"),
            "ENGBENCH_PROCESSED_DIR": str(root / "processed")}


def _run(root, *args):
    return subprocess.run([sys.executable, "-m", "engbench.cli", "run", "ycsb", *args, "--no-progress"],
                          capture_output=True, text=True, env=_env(root), timeout=300)


@pytest.mark.parametrize("engine", ["sqlite", "rocksdb"])
def test_every_letter_ends_ok(tmp_path, engine):
    for letter, ops in LETTER_OPS.items():
        out = _run(tmp_path, "--engine", engine, "--set", f"letter={letter}", "--set", "recordcount=1000",
                   "--set", "operationcount=3000")
        assert out.returncode == 0, out.stderr
        run_dir = out.stdout.strip().splitlines()[-1]
        man = json.loads(open(os.path.join(run_dir, "manifest.json")).read())
        summ = json.loads(open(os.path.join(run_dir, "driver", "summary.json")).read())
        assert man["status"] == "ok" and man["params"]["letter"] == letter
        assert set(summ["totals"]) == {"request"} | ops
        assert summ["totals"]["request"]["requests"] == 3000
        assert summ["misses"]["total"] == 0  # every key read was loaded (or inserted) first
        assert summ["load"]["records"] == 1000 and summ["load"]["end_unix_s"] <= summ["client"]["start_unix_s"]
    unlock(tmp_path)


def test_unknown_letter_refused_with_nothing_written(tmp_path):
    out = _run(tmp_path, "--engine", "sqlite", "--set", "letter=g")
    assert out.returncode != 0
    assert "a, b, c, d, e, f" in out.stderr
    assert not (tmp_path / "raw").exists() or not any((tmp_path / "raw").iterdir())
    assert not (tmp_path / "work").exists() or not any((tmp_path / "work").iterdir())


@pytest.mark.parametrize("old, says", [("workload=a", "parameter 'workload' of ycsb is now called 'letter'"),
                                       ("requestdistribution=workload",
                                        "requestdistribution='workload' of ycsb is now requestdistribution='letter'")])
def test_a_name_from_before_the_rename_is_refused_with_its_new_name_and_nothing_written(tmp_path, old, says):
    """Issue 29's rename (`workload` named the benchmark and YCSB's letter): the old name is refused
    with the new one, not taken silently, and nothing is written."""
    out = _run(tmp_path, "--engine", "sqlite", "--set", old)
    assert out.returncode != 0 and says in out.stderr, out.stderr
    assert not (tmp_path / "raw").exists() or not any((tmp_path / "raw").iterdir())
    assert not (tmp_path / "work").exists() or not any((tmp_path / "work").iterdir())


BEFORE_RENAMES = Path(__file__).parent / "data" / "runs_before_renames"


def test_runs_recorded_under_the_old_names_are_read_and_count_as_done_under_the_new():
    """Runs recorded `workload` (and requestdistribution=workload) in their raw captures, which are
    never rewritten: the tables read them as `letter`, and their trials' recorded fingerprints still
    realize the requests of the files they were measured for (so reproduce does not run them again).
    Three shipped runs of 2026-11-26 with their experiment files (tests/data/runs_before_renames)."""
    spec = registry.get("ycsb")
    then = {"workload": "c", "requestdistribution": "workload", "recordcount": 5}
    assert params_now(spec, then) == {"letter": "c", "requestdistribution": "letter", "recordcount": 5}
    assert params_then(spec, params_now(spec, then)) == then
    raw = BEFORE_RENAMES / "raw"
    old = {d.name for d in raw.iterdir() if "workload" in json.loads((d / "manifest.json").read_text())["params"]}
    assert len(old) == 3
    runs = build_tables(sorted(raw.iterdir()))["runs"]
    assert set(runs["run_id"]) == old and set(runs["param.letter"].astype(str)) == {"a", "c", "e"}
    assert "param.workload" not in runs.columns
    assert set(runs["param.requestdistribution"].dropna().astype(str)) == {"letter"}
    files = sorted((BEFORE_RENAMES / "params").glob("repro_ycsb_rum_*.yaml"))
    done = matrix.verified_runs(raw)
    trials = [t for t in matrix.trials(files, validate=False) if t.key in done]
    assert len(trials) == 3
    for t in trials:
        recorded = done[t.key][1]
        assert recorded != t.fingerprint and t.realized_by(recorded), t.key
        assert not t.realized_by(recorded[::-1]), t.key  # and nothing else is


def test_the_notebooks_path_refuses_an_old_name_too(scratch):
    from engbench.run import experiments, params as run_params
    with pytest.raises(run_params.ParamError, match="now called 'letter'"):
        experiments.run("ycsb", ["sqlite"], {"workload": "a", "recordcount": 10}, show_progress=False)
    assert not any(paths.raw_dir().glob("*"))


def test_tables_made_before_the_renames_are_refused_with_the_cause(tmp_path, shipped):
    from engbench.tables.processed import ProcessedError
    proc = tmp_path / "processed"
    shutil.copytree(shipped / "data" / "processed", proc)
    runs = pd.read_parquet(proc / "runs.parquet").rename(columns={"trial": "target", "param.letter": "param.workload"})
    runs.to_parquet(proc / "runs.parquet")
    with pytest.raises(ProcessedError, match=r"renamed \(target, param.workload\).*engbench process"):
        load_processed(proc)


@pytest.fixture(scope="module")
def processed(tmp_path_factory):
    root = tmp_path_factory.mktemp("ycsb")
    # time-bounded at a modest rate so that whole 1-s intervals and iostat samples fall in the window
    out = _run(root, "--engine", "sqlite", "--set", "letter=c", "--set", "recordcount=2000",
               "--set", "operationcount=0", "--set", "max_seconds=2.5", "--set", "target_rate=4000")
    assert out.returncode == 0, out.stderr
    write_tables(build_tables(runs_in(root / "raw")), root / "processed")
    from engbench.report import paper
    paper.build(root / "processed", root / "raw", root / "paper", png=False)
    proc = load_processed(root / "processed")
    summ = json.loads(next((root / "raw").glob("*_ycsb_*/driver/summary.json")).read_text())
    yield root, proc, summ
    unlock(root)


def test_processed_per_request(processed):
    root, proc, summ = processed
    r = proc["runs"].set_index("workload").loc["ycsb"]
    requests = summ["totals"]["request"]["requests"]
    assert r["op_unit"] == "request" and requests > 0
    assert r["ops"] == requests and r["requests"] == requests  # read repeats request: counted once
    assert r["q"] == pytest.approx(requests / summ["client"]["measured_seconds"])
    assert r["logical_bytes_read"] == summ["totals"]["request"]["logical_bytes_read"] > 0
    assert r["logical_bytes_written"] == 0
    # read amp = device bytes read / logical bytes returned (a number: the reads returned bytes)
    assert r["read_amp_device"] == pytest.approx(r["device_bytes_read"] / r["logical_bytes_read"])
    loads = proc["loads"].set_index("run_id")
    assert loads.loc[r["run_id"], "inserts"] == 2000
    rpr = registry.reads_per_point_read(proc["runs"], proc["latency"])
    lat = proc["latency"].set_index(["run_id", "op"])
    reads = lat.loc[(r["run_id"], "read"), "count"]
    assert reads == summ["totals"]["read"]["requests"]
    assert rpr[r["run_id"]] == pytest.approx(r["r_per_op"] * r["ops"] / reads)
    assert (root / "paper").is_dir()


def _server_sets(target, tmp_path):
    """--set options that reach `target`, or a skip: MariaDB is started by engbench for the run,
    FerretDB (over SQLite; the only MongoDB-wire server here) by this test."""
    from engbench.run.servers import ferretdb as ferret_mod
    from engbench.run.servers import mariadb as mariadb_mod
    why = (mariadb_mod if target.startswith("mariadb") else ferret_mod).unavailable_reason()
    if why:
        pytest.skip(str(why))
    if target.startswith("mariadb"):
        return contextlib.nullcontext([])
    from engbench.run.servers.ferretdb import FerretDB

    @contextlib.contextmanager
    def ferret():
        with FerretDB(tmp_path / "ferret") as f:
            yield ["--set", f"mongodb.uri={f.uri}"]
    return ferret()


@pytest.mark.parametrize("target", ["mariadb-innodb", "mongodb"])
@pytest.mark.parametrize("letter", ["e", "f"])
def test_servers_get_the_same_stream_and_logical_bytes_as_sqlite(tmp_path, target, letter):
    """go-ycsb's usertable on a private MariaDB (InnoDB), YCSB's documents on FerretDB: the same
    operations (op_stream_hash), the same records found, returned and written, so the same
    logical bytes as the KV engines. Tiny: FerretDB's lookups slow down as a collection grows."""
    summaries = {}
    with _server_sets(target, tmp_path) as sets:
        for engine in ("sqlite", target):
            out = _run(tmp_path, "--engine", engine, "--set", f"letter={letter}", "--set", "recordcount=300",
                       "--set", "operationcount=400", "--set", "readallfields=false",
                       "--set", "writeallfields=true", "--set", "load_batch=20", "--set", "maxscanlength=10",
                       *(sets if engine == target else []))
            assert out.returncode == 0, out.stderr
            run_dir = out.stdout.strip().splitlines()[-1]
            summaries[engine] = json.loads(open(os.path.join(run_dir, "driver", "summary.json")).read())
    a, b = summaries["sqlite"], summaries[target]
    assert b["status"] == "ok" and b["target"]["kind"] in ("mariadb", "mongodb")
    assert a["op_stream_hash"] == b["op_stream_hash"]
    assert a["totals"] == b["totals"] and a["totals"]["request"]["logical_bytes_read"] > 0
    assert a["logical_bytes_stored"] == b["logical_bytes_stored"]
    assert b["misses"]["total"] == 0
    unlock(tmp_path)
