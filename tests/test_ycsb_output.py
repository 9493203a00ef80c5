"""Results in the field's formats, written into the run directory at the end of a real run
(engbench.run.ycsb_output, engbench.run.engine_files): a ycsb run's YCSB summary and HdrHistogram
logs read back — the logs decode with the hdrhistogram library into the driver's buckets and
operation counts, the summary's numbers are the run's processed figures —, a RocksDB run keeps its
OPTIONS and LOG files byte for byte, and the shipped runs are never written to."""

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hdrh.histogram import HdrHistogram
from hdrh.log import HistogramLogReader

from engbench import paths
from engbench.run import engine_files, rundir, ycsb_output
from engbench.tables import build_tables
from sealed import unlock


def _run(root, *args):
    env = {**os.environ, "ENGBENCH_RAW_DIR": str(root / "raw"), "ENGBENCH_WORK_DIR": str(root / "work")}
    out = subprocess.run([sys.executable, "-m", "engbench.cli", "run", *args, "--no-progress"],
                         capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    return Path(out.stdout.strip().splitlines()[-1])


def _summary(path) -> dict:
    """{(section, measurement): value} of a YCSB text-exporter file, every line `[X], Y, Z`."""
    out = {}
    for line in path.read_text().splitlines():
        section, measurement, value = (p.strip() for p in line.split(","))
        assert section.startswith("[") and section.endswith("]"), line
        out[(section[1:-1], measurement)] = value
    return out


def _decode(path) -> HdrHistogram:
    reader = HistogramLogReader(str(path), HdrHistogram(1, 2 ** 36, 2))
    h = reader.get_next_interval_histogram()
    assert h is not None and reader.get_next_interval_histogram() is None  # one interval: the window
    return h


@pytest.fixture(scope="module")
def ycsb_run(tmp_path_factory):
    root = tmp_path_factory.mktemp("ycsb_output")
    # a time-bounded run with a warmup, so the window is not the whole run
    run_dir = _run(root, "ycsb", "--engine", "sqlite", "--set", "letter=a", "--set", "recordcount=2000",
                   "--set", "operationcount=0", "--set", "max_seconds=2.5", "--set", "warmup_seconds=0.5",
                   "--set", "target_rate=4000")
    yield run_dir
    unlock(root)


def test_ycsb_run_writes_ycsb_summary_equal_to_the_processed_figures(ycsb_run):
    t = build_tables([ycsb_run])
    run, lat = t["runs"].iloc[0], t["latency"].set_index("op")
    s = _summary(ycsb_run / "ycsb" / "summary.txt")
    assert int(s[("OVERALL", "RunTime(ms)")]) == round(run["seconds"] * 1000)
    assert float(s[("OVERALL", "Throughput(ops/sec)")]) == pytest.approx(run["q"], rel=1e-12)
    assert run["op_unit"] == "request" and run["ops"] == lat.loc["request", "count"]
    ops = {"read": "READ", "update": "UPDATE"}
    assert {k[0] for k in s} == {"OVERALL", *ops.values()}
    for op, name in ops.items():
        assert int(s[(name, "Operations")]) == lat.loc[op, "count"] > 0
        assert int(s[(name, "95thPercentileLatency(us)")]) == lat.loc[op, "p95_us"]
        assert int(s[(name, "99thPercentileLatency(us)")]) == lat.loc[op, "p99_us"]
        assert int(s[(name, "MaxLatency(us)")]) == lat.loc[op, "max_us"] == lat.loc[op, "max_us_exact"]
        assert int(s[(name, "Return=OK")]) == lat.loc[op, "count"]
        assert 0 <= int(s[(name, "MinLatency(us)")]) <= float(s[(name, "AverageLatency(us)")]) <= lat.loc[op, "max_us"]
    summ = json.loads((ycsb_run / "driver" / "summary.json").read_text())
    assert summ["totals_all"]["request"]["requests"] > summ["totals"]["request"]["requests"]  # a warmup was left out


def test_ycsb_run_writes_hdr_logs_that_decode_into_the_drivers_buckets(ycsb_run):
    lat = build_tables([ycsb_run])["latency"].set_index("op")
    hists = ycsb_output.read_histograms(ycsb_run / "driver" / "histograms.csv")
    summ = json.loads((ycsb_run / "driver" / "summary.json").read_text())
    client = summ["client"]
    assert sorted(p.name for p in (ycsb_run / "ycsb").iterdir()) == ["READ.hdr", "UPDATE.hdr", "summary.txt"]
    for op, name in (("read", "READ"), ("update", "UPDATE")):
        h = _decode(ycsb_run / "ycsb" / f"{name}.hdr")
        assert h.get_total_count() == lat.loc[op, "count"] == summ["totals"][op]["requests"]
        for lo, hi, count in hists[op]:  # every bucket kept exactly, with its bounds
            assert h.get_count_at_value(lo) == count
            assert (h.get_lowest_equivalent_value(lo), h.get_highest_equivalent_value(lo)) == (lo, hi - 1)
        assert h.get_max_value() >= lat.loc[op, "max_us"]  # the top bucket's upper bound
        assert h.get_start_time_stamp() / 1000 == pytest.approx(client["measured_start_unix_s"], abs=1e-6)
        seconds = (h.get_end_time_stamp() - h.get_start_time_stamp()) / 1000
        assert seconds == pytest.approx(client["measured_seconds"], abs=1e-5)
    sums = (ycsb_run / rundir.SUMS).read_text()
    assert "  ycsb/summary.txt\n" in sums and "  ycsb/READ.hdr\n" in sums and rundir.check(ycsb_run) == []
    assert not (ycsb_run / engine_files.DIR).exists()  # sqlite keeps nothing of its own


def test_a_rocksdb_run_keeps_options_and_log(tmp_path):
    run_dir = _run(tmp_path, "ycsb", "--engine", "rocksdb", "--set", "letter=f", "--set", "recordcount=1000",
                   "--set", "operationcount=2000", "--set", "rocksdb.write_buffer_size=8MB", "--keep-data")
    try:
        man = rundir.read_manifest(run_dir)
        data_dir = Path(man["data_dir"].replace("<work>", str(tmp_path / "work")))  # a placeholder (rundir.shown)
        kept = sorted(p.name for p in (run_dir / "engine").iterdir())
        assert "LOG" in kept and any(k.startswith("OPTIONS-") for k in kept), kept
        assert kept == sorted(p.name for p in data_dir.iterdir() if p.name.startswith(("OPTIONS-", "LOG"))), kept
        for name in kept:  # the engine's own files, as it left them
            assert (run_dir / "engine" / name).read_bytes() == (data_dir / name).read_bytes(), name
        newest = max((run_dir / "engine").glob("OPTIONS-*"), key=lambda p: int(p.name.split("-")[1]))
        assert "write_buffer_size=8388608" in newest.read_text()  # the knob this run set
        assert "RocksDB version" in (run_dir / "engine" / "LOG").read_text()
        assert f"  {engine_files.DIR}/LOG\n" in (run_dir / rundir.SUMS).read_text() and rundir.check(run_dir) == []
        assert (run_dir / "ycsb" / "READ-MODIFY-WRITE.hdr").exists()
    finally:
        unlock(tmp_path)


def test_a_shipped_run_is_converted_elsewhere_and_left_as_it_is(tmp_path):
    shipped = sorted((paths.REPO / "data" / "raw").glob("*_ycsb_sqlite_*"))[0]

    def tree():  # every file of the run with its bytes' digest (the reproduction's runs have ycsb/ already)
        return {str(f.relative_to(shipped)): hashlib.sha256(f.read_bytes()).hexdigest()
                for f in sorted(shipped.rglob("*")) if f.is_file()}

    before = tree()
    written = ycsb_output.write(shipped, tmp_path)
    assert sorted(p.name for p in written) == ["READ.hdr", "UPDATE.hdr", "summary.txt"]
    assert all(p.parent == tmp_path for p in written)
    assert rundir.check(shipped) == [] and tree() == before
    lat = build_tables([shipped])["latency"].set_index("op")
    assert _decode(tmp_path / "READ.hdr").get_total_count() == lat.loc["read", "count"]


def test_the_conversion_refuses_what_is_not_the_drivers_layout(tmp_path):
    with pytest.raises(ValueError, match=r"\[256, 257\)"):
        ycsb_output.hdr_histogram([(256, 257, 1)])  # above 256 µs the buckets are 2 µs wide
    assert ycsb_output.hdr_histogram([(300, 302, 4), (0, 1, 1)]).get_total_count() == 5
    (tmp_path / "histograms.csv").write_text("op,low,high,n\nread,1,2,3\n")
    with pytest.raises(ValueError, match="lo_us, hi_us, count"):
        ycsb_output.read_histograms(tmp_path / "histograms.csv")


def test_summary_lines_by_hand():
    summary = {"client": {"measured_seconds": 2.0},
               "totals": {"request": {"requests": 10}, "read": {"requests": 8, "errors": 1},
                          "scan": {"requests": 2, "errors": 0}, "update": {"requests": 0}},
               "latency_us": {"read": {"mean": 12.5, "max": 40, "p95": 39, "p99": 40},
                              "scan": {"mean": 300.0, "max": 301, "p95": 301, "p99": 301}}}
    hists = {"read": [(3, 4, 2), (2, 3, 0), (39, 40, 6)], "scan": [(300, 302, 2)]}
    assert ycsb_output.summary_lines(summary, hists) == [
        "[OVERALL], RunTime(ms), 2000", "[OVERALL], Throughput(ops/sec), 5.0",
        "[READ], Operations, 8", "[READ], AverageLatency(us), 12.5", "[READ], MinLatency(us), 3",
        "[READ], MaxLatency(us), 40", "[READ], 95thPercentileLatency(us), 39",
        "[READ], 99thPercentileLatency(us), 40", "[READ], Return=OK, 7", "[READ], Return=ERROR, 1",
        "[SCAN], Operations, 2", "[SCAN], AverageLatency(us), 300.0", "[SCAN], MinLatency(us), 300",
        "[SCAN], MaxLatency(us), 301", "[SCAN], 95thPercentileLatency(us), 301",
        "[SCAN], 99thPercentileLatency(us), 301", "[SCAN], Return=OK, 2"]
