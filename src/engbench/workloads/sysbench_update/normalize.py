"""sysbench-update's own rows (docs/driver.md, "Workload-specific outputs"): one per step of its
concurrency sweep, from the summary's steps and the parsed captures (engbench.tables reads them
through engbench.registry.hook: step_rows; engbench.workloads.middle lists it)."""

from __future__ import annotations

import math

from ...normalize.costs import window_costs
from ...normalize.perop import mcpu_per_op, rate_per_op
from . import WORKLOAD


def step_rows(steps: list, io, vm) -> list[dict]:
    """One row per sysbench-update step: step (name), clients, its window, seconds, requests,
    q (tps), ran, and window_costs over [start_unix_s, end_unix_s] with ops = the step's requests,
    in the runs table's spelling (q, r_per_op, ...; an op is one update, a transaction):

        q = tps = requests / seconds (the driver's requests_per_s);  r_per_op = r/t = mean(iostat r/s) / tps

    — the source document's "disk reads per update" — and likewise rkb_per_op, wkb_per_op,
    cs_per_op, and mcpu_per_op = Mcpu/t = mean(vmstat us+sy) × 1e6 / tps."""
    rows = []
    for s in steps or []:
        start, end = s.get("start_unix_s"), s.get("end_unix_s")
        seconds = s.get("seconds")
        if seconds is None and start is not None and end is not None:
            seconds = end - start
        requests = int(s.get("requests") or 0)
        tps = s.get("requests_per_s")
        if tps is None:
            tps = requests / seconds if seconds else math.nan
        c = window_costs(io, vm, start, end, requests)
        c_tps = float(tps)
        per = {k: rate_per_op(c[f"{k}_per_s"], c_tps) for k in ("r", "rkb", "wkb", "cs")}
        rows.append({
            "step": s.get("name"), "clients": int(s.get("clients") or 0),
            "start_unix_s": start, "end_unix_s": end, "seconds": seconds, "requests": requests,
            "q": c_tps, "ran": bool(s.get("ran", True)),
            "n_iostat": c["n_iostat"], "n_vmstat": c["n_vmstat"], "coverage_iostat": c["coverage_iostat"],
            "coverage_vmstat": c["coverage_vmstat"], "coverage": c["coverage"], "missed_s": c["missed_s"],
            "r_per_s": c["r_per_s"], "rkb_per_s": c["rkb_per_s"], "wkb_per_s": c["wkb_per_s"],
            "cs_per_s": c["cs_per_s"], "us_sy": c["us_sy"],
            "r_per_op": per["r"], "rkb_per_op": per["rkb"], "wkb_per_op": per["wkb"],
            "mcpu_per_op": mcpu_per_op(c["us_sy"], c_tps), "cs_per_op": per["cs"]})
    return rows


FORMULAS = [(f"{WORKLOAD.name} steps", step_rows)]
