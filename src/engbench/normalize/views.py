"""The processed `runs` table shown in the source documents' columns and units."""

import pandas as pd

# (printed header, runs column) per table kind
IIBENCH = [("ips", "q"), ("wKB/i", "wkb_per_op"), ("Mcpu/i", "mcpu_per_op"),
           ("size", "size_gb"), ("rss", "rss_gb")]
IIBENCH_200K = [("vm.cs", "cs_per_200k"), ("vm.us+sy", "mcpu_per_op"),
                ("io.kBw", "wkb_per_200k"), ("io.kBr", "rkb_per_200k"), ("io.r", "r_per_200k")]
IIBENCH_BATCH = [("vm.cs", "cs_per_batch"), ("vm.us+sy", "mcpu_per_op"),
                 ("io.kBw", "wkb_per_batch"), ("io.kBr", "rkb_per_batch"), ("io.r", "r_per_batch")]
TXN = [("tps", "q"), ("r/t", "r_per_op"), ("rKB/t", "rkb_per_op"), ("wKB/t", "wkb_per_op"),
       ("Mcpu/t", "mcpu_per_op"), ("size", "size_gb"), ("rss", "rss_gb")]


def _view(runs, cols):
    out = pd.DataFrame({"run_id": runs["run_id"], "engine": runs["engine"]})
    for head, col in cols:
        out[head] = runs[col] if col in runs else float("nan")
    return out


def source_views(runs: pd.DataFrame) -> dict:
    """{title: frame} — iibench runs as the iibench tables (ips, wKB/i, Mcpu/i, size, rss; per
    200k inserts: vm.cs, vm.us+sy (= Mcpu/i, the documents' "(us+sy) x 1M normalized"), io.kBw,
    io.kBr, io.r; and the same per request of `batch` documents, the basis whose magnitudes the
    published per-200k table matches), other workloads as the per-transaction tables."""
    out = {}
    item = runs[runs["op_unit"] == "item"]
    other = runs[runs["op_unit"] != "item"]
    if len(item):
        out["per insert (document)"] = _view(item, IIBENCH)
        out["per 200k inserts"] = _view(item, IIBENCH_200K)
        out["per request of `batch` inserts"] = _view(item, IIBENCH_BATCH)
    if len(other):
        out["per transaction (request)"] = _view(other, TXN)
    return out


def format_view(frame: pd.DataFrame) -> str:
    return frame.to_string(index=False, float_format=lambda x: f"{x:.4g}")
