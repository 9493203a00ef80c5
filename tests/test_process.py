"""engbench process on run directories built from the real burst captures plus hand-written
driver outputs (docs/run-format.md, docs/driver.md) whose numbers make results hand-computable."""

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from engbench.cli import main
from engbench.parsers import ParseError
from engbench.tables import RunError, build_tables, run_tables

CAP = Path(__file__).parent / "data" / "captures"
T0 = pd.Timestamp("2026-11-21 05:45:33", tz="UTC").timestamp()  # measured start
ITEMS = [30000] * 7 + [22144, 20000, 10000]  # per 1-s interval; sum 262,144 documents
REQS = [29, 29, 29, 29, 29, 29, 30, 22, 20, 10]  # sum 256 requests of ~1024 documents


def make_run(root, name="20261121T054532Z_iibench_wiredtiger_vm", status="ok", end=T0 + 10):
    d = Path(root) / name
    (d / "driver").mkdir(parents=True)
    shutil.copy(CAP / "burst_iostat_xkt.txt", d / "iostat.txt")
    shutil.copy(CAP / "burst_vmstat_ntw.txt", d / "vmstat.txt")
    params = {"max_rows": 262144, "batch": 1024, "loader_threads": 1}
    knobs = {"wiredtiger.cache_size": "1GB", "wiredtiger.block_compressor": "snappy"}
    man = {"schema": 1, "run_id": name, "status": status, "error": None, "workload": "iibench",
           "engine": "wiredtiger", "params": params, "knobs": knobs, "seed": 7,
           "client_window": {"start_unix_s": T0 - 1, "end_unix_s": end},
           "hardware": {"ncpu": 2, "data_device": {"name": "vda"}},
           "capture": {"iostat": {"argv": ["iostat", "-y", "-x", "-k", "-t", "1"]},
                       "vmstat": {"argv": ["vmstat", "-n", "-t", "-w", "1"]}}}
    (d / "manifest.json").write_text(json.dumps(man))
    summ = {"status": status, "workload": "iibench", "engine": "wiredtiger", "params": params,
            "knobs": knobs, "seed": 7,
            "client": {"start_unix_s": T0 - 1, "end_unix_s": end, "seconds": end - T0 + 1,
                       "measured_start_unix_s": T0, "measured_seconds": end - T0},
            "totals": {"insert": {"requests": 256, "items": 262144, "logical_bytes_read": 0,
                                  "logical_bytes_written": 262144 * 1024, "errors": 0}},
            "logical_bytes_stored": 2**28, "disk": {"apparent_bytes": 2**29, "allocated_bytes": 3 * 2**28, "files": [
                {"path": "coll.wt", "allocated_bytes": 2**28}, {"path": "coll._id_.wt", "allocated_bytes": 2**27},
                {"path": "WiredTigerLog.0000000001", "allocated_bytes": 2**28 + 2**27 - 4096},
                {"path": "WiredTiger.wt", "allocated_bytes": 4096}]},
            "driver_process": {"cpu_user_s": 9, "cpu_sys_s": 1, "max_rss_bytes": 2**31}}
    (d / "driver" / "summary.json").write_text(json.dumps(summ))
    rows = ["interval,t_start_unix_s,t_end_unix_s,warmup,op,requests,items,logical_bytes_read,"
            "logical_bytes_written,latency_us_mean,latency_us_p99,latency_us_max",
            f"0,{T0 - 1},{T0},1,insert,5,5000,0,5120000,900,4000,9999"]
    for i, (n, r) in enumerate(zip(ITEMS, REQS), start=1):
        rows.append(f"{i},{T0 + i - 1},{T0 + i},0,insert,{r},{n},0,{n * 1024},800,3000,{4000 + i}")
    (d / "driver" / "intervals.csv").write_text("\n".join(rows) + "\n")
    (d / "driver" / "histograms.csv").write_text(
        "op,lo_us,hi_us,count\ninsert,100,110,50\ninsert,200,220,150\ninsert,1000,1100,50\ninsert,5000,5500,6\n")
    # cumulative CPU grows 0.75 s per second; RSS peaks at 2 GiB inside the window
    proc = ["t_unix_s,rss_bytes,vms_bytes,cpu_user_s,cpu_sys_s,read_bytes,write_bytes,read_count,"
            "write_count,num_threads,ctx_voluntary,ctx_involuntary"]
    for k in range(-2, 13):
        rss = 2**31 if k == 5 else 2**30
        proc.append(f"{T0 + k},{rss},{2 * rss},{0.5 * (k + 2)},{0.25 * (k + 2)},0,0,0,0,4,0,0")
    (d / "process.csv").write_text("\n".join(proc) + "\n")
    return d


def test_one_run_by_hand(tmp_path):
    got = run_tables(make_run(tmp_path))
    r = got["runs"]
    # window [05:45:33, 05:45:43]: samples stamped 34..43; q = 262144 / 10 s
    assert r["n_iostat"] == 10 and r["n_vmstat"] == 10 and r["coverage"] == 1.0
    assert r["q"] == pytest.approx(26214.4) and r["op_unit"] == "document"
    # iostat wkB/s over 34..43: 0+98304+163848+376+68+0×5 = 262596 → 26259.6 kB/s
    assert r["wkb_per_s"] == pytest.approx(26259.6)
    assert r["wkb_per_op"] == pytest.approx(262596 / 262144)
    assert r["write_amp_device"] == pytest.approx(262596 / 262144)
    # the driver process wrote nothing (its samples' write_bytes stay 0): process write amp 0;
    # no run limits, so no cgroup read amp
    assert r["proc_wkb_per_op"] == 0 and r["write_amp_process"] == 0
    assert r["read_amp_cgroup"] != r["read_amp_cgroup"]
    # the rm's 256 MiB of discards (05:45:39) stay in dkB, not in wKB: 4 + 8 + 262144
    assert r["dkb_per_op"] == pytest.approx(262156 / 262144)
    # reads 224+4+52+28 kB in 24+1+5+7 requests; read amp has no logical reads to divide by
    assert r["rkb_per_op"] == pytest.approx(308 / 262144) and r["r_per_200k"] == pytest.approx(37 / 262144 * 2e5)
    assert r["read_amp_device"] != r["read_amp_device"] and r["read_amp_process"] != r["read_amp_process"]
    assert r["wkb_per_200k"] == pytest.approx(262596 / 262144 * 200000)
    assert r["wkb_per_batch"] == pytest.approx(262596 / 262144 * 1024)
    # vmstat 34..43: cs 60 76 95 46 38 119 28 30 62 33 (mean 58.7); us+sy 1 49 1 0 0 1 0 1 0 0 (5.3)
    assert r["cs_per_op"] == pytest.approx(58.7 / 26214.4)
    assert r["mcpu_per_op"] == pytest.approx(5.3e6 / 26214.4)
    assert r["cpu_us_per_op"] == pytest.approx(5.3 / 100 * 2 * 1e6 / 26214.4)
    # driver CPU: 0.75 s/s × 10 s = 7.5 s over 262144 documents
    assert r["driver_cpu_us_per_op"] == pytest.approx(7.5e6 / 262144)
    # space is data + index (2**28 + 2**27) over the 2**28 bytes stored: the log and WiredTiger.wt are
    # beside it (issue 43 class 3; failed on 42f6c717, which gave 3: every allocated byte)
    assert r["rss_gb"] == 2 and r["size_gb"] == 0.75 and r["space_amp"] == 1.5
    assert r["log_bytes"] == 2**28 + 2**27 - 4096 and r["meta_bytes"] == 4096
    # the source documents' tables' size is data + index too (0.375 GiB), not the directory's 0.75
    from engbench.normalize.views import source_views
    view = source_views(pd.DataFrame([r]))["per insert (document)"]
    assert r["table_gb"] == 0.375 and view["size"].tolist() == [0.375]
    assert (r["rate_p50"], r["rate_p75"], r["rate_p90"], r["rate_p95"]) == (30000, 22144, 20000, 10000)
    assert r["param.batch"] == 1024 and r["knob.wiredtiger.cache_size"] == "1GB"
    lat = got["latency"].iloc[0]
    # inclusive bucket bounds (hi − 1), the top one capped at the exact max of the measured intervals
    assert (lat["p50_us"], lat["p95_us"], lat["p99_us"], lat["max_us"]) == (219, 1099, 4010, 4010)
    assert lat["max_us_exact"] == 4010  # warmup interval's 9999 excluded


def test_coverage_warned_when_capture_stops_before_the_clients(tmp_path):
    d = make_run(tmp_path, end=T0 + 20)  # the capture ends at 05:45:43
    with pytest.warns(UserWarning, match="covers 50.0%"):
        r = run_tables(d)["runs"]
    assert r["coverage"] == pytest.approx(0.5) and "iostat covers 50.0%" in r["warnings"]


def test_cli_skips_incomplete_and_output_is_byte_identical(tmp_path, capsys):
    raw = tmp_path / "raw"
    make_run(raw)
    make_run(raw, name="20261121T060000Z_iibench_wiredtiger_vm", status="failed")
    assert main(["process", "--raw", str(raw), "--out", str(tmp_path / "a")]) == 0
    out = capsys.readouterr()
    assert "skipped 20261121T060000Z_iibench_wiredtiger_vm: status failed" in out.err
    assert "wKB/i" in out.out and "io.kBw" in out.out
    runs = pd.read_parquet(tmp_path / "a" / "runs.parquet")
    assert runs["run_id"].tolist() == ["20261121T054532Z_iibench_wiredtiger_vm"]
    assert main(["process", "--raw", str(raw), "--out", str(tmp_path / "b"), "--include-incomplete"]) == 0
    both = pd.read_csv(tmp_path / "b" / "runs.csv")
    assert both["incomplete"].tolist() == [False, True]
    assert main(["process", "--raw", str(raw), "--out", str(tmp_path / "c"), "--include-incomplete"]) == 0
    for name in ("runs", "latency", "intervals"):
        for ext in ("csv", "parquet"):
            assert (tmp_path / "b" / f"{name}.{ext}").read_bytes() == (tmp_path / "c" / f"{name}.{ext}").read_bytes()
    lat = pd.read_csv(tmp_path / "b" / "latency.csv")
    assert list(lat.columns) == ["run_id", "op", "count", "p50_us", "p95_us", "p99_us", "p999_us", "max_us", "max_us_exact"]
    ivl = pd.read_parquet(tmp_path / "b" / "intervals.parquet")
    assert len(ivl) == 22 and ivl["items_per_s"].iloc[1] == 30000


def test_driver_process_samples_under_either_name_and_never_both(tmp_path):
    """New runs write driver_process.csv; runs recorded before it (all of data/raw) have process.csv:
    both read the same, a run with both or with an unknown name in its manifest is refused."""
    old = run_tables(make_run(tmp_path / "old"))["runs"]
    d = make_run(tmp_path / "new")
    (d / "process.csv").rename(d / "driver_process.csv")
    assert run_tables(d)["runs"]["driver_cpu_us_per_op"] == old["driver_cpu_us_per_op"]
    shutil.copy(d / "driver_process.csv", d / "process.csv")
    with pytest.raises(RunError, match="both driver_process.csv and process.csv"):
        run_tables(d)
    (d / "process.csv").unlink()
    man = json.loads((d / "manifest.json").read_text())
    man["capture"]["process_sampler"] = {"interval_s": 1.0, "file": "proc.csv"}
    (d / "manifest.json").write_text(json.dumps(man))
    with pytest.raises(RunError, match="unknown driver-process sample file 'proc.csv'"):
        run_tables(d)
    man["capture"]["process_sampler"]["file"] = "process.csv"  # named, but not there: missing
    (d / "manifest.json").write_text(json.dumps(man))
    with pytest.raises(RunError, match=r"process\.csv: missing"):
        run_tables(d)


def test_garbled_capture_names_file_and_line(tmp_path, capsys):
    d = make_run(tmp_path)
    text = (d / "iostat.txt").read_text().replace("98304.00", "98304.0O")
    (d / "iostat.txt").chmod(0o644)
    (d / "iostat.txt").write_text(text)
    with pytest.raises(ParseError, match=r"iostat\.txt:\d+: not a number in column wkb_per_s"):
        build_tables([d])
    assert main(["process", str(d), "--out", str(tmp_path / "o")]) == 2
    assert "iostat.txt:" in capsys.readouterr().err


def _patch(path, fn):
    doc = json.loads(path.read_text())
    fn(doc)
    path.write_text(json.dumps(doc))


def test_partial_last_interval_is_marked_and_left_out_of_rate_percentiles(tmp_path):
    d = make_run(tmp_path)
    with open(d / "driver" / "intervals.csv", "a") as f:  # 1000 documents in 0.012 s: "83k/s"
        f.write(f"11,{T0 + 10},{T0 + 10.012},0,insert,1,1000,0,1024000,800,3000,4011\n")
    got = run_tables(d)
    ivl = got["intervals"]
    assert ivl["partial"].tolist() == [False] * 11 + [True]
    assert ivl["items_per_s"].iloc[-1] == pytest.approx(1000 / 0.012, rel=1e-4)
    r = got["runs"]
    # the same percentiles as without the 12-ms interval (with it, p75 would be 30000)
    assert (r["rate_p50"], r["rate_p75"], r["rate_p90"], r["rate_p95"]) == (30000, 22144, 20000, 10000)
    # half of report_interval_s is the threshold: at 0.02 s a 0.012-s interval is whole
    _patch(d / "driver" / "summary.json", lambda s: s["params"].update(report_interval_s=0.02))
    assert not run_tables(d)["intervals"]["partial"].any()


def make_sysbench_run(root, name="20261121T054532Z_sysbench-update_wiredtiger_vm", engine="wiredtiger",
                      factor=1.0):
    """make_run relabelled sysbench-update with three steps: c1 over [T0, T0+4] (2000 × factor
    updates), c2 over [T0+4, T0+10] (6000 × factor updates), c4 that did not run."""
    d = make_run(root, name=name)
    steps = [{"name": "update.c1", "clients": 1, "start_unix_s": T0, "end_unix_s": T0 + 4, "seconds": 4,
              "requests": round(2000 * factor), "requests_per_s": 500 * factor, "ran": True},
             {"name": "update.c2", "clients": 2, "start_unix_s": T0 + 4, "end_unix_s": T0 + 10, "seconds": 6,
              "requests": round(6000 * factor), "requests_per_s": 1000 * factor, "ran": True},
             {"name": "update.c4", "clients": 4, "start_unix_s": T0 + 10, "end_unix_s": T0 + 10, "seconds": 0,
              "requests": 0, "requests_per_s": 0, "ran": False}]

    def summ(s):
        s.update(workload="sysbench-update", steps=steps, load={"rows": 5000, "seconds": 2.5, "k_sum": 1},
                 engine=engine)
        s["params"] = {"clients": [1, 2, 4], "table_size": 5000}
        s["totals"] = {"update": {"requests": 8000, "items": 8000, "logical_bytes_read": 0,
                                  "logical_bytes_written": 8000 * 200, "errors": 0}}
    _patch(d / "driver" / "summary.json", summ)
    _patch(d / "manifest.json", lambda m: m.update(workload="sysbench-update", params={"clients": [1, 2, 4]},
                                                   experiment="sysbench sweep", engine=engine))
    return d


def test_sysbench_steps_by_hand(tmp_path):
    got = run_tables(make_sysbench_run(tmp_path))
    st = got["steps"].set_index("clients")
    assert st["step"].tolist() == ["update.c1", "update.c2", "update.c4"]
    # c1: samples stamped 34..37 (midpoints in [33, 37)): r/s 0, 24, 1, 0 → 6.25; tps 500
    c1 = st.loc[1]
    assert (c1["n_iostat"], c1["coverage"], c1["q"]) == (4, 1.0, 500)
    assert c1["r_per_s"] == pytest.approx(6.25) and c1["r_per_op"] == pytest.approx(6.25 / 500)
    assert c1["wkb_per_op"] == pytest.approx((98304 + 163848) / 4 / 500)
    assert c1["rkb_per_op"] == pytest.approx((224 + 4) / 4 / 500)
    # vmstat 34..37: us+sy 1, 49, 1, 0 → 12.75; cs 60, 76, 95, 46 → 69.25
    assert c1["mcpu_per_op"] == pytest.approx(12.75e6 / 500) and c1["cs_per_op"] == pytest.approx(69.25 / 500)
    # c2: stamped 38..43: r/s 0, 5, 0, 0, 7, 0 → 2; us+sy 0, 1, 0, 1, 0, 0 → 1/3; tps 1000
    c2 = st.loc[2]
    assert (c2["n_iostat"], c2["seconds"], c2["requests"]) == (6, 6, 6000)
    assert c2["r_per_op"] == pytest.approx(2 / 1000) and c2["mcpu_per_op"] == pytest.approx(1e6 / 3 / 1000)
    c4 = st.loc[4]
    assert not c4["ran"] and c4["coverage"] == 0 and c4["r_per_op"] != c4["r_per_op"] and c4["missed_s"] != c4["missed_s"]
    assert (c1["missed_s"], c2["missed_s"]) == (0, 0)
    assert got["runs"]["experiment"] == "sysbench sweep"
    # the load: rows / seconds, no window recorded → no costs
    ld = got["loads"].iloc[0]
    assert ld["q"] == 2000 and not ld["window"] and ld["wkb_per_op"] != ld["wkb_per_op"]


def test_load_costs_over_the_load_window_and_cache_pollution_phases(tmp_path):
    d = make_run(tmp_path, name="20261121T054532Z_linkbench_wiredtiger_vm")
    _patch(d / "driver" / "summary.json", lambda s: s.update(
        workload="linkbench", load={"nodes": 1000, "links": 3000, "counts": 500, "seconds": 4,
                                    "start_unix_s": T0, "end_unix_s": T0 + 4}))
    _patch(d / "manifest.json", lambda m: m.update(workload="linkbench"))
    ld = run_tables(d)["loads"].iloc[0]
    # 4000 inserts in 4 s; wKB/s over 34..37 = 65538; us+sy 12.75; RSS 1 GiB (2 GiB only at T0+5)
    assert (ld["inserts"], ld["q"], ld["coverage"], ld["rss_gb"], ld["missed_s"]) == (4000, 1000, 1.0, 1.0, 0)
    assert ld["wkb_per_op"] == pytest.approx(65538 / 1000) and ld["mcpu_per_op"] == pytest.approx(12750)

    d = make_run(tmp_path, name="20261121T054532Z_cache-pollution_wiredtiger_vm")
    phases = {"cold_action": "scan", "read_once": True, "cold_start_unix_s": T0 + 3, "cold_end_unix_s": T0 + 5.5,
              "readers_end_unix_s": T0 + 9, "gets_before": 300, "gets_during": 50, "gets_after": 350,
              "gets_per_s_before": 100, "gets_per_s_during": 20, "gets_per_s_after": 100}
    _patch(d / "driver" / "summary.json", lambda s: s.update(workload="cache-pollution", phases=phases, hot_misses=0))
    _patch(d / "manifest.json", lambda m: m.update(workload="cache-pollution"))
    with open(d / "driver" / "intervals.csv", "a") as f:
        f.write(f"10,{T0 + 9},{T0 + 10},0,scan_hot,1,2000,0,0,1234,1234,1234.5\n")
    (d / "driver" / "engine_stats_before.json").write_text(json.dumps(
        {"cache: bytes currently in the cache": 100, "cache: unmodified pages evicted": 0, "other": 5}))
    (d / "driver" / "engine_stats_mid.json").write_text(json.dumps({"cache: bytes currently in the cache": 900}))
    got = run_tables(d)
    cp = got["cache_pollution"].iloc[0]
    assert cp["cold_pass_ms"] == pytest.approx(2500) and cp["scan_hot_ms"] == pytest.approx(1.2345)
    assert (cp["gets_per_s_during"], cp["read_once"], cp["before_start_unix_s"]) == (20, True, T0)
    stats = got["engine_stats"]
    assert stats[["snapshot", "stat", "value"]].values.tolist() == [
        ["before", "cache: bytes currently in the cache", 100], ["before", "cache: unmodified pages evicted", 0],
        ["mid", "cache: bytes currently in the cache", 900]]


def _measured_start(d, start):
    def summ(s):
        s["client"].update(measured_start_unix_s=start, measured_seconds=s["client"]["end_unix_s"] - start)
    _patch(d / "driver" / "summary.json", summ)


def test_no_coverage_warning_for_the_inherent_partial_first_second(tmp_path, recwarn):
    d = make_run(tmp_path)
    # measured window [05:45:33.6, 05:45:43]: the sample stamped :34 covers (:33, :34], mostly
    # before the window, so [:33.6, :34] (0.4 s) is covered by no kept sample — by construction
    _measured_start(d, T0 + 0.6)
    r = run_tables(d)["runs"]
    assert r["coverage_iostat"] == pytest.approx(9 / 9.4)  # 95.7 %: the old rule warned here
    assert r["warnings"] == "" and not [w for w in recwarn if "covers" in str(w.message)]


def test_coverage_warning_for_a_sample_missing_inside_the_window(tmp_path):
    d = make_run(tmp_path)
    _measured_start(d, T0 + 0.6)
    lines = (d / "iostat.txt").read_text().splitlines(keepends=True)
    at = lines.index("2026-11-21T05:45:38+0000\n")
    (d / "iostat.txt").write_text("".join(lines[:at] + lines[at + 8:]))  # the :38 sample lost
    with pytest.warns(UserWarning, match=r"iostat covers 85\.1% .*misses 1\.0 s"):
        r = run_tables(d)["runs"]
    # (:37, :38] lost from the interior [:34.6, :42]; vmstat still has it
    assert r["n_iostat"] == 8 and "vmstat" not in r["warnings"]
    assert r["warnings"] == ("iostat covers 85.1% of the client window (misses 1.0 s beyond its "
                             "partial first and last seconds)")


def test_driver_warnings_reach_the_runs_table_and_missing_means_none(tmp_path):
    d = make_run(tmp_path)
    assert run_tables(d)["runs"]["warnings"] == ""  # summary.json without "warnings": none
    _patch(d / "driver" / "summary.json", lambda s: s.update(
        warnings=["summary_extra failed: logical bytes unknown", "load window not recorded"]))
    with pytest.warns(UserWarning, match="driver: summary_extra failed"):
        r = run_tables(d)["runs"]
    assert r["warnings"] == "driver: summary_extra failed: logical bytes unknown; driver: load window not recorded"
    _patch(d / "manifest.json", lambda m: m.update(capture_warnings=["vmstat: not installed"]))
    with pytest.warns(UserWarning):
        assert run_tables(d)["runs"]["warnings"].endswith("; capture: vmstat: not installed")
    # the iibench run reads nothing: its read amplification is NA, and says why
    assert r["read_amp_device"] != r["read_amp_device"]
    assert r["amp_notes"] == "read amp: no logical bytes read (nothing to divide by)"
    _patch(d / "driver" / "summary.json", lambda s: s.pop("totals"))
    r = run_tables(d)["runs"]
    assert r["write_amp_device"] != r["write_amp_device"] and "write amp: logical bytes written not recorded" in r["amp_notes"]
