"""The iibench workload (driver/src/workloads/iibench/): its registry entry."""

from ...normalize.units import DOCUMENT
from ..spec import Workload

WORKLOAD = Workload("iibench", DOCUMENT, "insert", "insert", ("op", "200k", "batch"), None,
                    ("per_insert", "per_200k", "rum"),
                    "The insert benchmark (iibench) inserts documents with secondary indexes whose keys "
                    "arrive in random order: a B-tree reads and writes a random leaf per index entry once "
                    "its indexes outgrow the cache, an LSM tree defers that work to merges.",
                    "iibench.ipynb",
                    cite=("iibench", "source-003"))
