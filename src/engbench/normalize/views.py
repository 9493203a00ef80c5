"""The processed `runs` table shown in the source documents' columns and units. Which views a
run gets follows its workload's operation unit (engbench.registry): documents get the iibench
tables (per insert, per 200k inserts, per request of `batch` documents), transactions the
per-transaction table (tps, r/t, rKB/t, wKB/t, Mcpu/t), requests the same per request."""

import pandas as pd

from ..registry import units

# (printed header, runs column) per table kind
# (the source documents' iibench tables: per insert, per 200k inserts; and per request of `batch`)
PER_INSERT = [("ips", "q"), ("wKB/i", "wkb_per_op"), ("Mcpu/i", "mcpu_per_op"),
              ("size", "table_gb"), ("rss", "rss_gb")]  # size: data + index (not the log)
PER_200K = [("vm.cs", "cs_per_200k"), ("vm.us+sy", "mcpu_per_op"),
            ("io.kBw", "wkb_per_200k"), ("io.kBr", "rkb_per_200k"), ("io.r", "r_per_200k")]
PER_BATCH = [("vm.cs", "cs_per_batch"), ("vm.us+sy", "mcpu_per_op"),
             ("io.kBw", "wkb_per_batch"), ("io.kBr", "rkb_per_batch"), ("io.r", "r_per_batch")]


def per_op_columns(unit: units.Unit) -> list:
    """The per-transaction table's columns for ``unit``: rate (tps, rps), r/x, rKB/x, wKB/x,
    Mcpu/x with x the unit's short name (t, req), size (data + index: table_gb), rss."""
    s = unit.short
    return [(unit.rate, "q"), (f"r/{s}", "r_per_op"), (f"rKB/{s}", "rkb_per_op"),
            (f"wKB/{s}", "wkb_per_op"), (f"Mcpu/{s}", "mcpu_per_op"), ("size", "table_gb"),
            ("rss", "rss_gb")]


TXN = per_op_columns(units.TRANSACTION)
REQ = per_op_columns(units.REQUEST)
# kind → (title, columns); the report's tables (engbench.report.comparison_tables) use the same kinds
KINDS = {"per_insert": ("per insert (document)", PER_INSERT), "per_200k": ("per 200k inserts", PER_200K),
         "per_batch": ("per request of `batch` inserts", PER_BATCH),
         "per_txn": ("per transaction", TXN), "per_request": ("per request", REQ)}
UNIT_VIEWS = {"document": ("per_insert", "per_200k", "per_batch"), "transaction": ("per_txn",),
              "request": ("per_request",)}


def _view(runs, cols):
    out = pd.DataFrame({"run_id": runs["run_id"], "engine": runs["engine"]})
    for head, col in cols:
        out[head] = runs[col] if col in runs else float("nan")
    return out


def source_views(runs: pd.DataFrame) -> dict:
    """{title: frame} — the runs of each operation unit (runs.op_unit) in that unit's views:
    documents as the iibench tables (ips, wKB/i, Mcpu/i, size, rss; per 200k inserts: vm.cs,
    vm.us+sy (= Mcpu/i, the documents' "(us+sy) x 1M normalized"), io.kBw, io.kBr, io.r; and the
    same per request of `batch` documents, the basis whose magnitudes the published per-200k
    table matches), transactions and requests as the per-transaction table."""
    out = {}
    for unit, kinds in UNIT_VIEWS.items():
        sub = runs[runs["op_unit"] == unit]
        if len(sub):
            for kind in kinds:
                title, cols = KINDS[kind]
                out[title] = _view(sub, cols)
    return out


def format_view(frame: pd.DataFrame) -> str:
    return frame.to_string(index=False, float_format=lambda x: f"{x:.4g}")
