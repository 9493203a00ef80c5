"""Per-operation figures (reference §1.3–1.5, §1.9, §1.12).

q is the operation rate of the client: q = operations completed / client seconds. "Operation" is
whatever the table counts (a document for iibench's "per insert", a request/transaction for
Linkbench's "per transaction"); a basis of N operations (N = 200,000 for "per 200k inserts", or
N = batch documents for "per request") is per_n(x_per_op, N)."""

import numpy as np
import pandas as pd


def rate(ops: float, seconds: float) -> float:
    """q = ops / seconds (ops/s: ips, tps). NaN when seconds <= 0."""
    return float(ops) / seconds if seconds > 0 else float("nan")


def rate_per_op(mean_rate: float, q: float) -> float:
    """x/op = mean(x per second) / q — e.g. r/op = mean(r/s)/q, wKB/op = mean(wkB/s)/q,
    cs/op = mean(cs)/q. The average device rate over the window divided by the average operation
    rate, as in the source documents' author's ios.sh; equal to Σ x·Δt / ops when the samples cover the window.
    NaN when q is 0 or NaN."""
    return float(mean_rate) / q if q and q == q else float("nan")


def mcpu_per_op(mean_us_sy: float, q: float) -> float:
    """Mcpu/op = mean(vmstat us+sy) × 1e6 / q — the source documents' "Mcpu/i", "Mcpu/t" (a
    host-relative number: percent of all CPUs per op/s, times a million; not microseconds)."""
    return float(mean_us_sy) * 1e6 / q if q and q == q else float("nan")


def cpu_us_per_op(mean_us_sy: float, ncpu: int, q: float) -> float:
    """CPU µs/op = mean(us+sy)/100 × ncpu × 1e6 / q — busy CPU-seconds per second over all ncpu
    CPUs, divided by the op rate, in microseconds (etl.sh's cpupq)."""
    return float(mean_us_sy) / 100 * ncpu * 1e6 / q if q and q == q else float("nan")


def _interp(t, y, at):
    return float(np.interp(at, t, y))


def process_cpu_us_per_op(process: pd.DataFrame, start: float, end: float, ops: float) -> float:
    """The driver's own CPU µs/op from its process samples (driver_process.csv; process.csv in older runs):

        ((cpu_user_s + cpu_sys_s)(end) − (cpu_user_s + cpu_sys_s)(start)) × 1e6 / ops

    The cumulative counter is linearly interpolated at the window bounds (clamped to the first/
    last sample; callers should check coverage). NaN with fewer than 2 samples or no ops."""
    if len(process) < 2 or not ops:
        return float("nan")
    p = process.sort_values("t_unix_s")
    t = p["t_unix_s"].to_numpy(float)
    cum = (p["cpu_user_s"] + p["cpu_sys_s"]).to_numpy(float)
    return (_interp(t, cum, end) - _interp(t, cum, start)) * 1e6 / ops


def process_kb_per_op(process: pd.DataFrame, start: float, end: float, ops: float, counter: str) -> float:
    """KB the driver process itself read or wrote on storage per op, from its task I/O accounting
    (driver_process.csv `read_bytes` / `write_bytes`, /proc/<pid>/io: bytes fetched from the device on a
    page-cache miss, and bytes of pages it dirtied for writeback):

        (counter(end) − counter(start)) / 1024 / ops

    with the cumulative counter interpolated at the window bounds as process_cpu_us_per_op does.
    Unlike iostat it counts no other process's I/O on a shared device (it does not see I/O a server
    process does for the driver: embedded engines only). NaN with fewer than 2 samples, no such
    column, or no ops."""
    if len(process) < 2 or not ops or counter not in process:
        return float("nan")
    p = process.sort_values("t_unix_s")
    t = p["t_unix_s"].to_numpy(float)
    cum = p[counter].to_numpy(float)
    return (_interp(t, cum, end) - _interp(t, cum, start)) / 1024 / ops


def per_n(x_per_op: float, n: float) -> float:
    """x per N operations = x_per_op × N (e.g. per 200k inserts: N = 200,000; per request of a
    batch of documents: N = batch)."""
    return float(x_per_op) * n


def gib(nbytes) -> float:
    """GB as the source documents print it: bytes / 2^30."""
    return float(nbytes) / 2 ** 30 if nbytes is not None else float("nan")


def max_rss_gb(process: pd.DataFrame, start: float | None = None, end: float | None = None) -> float:
    """Max RSS (GB = bytes/2^30) over the process samples, optionally only those in [start, end]
    (ibench takes the largest `ps` RSS sample)."""
    p = process
    if start is not None:
        p = p[(p["t_unix_s"] >= start) & (p["t_unix_s"] <= end)]
    return gib(p["rss_bytes"].max()) if len(p) else float("nan")


def process_cs_per_op(process: pd.DataFrame, start: float, end: float, ops: float) -> float:
    """Context switches of the driver process (all its threads: the engine's too) per op, from its
    samples (driver_process.csv ctx_voluntary + ctx_involuntary, psutil's num_ctx_switches):

        (cs(end) − cs(start)) / ops

    interpolated at the window bounds as process_cpu_us_per_op does. Unlike vmstat's cs it counts no
    other process's switches. NaN with fewer than 2 samples, no such columns, or no ops."""
    if len(process) < 2 or not ops or not {"ctx_voluntary", "ctx_involuntary"} <= set(process):
        return float("nan")
    p = process.sort_values("t_unix_s")
    t = p["t_unix_s"].to_numpy(float)
    cum = (p["ctx_voluntary"] + p["ctx_involuntary"]).to_numpy(float)
    return (_interp(t, cum, end) - _interp(t, cum, start)) / ops
