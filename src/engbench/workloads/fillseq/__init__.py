"""The fillseq workload (driver/src/workloads/fillseq/): its registry entry."""

from ...registry.spec import Workload
from ...registry.units import DOCUMENT

WORKLOAD = Workload("fillseq", DOCUMENT, None, "insert", ("op", "200k", "batch"), None,
                    ("per_insert", "per_200k", "rum"),
                    "fillseq inserts keys in ascending order: the cheapest case for every engine.",
                    "fillseq.ipynb")
