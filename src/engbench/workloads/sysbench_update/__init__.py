"""The sysbench-update workload (driver/src/workloads/sysbench_update/): its registry entry and what it writes
(read back on the server targets, engbench.run.readback)."""

from ...registry.spec import Workload
from ...registry.units import TRANSACTION


def written(params: dict, summary: dict) -> dict:
    """<collection>1 … <collection><tables>: table_size rows each."""
    prefix, size = str(params.get("collection", "sbtest")), params.get("table_size")
    return {f"{prefix}{t}": int(size) if size is not None else None for t in range(1, int(params.get("tables", 1)) + 1)}


# update.c<N> repeat the updates of "update" per step
WORKLOAD = Workload("sysbench-update", TRANSACTION, "update", "update", ("op",), ("update",), ("per_txn", "rum"),
                    "sysbench update_non_index/update_index updates rows picked at random by primary key, "
                    "at a rising number of clients (one step per client count); disk reads per update is "
                    "iostat r/s over a step's window divided by its updates per second.",
                    "sysbench_update.ipynb",
                    cite=("sysbench", "source-001"),
                    written=written,
                    # seconds: the quiet reproduction of 2026-11-26, 100-128 s a run (LMDB 107-109, SQLite
                    # 120-128, RocksDB 100, ~110 since its table grew from 1.8M to 3.2M rows)
                    reproduction=("sysbench-update", "001", "repro_sysbench_update_"), seconds_per_run=115,
                    column_families=lambda p: 2 * int(p.get("tables", 1)))  # each table and its k index
