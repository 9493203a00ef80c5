"""The ycsb workload (driver/src/workloads/ycsb/): its registry entry and what it writes
(read back on the server targets, engbench.run.readback)."""

from ...registry.spec import Workload, op_items
from ...registry.units import REQUEST


def written(params: dict, summary: dict) -> dict:
    """<table>: the load's records, plus the run phase's inserts."""
    load, totals = summary.get("load") or {}, summary.get("totals") or {}
    records = load.get("records")
    return {str(params.get("table", "usertable")):
            int(records) + op_items(totals, "insert") if records is not None else None}


# read, update, insert, scan, read_modify_write repeat "request" (one per YCSB operation)
WORKLOAD = Workload("ycsb", REQUEST, "request", "operation", ("op",), ("request",), ("per_request", "rum"),
                    "YCSB's core workloads A–F load usertable (records of ten 100-byte fields under hashed "
                    "keys), then run a mix of point reads, updates, inserts, short range scans and "
                    "read-modify-writes over zipfian, latest or uniform keys. Read amplification is device "
                    "KB read per logical KB the reads and scans returned; reads per point read is device "
                    "reads per YCSB read.",
                    "ycsb.ipynb", point_read_op="read",
                    cite=("ycsb",),
                    written=written,
                    engine_stats=("read",), inserting_ops=("insert", "read_modify_write"),
                    # not a source document's group: the read side of RUM (YCSB A, C, E;
                    # notebooks/rum_tradeoffs.ipynb), alias "rum"; seconds: its 45 reproduction runs of
                    # 2026-11-27 (20 s measured: 27.2 min, ~36 s each)
                    reproduction=("ycsb-rum", "rum", "repro_ycsb_rum_"), seconds_per_run=36,
                    ycsb_format=True,
                    column_families=lambda p: 2,  # usertable and its _id index (ycsb/store_kv.cc)
                    # issue 29 ("one name, one meaning"): `workload` also named the benchmark
                    renamed=(("workload", "letter"), ("requestdistribution", "workload", "letter")))
