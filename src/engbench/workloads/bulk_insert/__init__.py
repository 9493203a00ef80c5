"""The bulk-insert workload (driver/src/workloads/bulk_insert/): its registry entry."""

from ...registry.spec import Workload
from ...registry.units import DOCUMENT

WORKLOAD = Workload("bulk-insert", DOCUMENT, "insert", "insert", ("op", "batch"), None, ("per_insert", "rum"),
                    "Bulk insert loads small documents in unordered batches; the journal (log/WAL) and "
                    "block compression knobs change how many bytes each document costs on disk.",
                    "bulk_insert.ipynb",
                    cite=("source-002",),
                    engine_stats=("log",),
                    # seconds: its 24 reproduction runs of 2026-11-27 (12M ObjectId documents: 14.0 min, ~35 s each)
                    reproduction=("bulk-insert", "002", "repro_bulk_insert_"), seconds_per_run=35)
