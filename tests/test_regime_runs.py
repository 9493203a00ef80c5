"""Real tiny runs of the two experiments issue 26 brought into their source documents' regime:
the counters their gates read exist in the processed tables and hold together.

- 004, cache-pollution with run.reopen_after_load: the engine reopened between load and warm-up
  (summary reopen, manifest, runs limit column), the hot and cold tables' bytes in cache and pages
  evicted right before and after the cold pass (engine_stats snapshots cold_start and mid), the
  hot cache misses over the pass equal to the per-table counter's increase, and the regime figures
  (cache_pollution table) computed from them.
- 002, bulk-insert of {_id: ObjectId} with one commit per document: one log slot join per
  document, the share that waited, and the data, index and log sizes apart."""

import json
import math
from pathlib import Path

import pytest

from engbench.tables.build import run_tables
from test_runs import engbench

TINY_WT = ["--engine", "wiredtiger", "--no-progress"]


def _run(*args):
    out = engbench("run", *args)
    assert out.returncode == 0, out.stderr
    return Path(out.stdout.strip().splitlines()[-1])


def test_cache_pollution_reopened_has_the_pass_counters(scratch):
    # 32 MiB cache; hot 0.61 and cold 0.73 of it in 1 KB documents (1026 bytes of BSON each). (An
    # 8 MiB cache is too small for the load's 1 MB transactions: WiredTiger rolls them back.)
    d = _run("cache-pollution", *TINY_WT, "--set", "wiredtiger.cache_size=32MB", "--set", "hot_docs=20000",
             "--set", "cold_docs=24000", "--set", "doc_size=1000", "--set", "threads=1", "--set", "cold_action=index",
             "--set", "cold_delay_seconds=0.2", "--set", "after_seconds=0.2", "--set", "run.reopen_after_load=true")
    summary = json.loads((d / "driver" / "summary.json").read_text())
    manifest = json.loads((d / "manifest.json").read_text())
    assert manifest["run_limits"]["reopen_after_load"] is True
    assert json.loads((d / "driver" / "config.json").read_text())["reopen_after_load"] is True
    re = summary["reopen"]
    assert re["tables"] == 3 and re["close_seconds"] >= 0 and re["open_seconds"] >= 0
    assert re["end_unix_s"] <= summary["phases"]["warm_hot_start_unix_s"] <= summary["client"]["start_unix_s"]

    t = run_tables(d)
    runs = t["runs"]
    assert runs["limit.reopen_after_load"] is True and runs["limits"] == "engine reopened after load"
    st = t["engine_stats"]

    def stat(snap, name):
        (v,) = st.loc[(st["snapshot"] == snap) & (st["stat"] == name), "value"].tolist()
        return v

    # the source's two tables, for both collections, right before and right after the pass
    for table in ("table:cp_hot", "table:cp_cold"):
        for name in ("bytes currently in the cache", "unmodified pages evicted", "pages read into cache"):
            for snap in ("cold_start", "mid"):
                assert stat(snap, f"{table} | cache: {name}") >= 0
    hot_read = "table:cp_hot | cache: pages read into cache"
    cp = t["cache_pollution"].iloc[0]
    assert cp["hot_misses"] == stat("mid", hot_read) - stat("cold_start", hot_read) == summary["hot_misses"]
    assert cp["hot_not_found"] == 0
    assert cp["cache_bytes"] == 32 << 20
    assert cp["hot_logical_over_cache"] == pytest.approx(20000 * 1026 / (32 << 20))
    assert cp["cold_logical_over_cache"] == pytest.approx(24000 * 1026 / (32 << 20))
    # after the reopen the warm-up read the hot collection into an empty cache: its pages are
    # counted, its bytes fill part of the cache, and the cold collection is (almost) not there
    assert 0 < cp["hot_fill_start"] <= 1
    assert cp["hot_pages_start"] > 0
    assert cp["cold_cache_bytes_start"] < 0.05 * cp["hot_cache_bytes_start"]
    assert cp["hot_evicted_pass"] == (stat("mid", "table:cp_hot | cache: unmodified pages evicted")
                                      - stat("cold_start", "table:cp_hot | cache: unmodified pages evicted"))
    assert cp["hot_evicted_fraction"] == pytest.approx(cp["hot_evicted_pass"] / cp["hot_pages_start"])
    assert cp["cold_pass_ms"] > 0


def test_bulk_insert_objectid_log_slot_joins_and_sizes(scratch):
    docs = 20000
    common = ["--set", f"num={docs}", "--set", "batch=500", "--set", "threads=4", "--set", "id_type=objectid",
              "--set", "docs_per_txn=1", "--set", "collection_per_loader=true", "--set", "wiredtiger.cache_size=64MB",
              "--set", "wiredtiger.block_compressor=zlib", "--set", "wiredtiger.index_block_compressor=none"]
    on = run_tables(_run("bulk-insert", *TINY_WT, *common, "--set", "wiredtiger.log=true"))
    r = on["runs"]
    # one commit per document: one log record, one slot join each (nothing else logs in this window)
    assert r["log_writes"] == docs and r["log_slot_joins"] == docs
    assert 0 <= r["log_slot_joins_slept"] <= r["log_slot_joins_waited"] <= r["log_slot_joins"]
    assert r["log_slot_wait_fraction"] == pytest.approx(r["log_slot_joins_waited"] / docs)
    assert r["log_slot_yield_us"] >= 0
    # sizes by kind add up to the run's size; WiredTiger preallocates its log files
    assert r["data_bytes"] > 0 and r["index_bytes"] > 0 and r["log_bytes"] >= 100 << 20
    assert r["table_bytes"] == r["data_bytes"] + r["index_bytes"]
    total = r["data_bytes"] + r["index_bytes"] + r["log_bytes"] + r["meta_bytes"] + r["other_bytes"]
    assert total == pytest.approx(r["size_gb"] * (1 << 30))
    files = on["disk_files"]
    assert set(files.loc[files["path"].str.startswith("bulk_"), "kind"]) == {"data", "index"}
    assert len(files[files["kind"] == "index"]) == 4  # one _id index per loader's collection

    off = run_tables(_run("bulk-insert", *TINY_WT, *common, "--set", "wiredtiger.log=false"))["runs"]
    assert off["log_slot_joins"] == 0 and math.isnan(off["log_slot_wait_fraction"]) and off["log_bytes"] == 0
