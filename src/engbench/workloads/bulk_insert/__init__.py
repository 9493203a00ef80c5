"""The bulk-insert workload (driver/src/workloads/bulk_insert/): its registry entry."""

from ...registry.spec import Workload
from ...registry.units import DOCUMENT

WORKLOAD = Workload("bulk-insert", DOCUMENT, "insert", "insert", ("op", "batch"), None, ("per_insert", "rum"),
                    "Bulk insert loads small documents in unordered batches; the journal (log/WAL) and "
                    "block compression knobs change how many bytes each document costs on disk.",
                    "bulk_insert.ipynb",
                    cite=("source-002",),
                    engine_stats=("log",),
                    # seconds: issue 26's trials of its experiment files (2M ObjectId documents: 8-14 s)
                    reproduction=("bulk-insert", "002", "repro_bulk_insert_"), seconds_per_run=40)
