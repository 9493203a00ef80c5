"""Device and CPU costs over one time window (the client window of a run, one step of a
sysbench sweep, a load phase): the iostat rows of the data device and the vmstat rows trimmed
to the window (windows.trim_to_window), their means, and those means per operation."""

from __future__ import annotations

import numpy as np

from .perop import mcpu_per_op, rate, rate_per_op
from .windows import coverage, missed_seconds, trim_to_window

IOSTAT = ("r", "rkb", "w", "wkb", "d", "dkb")


def window_costs(io, vm, start: float, end: float, ops: float) -> dict:
    """{n_iostat, n_vmstat, coverage_iostat, coverage_vmstat, coverage, missed_s, q, <x>_per_s (x in
    r, rkb, w, wkb, d, dkb: iostat means), cs_per_s, us_sy (vmstat means), <x>_per_op,
    cs_per_op, mcpu_per_op} over [start, end] with ``ops`` operations completed in it:

        q = ops / (end − start);  x/op = mean(x/s over the window) / q;  Mcpu/op = mean(us+sy) × 1e6 / q

    missed_s = the larger of windows.missed_seconds of the two captures: > 0 when a capture misses
    part of the window beyond its partial edge seconds.
    An empty or inverted window (a step that did not run) gives NaN everywhere and coverage 0."""
    nan = float("nan")
    out = {"n_iostat": 0, "n_vmstat": 0, "coverage_iostat": 0.0, "coverage_vmstat": 0.0, "coverage": 0.0,
           "missed_s": nan}
    if start is None or end is None or not end > start:
        out["q"] = nan
        for k in IOSTAT:
            out[f"{k}_per_s"] = out[f"{k}_per_op"] = nan
        out.update(cs_per_s=nan, us_sy=nan, cs_per_op=nan, mcpu_per_op=nan)
        return out
    io_w, vm_w = trim_to_window(io, start, end), trim_to_window(vm, start, end)
    cov_io, cov_vm = coverage(io_w, start, end), coverage(vm_w, start, end)
    q = rate(ops, end - start)
    out.update(n_iostat=len(io_w), n_vmstat=len(vm_w), coverage_iostat=cov_io,
               coverage_vmstat=cov_vm, coverage=min(cov_io, cov_vm), q=q,
               missed_s=max(missed_seconds(io_w, start, end), missed_seconds(vm_w, start, end)))
    for k in IOSTAT:
        out[f"{k}_per_s"] = float(io_w[f"{k}_per_s"].mean()) if len(io_w) else np.nan
        out[f"{k}_per_op"] = rate_per_op(out[f"{k}_per_s"], q)
    out["cs_per_s"] = float(vm_w["cs"].mean()) if len(vm_w) else np.nan
    out["us_sy"] = float((vm_w["us"] + vm_w["sy"]).mean()) if len(vm_w) else np.nan
    out["cs_per_op"] = rate_per_op(out["cs_per_s"], q)
    out["mcpu_per_op"] = mcpu_per_op(out["us_sy"], q)
    return out
