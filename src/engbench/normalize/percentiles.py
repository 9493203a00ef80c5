"""Latency percentiles from bucketed histograms, and throughput percentiles over 1-s intervals."""

import math

import numpy as np
import pandas as pd

LATENCY_PCTS = (50, 95, 99, 99.9)


def pct_key(p) -> str:
    """The one spelling of a percentile, as the driver's summary.json latency_us writes it:
    p50, p99, p999 (99.9). "p99.9" is only ever a display label."""
    return "p" + f"{p:g}".replace(".", "")
THROUGHPUT_PCTS = (50, 75, 90, 95, 99)


def latency_percentiles(hist: pd.DataFrame, pcts=LATENCY_PCTS, exact_max: float | None = None) -> dict:
    """p-th percentile latency of ONE op from its histogram buckets (columns lo_us, hi_us, count;
    a bucket holds whole-µs latencies lo_us ≤ x < hi_us).

    Nearest rank: rank = ceil(p/100 × n) (at least 1); the value is the INCLUSIVE UPPER BOUND
    (hi_us − 1) of the first bucket, in ascending order, whose cumulative count reaches rank —
    like LinkBench's "p99 = [lo,hi]ms", of which the source documents' tables print the upper bound — capped
    at `exact_max` when the exact maximum is known. This is the driver's own convention
    (summary.json latency_us), so both agree. The bucket bounds make this an over-estimate by at
    most one bucket width (≥ 2 significant digits in the driver). ``max`` is the inclusive upper
    bound of the highest non-empty bucket (or `exact_max`). Keys: p50, p95, p99, p999, max,
    count. All NaN when the histogram is empty."""
    h = hist[hist["count"] > 0].sort_values("hi_us")
    n = int(h["count"].sum())
    out = {"count": n}
    if n == 0:
        out.update({pct_key(p): float("nan") for p in pcts})
        out["max"] = float("nan")
        return out
    cum = h["count"].cumsum().to_numpy()
    hi = h["hi_us"].to_numpy(float) - 1
    if exact_max is not None and not math.isnan(exact_max) and exact_max > 0:
        hi = np.minimum(hi, exact_max)
    for p in pcts:
        rank = max(1, math.ceil(p / 100 * n - 1e-9))
        out[pct_key(p)] = float(hi[np.searchsorted(cum, rank, side="left")])
    out["max"] = float(hi[-1])
    return out


def throughput_percentiles(rates, pcts=THROUGHPUT_PCTS, min_intervals: int = 10) -> dict:
    """Throughput percentiles over per-interval rates (the insert benchmark's "p50/p99" columns —
    a stall indicator, not latency): sort the rates in DESCENDING order and take the value at
    1-based rank round(x/100 × n) (at least 1): the rate that x% of intervals met or exceeded.
    NaN for every x when there are fewer than ``min_intervals`` intervals. Keys: p50 ... p99."""
    r = np.sort(np.asarray(rates, dtype=float))[::-1]
    n = len(r)
    if n < min_intervals:
        return {f"p{x:g}": float("nan") for x in pcts}
    # round half up, as awk's printf-free int(x + 0.5) in np.sh
    return {f"p{x:g}": float(r[max(1, int(x / 100 * n + 0.5)) - 1]) for x in pcts}


def partial_intervals(seconds, report_interval_s: float = 1.0) -> np.ndarray:
    """True for each interval shorter than half the report interval:

        partial = (t_end − t_start) < report_interval_s / 2

    The driver's last interval ends with the run and is often a few ms long (1000 documents in
    0.012 s read as 80k/s); such an interval's rate is noise, so it is kept in the intervals
    table but left out of the throughput percentiles and the rate-over-time charts."""
    s = np.asarray(seconds, dtype=float)
    return s < (report_interval_s or 1.0) / 2
