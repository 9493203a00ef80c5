"""Aligning 1-second capture samples with the client window [start, end] (unix seconds).

Convention: a sample stamped t (iostat -t / vmstat -t print the time the sample was taken,
truncated to the second) covers the interval (t - interval_s, t]. A sample is kept when the
midpoint of its interval, t - interval_s/2, lies in [start, end): the sample is mostly inside the
window. Samples before the clients started (setup) and after they ended (post-processing) are
dropped — the source documents' scripts averaged them in."""

import numpy as np
import pandas as pd


def _unix(frame) -> np.ndarray:
    ts = frame["timestamp"]
    if ts.isna().any():
        raise ValueError("the capture has samples without timestamps (no -t): it cannot be "
                         "aligned with the client window")
    return ts.dt.as_unit("ns").astype("int64").to_numpy() / 1e9


def trim_to_window(frame: pd.DataFrame, start: float, end: float,
                   interval_s: float = 1.0) -> pd.DataFrame:
    """Rows whose interval (t - interval_s, t] has its midpoint in [start, end)."""
    if end <= start:
        raise ValueError(f"empty client window [{start}, {end}]")
    t = _unix(frame)
    mid = t - interval_s / 2
    keep = (mid >= start) & (mid < end)
    return frame.loc[keep].reset_index(drop=True)


def coverage(frame: pd.DataFrame, start: float, end: float, interval_s: float = 1.0) -> float:
    """Fraction of [start, end] covered by the union of the sample intervals (t - interval_s, t]
    of ``frame`` (trimmed or not): 1.0 when the capture spans the whole window without gaps,
    less when it started late, stopped early or lost samples. 0.0 for an empty frame.

        coverage = |[start, end] ∩ ∪ (t_i - interval_s, t_i]| / (end - start)"""
    if end <= start:
        raise ValueError(f"empty client window [{start}, {end}]")
    if len(frame) == 0:
        return 0.0
    t = np.unique(_unix(frame))
    lo = np.clip(t - interval_s, start, end)
    hi = np.clip(t, start, end)
    # union of sorted intervals: each one starts no earlier than the previous end
    prev_hi = np.concatenate([[start], np.maximum.accumulate(hi)[:-1]])
    covered = np.clip(hi - np.maximum(lo, prev_hi), 0, None).sum()
    return float(covered / (end - start))


def missed_seconds(frame: pd.DataFrame, start: float, end: float, interval_s: float = 1.0) -> float:
    """Seconds of the window that the capture misses beyond its inherent partial edges.

    A capture prints a sample per interval_s on its own grid, which the window's bounds do not
    follow: trim_to_window drops a sample whose interval is mostly outside the window, so up to
    half an interval at the start (the first partial second) and at the end of the window is
    never covered, whatever the capture. What counts is the window's interior, one interval in
    from each bound:

        missed = (1 − coverage(frame, start + interval_s, end − interval_s)) × (end − start − 2·interval_s)

    0 when the interior is empty (a window of at most 2 intervals), except that a frame without
    any sample misses the whole window (end − start). > 0 means the capture started late,
    stopped early or lost a sample inside the window."""
    if end <= start:
        raise ValueError(f"empty client window [{start}, {end}]")
    if len(frame) == 0:
        return float(end - start)
    lo, hi = start + interval_s, end - interval_s
    if hi <= lo:
        return 0.0
    return float((1 - coverage(frame, lo, hi, interval_s)) * (hi - lo))
