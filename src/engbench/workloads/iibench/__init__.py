"""The iibench workload (driver/src/workloads/iibench/): its registry entry and what it writes
(read back on the server targets, engbench.run.readback)."""

from ...registry.spec import Workload
from ...registry.units import DOCUMENT


def written(params: dict, summary: dict) -> dict:
    """<collection>: the summary's documents_inserted."""
    n = summary.get("documents_inserted")
    return {str(params.get("collection", "purchases_index")): int(n) if n is not None else None}


WORKLOAD = Workload("iibench", DOCUMENT, "insert", "insert", ("op", "200k", "batch"), None,
                    ("per_insert", "per_200k", "rum"),
                    "The insert benchmark (iibench) inserts documents with secondary indexes whose keys "
                    "arrive in random order: a B-tree reads and writes a random leaf per index entry once "
                    "its indexes outgrow the cache, an LSM tree defers that work to merges.",
                    "iibench.ipynb",
                    cite=("iibench", "source-003"),
                    written=written,
                    reproduction=("iibench", "003", "repro_iibench_"), seconds_per_run=28,
                    main_job="iibench_main.yaml",
                    # its table and each secondary index, plus the _id index unless id_index is off
                    column_families=lambda p: 1 + int(p.get("num_secondary_indexes", 3))
                    + int(bool(p.get("id_index", True))))
