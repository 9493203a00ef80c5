"""A ycsb run's results in YCSB's own output formats, for the tools that read YCSB's: written at
the end of the run (runs.recording, before the seal) into the run directory as new files; the
driver's captures they come from are not touched.

    ycsb/summary.txt   the lines of YCSB's text exporter (TextMeasurementsExporter) for the measured
                       window: `[OVERALL], RunTime(ms), <ms>`, `[OVERALL], Throughput(ops/sec), <ops/s>`,
                       then per operation `[READ], Operations`, `AverageLatency(us)`, `MinLatency(us)`,
                       `MaxLatency(us)`, `95thPercentileLatency(us)`, `99thPercentileLatency(us)`,
                       `Return=OK` (and `Return=ERROR` when the driver counted errors), as YCSB's
                       hdrhistogram measurement writes them with its default percentiles (95, 99)
    ycsb/<OP>.hdr      an HdrHistogram log per operation (the standard log format, HdrHistogram's
                       HistogramLogWriter, as YCSB's hdrhistogram.fileoutput writes `<OP>.hdr`): one
                       interval, the measured window (StartTime and BaseTime its start, so the
                       interval starts at 0.000 and lasts client.measured_seconds; Interval_Max in µs)

Operations are YCSB's names: read → READ, update → UPDATE, insert → INSERT, scan → SCAN,
read_modify_write → READ-MODIFY-WRITE (the driver records a read-modify-write once, as YCSB's
READ-MODIFY-WRITE, not also as a READ and an UPDATE); the driver's `request` (every operation) is
[OVERALL]. The numbers are the run's own, as engbench process reads them: RunTime(ms) =
round(client.measured_seconds × 1000); Throughput(ops/sec) = totals.request.requests ÷
client.measured_seconds (runs.q); Operations = totals.<op>.requests (latency.count); the average,
95th, 99th and max = summary.json latency_us mean, p95, p99, max (latency.p95_us, p99_us, max_us:
bucket upper bounds, nearest rank, capped at the exact max); MinLatency = the lower bound of the
lowest non-empty bucket (exact below 256 µs); Return=OK = requests − errors. A read of a key that
is not there is Return=OK here (YCSB: NOT_FOUND): the driver counts such misses over the whole run,
warmup included, not per window. The load phase has no histogram in the driver: no file for it.

Precision of the HdrHistogram logs: the driver's histogram (driver/histograms.csv, `op, lo_us, hi_us,
count`) has 1-µs buckets below 256 µs and 128 per power of two above (relative width ≤ 1/128), which
is exactly the bucket layout of an HdrHistogram with lowest discernible value 1 µs and 2 significant
digits (256 sub-buckets). Each bucket's count is recorded at its lower bound, so every count lands in
the HdrHistogram bucket of the same bounds: the conversion keeps every bucket exactly and loses
nothing the driver kept (where a latency lay inside its bucket was never recorded). A bucket that
is not one HdrHistogram bucket is refused (ValueError), as is a histograms.csv without those
columns. Percentiles an HdrHistogram tool computes from the log are bucket upper bounds like the
driver's, but its rank is round(p × n) where the driver's is ceil(p × n), so a percentile can land
one bucket lower; the summary's percentiles are the driver's."""

from __future__ import annotations

import csv
import datetime as dt
import json
from pathlib import Path

from hdrh.histogram import HdrHistogram
from hdrh.log import HistogramLogWriter

from .. import registry

DIR = "ycsb"
SUMMARY = "summary.txt"
OPS = {"read": "READ", "update": "UPDATE", "insert": "INSERT", "scan": "SCAN",
       "read_modify_write": "READ-MODIFY-WRITE"}
HIST_COLUMNS = ("op", "lo_us", "hi_us", "count")
LOWEST_US, HIGHEST_US, SIGNIFICANT = 1, 2 ** 36, 2  # the driver's layout (driver/src/core/histogram.h)


def read_histograms(path) -> dict[str, list[tuple[int, int, int]]]:
    """{op: [(lo_us, hi_us, count), ...]} of a driver histograms.csv, read by its header names."""
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        missing = [c for c in HIST_COLUMNS if c not in (reader.fieldnames or [])]
        if missing:
            raise ValueError(f"{path}: no column {', '.join(missing)} (header {reader.fieldnames}): not a driver "
                             "histograms.csv")
        out: dict[str, list] = {}
        for row in reader:
            out.setdefault(row["op"], []).append((int(row["lo_us"]), int(row["hi_us"]), int(row["count"])))
    return out


def hdr_histogram(buckets) -> HdrHistogram:
    """The driver's buckets of one op as an HdrHistogram (1 µs … 2^36 µs, 2 significant digits),
    each count recorded at its bucket's lower bound; ValueError for a bucket whose bounds are not
    those of one HdrHistogram bucket."""
    h = HdrHistogram(LOWEST_US, HIGHEST_US, SIGNIFICANT)
    for lo, hi, count in buckets:
        if h.get_lowest_equivalent_value(lo) != lo or h.get_highest_equivalent_value(lo) != hi - 1:
            raise ValueError(f"bucket [{lo}, {hi}) µs is not one HdrHistogram bucket: not the driver's layout")
        if count:
            h.record_value(lo, count)
    return h


def hdr_log(name: str, h: HdrHistogram, start_unix_s: float, seconds: float) -> str:
    """One op's HdrHistogram log: a single interval, the measured window."""
    lines = []

    class _Out:
        write = staticmethod(lines.append)

    start_ms = start_unix_s * 1000.0
    h.set_start_time_stamp(start_ms)
    h.set_end_time_stamp(start_ms + seconds * 1000.0)
    w = HistogramLogWriter(_Out())
    w.output_comment(f"[Logging for: {name}]")
    w.output_log_format_version()
    when = dt.datetime.fromtimestamp(start_unix_s, dt.timezone.utc).isoformat(timespec="milliseconds")
    # as HistogramLogWriter.output_base_time prints it, so that a reader sees the interval at offset 0
    w.output_comment(f"[StartTime: {start_ms / 1000.0:f} (seconds since epoch), {when}]")
    w.output_base_time(start_ms)
    w.base_time = start_ms
    w.output_legend()
    w.output_interval_histogram(h, max_value_unit_ratio=1.0)  # Interval_Max in µs
    return "".join(lines)


def summary_lines(summary: dict, hists: dict) -> list[str]:
    """YCSB's text exporter lines for the measured window (the module's docstring says which number
    is which)."""
    client, totals, lat = summary["client"], summary["totals"], summary["latency_us"]
    seconds = float(client["measured_seconds"])
    out = [f"[OVERALL], RunTime(ms), {round(seconds * 1000)}",
           f"[OVERALL], Throughput(ops/sec), {float(totals['request']['requests']) / seconds!r}"]
    for op, name in OPS.items():
        n = int((totals.get(op) or {}).get("requests") or 0)
        if not n:
            continue
        errors = int(totals[op].get("errors") or 0)
        lows = [lo for lo, _, count in hists.get(op, []) if count]
        out += [f"[{name}], Operations, {n}", f"[{name}], AverageLatency(us), {float(lat[op]['mean'])!r}",
                f"[{name}], MinLatency(us), {min(lows)}", f"[{name}], MaxLatency(us), {int(lat[op]['max'])}",
                f"[{name}], 95thPercentileLatency(us), {int(lat[op]['p95'])}",
                f"[{name}], 99thPercentileLatency(us), {int(lat[op]['p99'])}",
                f"[{name}], Return=OK, {n - errors}"]
        if errors:
            out.append(f"[{name}], Return=ERROR, {errors}")
    return out


def write(run_dir, out_dir=None) -> list[Path]:
    """ycsb/summary.txt and ycsb/<OP>.hdr of a run directory whose workload's registry entry says
    ycsb_format (into `out_dir` when given: a sealed run, e.g. a shipped one, is never written to).
    [] for another workload or a run without
    a measured window or histograms (failed before its summary). ValueError when an op's histogram
    count is not its operation count, or the histograms are not the driver's layout."""
    run_dir = Path(run_dir)
    drv = run_dir / "driver"
    try:
        summary = json.loads((drv / "summary.json").read_text())
    except (OSError, ValueError):
        return []
    client = summary.get("client") or {}
    if not registry.get(summary.get("workload")).ycsb_format or not client.get("measured_seconds") or not (drv / "histograms.csv").exists():
        return []
    hists = read_histograms(drv / "histograms.csv")
    out = Path(out_dir) if out_dir else run_dir / DIR
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for op, name in OPS.items():
        n = int(((summary.get("totals") or {}).get(op) or {}).get("requests") or 0)
        if not n:
            continue
        h = hdr_histogram(hists.get(op, []))
        if h.get_total_count() != n:
            raise ValueError(f"{drv / 'histograms.csv'}: {op} holds {h.get_total_count()} latencies, the summary "
                             f"{n} operations")
        path = out / f"{name}.hdr"
        path.write_text(hdr_log(name, h, float(client["measured_start_unix_s"]), float(client["measured_seconds"])))
        written.append(path)
    (out / SUMMARY).write_text("\n".join(summary_lines(summary, hists)) + "\n")
    return [out / SUMMARY, *written]
