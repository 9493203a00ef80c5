"""Transaction workloads end to end: a tiny sysbench-update (null engine) and a tiny linkbench
(sqlite) run by the real driver with real iostat/vmstat, processed and reported per transaction
(engbench.workloads): op_unit, q, the per-transaction table's headers, chart titles."""

import json
import os
import subprocess
import sys

import pytest

from engbench.tables import build_tables, runs_in, write_tables
from engbench.tables.processed import load_processed

# about 2.5 s each, at a modest rate (two shared cores): long enough for whole 1-s intervals
RUNS = {"sysbench-update": ["--engine", "null", "--set", "table_size=2000", "--set", "clients=1,2",
                            "--set", "seconds_per_step=1.25", "--set", "target_rate=20000"],
        "linkbench": ["--engine", "sqlite", "--set", "maxid1=501", "--set", "requests=0",
                      "--set", "max_seconds=2.5", "--set", "target_rate=4000", "--set", "threads=1",
                      "--set", "graph=lognormal"]}


@pytest.fixture(scope="module")
def reported(tmp_path_factory):
    root = tmp_path_factory.mktemp("txn")
    env = {**os.environ, "ENGBENCH_RAW_DIR": str(root / "raw"), "ENGBENCH_WORK_DIR": str(root / "work"),
           "ENGBENCH_PROCESSED_DIR": str(root / "processed")}
    for workload, args in RUNS.items():
        out = subprocess.run([sys.executable, "-m", "engbench.cli", "run", workload, *args, "--no-progress"],
                             capture_output=True, text=True, env=env, timeout=300)
        assert out.returncode == 0, out.stderr
    write_tables(build_tables(runs_in(root / "raw")), root / "processed")
    from engbench.report import data, paper
    paper.build(root / "processed", root / "raw", root / "paper", png=False)
    proc = load_processed(root / "processed")
    exps = {e.workload: e for e in data.comparisons(proc["runs"], defaults_of=lambda w: None)}
    summaries = {w: json.loads(next((root / "raw").glob(f"*_{w}_*/driver/summary.json")).read_text())
                 for w in RUNS}
    yield root, proc, exps, summaries
    for dirpath, dirs, _ in os.walk(root):
        for d in dirs:
            os.chmod(os.path.join(dirpath, d), 0o755)


def test_processed_per_transaction(reported):
    _, proc, _, summ = reported
    runs = proc["runs"].set_index("workload")
    for workload, main in (("sysbench-update", "update"), ("linkbench", "request")):
        r, s = runs.loc[workload], summ[workload]
        assert r["op_unit"] == "transaction"
        # q = requests of the main op / measured seconds (on null an update finds no row: items 0)
        requests = s["totals"][main]["requests"]
        assert requests > 0 and r["ops"] == requests and r["requests"] == requests
        assert r["q"] == pytest.approx(requests / s["client"]["measured_seconds"])
        # the ops repeating the main op (update.c<N>, linkbench's per-type ops) are not counted twice
        assert r["logical_bytes_read"] == s["totals"][main]["logical_bytes_read"]
        # per 200k / per batch are iibench's bases, not a transaction's
        assert r["wkb_per_200k"] != r["wkb_per_200k"] and r["wkb_per_batch"] != r["wkb_per_batch"]
    assert summ["sysbench-update"]["totals"]["update"]["items"] == 0  # null stores nothing
    assert set(proc["latency"].columns) >= {"p999_us"}
    lat = proc["latency"].set_index(["run_id", "op"])
    lb = runs.loc["linkbench", "run_id"]
    assert lat.loc[(lb, "request"), "count"] == summ["linkbench"]["totals"]["request"]["requests"]


def test_tables_are_per_transaction(reported):
    from engbench.report import comparison_tables as tables
    from engbench.workloads.linkbench import report as linkbench_report
    _, proc, exps, _ = reported
    tabs = {t.name.split(".", 1)[1]: t for t in tables.experiment_tables(exps["sysbench-update"], proc["latency"])}
    assert "per_txn" in tabs and "per_insert" not in tabs and "per_200k" not in tabs
    assert list(tabs["per_txn"].printed.columns) == [
        "engine", "n", "tps (txn/s)", "r/t (reads/txn)", "rKB/t (KB/txn)", "wKB/t (KB/txn)",
        "Mcpu/t ((us+sy)·1e6/tps)", "size (GB)", "rss (GB)"]
    assert tabs["per_txn"].title.endswith("— per transaction")
    query = linkbench_report.query_tables(exps["linkbench"], proc["latency"], proc["loads"])[0][0]
    assert list(query.printed.columns)[2:6] == ["tps (txn/s)", "r/t (reads/txn)", "rKB/t (KB/txn)", "wKB/t (KB/txn)"]
    assert "p99 gll (ms)" in query.printed.columns


def test_charts_are_titled_per_transaction(reported):
    from engbench.report import charts
    _, proc, exps, _ = reported
    for workload, op in (("sysbench-update", "update"), ("linkbench", "request")):
        e = exps[workload]
        rate = charts.insert_rate(e, proc["intervals"], "m").to_dict()
        assert rate["title"]["text"] == f"{op.capitalize()}s per second: {workload}"
        assert rate["encoding"]["y"]["title"] == "transactions per second (tps)"
        assert max(next(iter(rate["datasets"].values())), key=lambda v: v["rate"])["rate"] > 0
        costs = charts.per_op_costs(e, "m").to_dict()
        assert costs["title"]["text"] == f"Cost per {op} (transaction): {workload}"
        assert "KB written / txn" in {v["metric"] for v in next(iter(costs["datasets"].values()))}
        for d in (rate, costs):
            assert "insert" not in json.dumps(d["title"])


def test_paper_says_transactions(reported):
    root = reported[0]
    md = (root / "paper" / "build" / "supplement.md").read_text()  # the experiments: the supplement (issue 45)
    assert "transactions per second" in md and "Per update (transaction), the device was written" in md
    assert "— per transaction.**" in md and "— per insert" not in md
    assert "| tps (txn/s) |" in md
