"""The counters issue 26's regime gates read, hand-computed: a run's sizes by kind (data, index,
log; normalize.sizes), WiredTiger's log slot joins that waited (normalize.workloads.log_slot_figures),
the regime of cache-pollution's cold pass (workloads.cache_pollution.normalize.cache_pollution_regime), and the run
key run.reopen_after_load (run.limits)."""

import math

import pytest

from engbench.normalize import sizes
from engbench.normalize import workloads as wl
from engbench.workloads.cache_pollution import normalize as cp
from engbench.normalize.device import limit_fields, limits_label
from engbench.run import limits


@pytest.mark.parametrize("engine,path,kind", [
    ("wiredtiger", "bulk.wt", "data"), ("wiredtiger", "bulk_3.wt", "data"),
    ("wiredtiger", "bulk._id_.wt", "index"), ("wiredtiger", "cp_cold.v_1.wt", "index"),
    ("wiredtiger", "WiredTigerLog.0000000001", "log"), ("wiredtiger", "WiredTigerPreplog.0000000002", "log"),
    ("wiredtiger", "WiredTigerTmplog.0000000001", "log"), ("wiredtiger", "WiredTiger.wt", "meta"),
    ("wiredtiger", "WiredTigerHS.wt", "meta"), ("wiredtiger", "WiredTiger.turtle", "meta"),
    ("wiredtiger-lsm", "purchases_index-000004.lsm", "data"), ("wiredtiger-lsm", "purchases_index.pdc-000002.bf", "index"),
    ("rocksdb", "000012.sst", "table"), ("rocksdb", "000011.log", "log"), ("rocksdb", "LOG", "meta"),
    ("rocksdb", "MANIFEST-000005", "meta"), ("rocksdb", "ENGBENCH-DEFAULT-CF", "meta"),
    ("lmdb", "data.mdb", "table"), ("lmdb", "lock.mdb", "meta"),
    ("sqlite", "engbench.sqlite", "table"), ("sqlite", "engbench.sqlite-wal", "log"),
    ("sqlite", "engbench.sqlite-shm", "meta"), ("null", "anything", "other")])
def test_file_kinds(engine, path, kind):
    assert sizes.kind(engine, path) == kind


def test_sizes_by_kind_keep_the_journal_apart():
    # the shipped 002 run 20261123T135154Z (journal on, zlib): 2 x 100 MiB of log files beside 14 MB of tables
    files = [{"path": "WiredTiger.wt", "allocated_bytes": 36864}, {"path": "WiredTigerHS.wt", "allocated_bytes": 4096},
             {"path": "WiredTigerLog.0000000001", "allocated_bytes": 104857600},
             {"path": "WiredTigerPreplog.0000000001", "allocated_bytes": 104857600},
             {"path": "bulk._id_.wt", "allocated_bytes": 7028736}, {"path": "bulk.wt", "allocated_bytes": 7122944}]
    got = sizes.sizes("wiredtiger", files)
    assert got == {"data_bytes": 7122944, "index_bytes": 7028736, "table_bytes": 14151680, "log_bytes": 209715200,
                   "meta_bytes": 40960, "other_bytes": 0}
    # RocksDB: data and indexes share the SSTs (NaN: not told apart); no log file: 0 bytes of log
    rocks = sizes.sizes("rocksdb", [{"path": "000012.sst", "allocated_bytes": 100},
                                    {"path": "000013.sst", "allocated_bytes": 50}])
    assert math.isnan(rocks["data_bytes"]) and math.isnan(rocks["index_bytes"]) and rocks["log_bytes"] == 0
    assert rocks["table_bytes"] == 150
    assert all(math.isnan(v) for v in sizes.sizes("wiredtiger", []).values())


def test_log_slot_wait_fraction():
    before = {"log: slot join calls did not yield": 10, "log: slot join calls yielded": 0,
              "log: slot join calls slept": 0, "log: slot joins yield time (usecs)": 0, "log: log write operations": 10}
    after = {"log: slot join calls did not yield": 410, "log: slot join calls yielded": 600,
             "log: slot join calls slept": 7, "log: slot joins yield time (usecs)": 1500, "log: log write operations": 1010}
    got = wl.log_slot_figures(before, after)
    # 400 joins did not yield and 600 yielded: 600 / 1000
    assert got == {"log_slot_joins": 1000, "log_slot_joins_waited": 600, "log_slot_joins_slept": 7,
                   "log_slot_wait_fraction": 0.6, "log_slot_yield_us": 1500, "log_writes": 1000}
    # journal off: the counters stay 0 → no fraction; another engine: no counters → NaN
    assert math.isnan(wl.log_slot_figures(before, before)["log_slot_wait_fraction"])
    assert all(math.isnan(v) for v in wl.log_slot_figures({}, {"other": 1}).values())


def test_cache_pollution_regime_from_the_pass_snapshots():
    gib = 1 << 30
    hot, cold = "table:cp_hot | cache: ", "table:cp_cold | cache: "
    start = {"cache: maximum bytes configured": gib,
             hot + "bytes currently in the cache": 0.8 * gib, hot + "pages read into cache": 1100,
             hot + "unmodified pages evicted": 100, hot + "modified pages evicted": 0,
             cold + "bytes currently in the cache": 1000, cold + "unmodified pages evicted": 0}
    mid = {hot + "bytes currently in the cache": 0.6 * gib, hot + "unmodified pages evicted": 350,
           cold + "bytes currently in the cache": 0.2 * gib, cold + "unmodified pages evicted": 40}
    summary = {"params": {"collection_prefix": "cp_"},
               "phases": {"hot_logical_bytes": 0.7 * gib, "cold_logical_bytes": 0.75 * gib}}
    got = cp.cache_pollution_regime(summary, {"cold_start": start, "mid": mid})
    assert got["cache_bytes"] == gib
    assert got["hot_fill_start"] == pytest.approx(0.8)
    assert (got["hot_logical_over_cache"], got["cold_logical_over_cache"]) == (pytest.approx(0.7), pytest.approx(0.75))
    # 1100 read − 100 evicted = 1000 hot pages at the start; 250 evicted over the pass: a quarter
    assert (got["hot_pages_start"], got["hot_evicted_pass"], got["cold_evicted_pass"]) == (1000, 250, 40)
    assert got["hot_evicted_fraction"] == pytest.approx(0.25)
    assert got["hot_bytes_lost_fraction"] == pytest.approx(0.25)
    assert (got["cold_cache_bytes_start"], got["cold_cache_bytes_end"]) == (1000, pytest.approx(0.2 * gib))
    # a run without the cold_start snapshot (before issue 26): every figure of the pass NaN, nothing invented
    old = cp.cache_pollution_regime(summary, {"mid": mid})
    assert all(math.isnan(v) for k, v in old.items() if not k.endswith("_cache_bytes_end")), old


def test_hot_misses_mean_engine_misses_only_where_the_driver_counted_them_so():
    new = {"phases": {"engine_stats_cold_start": "engine_stats_cold_start.json", "hot_not_found": 0}, "hot_misses": 42}
    old = {"phases": {}, "hot_misses": 3}  # before issue 26: reads that found nothing
    assert (cp.cache_pollution_row(new, 0, 1)["hot_misses"], cp.cache_pollution_row(new, 0, 1)["hot_not_found"]) == (42, 0)
    assert (cp.cache_pollution_row(old, 0, 1)["hot_misses"], cp.cache_pollution_row(old, 0, 1)["hot_not_found"]) == (None, 3)


def test_reopen_after_load_is_a_run_key():
    lim, rest = limits.split({"run.reopen_after_load": "true", "wiredtiger.cache_size": "1GB"})
    assert lim.reopen_after_load is True and rest == {"wiredtiger.cache_size": "1GB"}
    assert limits.driver_config({"run.reopen_after_load": "true", "run.drop_caches": "between"}) == {
        "drop_caches_after_load": True, "reopen_after_load": True}
    assert limits.driver_config({"run.reopen_after_load": "false"}) == {}
    with pytest.raises(limits.LimitError, match="run.reopen_after_load must be true or false"):
        limits.split({"run.reopen_after_load": "maybe"})
    rl = limits.record(lim, "wiredtiger", {}, None)
    assert rl["reopen_after_load"] is True
    assert limit_fields(rl)["limit.reopen_after_load"] is True
    assert limits_label(rl) == "engine reopened after load"
