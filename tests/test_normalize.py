"""Normalization: each formula against a hand computation."""

import math

import numpy as np
import pandas as pd
import pytest

from engbench import normalize as nz


def frame(seconds):
    return pd.DataFrame({"timestamp": pd.to_datetime(seconds, unit="s", utc=True),
                         "v": np.arange(len(seconds), dtype=float)})


def test_trim_keeps_samples_mostly_inside_the_window():
    f = frame([99, 100, 101, 102, 110, 111, 112])
    # window [100.3, 110.7]: sample t covers (t-1, t]; kept when t-0.5 in [100.3, 110.7)
    assert nz.trim_to_window(f, 100.3, 110.7)["timestamp"].dt.as_unit("s").astype("int64").tolist() == [101, 102, 110, 111]
    # setup samples before the clients and post-processing samples after them are dropped
    assert len(nz.trim_to_window(f, 100, 102)) == 2  # 101, 102


def test_coverage_reports_a_capture_that_stops_early_or_has_gaps():
    full = frame(list(range(101, 111)))
    assert nz.coverage(full, 100, 110) == 1.0
    assert nz.coverage(frame(list(range(101, 106))), 100, 110) == 0.5  # stopped after 5 s
    assert nz.coverage(frame([101, 102, 104]), 100, 104) == 0.75  # 103 missing
    assert nz.coverage(frame([]), 100, 110) == 0.0
    with pytest.raises(ValueError, match="without timestamps"):
        nz.trim_to_window(pd.DataFrame({"timestamp": pd.to_datetime([None], utc=True)}), 0, 1)


def test_per_op_formulas_by_hand():
    q = nz.rate(2000, 10)  # 2000 ops in 10 s
    assert q == 200
    assert nz.rate_per_op(1000, q) == 5  # 1000 kB/s / 200 op/s = 5 kB/op
    assert nz.mcpu_per_op(40, q) == 200_000  # 40 % × 1e6 / 200
    assert nz.cpu_us_per_op(40, 4, q) == 8000  # 0.4 × 4 CPUs = 1.6 CPU-s/s / 200 = 8 ms
    assert nz.per_n(0.25, 200_000) == 50_000
    assert math.isnan(nz.rate_per_op(5, 0)) and math.isnan(nz.rate(5, 0))
    assert nz.gib(3 * 2**30) == 3


def test_process_cpu_interpolated_at_window_bounds():
    p = pd.DataFrame({"t_unix_s": [0, 1, 2, 3, 4], "cpu_user_s": [0, 1, 2, 3, 4],
                      "cpu_sys_s": [0, 0.5, 1, 1.5, 2], "rss_bytes": [1, 2**30, 3 * 2**30, 2**30, 5 * 2**30]})
    # cumulative user+sys is 1.5 t: (1.5×3.5 − 1.5×0.5) = 4.5 s over 900 ops = 5000 µs/op
    assert nz.process_cpu_us_per_op(p, 0.5, 3.5, 900) == pytest.approx(5000)
    assert nz.max_rss_gb(p, 1, 3) == 3 and nz.max_rss_gb(p) == 5


def test_latency_percentiles_are_bucket_upper_bounds():
    h = pd.DataFrame({"op": "insert", "lo_us": [100, 200, 1000, 5000], "hi_us": [110, 220, 1100, 5500],
                      "count": [50, 150, 50, 6]})  # n = 256
    p = nz.latency_percentiles(h)
    # inclusive upper bounds (hi − 1): p50: rank 128 → cum 50, 200 → 219; p95: rank 244 → 1099;
    # p99: rank 254 → 5499
    assert (p["p50"], p["p95"], p["p99"], p["p999"], p["max"], p["count"]) == (219, 1099, 5499, 5499, 5499, 256)
    assert nz.latency_percentiles(h.iloc[:1])["p99"] == 109
    # the exact maximum caps the top bucket's bound, as the driver's summary does
    capped = nz.latency_percentiles(h, exact_max=5010)
    assert (capped["p99"], capped["max"], capped["p50"]) == (5010, 5010, 219)
    assert math.isnan(nz.latency_percentiles(h.iloc[0:0])["p50"])


def test_throughput_percentiles_descending_rank_and_na_below_10():
    rates = [30000] * 7 + [22144, 20000, 10000]
    t = nz.throughput_percentiles(rates)
    # ranks round(x/100 × 10) in descending order: 5, 8 (7.5 up), 9, 10 (9.5 up), 10
    assert t == {"p50": 30000, "p75": 22144, "p90": 20000, "p95": 10000, "p99": 10000}
    assert all(math.isnan(v) for v in nz.throughput_percentiles(rates[:9]).values())


def test_rum_ratios():
    # device (iostat): bytes over the window / logical bytes
    assert nz.write_amp_device(3 * 2**20, 2**20) == 3
    assert nz.read_amp_device(10, 40) == 0.25
    assert nz.space_amp(150, 100) == 1.5
    assert math.isnan(nz.read_amp_device(10, 0))  # nothing read logically
    assert math.isnan(nz.space_amp(10, None))
    # cgroup / process: KB per op × 1024 over the logical bytes of one op: 3 KB read per op for
    # 15360 B returned by 10 ops (1536 B each) = 2; 0.5 KB written per op for 2560 B by 10 ops = 2
    assert nz.read_amp_cgroup(3.0, 15_360, 10) == pytest.approx(3072 / 1536)
    assert nz.read_amp_process(3.0, 15_360, 10) == pytest.approx(2.0)
    assert nz.write_amp_process(0.5, 2560, 10) == pytest.approx(2.0)
    assert math.isnan(nz.read_amp_cgroup(float("nan"), 15_360, 10))  # no cgroup: no run limits
    assert math.isnan(nz.write_amp_process(None, 2560, 10))
    assert math.isnan(nz.write_amp_process(0.5, 0, 10))  # nothing written: nothing to divide by
    # a load: 4 KB per inserted record of 1000 logical bytes (100 records, 100000 bytes)
    assert nz.load_write_amp(4.0, 100_000, 100) == pytest.approx(4.096)
    assert math.isnan(nz.load_write_amp(4.0, None, 100))


def test_run_amplifications_one_column_per_counter():
    from engbench.normalize.amplification import RUN_COLUMNS, run_amplifications
    row = {"ops": 10, "logical_bytes_read": 15_360, "logical_bytes_written": 2560, "logical_bytes_stored": 100,
           "device_bytes_read": 30_720, "device_bytes_written": 10_240, "cg_rkb_per_op": 1.5,
           "proc_rkb_per_op": 3.0, "proc_wkb_per_op": 0.5}
    got = run_amplifications(row, 250, server_target=False)
    assert list(got) == list(RUN_COLUMNS)
    assert got == pytest.approx({"read_amp_device": 2.0, "read_amp_cgroup": 1.0, "read_amp_process": 2.0,
                                 "write_amp_device": 4.0, "write_amp_process": 2.0, "space_amp": 2.5})
    # a server target's engine is not in the driver's process: no process figures
    srv = run_amplifications(row, 250, server_target=True)
    assert math.isnan(srv["read_amp_process"]) and math.isnan(srv["write_amp_process"])
    assert srv["write_amp_device"] == 4.0


def test_space_is_data_and_index_without_log_or_metadata():
    """space_amp = (data + index bytes) / logical bytes stored, by hand from a file listing (issue 43
    class 3): WiredTiger's 200 MiB of preallocated log and its bookkeeping files are beside it
    (log_bytes, meta_bytes), never in it. Failed on 42f6c717: space_amp divided every allocated byte."""
    from engbench.normalize import sizes
    wt = [{"path": "coll.wt", "allocated_bytes": 600}, {"path": "coll._id_.wt", "allocated_bytes": 150},
          {"path": "coll.k1.wt", "allocated_bytes": 250},
          {"path": "WiredTigerLog.0000000001", "allocated_bytes": 100 << 20},
          {"path": "WiredTigerPreplog.0000000002", "allocated_bytes": 100 << 20},
          {"path": "WiredTiger.wt", "allocated_bytes": 4096}, {"path": "WiredTigerHS.wt", "allocated_bytes": 4096},
          {"path": "WiredTiger.turtle", "allocated_bytes": 1000}, {"path": "WiredTiger.lock", "allocated_bytes": 24}]
    got = nz.amplification.space_figures("wiredtiger", wt, 500)
    # (600 + 150 + 250) / 500 = 2.0; log 2 x 100 MiB; meta 4096 + 4096 + 1000 + 24 = 9216
    assert got == {"space_amp": 2.0, "log_bytes": 200 << 20, "meta_bytes": 9216}
    assert sizes.sizes("wiredtiger", wt)["table_bytes"] == 1000
    # RocksDB: the WAL (<n>.log), MANIFEST, OPTIONS and LOG files are not space; *.sst are
    rx = [{"path": "000012.sst", "allocated_bytes": 300}, {"path": "000013.log", "allocated_bytes": 7000},
          {"path": "MANIFEST-000005", "allocated_bytes": 50}, {"path": "OPTIONS-000007", "allocated_bytes": 8},
          {"path": "LOG", "allocated_bytes": 90}, {"path": "LOG.old.1700000000", "allocated_bytes": 10},
          {"path": "CURRENT", "allocated_bytes": 2}]
    assert nz.amplification.space_figures("rocksdb", rx, 200) == {"space_amp": 1.5, "log_bytes": 7000,
                                                                  "meta_bytes": 160}
    # LMDB's lock file and SQLite's -wal / -shm are not space either
    assert nz.amplification.space_figures("lmdb", [{"path": "data.mdb", "allocated_bytes": 800},
                                                   {"path": "lock.mdb", "allocated_bytes": 8192}], 400)["space_amp"] == 2.0
    assert nz.amplification.space_figures("sqlite", [{"path": "engbench.sqlite", "allocated_bytes": 900},
                                                     {"path": "engbench.sqlite-wal", "allocated_bytes": 4 << 20},
                                                     {"path": "engbench.sqlite-shm", "allocated_bytes": 32768}],
                                          300)["space_amp"] == 3.0
    # no file listing (runs from before it was recorded): no figure, rather than one with the log in it
    assert math.isnan(nz.amplification.space_figures("wiredtiger", None, 500)["space_amp"])


def test_partial_intervals_are_shorter_than_half_the_report_interval():
    assert nz.partial_intervals([1.0, 0.6, 0.5, 0.49, 0.012]).tolist() == [False, False, False, True, True]
    assert nz.partial_intervals([4.0, 1.9], report_interval_s=5).tolist() == [False, True]


def test_window_costs_over_a_window_by_hand():
    io = pd.DataFrame({"timestamp": pd.to_datetime([101, 102, 103, 104], unit="s", utc=True),
                       **{f"{k}_per_s": [10.0, 20.0, 30.0, 40.0] for k in ("r", "rkb", "w", "wkb", "d", "dkb")}})
    vm = pd.DataFrame({"timestamp": io["timestamp"], "cs": [1.0, 2.0, 3.0, 4.0], "us": [10.0] * 4, "sy": [30.0] * 4})
    c = nz.window_costs(io, vm, 100, 102, 300)  # samples 101, 102; q = 150/s
    assert (c["n_iostat"], c["coverage"], c["q"], c["r_per_s"]) == (2, 1.0, 150, 15)
    assert c["r_per_op"] == pytest.approx(0.1) and c["mcpu_per_op"] == pytest.approx(40e6 / 150)
    assert c["missed_s"] == 0  # a 2-s window has no interior beyond its edge seconds
    gap = nz.window_costs(io.drop(index=1), vm, 100, 104, 300)  # 102 lost: (101, 102] of [101, 103]
    assert gap["missed_s"] == pytest.approx(1.0) and gap["n_iostat"] == 3
    empty = nz.window_costs(io, vm, 104, 104, 0)  # a step that did not run
    assert empty["coverage"] == 0 and math.isnan(empty["r_per_op"])


def test_missed_seconds_ignores_the_partial_edges_but_not_a_lost_sample():
    # window [100.6, 110]: sample 101 covers (100, 101], mostly before the window → trimmed;
    # 102..110 cover (101, 110]: [100.6, 101] (0.4 s, the first partial second) is never covered
    full = nz.trim_to_window(frame(list(range(101, 111))), 100.6, 110)
    assert nz.coverage(full, 100.6, 110) == pytest.approx(9 / 9.4)  # 95.7 %: the old rule warned
    # interior [101.6, 109]: covered by (101, 102] … (108, 109] → nothing missed
    assert nz.missed_seconds(full, 100.6, 110) == 0
    # sample 105 lost: (104, 105] of the interior [101.6, 109] is missing → 1 s
    gap = nz.trim_to_window(frame([t for t in range(101, 111) if t != 105]), 100.6, 110)
    assert nz.missed_seconds(gap, 100.6, 110) == pytest.approx(1.0)
    # capture stopped after 106: interior (106, 109] missing → 3 s
    early = nz.trim_to_window(frame(list(range(101, 107))), 100.6, 110)
    assert nz.missed_seconds(early, 100.6, 110) == pytest.approx(3.0)
    # a window of at most two intervals has no interior; no sample at all misses it whole
    assert nz.missed_seconds(frame([102]), 100.6, 102.4) == 0
    assert nz.missed_seconds(frame([]), 100.6, 102.4) == pytest.approx(1.8)


def test_an_amplification_that_is_not_a_number_says_why():
    assert nz.why_no_ratio("read amp", 4096, 0, "device bytes read", "logical bytes read") == \
        "read amp: no logical bytes read (nothing to divide by)"
    assert nz.why_no_ratio("space amp", 10, None, "allocated bytes", "logical bytes stored") == \
        "space amp: logical bytes stored not recorded"
    assert nz.why_no_ratio("write amp", float("nan"), 100, "device bytes written", "logical bytes written") == \
        "write amp: device bytes written unknown"
    assert nz.why_no_ratio("write amp", 300, 100, "device bytes written", "logical bytes written") == ""


def test_percentiles_are_spelled_as_the_driver_spells_them():
    from engbench.normalize.percentiles import pct_key
    assert [pct_key(p) for p in (50, 95, 99, 99.9)] == ["p50", "p95", "p99", "p999"]


def test_process_kb_per_op_is_the_drivers_own_io_per_op_by_hand():
    import pandas as pd

    from engbench.normalize import process_kb_per_op
    p = pd.DataFrame({"t_unix_s": [10.0, 11.0, 12.0], "read_bytes": [0, 2048, 6144],
                      "write_bytes": [1024, 1024, 11264]})
    # window [10.5, 12]: read_bytes 1024 → 6144 = 5120 B = 5 KB over 10 ops
    assert process_kb_per_op(p, 10.5, 12.0, 10, "read_bytes") == 0.5
    # write_bytes 1024 → 11264 = 10 KB over 4 ops
    assert process_kb_per_op(p, 10.0, 12.0, 4, "write_bytes") == 2.5
    assert process_kb_per_op(p, 10.0, 12.0, 0, "read_bytes") != process_kb_per_op(p, 10.0, 12.0, 0, "read_bytes")  # NaN
    assert process_kb_per_op(p.drop(columns="read_bytes"), 10, 12, 4, "read_bytes") != 0  # NaN: no column


def test_events_in_window_counts_jobs_that_started_inside_by_hand():
    """engine_events → jobs whose start is in [start, end): checkpoints at 5, 15, 25, 35 against the
    window [10, 30) are the ones at 15 and 25 (the one at 5 ended inside, at 12: it started before);
    a running one (end null) that started inside counts; a kind not reported is NaN."""
    from engbench.normalize import workloads as wl
    ev = {"checkpoints": [{"start_unix_s": 5, "end_unix_s": 12}, {"start_unix_s": 15, "end_unix_s": 16},
                          {"start_unix_s": 25, "end_unix_s": 31}, {"start_unix_s": 35, "end_unix_s": 36}],
          "flushes": [{"start_unix_s": 29.5, "end_unix_s": None}, {"start_unix_s": 30, "end_unix_s": 30.5}]}
    got = wl.events_in_window(ev, 10.0, 30.0)
    assert got["checkpoints"] == 2 and got["flushes"] == 1 and math.isnan(got["compactions"])
    assert all(math.isnan(v) for v in wl.events_in_window({}, 10.0, 30.0).values())
    assert all(math.isnan(v) for v in wl.events_in_window(None, 10.0, 30.0).values())
    assert wl.events_in_window({"compactions": []}, 10.0, 30.0)["compactions"] == 0
